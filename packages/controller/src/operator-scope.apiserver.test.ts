/**
 * Scoping against the real API server (RBAC enforced):
 * - `--namespaces`: the operator runs as the ServiceAccount of the chart rendered with `namespaces` (helm template;
 *   its ServiceAccount, Roles, RoleBindings, ClusterRole and ClusterRoleBinding applied as they are): a Role in each
 *   watched namespace, a Role for the Lease, and a ClusterRole that only lists Nodes. Every list, watch, read and
 *   write it makes must fit in those (a cluster-wide list would be refused with 403 and the caches would never
 *   start), it configures its
 *   Prometheus from the monitors of the watched namespaces, follows a watched Namespace's labels, and never sees a
 *   monitor in another namespace even though that namespace matches the Prometheus' namespace selector.
 * - `--prometheus-instance-selector`: a Prometheus without the instance label, in a watched namespace, is left
 *   untouched: no children, no status, and the binding another operator wrote for it stays in the monitor's status.
 * - `--deny-namespaces`: an operator with the ClusterRole identity ignores the monitors of the denied namespace.
 * - `--secret-label-selector`: a Secret without the label is, to promop, a Secret that does not exist.
 */
import {
  AppsV1Api, AuthorizationV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig, type V1ResourceAttributes, type V1Secret,
} from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, sharedTestEnv, eventually } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { isNotFound } from './kube/index.ts';
import { Operator } from './operator.ts';
import { chartIdentity } from './test-support/chart-identity.ts';
import { operatorIdentity } from './test-support/operator-identity.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-scoped-${id}`;
const MONITORING = `scoped-monitoring-${id}`;
const TEAM_A = `scoped-team-a-${id}`;
const TEAM_B = `scoped-team-b-${id}`;
const SCRAPED_BY = 'promop.test/scraped-by';
const INSTANCE = 'promop.test/instance';
const RELEASE = `promop-${id}`; // contains the chart name: every chart resource is named just RELEASE

let admin: KubeConfig;
let core: CoreV1Api;
let apps: AppsV1Api;
let custom: CustomObjectsApi;
const operators: Operator[] = [];
const logLines: string[] = [];

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const crd = (plural: string, namespace: string) => ({ group: GROUP, version: VERSION, plural, namespace });
type Binding = { name: string; namespace: string; conditions?: { type: string; status: string; reason?: string }[] };
type Monitor = { status?: { bindings?: Binding[]; acceptedBy?: number } };
const readMonitor = async (namespace: string) => (await custom.getNamespacedCustomObject({ ...crd(PLURALS.ServiceMonitor, namespace), name: 'api' })) as Monitor;
const readPrometheus = async (name: string) => (await custom.getNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name })) as { status?: { conditions?: { type: string; status: string }[] } };
const configText = (secret: V1Secret) => Buffer.from(secret.data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8');
const readConfig = (prometheus: string) => core.readNamespacedSecret({ namespace: MONITORING, name: `prometheus-${prometheus}` });
const jobOf = (namespace: string) => `job_name: serviceMonitor/${namespace}/api/0`;

async function absent(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return false;
  } catch (error) {
    if (isNotFound(error)) return true;
    throw error;
  }
}

async function createPrometheus(name: string, labels: Record<string, string>): Promise<void> {
  await untilServed(() => custom.createNamespacedCustomObject({
    ...crd(PLURALS.Prometheus, MONITORING),
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name, labels },
      spec: { replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: { matchLabels: { [SCRAPED_BY]: id } } },
    },
  }));
}

function startOperator(kubeConfig: KubeConfig, options: Partial<ConstructorParameters<typeof Operator>[0]>): Promise<void> {
  const log = pino({ level: 'info' }, { write: (line: string) => logLines.push(line) });
  // --pod-network: no Node is read (Nodes are cluster-scoped; the namespaced identity may not list them).
  const operator = new Operator({ kubeConfig, log, podNetworks: ['127.0.0.1/32'], ...options });
  operators.push(operator);
  return operator.start();
}

/** What the API server answers when the chart's ServiceAccount asks whether it may do `attributes`. */
async function allowed(kc: KubeConfig, attributes: V1ResourceAttributes): Promise<boolean> {
  const review = await kc.makeApiClient(AuthorizationV1Api).createSelfSubjectAccessReview({ body: { spec: { resourceAttributes: attributes } } });
  return review.status?.allowed === true;
}

let chartKc: KubeConfig;

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  apps = admin.makeApiClient(AppsV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const name of [OPERATOR_NS, MONITORING]) await core.createNamespace({ body: { metadata: { name } } });
  // Both teams match the Prometheus' namespace selector; only team A is watched.
  for (const name of [TEAM_A, TEAM_B]) await core.createNamespace({ body: { metadata: { name, labels: { [SCRAPED_BY]: id } } } });
  const kc = (chartKc = await chartIdentity(admin, RELEASE, OPERATOR_NS, [`namespaces={${MONITORING},${TEAM_A}}`]));

  await createPrometheus('main', { [INSTANCE]: id });
  await createPrometheus('other', {});
  for (const namespace of [TEAM_A, TEAM_B]) {
    await custom.createNamespacedCustomObject({
      ...crd(PLURALS.ServiceMonitor, namespace),
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name: 'api' }, spec: { selector: { matchLabels: { app: 'api' } }, endpoints: [{ port: 'web' }] } },
    });
  }
  // The binding another operator (the one managing `other`) wrote; promop must leave it as it is.
  await custom.patchNamespacedCustomObjectStatus({
    ...crd(PLURALS.ServiceMonitor, TEAM_A), name: 'api',
    body: { status: { bindings: [{ group: GROUP, resource: 'prometheuses', name: 'other', namespace: MONITORING, conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', lastTransitionTime: '2026-01-01T00:00:00Z' }] }] } },
  }, MERGE_PATCH);

  await startOperator(kc, { prometheusSelector: `${INSTANCE}=${id}`, alertmanagerSelector: `${INSTANCE}=${id}`, thanosRulerSelector: `${INSTANCE}=${id}`, scope: { kind: 'only', namespaces: [MONITORING, TEAM_A] } });
}, 90_000);

afterAll(async () => {
  for (const operator of operators) await operator.stop();
});

describe('promop run --namespaces as the chart\'s ServiceAccount with namespaces set (per-namespace Roles)', () => {
  it('configures its Prometheus from the monitor of the watched namespace, not from the other selected namespace', async () => {
    const secret = await eventually(() => readConfig('main'), (s) => configText(s).includes(jobOf(TEAM_A)));
    expect(configText(secret)).toContain(jobOf(TEAM_A));
    expect(configText(secret)).not.toContain(TEAM_B);
    const prometheus = await eventually(() => readPrometheus('main'), (p) => p.status?.conditions?.some((c) => c.type === 'Reconciled' && c.status === 'True') === true);
    expect(prometheus.status?.conditions?.find((c) => c.type === 'Reconciled')).toMatchObject({ status: 'True' });
  });

  it('binds the watched monitor and never writes to the unwatched one', async () => {
    const monitor = await eventually(() => readMonitor(TEAM_A), (m) => m.status?.bindings?.some((b) => b.name === 'main') === true);
    expect(monitor.status?.bindings?.find((b) => b.name === 'main')?.conditions?.[0]).toMatchObject({ type: 'Accepted', status: 'True' });
    expect((await readMonitor(TEAM_B)).status).toBeUndefined();
  });

  it('follows the labels of a watched Namespace (read by get and watch of that one Namespace)', async () => {
    await core.patchNamespace({ name: TEAM_A, body: { metadata: { labels: { [SCRAPED_BY]: 'nobody' } } } }, MERGE_PATCH);
    const without = await eventually(() => readConfig('main'), (s) => !configText(s).includes(jobOf(TEAM_A)));
    expect(configText(without)).not.toContain(jobOf(TEAM_A));
    await core.patchNamespace({ name: TEAM_A, body: { metadata: { labels: { [SCRAPED_BY]: id } } } }, MERGE_PATCH);
    const back = await eventually(() => readConfig('main'), (s) => configText(s).includes(jobOf(TEAM_A)));
    expect(configText(back)).toContain(jobOf(TEAM_A));
  }, 60_000);

  it('runs as an identity that may read Secrets in the watched namespaces only, and use its Lease', async () => {
    expect(await allowed(chartKc, { verb: 'list', resource: 'secrets', namespace: TEAM_A })).toBe(true);
    expect(await allowed(chartKc, { verb: 'list', resource: 'secrets', namespace: TEAM_B })).toBe(false);
    expect(await allowed(chartKc, { verb: 'list', resource: 'secrets' })).toBe(false);
    expect(await allowed(chartKc, { verb: 'patch', resource: 'statefulsets', group: 'apps', namespace: TEAM_B })).toBe(false);
    expect(await allowed(chartKc, { verb: 'list', resource: 'namespaces' })).toBe(false);
    expect(await allowed(chartKc, { verb: 'watch', resource: 'namespaces', name: TEAM_A, namespace: TEAM_A })).toBe(true);
    expect(await allowed(chartKc, { verb: 'update', resource: 'leases', group: 'coordination.k8s.io', namespace: OPERATOR_NS, name: 'promop' })).toBe(true);
    expect(await allowed(chartKc, { verb: 'update', resource: 'leases', group: 'coordination.k8s.io', namespace: TEAM_B, name: 'promop' })).toBe(false);
  });

  it('was never refused anything: every request fit in the Roles', () => {
    const refused = logLines.filter((line) => / 40[13] |forbidden/i.test(line));
    expect(refused).toEqual([]);
  });
});

describe('a Prometheus outside --prometheus-instance-selector, in a watched namespace', () => {
  it('gets no children and no status', async () => {
    expect(await absent(() => apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'prometheus-other' }))).toBe(true);
    expect(await absent(() => readConfig('other'))).toBe(true);
    expect((await readPrometheus('other')).status).toBeUndefined();
  });

  it('keeps the binding another operator wrote for it in the monitor\'s status', async () => {
    const monitor = await eventually(() => readMonitor(TEAM_A), (m) => m.status?.bindings?.some((b) => b.name === 'main') === true);
    expect(monitor.status?.bindings?.find((b) => b.name === 'other')).toEqual({
      group: GROUP, resource: 'prometheuses', name: 'other', namespace: MONITORING,
      conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    });
  });
});

describe('promop run --deny-namespaces', () => {
  it('leaves the monitors of a denied namespace out of a Prometheus that selects it', async () => {
    const instance = `${id}-deny`;
    await createPrometheus('deny', { [INSTANCE]: instance });
    const kc = await operatorIdentity(admin, MONITORING, `promop-deny-${id}`);
    await startOperator(kc, { prometheusSelector: `${INSTANCE}=${instance}`, alertmanagerSelector: `${INSTANCE}=${instance}`, thanosRulerSelector: `${INSTANCE}=${instance}`, scope: { kind: 'deny', namespaces: [TEAM_A] } });
    const secret = await eventually(() => readConfig('deny'), (s) => configText(s).includes(jobOf(TEAM_B)));
    expect(configText(secret)).toContain(jobOf(TEAM_B));
    expect(configText(secret)).not.toContain(TEAM_A);
    // The denied namespace's monitor gets no binding from this operator either.
    expect((await readMonitor(TEAM_A)).status?.bindings?.some((b) => b.name === 'deny')).toBe(false);
  }, 90_000);
});

describe('promop run --secret-label-selector', () => {
  it('reads only the Secrets with the label: a monitor referencing another one is rejected until it gets the label', async () => {
    const instance = `${id}-secrets`;
    await untilServed(() => custom.createNamespacedCustomObject({
      ...crd(PLURALS.Prometheus, MONITORING),
      body: {
        apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'secrets', labels: { [INSTANCE]: instance } },
        spec: { replicas: 1, serviceMonitorSelector: { matchLabels: { uses: 'auth' } }, serviceMonitorNamespaceSelector: { matchLabels: { [SCRAPED_BY]: id } } },
      },
    }));
    await core.createNamespacedSecret({ namespace: TEAM_B, body: { metadata: { name: 'auth' }, stringData: { user: 'scraper', password: `pw-${id}` } } });
    await custom.createNamespacedCustomObject({
      ...crd(PLURALS.ServiceMonitor, TEAM_B),
      body: {
        apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name: 'auth', labels: { uses: 'auth' } },
        spec: { selector: { matchLabels: { app: 'auth' } }, endpoints: [{ port: 'web', basicAuth: { username: { name: 'auth', key: 'user' }, password: { name: 'auth', key: 'password' } } }] },
      },
    });
    const kc = await operatorIdentity(admin, TEAM_B, `promop-secrets-${id}`);
    await startOperator(kc, { prometheusSelector: `${INSTANCE}=${instance}`, alertmanagerSelector: `${INSTANCE}=${instance}`, thanosRulerSelector: `${INSTANCE}=${instance}`, secretLabelSelector: 'promop.test/readable=true' });

    const readAuth = async () => (await custom.getNamespacedCustomObject({ ...crd(PLURALS.ServiceMonitor, TEAM_B), name: 'auth' })) as Monitor;
    const bindingOf = (monitor: Monitor) => monitor.status?.bindings?.find((b) => b.name === 'secrets')?.conditions?.[0] as { status: string; message?: string } | undefined;
    const rejected = await eventually(readAuth, (m) => bindingOf(m)?.status === 'False');
    expect(bindingOf(rejected)).toMatchObject({ status: 'False', message: expect.stringContaining(`Secret "auth" not found in namespace "${TEAM_B}"`) });

    await core.patchNamespacedSecret({ namespace: TEAM_B, name: 'auth', body: { metadata: { labels: { 'promop.test/readable': 'true' } } } }, MERGE_PATCH);
    const accepted = await eventually(readAuth, (m) => bindingOf(m)?.status === 'True');
    expect(bindingOf(accepted)).toMatchObject({ status: 'True' });
    const secret = await eventually(() => readConfig('secrets'), (s) => configText(s).includes(`pw-${id}`));
    expect(configText(secret)).toContain(`password: pw-${id}`);
    expect(logLines.filter((line) => line.includes(`pw-${id}`))).toEqual([]);
  }, 90_000);
});
