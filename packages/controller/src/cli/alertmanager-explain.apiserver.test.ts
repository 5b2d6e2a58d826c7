/**
 * `promop explain alertmanagerconfig|alertmanager` against the real API server, run as users run it (the command in
 * a child process, with a kubeconfig). No operator runs: explain judges with the generator alone, from what it
 * reads. Other suites' Alertmanagers share the cluster, so each test looks at this suite's Alertmanager and checks
 * the exit status against the outcome over all of them.
 */
import { randomBytes } from 'node:crypto';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS } from '@promop/crds';
import { applyCrds, sharedTestEnv, untilServed } from '@promop/testkit';
import { load } from 'js-yaml';
import type { AlertmanagerConfigExplanation, AlertmanagerExplanation } from './alertmanager-explanation.ts';
import { runPromop } from '../test-support/promop-cli.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `am-monitoring-${id}`;
const TEAM = `am-team-${id}`;
const OUTSIDER = `am-outsider-${id}`;
const ALERTING = { 'promop.test/alerting-by': id };
/** A credential in the base configuration and in a team's Secret: no output may hold it. */
const MARKER = `secret-marker-${id}`;
const EXIT = { accepted: 0, rejected: 3, 'not-judged': 3, 'not-selected': 4 } as const;

let core: CoreV1Api;
let custom: CustomObjectsApi;

const promop = runPromop;

const createObject = (kind: 'Alertmanager' | 'AlertmanagerConfig', namespace: string, name: string, spec: object) => custom.createNamespacedCustomObject({
  group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace,
  body: { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, metadata: { name }, spec },
});

const ofOurs = (explanation: AlertmanagerConfigExplanation) => explanation.alertmanagers.find((judgement) => judgement.alertmanager.namespace === MONITORING && judgement.alertmanager.name === 'main');

beforeAll(async () => {
  const admin: KubeConfig = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const [name, labels] of [[MONITORING, {}], [TEAM, ALERTING], [OUTSIDER, {}]] as const) await core.createNamespace({ body: { metadata: { name, labels } } });
  await core.createNamespacedSecret({
    namespace: MONITORING,
    body: { metadata: { name: 'alertmanager-main' }, stringData: { 'alertmanager.yaml': `route:\n  receiver: platform\nreceivers:\n- name: platform\n  webhook_configs:\n  - url: http://hooks.example/${MARKER}\n` } },
  });
  await core.createNamespacedSecret({ namespace: TEAM, body: { metadata: { name: 'hook' }, stringData: { url: `http://hooks.example/team/${MARKER}` } } });
  await untilServed(() => createObject('Alertmanager', MONITORING, 'main', { replicas: 1, alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: { matchLabels: ALERTING } }));
  await createObject('AlertmanagerConfig', TEAM, 'oncall', {
    route: { receiver: 'pager' },
    receivers: [{ name: 'pager', webhookConfigs: [{ urlSecret: { name: 'hook', key: 'url' } }] }],
  });
  await createObject('AlertmanagerConfig', TEAM, 'broken', { route: { receiver: 'nobody' }, receivers: [{ name: 'somebody' }] });
  await createObject('AlertmanagerConfig', OUTSIDER, 'lost', { route: { receiver: 'pager' }, receivers: [{ name: 'pager' }] });
  // An Alertmanager whose configSecret lacks the key: its own configuration is refused.
  await core.createNamespacedSecret({ namespace: MONITORING, body: { metadata: { name: 'keyless-config' }, stringData: { 'other.yaml': MARKER } } });
  await createObject('Alertmanager', MONITORING, 'keyless', { configSecret: 'keyless-config', alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: { matchLabels: ALERTING } });
}, 90_000);

afterAll(async () => {
  for (const name of [MONITORING, TEAM, OUTSIDER]) await core.deleteNamespace({ name }).catch(() => {});
});

describe('promop explain of an AlertmanagerConfig the Alertmanager accepts', () => {
  it('says selected and accepted, and never prints a Secret value', async () => {
    const result = await promop(['explain', 'alertmanagerconfig', '-n', TEAM, 'oncall', '-o', 'json']);
    const explanation = JSON.parse(result.stdout) as AlertmanagerConfigExplanation;
    expect(ofOurs(explanation)).toEqual({ alertmanager: { namespace: MONITORING, name: 'main' }, selected: true, accepted: true, warnings: [] });
    expect(result.code).toBe(EXIT[explanation.outcome]);
    const text = await promop(['explain', 'amcfg/oncall', '-n', TEAM]);
    expect(text.stdout).toContain(`AlertmanagerConfig ${TEAM}/oncall`);
    expect(text.stdout).toContain(`Alertmanager ${MONITORING}/main: selected, accepted`);
    // The other Alertmanager of this suite selects it too, but cannot use its own configuration: it still judges it.
    expect(text.stdout).toContain(`Alertmanager ${MONITORING}/keyless: selected, accepted\n  the Alertmanager cannot use its own configuration (spec.configSecret: Secret keyless-config has no key alertmanager.yaml); its pods keep running the last one`);
    for (const output of [result, text, await promop(['explain', 'amcfg', '-n', TEAM, 'oncall', '-o', 'yaml'])]) expect(output.stdout + output.stderr).not.toContain(MARKER);
  });
});

describe('promop explain of an AlertmanagerConfig the Alertmanager rejects', () => {
  it('gives the field path and the reason, and exits 3', async () => {
    const result = await promop(['explain', 'alertmanagerconfig', '-n', TEAM, 'broken', '-o', 'json']);
    expect(result.code).toBe(3);
    expect(ofOurs(JSON.parse(result.stdout) as AlertmanagerConfigExplanation)).toMatchObject({
      selected: true, accepted: false, problems: [{ path: 'spec.route.receiver', message: 'no receiver named "nobody" in spec.receivers' }],
    });
    const text = await promop(['explain', 'alertmanagerconfig', '-n', TEAM, 'broken']);
    expect(text.stdout).toContain(`Alertmanager ${MONITORING}/main: selected, REJECTED\n  spec.route.receiver: no receiver named "nobody" in spec.receivers`);
  });
});

describe('promop explain of an AlertmanagerConfig in a namespace the Alertmanager does not select', () => {
  it('names the namespace selector and the requirement that fails', async () => {
    const result = await promop(['explain', 'alertmanagerconfig', '-n', OUTSIDER, 'lost', '-o', 'json']);
    const explanation = JSON.parse(result.stdout) as AlertmanagerConfigExplanation;
    expect(explanation.namespaceLabels).toEqual({ 'kubernetes.io/metadata.name': OUTSIDER });
    expect(ofOurs(explanation)).toMatchObject({ selected: false });
    expect(ofOurs(explanation)?.reason).toContain('alertmanagerConfigNamespaceSelector');
    expect(ofOurs(explanation)?.reason).toContain('label promop.test/alerting-by is missing');
    expect(result.code).toBe(EXIT[explanation.outcome]);
    const text = await promop(['explain', 'amcfg', '-n', OUTSIDER, 'lost']);
    expect(text.stdout).toContain(`Alertmanager ${MONITORING}/main: not selected\n  `);
  });
});

describe('promop explain of an Alertmanager', () => {
  it('lists its candidates: selected, accepted, rejected with the reason, not selected', async () => {
    const result = await promop(['explain', 'alertmanager', '-n', MONITORING, 'main', '-o', 'yaml']);
    expect(result.code).toBe(0);
    const explanation = load(result.stdout) as AlertmanagerExplanation;
    expect(explanation).toMatchObject({ kind: 'Alertmanager', namespace: MONITORING, name: 'main', configSecret: { name: 'alertmanager-main', state: 'present' } });
    expect(explanation.problem).toBeUndefined();
    const mine = explanation.alertmanagerConfigs.resources.filter((resource) => [TEAM, OUTSIDER].includes(resource.namespace));
    expect(mine.map((resource) => [`${resource.namespace}/${resource.name}`, resource.state]).sort()).toEqual([
      [`${OUTSIDER}/lost`, 'not-selected'],
      [`${TEAM}/broken`, 'rejected'],
      [`${TEAM}/oncall`, 'accepted'],
    ]);
    const text = await promop(['explain', 'am/main', '-n', MONITORING]);
    expect(text.stdout).toMatch(new RegExp(`^Alertmanager ${MONITORING}/main \\(version \\(default\\), 1 replica\\)\\n  configSecret: alertmanager-main \\(read\\)`));
    expect(text.stdout).toMatch(new RegExp(`REJECTED +${TEAM}/broken +spec\\.route\\.receiver: no receiver named "nobody" in spec\\.receivers`));
    expect(text.stdout + result.stdout).not.toContain(MARKER);
  });

  it('says why its own configuration is refused, and exits 3', async () => {
    const result = await promop(['explain', 'alertmanager', '-n', MONITORING, 'keyless']);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('  problem: spec.configSecret: Secret keyless-config has no key alertmanager.yaml (promop keeps the running configuration)');
    // Neither selection nor a team's own faults depend on the base configuration: every candidate is still judged.
    expect(result.stdout).toMatch(new RegExp(`accepted +${TEAM}/oncall\n`));
    expect(result.stdout).toMatch(new RegExp(`REJECTED +${TEAM}/broken +spec\.route\.receiver: no receiver named "nobody"`));
    expect(result.stdout).toMatch(new RegExp(`not selected +${OUTSIDER}/lost +Alertmanager ${MONITORING}/keyless's alertmanagerConfigNamespaceSelector`));
    expect(result.stdout).not.toContain(MARKER);
  });

  it('exits 1 naming an Alertmanager that does not exist', async () => {
    expect(await promop(['explain', 'alertmanager', '-n', MONITORING, 'missing'])).toMatchObject({ code: 1, stderr: `promop explain: alertmanager "missing" not found in namespace "${MONITORING}"\n` });
  });
});
