/**
 * Probes against the real API server, with the operator running as the ServiceAccount its ClusterRole rules give
 * (so a missing rule for probes fails here): a Prometheus selecting Probes by label and namespace gets their jobs
 * in its config Secret, with basic auth read from the Probe's own namespace; a bad Probe is rejected alone, with
 * the field path in its status binding and one Warning Event; changes to a Probe and to its namespace's labels
 * reach the config; a deleted Probe leaves it.
 */
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { REPO_ROOT, sharedTestEnv, eventually } from '@promop/testkit';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bindingCondition, configTextOf, OperatorWorld, type BoundResource } from './test-support/operator-world.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `probe-monitoring-${id}`;
const TEAM_A = `probe-team-a-${id}`;
const TEAM_B = `probe-team-b-${id}`;
const LATER = `probe-team-later-${id}`;
const SECRET_VALUE = `probe-pass-${id}`;
const SCRAPED = { 'promop.test/probed-by': id };
const MAIN = { namespace: MONITORING, name: 'main' };

let world: OperatorWorld;

const crd = (namespace: string) => ({ group: GROUP, version: VERSION, plural: PLURALS.Probe, namespace });
const readProbe = (namespace: string, name: string) => world.readObject('Probe', namespace, name);
const accepted = (probe: BoundResource) => bindingCondition(probe, MAIN);
const readConfig = () => world.core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main' });

const staticProbe = (targets: string[]) => ({
  prober: { url: 'blackbox.monitoring.svc:9115' },
  module: 'http_2xx',
  targets: { staticConfig: { static: targets } },
  basicAuth: { username: { name: 'prober-auth', key: 'user' }, password: { name: 'prober-auth', key: 'password' } },
});

const createProbe = (namespace: string, name: string, spec: object, labels: Record<string, string> = { probe: 'yes' }) => world.createObject('Probe', namespace, name, spec, labels);

beforeAll(async () => {
  world = await OperatorWorld.create({
    operatorNamespace: `promop-probe-system-${id}`, identity: `promop-${id}`,
    namespaces: { [MONITORING]: {}, [TEAM_A]: SCRAPED, [TEAM_B]: SCRAPED, [LATER]: {} },
  });
  await world.createSecret(TEAM_A, 'prober-auth', { user: 'prober', password: SECRET_VALUE });
  await world.createObject('Prometheus', MONITORING, 'main', {
    replicas: 1, probeSelector: { matchLabels: { probe: 'yes' } }, probeNamespaceSelector: { matchLabels: SCRAPED },
  }, { 'promop.test/instance': id });
  await createProbe(TEAM_A, 'website', staticProbe(['https://example.com']));
  await createProbe(TEAM_B, 'ingresses', { prober: { url: 'blackbox.monitoring.svc:9115', scheme: 'https' }, targets: { ingress: { selector: { matchLabels: { public: 'true' } } } } });
  await createProbe(TEAM_B, 'broken', { prober: { url: 'http://blackbox:9115' }, targets: { staticConfig: { static: ['https://example.org'] } } });
  await createProbe(TEAM_B, 'unlabelled', { prober: { url: 'blackbox:9115' }, targets: { staticConfig: { static: ['https://example.net'] } } }, {});
  await world.startOperator({ prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}` });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe('a Prometheus selecting Probes by label in labelled namespaces', () => {
  it('gets a job per valid Probe in its config Secret, with the basic auth read from the Probe namespace', async () => {
    const secret = await eventually(readConfig, (s) => configTextOf(s).includes(`probe/${TEAM_B}/ingresses`));
    const text = configTextOf(secret);
    expect(text).toContain(`job_name: probe/${TEAM_A}/website`);
    expect(text).toContain(`job_name: probe/${TEAM_B}/ingresses`);
    expect(text).toContain('- role: ingress');
    expect(text).toContain(`password: ${SECRET_VALUE}`);
    expect(text).not.toContain(`probe/${TEAM_B}/broken`);
    expect(text).not.toContain(`probe/${TEAM_B}/unlabelled`);
  });

  it('marks the bad Probe not accepted, naming the field, and the valid ones accepted', async () => {
    const broken = await eventually(() => readProbe(TEAM_B, 'broken'), (p) => accepted(p)?.status === 'False');
    expect(accepted(broken)).toMatchObject({ status: 'False', reason: 'InvalidConfiguration' });
    expect(accepted(broken)?.message).toContain('spec.prober.url');
    expect(broken.status).toMatchObject({ acceptedBy: 0, rejectedBy: 1 });
    const good = await eventually(() => readProbe(TEAM_A, 'website'), (p) => accepted(p)?.status === 'True');
    expect(good.status).toMatchObject({ acceptedBy: 1, rejectedBy: 0 });
    expect((await readProbe(TEAM_B, 'unlabelled')).status?.bindings ?? []).toEqual([]);
  });

  it('writes one Warning Event with reason InvalidConfiguration for the bad Probe, without the Secret value', async () => {
    const found = await eventually(() => world.warningEvents(TEAM_B, 'Probe', 'broken'), (items) => items.length > 0);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'Warning', reason: 'InvalidConfiguration', related: expect.objectContaining({ kind: 'Prometheus', name: 'main' }) });
    expect(found[0]?.note).toContain('spec.prober.url');
    expect(world.logLines.join('\n')).not.toContain(SECRET_VALUE);
  });

  it('is explained by promop explain probe: rejected, with the path, exit status 3', async () => {
    const bin = join(REPO_ROOT, 'packages', 'controller', 'bin', 'promop.js');
    const run = async (args: string[]) => {
      try {
        const { stdout } = await promisify(execFile)(process.execPath, [bin, ...args, '--kubeconfig', sharedTestEnv().kubeconfigPath], { cwd: REPO_ROOT, env: { ...process.env, NODE_OPTIONS: '' } });
        return { code: 0, stdout };
      } catch (error) {
        const failed = error as { code?: unknown; stdout?: string };
        if (typeof failed.code !== 'number') throw error;
        return { code: failed.code, stdout: failed.stdout ?? '' };
      }
    };
    const broken = await run(['explain', 'prb', '-n', TEAM_B, 'broken', '-o', 'json']);
    const judgement = (JSON.parse(broken.stdout) as { prometheuses: { prometheus: { namespace: string; name: string }; verdict?: { reason?: string } }[] }).prometheuses
      .find((j) => j.prometheus.namespace === MONITORING && j.prometheus.name === 'main');
    expect(broken.code).toBe(3);
    expect(JSON.stringify(judgement)).toContain('spec.prober.url');
    const good = await run(['explain', 'probe/website', '-n', TEAM_A]);
    expect(good.stdout).toContain(`probe/${TEAM_A}/website`);
  }, 60_000);

  it('follows a change of a Probe into the config', async () => {
    await world.custom.patchNamespacedCustomObject(
      { ...crd(TEAM_A), name: 'website', body: [{ op: 'replace', path: '/spec/targets/staticConfig/static', value: ['https://example.com', 'https://status.example.com'] }] },
    );
    const secret = await eventually(readConfig, (s) => configTextOf(s).includes('https://status.example.com'));
    expect(configTextOf(secret)).toContain('https://status.example.com');
  });

  it('picks up a Probe once its namespace gets the selected label, and drops a deleted Probe', async () => {
    await createProbe(LATER, 'late', { prober: { url: 'blackbox:9115' }, targets: { staticConfig: { static: ['https://late.example'] } } });
    await world.core.patchNamespace({ name: LATER, body: [{ op: 'add', path: '/metadata/labels', value: SCRAPED }] });
    await eventually(readConfig, (s) => configTextOf(s).includes(`probe/${LATER}/late`));
    await world.custom.deleteNamespacedCustomObject({ ...crd(TEAM_B), name: 'ingresses' });
    const secret = await eventually(readConfig, (s) => !configTextOf(s).includes(`probe/${TEAM_B}/ingresses`));
    expect(configTextOf(secret)).toContain(`probe/${LATER}/late`);
    expect(configTextOf(secret)).not.toContain(`probe/${TEAM_B}/ingresses`);
  });
});
