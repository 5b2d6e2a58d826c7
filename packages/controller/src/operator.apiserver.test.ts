/**
 * The operator against the real API server, running as a ServiceAccount bound to a ClusterRole made from
 * OPERATOR_CLUSTER_ROLE_RULES (so a missing rule fails here). One story, in order: two teams' monitors and
 * rules, one of each broken; a Prometheus spec broken and fixed; a monitor deleted; shards scaled up and down;
 * the operator stopped. There is no kubelet, so pods never become ready: Available stays False.
 */
import { AppsV1Api, CoreV1Api, CustomObjectsApi, EventsV1Api, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, sharedTestEnv, toolPath, eventually, sleep } from '@promop/testkit';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { Operator } from './operator.ts';
import { operatorIdentity } from './test-support/operator-identity.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;
const TEAM_A = `team-a-${id}`;
const TEAM_B = `team-b-${id}`;
const SECRET_VALUE = `hunter2-${id}`;
const INSTANCE_LABEL = { 'promop.test/instance': id };

let admin: KubeConfig;
let core: CoreV1Api;
let apps: AppsV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;
const logLines: string[] = [];

const crd = (plural: string, namespace: string) => ({ group: GROUP, version: VERSION, plural, namespace });
type Status = { conditions?: { type: string; status: string; reason?: string; message?: string; observedGeneration?: number }[] };
type Bound = { metadata: { generation?: number }; status?: { acceptedBy?: number; rejectedBy?: number; bindings?: { name: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] }[] } };

const readPrometheus = async () => (await custom.getNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'main' })) as { metadata: { generation: number; uid: string }; status?: Status & { shards?: number } };
const condition = (status: Status | undefined, type: string) => status?.conditions?.find((c) => c.type === type);
const readMonitor = async (namespace: string, name: string) => (await custom.getNamespacedCustomObject({ ...crd(PLURALS.ServiceMonitor, namespace), name })) as Bound;
const readRule = async (namespace: string, name: string) => (await custom.getNamespacedCustomObject({ ...crd(PLURALS.PrometheusRule, namespace), name })) as Bound;
const accepted = (resource: Bound) => resource.status?.bindings?.find((b) => b.name === 'main')?.conditions?.find((c) => c.type === 'Accepted');
const configText = (secret: V1Secret) => Buffer.from(secret.data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8');
const readConfig = (name = 'prometheus-main') => core.readNamespacedSecret({ namespace: MONITORING, name });

async function createNamespace(name: string, labels: Record<string, string> = {}): Promise<void> {
  await core.createNamespace({ body: { metadata: { name, labels } } });
}

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  apps = admin.makeApiClient(AppsV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  await createNamespace(OPERATOR_NS);
  await createNamespace(MONITORING);
  await createNamespace(TEAM_A, { 'promop.test/scraped-by': id });
  await createNamespace(TEAM_B, { 'promop.test/scraped-by': id });
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-${id}`);

  const teamSelector = { matchLabels: { 'promop.test/scraped-by': id } };
  await core.createNamespacedSecret({ namespace: TEAM_A, body: { metadata: { name: 'api-auth' }, stringData: { user: 'scraper', password: SECRET_VALUE } } });
  await untilServed(() => custom.createNamespacedCustomObject({
    ...crd(PLURALS.Prometheus, MONITORING),
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', labels: INSTANCE_LABEL },
      spec: { replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: teamSelector, ruleSelector: {}, ruleNamespaceSelector: teamSelector },
    },
  }));
  const serviceMonitor = (namespace: string, name: string, endpoint: object) => custom.createNamespacedCustomObject({
    ...crd(PLURALS.ServiceMonitor, namespace),
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name }, spec: { selector: { matchLabels: { app: name } }, endpoints: [endpoint] } },
  });
  await serviceMonitor(TEAM_A, 'api', { port: 'web', basicAuth: { username: { name: 'api-auth', key: 'user' }, password: { name: 'api-auth', key: 'password' } } });
  await serviceMonitor(TEAM_B, 'broken', { port: 'web', relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_name'], regex: '(unclosed', targetLabel: 'pod', action: 'replace' }] });
  const rule = (namespace: string, name: string, expr: string) => custom.createNamespacedCustomObject({
    ...crd(PLURALS.PrometheusRule, namespace),
    body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'PrometheusRule', metadata: { name }, spec: { groups: [{ name: 'g', rules: [{ alert: 'Down', expr }] }] } },
  });
  await rule(TEAM_A, 'good-rules', 'up == 0');
  await rule(TEAM_B, 'broken-rules', 'sum by (job');

  const log = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  operator = new Operator({ kubeConfig: kc, log, prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`, workers: 2 });
  await operator.start();
}, 60_000);

afterAll(async () => {
  await operator?.stop();
});

describe('a Prometheus selecting two teams, one of which wrote a broken ServiceMonitor and a broken rule', () => {
  it('gets a config with the valid monitor only', async () => {
    const secret = await eventually(() => readConfig(), (s) => configText(s).includes(`serviceMonitor/${TEAM_A}/api/0`));
    expect(configText(secret)).toContain(`job_name: serviceMonitor/${TEAM_A}/api/0`);
    expect(configText(secret)).not.toContain(`serviceMonitor/${TEAM_B}/broken`);
  });

  it('follows a change of the Secret the monitor references into the config (Secrets are watched as metadata, read by name)', async () => {
    const rotated = `${SECRET_VALUE}-rotated`;
    await core.replaceNamespacedSecret({ namespace: TEAM_A, name: 'api-auth', body: { metadata: { name: 'api-auth' }, stringData: { user: 'scraper', password: rotated } } });
    const secret = await eventually(() => readConfig(), (s) => configText(s).includes(rotated));
    expect(configText(secret)).toContain(`password: ${rotated}`);
  });

  it('gets a rule ConfigMap with the valid rule file only', async () => {
    const configMap = await eventually(
      () => core.readNamespacedConfigMap({ namespace: MONITORING, name: 'prometheus-main-rulefiles-0' }),
      (c) => Object.keys(c.data ?? {}).some((file) => file.includes('good-rules')),
    );
    const files = Object.keys(configMap.data ?? {});
    expect(files.filter((file) => file.includes('good-rules'))).toHaveLength(1);
    expect(files.filter((file) => file.includes('broken-rules'))).toEqual([]);
  });

  it('gets a StatefulSet and the governing Service, owned by the Prometheus', async () => {
    const { metadata: { uid } } = await readPrometheus();
    const statefulSet = await eventually(() => apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'prometheus-main' }), () => true);
    expect(statefulSet.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'Prometheus', name: 'main', uid, controller: true })]);
    const service = await core.readNamespacedService({ namespace: MONITORING, name: 'prometheus-operated' });
    expect(service.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'Prometheus', name: 'main', uid })]);
  });

  it('reports Reconciled=True, and Available=False because no pod is ready (there is no kubelet)', async () => {
    const prometheus = await eventually(readPrometheus, (p) => condition(p.status, 'Reconciled')?.status === 'True');
    expect(condition(prometheus.status, 'Reconciled')).toMatchObject({ status: 'True', observedGeneration: prometheus.metadata.generation });
    expect(condition(prometheus.status, 'Available')).toMatchObject({ status: 'False', reason: 'NoPodReady' });
    expect(prometheus.status).toMatchObject({ shards: 1, availableReplicas: 0, selector: 'app.kubernetes.io/managed-by=promop,operator.prometheus.io/name=main' });
  });

  it('marks the broken ServiceMonitor not accepted, naming the field, and the valid one accepted', async () => {
    const broken = await eventually(() => readMonitor(TEAM_B, 'broken'), (m) => accepted(m)?.status === 'False');
    expect(accepted(broken)).toMatchObject({ status: 'False', reason: 'InvalidConfiguration' });
    expect(accepted(broken)?.message).toContain('spec.endpoints[0].relabelings[0].regex');
    expect(broken.status).toMatchObject({ acceptedBy: 0, rejectedBy: 1 });
    const good = await eventually(() => readMonitor(TEAM_A, 'api'), (m) => accepted(m)?.status === 'True');
    expect(good.status).toMatchObject({ acceptedBy: 1, rejectedBy: 0 });
  });

  it('marks the rule with broken PromQL not accepted, naming the expression', async () => {
    const broken = await eventually(() => readRule(TEAM_B, 'broken-rules'), (r) => accepted(r)?.status === 'False');
    expect(accepted(broken)?.message).toMatch(/spec\.groups\[0\]\.rules\[0\]\.expr: syntax error/);
    expect((await readRule(TEAM_A, 'good-rules')).status).toMatchObject({ acceptedBy: 1, rejectedBy: 0 });
  });

  it('writes one Warning Event with reason InvalidConfiguration for the broken ServiceMonitor', async () => {
    const events = admin.makeApiClient(EventsV1Api);
    const list = async () => (await events.listNamespacedEvent({ namespace: TEAM_B })).items
      .filter((e) => e.regarding?.kind === 'ServiceMonitor' && e.regarding.name === 'broken');
    const found = await eventually(list, (items) => items.length > 0);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'Warning', reason: 'InvalidConfiguration', reportingController: 'promop', related: expect.objectContaining({ kind: 'Prometheus', name: 'main' }) });
    expect(found[0]?.note).toContain('spec.endpoints[0].relabelings[0].regex');
  });

  it('shows the bindings in the Accepted/Rejected columns of kubectl get smon', async () => {
    const get = async (namespace: string) => (await promisify(execFile)(toolPath('kubectl'), [
      '--kubeconfig', sharedTestEnv().kubeconfigPath, 'get', 'smon', '-n', namespace, '--no-headers', '-o', 'custom-columns=NAME:.metadata.name', // name only first: proves the short name
    ])).stdout;
    expect((await get(TEAM_A)).trim()).toBe('api');
    const table = async (namespace: string) => (await promisify(execFile)(toolPath('kubectl'), ['--kubeconfig', sharedTestEnv().kubeconfigPath, 'get', 'smon', '-n', namespace])).stdout;
    const a = (await table(TEAM_A)).split('\n');
    const b = (await table(TEAM_B)).split('\n');
    expect(a[0]).toMatch(/^NAME\s+ACCEPTED\s+REJECTED\s+AGE/);
    expect(a[1]).toMatch(/^api\s+1\s+0\s+/);
    expect(b[1]).toMatch(/^broken\s+0\s+1\s+/);
  });
});

describe('a Prometheus whose spec breaks and is fixed again', () => {
  it('keeps the running config and says which field is wrong while remoteWrite references a missing Secret', async () => {
    const before = await readConfig();
    const patched = (await custom.patchNamespacedCustomObject(
      { ...crd(PLURALS.Prometheus, MONITORING), name: 'main', body: [{ op: 'add', path: '/spec/remoteWrite', value: [{ url: 'https://rw.example.com/api/v1/write', basicAuth: { username: { name: 'rw-auth', key: 'user' }, password: { name: 'rw-auth', key: 'password' } } }] }] },
    )) as { metadata: { generation: number } };
    const prometheus = await eventually(readPrometheus, (p) => condition(p.status, 'Reconciled')?.observedGeneration === patched.metadata.generation);
    expect(condition(prometheus.status, 'Reconciled')).toMatchObject({ status: 'False', reason: 'ReconciliationFailed' });
    expect(condition(prometheus.status, 'Reconciled')?.message).toContain('spec.remoteWrite[0].basicAuth');
    const after = await readConfig();
    expect(after.metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    expect(configText(after)).toBe(configText(before));
  });

  it('is reconciled again once the Secret exists, with the remote write in its config', async () => {
    await core.createNamespacedSecret({ namespace: MONITORING, body: { metadata: { name: 'rw-auth' }, stringData: { user: 'writer', password: SECRET_VALUE } } });
    const prometheus = await eventually(readPrometheus, (p) => condition(p.status, 'Reconciled')?.status === 'True');
    expect(condition(prometheus.status, 'Reconciled')?.status).toBe('True');
    expect(configText(await readConfig())).toContain('https://rw.example.com/api/v1/write');
  });
});

describe('a Prometheus with an invalid toleration the API server refuses in the StatefulSet', () => {
  const setTolerations = (value: object[]) => custom.patchNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'main', body: [{ op: 'add', path: '/spec/tolerations', value }] }) as Promise<{ metadata: { generation: number } }>;

  it("reports the API server's message naming the field, and recovers once it is fixed", async () => {
    const broken = await setTolerations([{ operator: 'Sometimes' }]);
    const failed = await eventually(readPrometheus, (p) => condition(p.status, 'Reconciled')?.observedGeneration === broken.metadata.generation);
    expect(condition(failed.status, 'Reconciled')).toMatchObject({ status: 'False', reason: 'ReconciliationFailed' });
    expect(condition(failed.status, 'Reconciled')?.message).toMatch(/^StatefulSet prometheus-main: .*spec\.template\.spec\.tolerations\[0\]\.operator: Unsupported value: "Sometimes"/);
    const fixed = await setTolerations([{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }]);
    const reconciled = await eventually(readPrometheus, (p) => condition(p.status, 'Reconciled')?.observedGeneration === fixed.metadata.generation);
    expect(condition(reconciled.status, 'Reconciled')?.status).toBe('True');
    const statefulSet = await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'prometheus-main' });
    expect(statefulSet.spec?.template.spec?.tolerations).toEqual([{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }]);
  });
});

describe('a paused Prometheus', () => {
  const setPaused = (paused: boolean) => custom.patchNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'main', body: [{ op: 'add', path: '/spec/paused', value: paused }] });

  it('keeps its config while paused, says so in status, and picks up what changed once resumed', async () => {
    await setPaused(true);
    expect((await eventually(readPrometheus, (p) => (p.status as { paused?: boolean } | undefined)?.paused === true)).status).toMatchObject({ paused: true });
    const before = await readConfig();
    await custom.createNamespacedCustomObject({
      ...crd(PLURALS.ServiceMonitor, TEAM_A),
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name: 'late' }, spec: { selector: {}, endpoints: [{ port: 'web' }] } },
    });
    // Nothing to wait for when nothing happens: give the operator two seconds to (wrongly) act.
    await sleep(2_000);
    expect((await readConfig()).metadata?.resourceVersion).toBe(before.metadata?.resourceVersion);
    await setPaused(false);
    const resumed = await eventually(() => readConfig(), (s) => configText(s).includes(`serviceMonitor/${TEAM_A}/late/0`));
    expect(configText(resumed)).toContain(`serviceMonitor/${TEAM_A}/late/0`);
  });
});

describe('a deleted ServiceMonitor', () => {
  it('disappears from the config', async () => {
    await custom.deleteNamespacedCustomObject({ ...crd(PLURALS.ServiceMonitor, TEAM_A), name: 'api' });
    const secret = await eventually(() => readConfig(), (s) => !configText(s).includes(`serviceMonitor/${TEAM_A}/api/0`));
    expect(configText(secret)).not.toContain(`serviceMonitor/${TEAM_A}/api/0`);
  });
});

describe('scaling shards 1 → 2 → 1', () => {
  const shardObjects = async () => ({
    statefulSets: (await apps.listNamespacedStatefulSet({ namespace: MONITORING })).items.map((s) => s.metadata?.name).sort(),
    secrets: (await core.listNamespacedSecret({ namespace: MONITORING, labelSelector: 'operator.prometheus.io/shard' })).items.map((s) => s.metadata?.name).sort(),
  });
  const setShards = (shards: number) => custom.patchNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'main', body: [{ op: 'add', path: '/spec/shards', value: shards }] });

  it('adds the StatefulSet and config Secret of shard 1, then deletes them', async () => {
    await setShards(2);
    const two = ['prometheus-main', 'prometheus-main-shard-1'];
    expect(await eventually(shardObjects, (o) => o.statefulSets.join() === two.join() && o.secrets.join() === two.join())).toEqual({ statefulSets: two, secrets: two });
    await setShards(1);
    const one = ['prometheus-main'];
    expect(await eventually(shardObjects, (o) => o.statefulSets.join() === one.join() && o.secrets.join() === one.join(), 60_000)).toEqual({ statefulSets: one, secrets: one });
    const prometheus = await eventually(readPrometheus, (p) => p.status?.shards === 1);
    expect(prometheus.status?.shards).toBe(1);
  }, 90_000);
});

describe('the operator', () => {
  it('never logged a Secret value', () => {
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.filter((line) => line.includes(SECRET_VALUE))).toEqual([]);
  });

  it('wrote no second Warning for the broken ServiceMonitor across every reconcile since', async () => {
    const events = (await admin.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace: TEAM_B })).items
      .filter((e) => e.regarding?.name === 'broken' && e.reason === 'InvalidConfiguration');
    expect(events).toHaveLength(1);
  });

  it('leaves the StatefulSet and Secrets in place when stopped', async () => {
    await operator?.stop();
    operator = undefined;
    await sleep(1_000);
    await expect(apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'prometheus-main' })).resolves.toBeDefined();
    await expect(readConfig()).resolves.toBeDefined();
    await expect(core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main-tls-assets-0' })).resolves.toBeDefined();
  });
});
