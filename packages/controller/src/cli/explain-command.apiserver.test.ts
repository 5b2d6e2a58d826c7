/**
 * `promop explain` against the real API server, run as users run it (the command in a child process, with a
 * kubeconfig). The operator runs in-process for this suite's Prometheus only, so the bindings and the configuration
 * hash in status are the real operator's, not written by the test. There is no kubelet, so no pod ever loads the
 * configuration: the test then writes a loaded replica into the Prometheus' status (as the reloader does once it has
 * verified a pod) with the operator stopped, and explain must say "loaded", having checked the hash.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed } from '@promop/testkit';
import { sharedTestEnv } from '@promop/testkit';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { eventually } from '@promop/testkit';
import { operatorIdentity } from '../test-support/operator-identity.ts';
import type { PrometheusExplanation, ResourceExplanation } from './explanation.ts';
import { runPromop } from '../test-support/promop-cli.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;
const TEAM = `team-${id}`;
const UNLABELLED = `unlabelled-${id}`;
const EDGE = `edge-${id}`;
const SCRAPED = { 'promop.test/scraped-by': id };
const SCRAPED_BY_AGENT = { 'promop.test/agent-scraped-by': id };

let admin: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;
let dir: string;

const crd = (plural: string, namespace: string) => ({ group: GROUP, version: VERSION, plural, namespace });

/** Runs the command as a user does; a non-zero exit is a result, not an error. */
const promop = runPromop;

/** The judgement of this suite's Prometheus (other suites' Prometheus objects share the cluster). */
const ofMain = (explanation: ResourceExplanation) => explanation.prometheuses.find((judgement) => judgement.prometheus.kind === 'Prometheus' && judgement.prometheus.namespace === MONITORING && judgement.prometheus.name === 'main');

const serviceMonitor = (namespace: string, name: string, endpoint: object) => custom.createNamespacedCustomObject({
  ...crd(PLURALS.ServiceMonitor, namespace),
  body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name, labels: { app: name } }, spec: { selector: { matchLabels: { app: name } }, endpoints: [endpoint] } },
});

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  dir = mkdtempSync(join(tmpdir(), 'promop-explain-'));
  await applyCrds(admin);
  for (const [name, labels] of [[OPERATOR_NS, {}], [MONITORING, {}], [TEAM, SCRAPED], [UNLABELLED, {}], [EDGE, SCRAPED_BY_AGENT]] as const) {
    await core.createNamespace({ body: { metadata: { name, labels } } });
  }
  await untilServed(() => custom.createNamespacedCustomObject({
    ...crd(PLURALS.Prometheus, MONITORING),
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', labels: { 'promop.test/instance': id } },
      spec: { replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: { matchLabels: SCRAPED }, ruleSelector: {}, ruleNamespaceSelector: { matchLabels: SCRAPED } },
    },
  }));
  await serviceMonitor(TEAM, 'good', { port: 'web' });
  await serviceMonitor(TEAM, 'bad', { port: 'web', relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_name'], regex: '(?!internal).*', targetLabel: 'pod', action: 'replace' }] });
  await serviceMonitor(UNLABELLED, 'lost', { port: 'web' });
  // An agent that scrapes a namespace no Prometheus of this suite selects.
  await custom.createNamespacedCustomObject({
    group: GROUP, version: API_VERSIONS.PrometheusAgent, plural: PLURALS.PrometheusAgent, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${API_VERSIONS.PrometheusAgent}`, kind: 'PrometheusAgent', metadata: { name: 'edge', labels: { 'promop.test/instance': id } },
      spec: { serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: { matchLabels: SCRAPED_BY_AGENT } },
    },
  });
  await serviceMonitor(EDGE, 'node', { port: 'metrics' });
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-${id}`);
  operator = new Operator({ kubeConfig: kc, log: pino({ level: 'silent' }), prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}` });
  await operator.start();
}, 90_000);

afterAll(async () => {
  await operator?.stop();
  for (const name of [OPERATOR_NS, MONITORING, TEAM, UNLABELLED, EDGE]) await core.deleteNamespace({ name }).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe('promop explain of a ServiceMonitor in a namespace without the label the Prometheus selects', () => {
  it('names the namespace selector and the requirement that fails, with the labels it saw', async () => {
    const result = await promop(['explain', 'servicemonitor', '-n', UNLABELLED, 'lost', '-o', 'json']);
    const explanation = JSON.parse(result.stdout) as ResourceExplanation;
    expect(explanation.namespaceLabels).toEqual({ 'kubernetes.io/metadata.name': UNLABELLED });
    expect(ofMain(explanation)).toEqual({
      prometheus: { kind: 'Prometheus', namespace: MONITORING, name: 'main' },
      selected: false,
      reason: `Prometheus ${MONITORING}/main's serviceMonitorNamespaceSelector (matchLabels promop.test/scraped-by=${id}) does not match namespace "${UNLABELLED}" (labels: kubernetes.io/metadata.name=${UNLABELLED}): label promop.test/scraped-by is missing`,
    });
    // Other suites' Prometheus objects share the cluster; the exit status follows the outcome over all of them.
    expect(result.code).toBe(explanation.outcome === 'not-selected' ? 4 : explanation.outcome === 'rejected' ? 3 : 0);
  });

  it('says the same to a person', async () => {
    const result = await promop(['explain', `smon/lost`, '-n', UNLABELLED]);
    expect(result.stdout).toContain(`Prometheus ${MONITORING}/main: not selected\n  Prometheus ${MONITORING}/main's serviceMonitorNamespaceSelector`);
    expect(result.stdout).toContain('label promop.test/scraped-by is missing');
  });
});

describe('promop explain of a ServiceMonitor the Prometheus rejects', () => {
  it('gives the field path and the reason, and exits 3', async () => {
    const result = await promop(['explain', 'servicemonitor', '-n', TEAM, 'bad', '-o', 'json']);
    expect(result.code).toBe(3);
    const judgement = ofMain(JSON.parse(result.stdout) as ResourceExplanation);
    expect(judgement).toMatchObject({ selected: true, accepted: false });
    expect(judgement?.problems).toEqual([
      { path: 'spec.endpoints[0].relabelings[0].regex', message: 'invalid regex "(?!internal).*": lookahead and lookbehind are not supported (Prometheus uses RE2 syntax)' },
    ]);
    const text = await promop(['explain', 'servicemonitor', '-n', TEAM, 'bad']);
    expect(text.stdout).toContain(`Prometheus ${MONITORING}/main: selected, REJECTED\n  spec.endpoints[0].relabelings[0].regex: invalid regex`);
  });
});

describe('promop explain of a ServiceMonitor the Prometheus accepts', () => {
  it('names its scrape job; not loaded while no pod runs the configuration, loaded once status says a pod does', async () => {
    // The operator's reconcile: the binding, then the configuration hash in status (no pod: no replica loaded).
    await eventually(
      () => custom.getNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'main' }) as Promise<{ status?: { configStatus?: { configHash: string }[] } }>,
      (prometheus) => (prometheus.status?.configStatus?.length ?? 0) > 0,
    );
    const before = await promop(['explain', 'servicemonitor', '-n', TEAM, 'good', '-o', 'json']);
    expect(before.code).toBe(0);
    const judgement = ofMain(JSON.parse(before.stdout) as ResourceExplanation);
    expect(judgement).toMatchObject({ selected: true, accepted: true, scrapeJobs: [`serviceMonitor/${TEAM}/good/0`] });
    expect(judgement?.loaded).toMatchObject({ state: 'not-loaded' });

    // What the reloader writes once it verified a pod; the operator is stopped so it does not write its own view back.
    await operator!.stop();
    operator = undefined;
    const prometheus = (await custom.getNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'main' })) as { status: { configStatus: { shardID: string; configHash: string }[] } };
    const configStatus = prometheus.status.configStatus.map((entry) => ({ shardID: entry.shardID, configHash: entry.configHash, loadedReplicas: ['prometheus-main-0'] }));
    await custom.patchNamespacedCustomObjectStatus(
      { ...crd(PLURALS.Prometheus, MONITORING), name: 'main', body: { status: { configStatus } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const after = await promop(['explain', 'servicemonitor', '-n', TEAM, 'good']);
    expect(after.code).toBe(0);
    expect(after.stdout).toContain(`Prometheus ${MONITORING}/main: selected, accepted\n  scrape jobs: serviceMonitor/${TEAM}/good/0\n  loaded: loaded: loaded by prometheus-main-0 (configuration hash verified)`);

    // The hash is checked: status naming another configuration is not "loaded".
    await custom.patchNamespacedCustomObjectStatus(
      { ...crd(PLURALS.Prometheus, MONITORING), name: 'main', body: { status: { configStatus: configStatus.map((entry) => ({ ...entry, configHash: '0123456789abcdef' })) } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const stale = ofMain(JSON.parse((await promop(['explain', 'servicemonitor', '-n', TEAM, 'good', '-o', 'json'])).stdout) as ResourceExplanation);
    expect(stale?.loaded).toMatchObject({ state: 'changing' });

    // What the health reporter writes into the binding: explain shows it beside the rest.
    type Bound = { status: { bindings: { name: string; conditions: object[] }[] } };
    const monitor = (await custom.getNamespacedCustomObject({ ...crd(PLURALS.ServiceMonitor, TEAM), name: 'good' })) as Bound;
    const bindings = monitor.status.bindings.map((binding) => (binding.name !== 'main' ? binding : {
      ...binding,
      targets: { active: 1, up: 0, down: 1, unknown: 0, lastError: 'connection refused', lastErrorCount: 1 },
      conditions: [...binding.conditions, { type: 'Healthy', status: 'False', reason: 'TargetsDown', message: 'all 1 down (0/1 up); 1 with: connection refused', lastTransitionTime: '2026-12-07T08:00:00Z' }],
    }));
    await custom.patchNamespacedCustomObjectStatus(
      { ...crd(PLURALS.ServiceMonitor, TEAM), name: 'good', body: { status: { bindings } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const health = await promop(['explain', 'servicemonitor', '-n', TEAM, 'good']);
    expect(health.stdout).toContain('\n  health: TargetsDown: all 1 down (0/1 up); 1 with: connection refused (since 2026-12-07T08:00:00Z)\n');
    const healthJson = ofMain(JSON.parse((await promop(['explain', 'servicemonitor', '-n', TEAM, 'good', '-o', 'json'])).stdout) as ResourceExplanation);
    expect(healthJson?.health).toMatchObject({ status: 'False', reason: 'TargetsDown', targets: { active: 1, down: 1 } });
  }, 60_000);
});

describe('promop targets of the namespace', () => {
  it('lists each monitor with what each Prometheus reports of it, and exits 3 when one is down or rejected', async () => {
    // After the steps above: "good" carries a TargetsDown report, "bad" is rejected.
    const result = await promop(['targets', '-n', TEAM]);
    expect(result.code).toBe(3);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^KIND +NAME +PROMETHEUS +HEALTH +UP +MESSAGE$/);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ServiceMonitor +good +${MONITORING}/main +TargetsDown +0/1 +all 1 down \\(0/1 up\\); 1 with: connection refused$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ServiceMonitor +bad +${MONITORING}/main +Rejected +- +.*invalid regex`)));
    const json = await promop(['targets', '-n', TEAM, '-o', 'json']);
    const rows = (JSON.parse(json.stdout) as { rows: { name: string; prometheus: string; health: string; unhealthy: boolean }[] }).rows.filter((row) => row.prometheus === `${MONITORING}/main`);
    expect(rows.map((row) => [row.name, row.health, row.unhealthy])).toEqual([['bad', 'Rejected', true], ['good', 'TargetsDown', true]]);
  });

  it('exits 0 for a namespace with nothing wrong in it', async () => {
    const result = await promop(['targets', '-n', UNLABELLED]);
    expect(result).toMatchObject({ code: 0 });
  });
});

describe('promop explain of a Prometheus', () => {
  it('counts and lists what it accepts, rejects and does not select, per kind', async () => {
    const result = await promop(['explain', 'prometheus', '-n', MONITORING, 'main', '-o', 'yaml']);
    expect(result.code).toBe(0);
    const { load } = await import('js-yaml');
    const explanation = load(result.stdout) as PrometheusExplanation;
    const monitors = explanation.kinds.ServiceMonitor!;
    const mine = monitors.resources.filter((resource) => [TEAM, UNLABELLED].includes(resource.namespace));
    expect(mine.map((resource) => [`${resource.namespace}/${resource.name}`, resource.state]).sort()).toEqual([
      [`${TEAM}/bad`, 'rejected'],
      [`${TEAM}/good`, 'accepted'],
      [`${UNLABELLED}/lost`, 'not-selected'],
    ]);
    expect(monitors.accepted + monitors.rejected).toBe(monitors.selected);
    const text = await promop(['explain', 'prom', '-n', MONITORING, 'main']);
    expect(text.stdout).toMatch(new RegExp(`REJECTED +${TEAM}/bad +spec\\.endpoints\\[0\\]\\.relabelings\\[0\\]\\.regex: invalid regex`));
  });
});

describe('promop explain of a ServiceMonitor only a PrometheusAgent selects', () => {
  it('is selected and accepted by the agent, with its scrape job, and exits 0 (not "selected by none")', async () => {
    const result = await promop(['explain', 'servicemonitor', '-n', EDGE, 'node', '-o', 'json']);
    expect(result.code).toBe(0);
    const explanation = JSON.parse(result.stdout) as ResourceExplanation;
    expect(explanation.outcome).toBe('accepted');
    const agent = explanation.prometheuses.find((judgement) => judgement.prometheus.kind === 'PrometheusAgent' && judgement.prometheus.namespace === MONITORING && judgement.prometheus.name === 'edge');
    expect(agent).toMatchObject({ selected: true, accepted: true, scrapeJobs: [`serviceMonitor/${EDGE}/node/0`] });
    expect(ofMain(explanation)).toMatchObject({ selected: false });
    const text = await promop(['explain', 'smon', '-n', EDGE, 'node']);
    expect(text.stdout).toContain(`PrometheusAgent ${MONITORING}/edge: selected, accepted\n  scrape jobs: serviceMonitor/${EDGE}/node/0`);
    expect(text.stdout).toMatch(/Selected by \d+ of \d+ Prometheus and PrometheusAgent objects/);
  });

  it('explains the agent itself: what it selects, and no PrometheusRules (an agent evaluates none)', async () => {
    const result = await promop(['explain', 'promagent/edge', '-n', MONITORING, '-o', 'json']);
    expect(result.code).toBe(0);
    const explanation = JSON.parse(result.stdout) as PrometheusExplanation;
    expect(explanation).toMatchObject({ kind: 'PrometheusAgent', namespace: MONITORING, name: 'edge' });
    expect(explanation.kinds.PrometheusRule).toBeUndefined();
    expect(explanation.kinds.ServiceMonitor!.resources.filter((resource) => resource.state === 'accepted').map((resource) => `${resource.namespace}/${resource.name}`)).toEqual([`${EDGE}/node`]);
    const text = await promop(['explain', 'prometheusagent', '-n', MONITORING, 'edge']);
    expect(text.stdout).toMatch(new RegExp(`^PrometheusAgent ${MONITORING}/edge \\(`));
  });
});

describe('promop explain with a user who may not list monitors cluster-wide', () => {
  it('exits 1 saying which permission it needs', async () => {
    const kubeconfig = join(dir, 'nobody.kubeconfig');
    const base = readFileSync(sharedTestEnv().kubeconfigPath, 'utf8');
    writeFileSync(kubeconfig, base.replace(/^users:\n- name: admin\n  user:\n/m, `users:\n- name: admin\n  user:\n    as: system:serviceaccount:${TEAM}:nobody\n`));
    const result = await promop(['explain', 'servicemonitor', '-n', TEAM, 'good'], kubeconfig);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`"system:serviceaccount:${TEAM}:nobody" cannot list resource`);
    expect(result.stderr).toContain('it needs list on them cluster-wide');
  });

  it('and exits 1 naming a monitor that does not exist', async () => {
    expect(await promop(['explain', 'servicemonitor', '-n', TEAM, 'missing'])).toMatchObject({ code: 1, stderr: `promop explain: servicemonitor "missing" not found in namespace "${TEAM}"\n` });
  });
});
