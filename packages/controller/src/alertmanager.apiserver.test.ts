/**
 * Alertmanager objects against the real API server, with the operator running as the ServiceAccount its ClusterRole
 * rules give (so a missing rule fails here): kube-prometheus' Alertmanager, as written, gets its configuration Secret
 * (the platform's configSecret, which Alertmanager's own amtool accepts), the governing Service and a StatefulSet of
 * three meshed pods; a new base configuration reaches the Secret without touching the pod template, and a running
 * pod (a real Alertmanager on 127.0.0.1, the kubelet played by the test) loads it without a restart, verified by
 * Alertmanager's own hash of the file; a configSecret that is not YAML
 * is refused with the reason in the status and an Event, never quoting the Secret, and the running configuration
 * stays; an Alertmanager without a configSecret runs one that sends nothing; an Alertmanager the operator's
 * `alertmanagerSelector` (`--alertmanager-instance-selector`) does not match is left alone. Then the teams: an
 * Alertmanager selecting AlertmanagerConfigs routes each team's alerts to that team's receivers (asked of
 * Alertmanager's own routing code, `amtool config routes test`), with credentials read from the team's own
 * namespace only; a broken object is rejected alone, with the reason in its status and an Event.
 */
import { AppsV1Api, type V1StatefulSet } from '@kubernetes/client-node';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { PatchStrategy, setHeaderOptions, type CoreV1Api } from '@kubernetes/client-node';
import { FakeKubelet, REPO_ROOT, eventually, startAlertmanager, toolPath, type AlertmanagerProcess } from '@promop/testkit';
import { load } from 'js-yaml';
import { DEFAULT_ALERTMANAGER_CONFIG } from '@promop/config-generator';
import { alertmanagerSelectorLabels } from './alertmanager/alertmanager-children.ts';
import { alertmanagerConfigHash, configMetrics } from './prometheus-client/index.ts';
import { CONFIG_HASH_ANNOTATION } from './reload/index.ts';
import { INVALID_CONFIGURATION_REASON } from './alertmanager/reconcile-alertmanager.ts';
import { OperatorWorld } from './test-support/operator-world.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `am-monitoring-${id}`;
const TEAM_A = `am-team-a-${id}`;
const TEAM_B = `am-team-b-${id}`;
const TEAMS_LABEL = { 'promop.test/alerting': id };
const SECRET_MARKER = `smtp-password-${id}`;
const INSTANCE = { 'promop.test/instance': id };

const baseConfig = (receiver: string) => [
  'global:',
  `  smtp_auth_password: ${SECRET_MARKER}`,
  '  smtp_smarthost: mail.example:25',
  '  smtp_from: alerts@example.com',
  'route:',
  `  receiver: ${receiver}`,
  '  group_by: [alertname, namespace]',
  'receivers:',
  `- name: ${receiver}`,
  '  webhook_configs:',
  '  - url: http://receiver.example:8080/alerts',
  '',
].join('\n');

/** A base configuration as promop writes it back when the Alertmanager selects AlertmanagerConfigs and none is selected. */
const asMerged = (text: string) => ({ ...(load(text) as object), templates: [] });

let world: OperatorWorld;
let apps: AppsV1Api;
/** The port of each hand-made pod's Alertmanager (the operator's test-only port override). */
/** Where the configurations amtool checks are written; removed after. */
const scratch = mkdtempSync(join(tmpdir(), 'promop-am-'));
const ports = new Map<string, number>();

interface StoredAlertmanager {
  metadata: { generation: number };
  status?: {
    replicas?: number;
    conditions?: { type: string; status: string; reason?: string; message?: string; observedGeneration?: number }[];
    configStatus?: { configHash: string; loadedReplicas?: string[]; pendingReplicas?: { pod: string; reason: string }[] };
  };
}

const reconciled = (alertmanager: StoredAlertmanager) => alertmanager.status?.conditions?.find((condition) => condition.type === 'Reconciled');
const readAlertmanager = (name: string) => world.readObject<StoredAlertmanager>('Alertmanager', MONITORING, name);
const generatedConfig = async (name: string) => {
  const secret = await world.core.readNamespacedSecret({ namespace: MONITORING, name: `alertmanager-${name}-generated` });
  return Buffer.from(secret.data?.['alertmanager.yaml'] ?? '', 'base64').toString('utf8');
};
const statefulSet = (name: string): Promise<V1StatefulSet> => apps.readNamespacedStatefulSet({ namespace: MONITORING, name: `alertmanager-${name}` });
const setBaseConfig = (text: string) => world.core.replaceNamespacedSecret({
  namespace: MONITORING, name: 'alertmanager-main', body: { metadata: { name: 'alertmanager-main' }, stringData: { 'alertmanager.yaml': text } },
});

beforeAll(async () => {
  world = await OperatorWorld.create({
    operatorNamespace: `promop-am-system-${id}`, identity: `promop-am-${id}`,
    namespaces: { [MONITORING]: {}, [TEAM_A]: TEAMS_LABEL, [TEAM_B]: TEAMS_LABEL },
  });
  apps = world.admin.makeApiClient(AppsV1Api);
  await world.createSecret(MONITORING, 'alertmanager-main', { 'alertmanager.yaml': baseConfig('team-a') });
  // kube-prometheus' own Alertmanager, as the corpus has it (only its namespace is this test's).
  const corpus = load(readFileSync(join(REPO_ROOT, '..', 'shared', 'corpus', 'kube-prometheus', 'alertmanager-alertmanager.yaml'), 'utf8')) as { metadata: { name: string; labels: Record<string, string> }; spec: object };
  await world.createObject('Alertmanager', MONITORING, corpus.metadata.name, corpus.spec, { ...corpus.metadata.labels, ...INSTANCE });
  await world.createObject('Alertmanager', MONITORING, 'bare', {}, INSTANCE);
  // Another operator's (it lacks the instance label).
  await world.createObject('Alertmanager', MONITORING, 'foreign', {});
  await world.startOperator({
    alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`,
    podNetworks: ['127.0.0.1/32'], reloadTimeoutMs: 20_000, alertmanagerPortOf: (pod) => ports.get(pod.metadata?.name ?? '') ?? 9093,
  });
}, 60_000);

afterAll(async () => {
  await world?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

test('kube-prometheus\' Alertmanager runs the platform\'s configuration, which amtool accepts, in three meshed pods behind alertmanager-operated', async () => {
  const stored = await eventually(() => readAlertmanager('main'), (alertmanager) => reconciled(alertmanager)?.status === 'True');
  expect(reconciled(stored)).toMatchObject({ status: 'True', reason: 'Reconciled' });
  const config = await generatedConfig('main');
  // It selects AlertmanagerConfigs (of its own namespace: none), so the base is read and written again, as upstream
  // does: the same configuration, with prometheus-operator's always-present templates list.
  expect(load(config)).toEqual(asMerged(baseConfig('team-a')));
  const file = join(scratch, 'main.yaml');
  writeFileSync(file, config);
  const checked = spawnSync(toolPath('amtool'), ['check-config', file], { encoding: 'utf8' });
  expect({ code: checked.status, out: checked.stdout }).toEqual({ code: 0, out: expect.stringContaining('SUCCESS') });

  const pods = await statefulSet('main');
  expect(pods.spec?.replicas).toBe(3);
  expect(pods.spec?.serviceName).toBe('alertmanager-operated');
  const container = pods.spec?.template.spec?.containers.find((each) => each.name === 'alertmanager');
  expect(container?.image).toBe('quay.io/prometheus/alertmanager:v0.33.1');
  expect(container?.args?.filter((arg) => arg.startsWith('--cluster.peer='))).toHaveLength(3);
  expect(pods.spec?.template.spec?.serviceAccountName).toBe('alertmanager-main');
  const service = await world.core.readNamespacedService({ namespace: MONITORING, name: 'alertmanager-operated' });
  expect(service.spec?.ports?.map((port) => `${port.name}/${port.protocol}`)).toEqual(['web/TCP', 'tcp-mesh/TCP', 'udp-mesh/UDP']);
  expect(service.metadata?.ownerReferences?.map((owner) => owner.name).sort()).toEqual(['bare', 'main']);
}, 60_000);

test('an Alertmanager without a configSecret runs a configuration that sends nothing, and says so', async () => {
  const stored = await eventually(() => readAlertmanager('bare'), (alertmanager) => reconciled(alertmanager)?.status === 'True');
  expect(reconciled(stored)?.message).toMatch(/Secret alertmanager-bare does not exist/);
  expect(await generatedConfig('bare')).toBe(DEFAULT_ALERTMANAGER_CONFIG);
  expect((await statefulSet('bare')).spec?.template.spec?.containers[0]?.args).toContain('--cluster.listen-address=');
}, 60_000);

test('a new base configuration reaches the Secret and leaves the pod template alone: promop reloads the pods', async () => {
  const before = (await statefulSet('main')).spec?.template;
  await setBaseConfig(baseConfig('team-b'));
  await eventually(async () => load(await generatedConfig('main')), (config) => isDeepStrictEqual(config, asMerged(baseConfig('team-b'))));
  await eventually(() => readAlertmanager('main'), (alertmanager) => alertmanager.status?.configStatus?.configHash !== undefined);
  expect((await statefulSet('main')).spec?.template).toEqual(before);
}, 60_000);

describe('a running Alertmanager pod, with the kubelet played by the test', () => {
  const POD = `live-replica-${id}`;
  const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
  let dir: string;
  let alertmanager: AlertmanagerProcess;
  let kubelet: FakeKubelet;
  let core: CoreV1Api;
  const live = () => readAlertmanager('live');
  const loadedHash = async () => configMetrics(await (await fetch(`${alertmanager.url}/metrics`)).text()).hash;

  beforeAll(async () => {
    core = world.core;
    dir = mkdtempSync(join(tmpdir(), 'promop-am-live-'));
    const file = join(dir, 'alertmanager.yaml');
    writeFileSync(file, DEFAULT_ALERTMANAGER_CONFIG);
    alertmanager = await startAlertmanager(file);
    ports.set(POD, Number(new URL(alertmanager.url).port));
    await world.createSecret(MONITORING, 'alertmanager-live', { 'alertmanager.yaml': baseConfig('live-one') });
    // A pod of the Alertmanager's (its labels), named without an ordinal so the StatefulSet does not adopt it.
    await eventually(() => core.createNamespacedPod({
      namespace: MONITORING,
      body: { metadata: { name: POD, labels: alertmanagerSelectorLabels('live') }, spec: { automountServiceAccountToken: false, containers: [{ name: 'alertmanager', image: 'quay.io/prometheus/alertmanager:v0.35.0' }] } },
    }), () => true);
    await core.patchNamespacedPodStatus({
      namespace: MONITORING, name: POD,
      body: { status: { phase: 'Running', podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }], conditions: [{ type: 'Ready', status: 'True' }] } },
    }, MERGE_PATCH);
    kubelet = new FakeKubelet({
      core, namespace: MONITORING, pod: POD, configSecret: 'alertmanager-live-generated', configKey: 'alertmanager.yaml', configFile: file, initialConfig: DEFAULT_ALERTMANAGER_CONFIG,
    });
    kubelet.start();
    await world.createObject('Alertmanager', MONITORING, 'live', { replicas: 1 }, INSTANCE);
  }, 60_000);

  afterAll(async () => {
    kubelet?.stop();
    await alertmanager?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('loads the written configuration, verified by Alertmanager\'s own hash of the file, and reports the pod loaded', async () => {
    // Until the StatefulSet controller has created its own pod, the status has no pending one to name.
    const stored = await eventually(live, (each) => (each.status?.configStatus?.loadedReplicas?.includes(POD) ?? false) && each.status?.configStatus?.pendingReplicas !== undefined);
    expect(reconciled(stored)).toMatchObject({ status: 'True' });
    const pod = await core.readNamespacedPod({ namespace: MONITORING, name: POD });
    expect(pod.metadata?.annotations?.[CONFIG_HASH_ANNOTATION]).toBe(stored.status?.configStatus?.configHash);
    expect(await loadedHash()).toBe(alertmanagerConfigHash(await generatedConfig('live')));
    // Published where more people read than can read the Secret, so keyed: not a plain hash of the credentials' text.
    expect(stored.status?.configStatus?.configHash).not.toBe(createHash('sha256').update(await generatedConfig('live')).digest('hex').slice(0, 16));
    // The StatefulSet's own pod has no kubelet here: pending, not a failure.
    expect(stored.status?.configStatus?.pendingReplicas).toEqual([{ pod: 'alertmanager-live-0', reason: 'NotRunning', message: expect.any(String) }]);
  }, 60_000);

  test('a new configuration reaches the running process by a reload, with no change of the pod template', async () => {
    const template = (await statefulSet('live')).spec?.template;
    const before = (await live()).status?.configStatus?.configHash;
    await world.core.replaceNamespacedSecret({
      namespace: MONITORING, name: 'alertmanager-live', body: { metadata: { name: 'alertmanager-live' }, stringData: { 'alertmanager.yaml': baseConfig('live-two') } },
    });
    const stored = await eventually(live, (each) => each.status?.configStatus?.configHash !== before && (each.status?.configStatus?.loadedReplicas?.includes(POD) ?? false));
    expect(await generatedConfig('live')).toContain('live-two');
    expect(await loadedHash()).toBe(alertmanagerConfigHash(await generatedConfig('live')));
    expect(reconciled(stored)).toMatchObject({ status: 'True' });
    expect((await statefulSet('live')).spec?.template).toEqual(template);
  }, 60_000);
});

test('a configSecret that is not YAML is refused with the reason, without quoting it, and the running configuration stays', async () => {
  await setBaseConfig(`route: [${SECRET_MARKER}\n  receiver: {`);
  const stored = await eventually(() => readAlertmanager('main'), (alertmanager) => reconciled(alertmanager)?.reason === INVALID_CONFIGURATION_REASON);
  expect(reconciled(stored)).toMatchObject({ status: 'False' });
  expect(reconciled(stored)?.message).toMatch(/^spec\.configSecret: key alertmanager\.yaml of Secret alertmanager-main is not valid YAML at line \d+, column \d+$/);
  const events = await eventually(() => world.warningEvents(MONITORING, 'Alertmanager', 'main'), (found) => found.some((event) => event.reason === INVALID_CONFIGURATION_REASON));
  expect(JSON.stringify(events)).not.toContain(SECRET_MARKER);
  expect(JSON.stringify(stored)).not.toContain(SECRET_MARKER);
  expect(load(await generatedConfig('main'))).toEqual(asMerged(baseConfig('team-b')));
  expect(world.logLines.join('\n')).not.toContain(SECRET_MARKER);

  // Reconciled again for a change that leaves the refusal as it was: its status follows the new generation, and
  // no second Warning is written (one per refusal, not one per reconcile).
  const refusals = (found: { note?: string }[]) => found.filter((event) => event.note === reconciled(stored)?.message);
  expect(refusals(events)).toHaveLength(1);
  const changed = await world.custom.patchNamespacedCustomObject({
    group: 'monitoring.coreos.com', version: 'v1', plural: 'alertmanagers', namespace: MONITORING, name: 'main',
    body: [{ op: 'add', path: '/spec/logLevel', value: 'warn' }],
  }) as StoredAlertmanager;
  await eventually(() => readAlertmanager('main'), (alertmanager) => reconciled(alertmanager)?.observedGeneration === changed.metadata.generation);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(refusals(await world.warningEvents(MONITORING, 'Alertmanager', 'main'))).toHaveLength(1);
}, 60_000);

test('an Alertmanager the instance selector does not match gets no children and no status', async () => {
  // By now the operator has reconciled the two selected Alertmanagers more than once.
  await eventually(() => readAlertmanager('bare'), (alertmanager) => reconciled(alertmanager)?.status === 'True');
  expect((await readAlertmanager('foreign')).status).toBeUndefined();
  await expect(statefulSet('foreign')).rejects.toThrow();
  await expect(world.core.readNamespacedSecret({ namespace: MONITORING, name: 'alertmanager-foreign-generated' })).rejects.toThrow();
  const service = await world.core.readNamespacedService({ namespace: MONITORING, name: 'alertmanager-operated' });
  expect(service.metadata?.ownerReferences?.map((owner) => owner.name)).not.toContain('foreign');
}, 60_000);

test('spec.alertmanagerConfiguration: the named AlertmanagerConfig makes the configuration, its global section and templates read the Alertmanager\'s namespace, and no configSecret is looked for', async () => {
  const SLACK = `https://hooks.slack.example/services/${id}`;
  const TEMPLATE = `{{ define "slack.title" }}${id} {{ .CommonLabels.alertname }}{{ end }}`;
  await world.createSecret(MONITORING, 'slack', { url: SLACK });
  await world.core.createNamespacedConfigMap({ namespace: MONITORING, body: { metadata: { name: 'notification-templates' }, data: { 'slack.tmpl': TEMPLATE } } });
  await world.createObject('AlertmanagerConfig', MONITORING, 'platform-routing', {
    route: { receiver: 'platform-slack', groupBy: ['alertname'] },
    receivers: [{ name: 'platform-slack', slackConfigs: [{ channel: '#alerts' }] }],
  });
  await world.createObject('Alertmanager', MONITORING, 'toplevel', {
    replicas: 1,
    alertmanagerConfiguration: {
      name: 'platform-routing', global: { slackApiUrl: { name: 'slack', key: 'url' } }, templates: [{ configMap: { name: 'notification-templates', key: 'slack.tmpl' } }],
    },
  }, INSTANCE);
  const stored = await eventually(() => readAlertmanager('toplevel'), (alertmanager) => reconciled(alertmanager)?.status === 'True');
  expect(reconciled(stored)?.message).toBeUndefined();
  const config = load(await generatedConfig('toplevel')) as { global?: Record<string, unknown>; route?: { receiver?: string }; receivers?: { name: string }[]; templates?: string[] };
  expect(config.global?.slack_api_url).toBe(SLACK);
  expect(config.route?.receiver).toBe(`${MONITORING}/platform-routing/platform-slack`);
  // The template is copied into the generated Secret, which the pod also mounts where the configuration names it.
  expect(config.templates).toEqual(['/etc/alertmanager/templates/slack.tmpl']);
  const generated = await world.core.readNamespacedSecret({ namespace: MONITORING, name: 'alertmanager-toplevel-generated' });
  expect(Buffer.from(generated.data?.['slack.tmpl'] ?? '', 'base64').toString('utf8')).toBe(TEMPLATE);
  expect((await statefulSet('toplevel')).spec?.template.spec?.containers[0]?.volumeMounts).toContainEqual({ name: 'config-volume', mountPath: '/etc/alertmanager/templates', readOnly: true });
  const file = join(scratch, 'toplevel.yaml');
  writeFileSync(file, await generatedConfig('toplevel'));
  expect(spawnSync(toolPath('amtool'), ['check-config', file], { encoding: 'utf8' }).status).toBe(0);
}, 60_000);

describe('an Alertmanager selecting the teams\' AlertmanagerConfigs', () => {
  const TEAMS_BASE = 'route:\n  receiver: platform\nreceivers:\n- name: platform\n';
  const HOOK_MARKER = `hook-token-${id}`;
  let text = '';

  beforeAll(async () => {
    await world.createSecret(MONITORING, 'alertmanager-teams', { 'alertmanager.yaml': TEAMS_BASE });
    // Team A's webhook URL is a credential, in a Secret of its namespace; team B names a Secret of team A's.
    await world.createSecret(TEAM_A, 'hook', { url: `http://hooks.example/${HOOK_MARKER}` });
    await world.createObject('AlertmanagerConfig', TEAM_A, 'oncall', {
      route: { receiver: 'pager', groupBy: ['alertname'] },
      receivers: [{ name: 'pager', webhookConfigs: [{ urlSecret: { name: 'hook', key: 'url' } }] }],
    });
    await world.createObject('AlertmanagerConfig', TEAM_B, 'thief', {
      route: { receiver: 'steal' },
      receivers: [{ name: 'steal', webhookConfigs: [{ urlSecret: { name: 'hook', key: 'url' } }] }],
    });
    await world.createObject('AlertmanagerConfig', TEAM_B, 'broken', { route: { receiver: 'nobody' }, receivers: [{ name: 'somebody' }] });
    await world.createObject('Alertmanager', MONITORING, 'teams', {
      replicas: 1, alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: { matchLabels: TEAMS_LABEL },
    }, INSTANCE);
    text = await eventually(() => generatedConfig('teams'), (config) => config.includes(`${TEAM_A}/oncall/pager`));
  }, 60_000);

  const binding = async (namespace: string, name: string) => {
    const stored = await world.readObject<{ status?: { bindings?: { name: string; resource: string; conditions?: { status: string; reason?: string; message?: string }[] }[] } }>('AlertmanagerConfig', namespace, name);
    return stored.status?.bindings?.find((each) => each.resource === 'alertmanagers' && each.name === 'teams')?.conditions?.[0];
  };

  test('routes team A\'s alerts to team A\'s webhook, which Alertmanager\'s own routing code confirms', () => {
    const file = join(scratch, 'teams.yaml');
    writeFileSync(file, text);
    expect(spawnSync(toolPath('amtool'), ['check-config', file], { encoding: 'utf8' }).status).toBe(0);
    const routed = (namespace: string) => spawnSync(toolPath('amtool'), ['config', 'routes', 'test', `--config.file=${file}`, `namespace="${namespace}"`], { encoding: 'utf8' }).stdout.trim();
    expect(routed(TEAM_A)).toBe(`${TEAM_A}/oncall/pager`);
    expect(routed(TEAM_B)).toBe('platform');
    expect(text).toContain(`http://hooks.example/${HOOK_MARKER}`);
  });

  test('says in each object\'s status whether the Alertmanager accepted it, and why not', async () => {
    expect(await eventually(() => binding(TEAM_A, 'oncall'), (condition) => condition?.status === 'True')).toMatchObject({ status: 'True' });
    const broken = await eventually(() => binding(TEAM_B, 'broken'), (condition) => condition?.status === 'False');
    expect(broken).toMatchObject({ reason: 'InvalidConfiguration', message: 'spec.route.receiver: no receiver named "nobody" in spec.receivers' });
    const events = await eventually(() => world.warningEvents(TEAM_B, 'AlertmanagerConfig', 'broken'), (found) => found.length > 0);
    expect(events[0]?.note).toContain('no receiver named "nobody"');
  }, 60_000);

  test('reads a team\'s credentials only from its own namespace: another team naming them is rejected, never handed them', async () => {
    const thief = await eventually(() => binding(TEAM_B, 'thief'), (condition) => condition?.status === 'False');
    expect(thief?.message).toBe(`spec.receivers[0].webhookConfigs[0].urlSecret: Secret "hook" not found in namespace "${TEAM_B}"`);
    expect(text).not.toContain(`${TEAM_B}/thief`);
    expect(JSON.stringify(await world.warningEvents(TEAM_B, 'AlertmanagerConfig', 'thief'))).not.toContain(HOOK_MARKER);
  }, 60_000);

  test('a rotated credential reaches the configuration', async () => {
    await world.core.replaceNamespacedSecret({ namespace: TEAM_A, name: 'hook', body: { metadata: { name: 'hook' }, stringData: { url: `http://hooks.example/rotated-${id}` } } });
    const rotated = await eventually(() => generatedConfig('teams'), (config) => config.includes(`rotated-${id}`));
    expect(rotated).not.toContain(HOOK_MARKER);
  }, 60_000);

  test('a fixed object is merged and its binding turns True', async () => {
    await world.custom.patchNamespacedCustomObject({
      group: 'monitoring.coreos.com', version: 'v1alpha1', plural: 'alertmanagerconfigs', namespace: TEAM_B, name: 'broken',
      body: [{ op: 'replace', path: '/spec/receivers/0/name', value: 'nobody' }],
    });
    expect(await eventually(() => binding(TEAM_B, 'broken'), (condition) => condition?.status === 'True')).toMatchObject({ status: 'True' });
    expect(await eventually(() => generatedConfig('teams'), (config) => config.includes(`${TEAM_B}/broken/nobody`))).toContain(`namespace="${TEAM_B}"`);
  }, 60_000);

  test('refused for clusterTLS, it keeps the teams\' bindings, and judges an object created meanwhile', async () => {
    await world.custom.patchNamespacedCustomObject({
      group: 'monitoring.coreos.com', version: 'v1', plural: 'alertmanagers', namespace: MONITORING, name: 'teams',
      body: [{ op: 'add', path: '/spec/clusterTLS', value: { server: {}, client: {} } }],
    });
    const refused = await eventually(() => readAlertmanager('teams'), (alertmanager) => reconciled(alertmanager)?.status === 'False');
    expect(reconciled(refused)).toMatchObject({ reason: 'InvalidConfiguration', message: expect.stringMatching(/^spec\.clusterTLS\.server\.keySecret: /) });
    // The binding pass that gives the new object its binding is the one that would have removed the others'.
    await world.createObject('AlertmanagerConfig', TEAM_A, 'late', { route: { receiver: 'late' }, receivers: [{ name: 'late' }] });
    expect(await eventually(() => binding(TEAM_A, 'late'), (condition) => condition !== undefined)).toMatchObject({ status: 'True' });
    expect(await binding(TEAM_A, 'oncall')).toMatchObject({ status: 'True' });
    expect(await binding(TEAM_B, 'thief')).toMatchObject({ status: 'False' });
    // The running configuration stays the one written before the refusal.
    expect(await generatedConfig('teams')).not.toContain(`${TEAM_A}/late/late`);
  }, 60_000);
});
