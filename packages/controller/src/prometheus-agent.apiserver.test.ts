/**
 * PrometheusAgents (monitoring.coreos.com/v1alpha1) against the real API server, the operator running as the
 * ServiceAccount with exactly the chart's rules (so a missing rule for prometheusagents fails here): an agent
 * selecting a ServiceMonitor gets its `prom-agent-<name>` config Secret in agent mode (no rule files, no alerting),
 * a StatefulSet that starts Prometheus with `--agent` under the agent's labels, the `prometheus-agent-operated`
 * Service and status conditions; the monitor's status binds it as `prometheusagents`, and a monitor it rejects gets
 * a Warning Event naming the agent. A DaemonSet-mode agent with replicas is refused by the API server (the CRD's rule). A Prometheus of the
 * same name in the same namespace keeps its own children, and deleting the agent removes only its binding.
 */
import type { V1OwnerReference, V1StatefulSet } from '@kubernetes/client-node';
import { GROUP } from '@promop/crds';
import { AppsV1Api } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { eventually } from '@promop/testkit';
import { bindingCondition, configTextOf, OperatorWorld, type BoundResource, type Condition } from './test-support/operator-world.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `agent-monitoring-${id}`;
const TEAM = `agent-team-${id}`;
const INSTANCE = { 'promop.test/instance': id };
const AGENT = { namespace: MONITORING, name: 'main', resource: 'prometheusagents' };
const SERVER = { namespace: MONITORING, name: 'main', resource: 'prometheuses' };
const REMOTE_WRITE_PASSWORD = `rw-pass-${id}`;

let world: OperatorWorld;
let apps: AppsV1Api;

interface Status { conditions?: Condition[]; shards?: number; selector?: string }
const readMonitor = (name: string) => world.readObject('ServiceMonitor', TEAM, name);
const readAgent = (name: string, namespace = MONITORING) => world.readObject<{ status?: Status }>('PrometheusAgent', namespace, name);
const reconciled = (object: { status?: Status }) => object.status?.conditions?.find((c) => c.type === 'Reconciled');
const readSecret = (name: string) => world.core.readNamespacedSecret({ namespace: MONITORING, name });
const readStatefulSet = (name: string) => apps.readNamespacedStatefulSet({ namespace: MONITORING, name });
const ownerKinds = (refs: V1OwnerReference[] | undefined) => (refs ?? []).map((ref) => `${ref.apiVersion}/${ref.kind}/${ref.name}`);
const argsOf = (statefulSet: V1StatefulSet) => statefulSet.spec?.template.spec?.containers.find((c) => c.name === 'prometheus')?.args ?? [];

const selecting = { serviceMonitorSelector: { matchLabels: { team: 'a' } }, serviceMonitorNamespaceSelector: { matchLabels: { 'promop.test/agent': id } } };

beforeAll(async () => {
  world = await OperatorWorld.create({
    operatorNamespace: `promop-agent-system-${id}`, identity: `promop-${id}`,
    namespaces: { [MONITORING]: {}, [TEAM]: { 'promop.test/agent': id } },
  });
  apps = world.admin.makeApiClient(AppsV1Api);
  await world.createSecret(MONITORING, 'remote-write', { password: REMOTE_WRITE_PASSWORD });
  await world.createObject('ServiceMonitor', TEAM, 'api', { selector: { matchLabels: { app: 'api' } }, endpoints: [{ port: 'web' }] }, { team: 'a' });
  await world.createObject('ServiceMonitor', TEAM, 'broken', {
    selector: { matchLabels: { app: 'broken' } },
    endpoints: [{ port: 'web', relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_name'], regex: '(unclosed', targetLabel: 'pod', action: 'replace' }] }],
  }, { team: 'a' });
  await world.createObject('PrometheusAgent', MONITORING, 'main', {
    version: 'v3.16.0', ...selecting,
    remoteWrite: [{ url: 'http://receiver.example:9090/api/v1/write', basicAuth: { username: { name: 'remote-write', key: 'password' }, password: { name: 'remote-write', key: 'password' } } }],
  }, INSTANCE);
  await world.createObject('Prometheus', MONITORING, 'main', { ...selecting, ruleSelector: {} }, INSTANCE);
  // Elsewhere and selecting nothing, so the other cases see main's bindings and Service alone.
  await world.createObject('PrometheusAgent', TEAM, 'daemons', { mode: 'DaemonSet', podMonitorSelector: { matchLabels: { team: 'nobody' } } }, INSTANCE);
  await world.startOperator({ prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}` });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe('a PrometheusAgent selecting a ServiceMonitor, beside a Prometheus of the same name', () => {
  it('gets its config Secret prom-agent-main in agent mode, owned by the agent, with the remote write password from its namespace', async () => {
    const secret = await eventually(() => readSecret('prom-agent-main'), (s) => configTextOf(s).includes(`serviceMonitor/${TEAM}/api/0`));
    const text = configTextOf(secret);
    expect(text).toContain('remote_write:');
    expect(text).toContain(`password: ${REMOTE_WRITE_PASSWORD}`);
    expect(text).not.toMatch(/^rule_files:|^alerting:/m);
    expect(text).not.toContain(`serviceMonitor/${TEAM}/broken`);
    expect(ownerKinds(secret.metadata?.ownerReferences)).toEqual([`${GROUP}/v1alpha1/PrometheusAgent/main`]);
  });

  it('gets a StatefulSet prom-agent-main running Prometheus with --agent, labelled as an agent, without rule mounts', async () => {
    const statefulSet = await eventually(() => readStatefulSet('prom-agent-main'), () => true);
    expect(statefulSet.metadata?.labels).toMatchObject({ 'operator.prometheus.io/mode': 'agent', 'operator.prometheus.io/name': 'main' });
    expect(statefulSet.spec?.selector.matchLabels).toMatchObject({ 'app.kubernetes.io/name': 'prometheus-agent', 'app.kubernetes.io/instance': 'main' });
    expect(statefulSet.spec?.serviceName).toBe('prometheus-agent-operated');
    const args = argsOf(statefulSet);
    expect(args).toContain('--agent');
    expect(args).toContain('--storage.agent.path=/prometheus');
    expect(args.join(' ')).not.toMatch(/tsdb|retention/);
    const volumes = (statefulSet.spec?.template.spec?.volumes ?? []).map((v) => v.name);
    expect(volumes).toEqual(expect.arrayContaining(['config', 'tls-assets', 'prom-agent-main-db']));
    expect(volumes.filter((name) => name.includes('rulefiles'))).toEqual([]);
    expect(ownerKinds(statefulSet.metadata?.ownerReferences)).toEqual([`${GROUP}/v1alpha1/PrometheusAgent/main`]);
  });

  it('gets the Service prometheus-agent-operated selecting agent pods only', async () => {
    const service = await eventually(() => world.core.readNamespacedService({ namespace: MONITORING, name: 'prometheus-agent-operated' }), () => true);
    expect(service.spec?.selector).toEqual({ 'app.kubernetes.io/name': 'prometheus-agent' });
    expect(service.spec?.clusterIP).toBe('None');
    expect(ownerKinds(service.metadata?.ownerReferences)).toEqual([`${GROUP}/v1alpha1/PrometheusAgent/main`]);
  });

  it('reports Reconciled=True in the agent status, with its own scale selector', async () => {
    const agent = await eventually(() => readAgent('main'), (a) => reconciled(a)?.status === 'True');
    expect(agent.status).toMatchObject({ shards: 1, selector: 'app.kubernetes.io/managed-by=promop,operator.prometheus.io/name=main,app.kubernetes.io/name=prometheus-agent' });
  });

  it('leaves the Prometheus its own children: prometheus-main with rule files and the server flags, prometheus-operated owned by it alone', async () => {
    const secret = await eventually(() => readSecret('prometheus-main'), (s) => configTextOf(s).includes(`serviceMonitor/${TEAM}/api/0`));
    expect(configTextOf(secret)).toMatch(/^rule_files:/m);
    expect(ownerKinds(secret.metadata?.ownerReferences)).toEqual([`${GROUP}/v1/Prometheus/main`]);
    const statefulSet = await eventually(() => readStatefulSet('prometheus-main'), () => true);
    expect(statefulSet.metadata?.labels).toMatchObject({ 'operator.prometheus.io/mode': 'server' });
    expect(statefulSet.spec?.selector.matchLabels).toMatchObject({ 'app.kubernetes.io/name': 'prometheus' });
    expect(argsOf(statefulSet)).toContain('--storage.tsdb.path=/prometheus');
    expect(argsOf(statefulSet)).not.toContain('--agent');
    const service = await world.core.readNamespacedService({ namespace: MONITORING, name: 'prometheus-operated' });
    expect(ownerKinds(service.metadata?.ownerReferences)).toEqual([`${GROUP}/v1/Prometheus/main`]);
    const prometheus = await eventually(() => world.readObject<{ status?: Status }>('Prometheus', MONITORING, 'main'), (p) => reconciled(p)?.status === 'True');
    expect(prometheus.status?.selector).toBe('app.kubernetes.io/managed-by=promop,operator.prometheus.io/name=main');
  });

  it('binds the monitor to both, the agent as resource prometheusagents', async () => {
    const monitor = await eventually(() => readMonitor('api'), (m) => m.status?.acceptedBy === 2);
    expect(bindingCondition(monitor, AGENT)).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(bindingCondition(monitor, SERVER)).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(monitor.status?.bindings?.map((b) => b.resource).sort()).toEqual(['prometheusagents', 'prometheuses']);
  });

  it('rejects the broken monitor for the agent with the path, and one Warning Event names the agent', async () => {
    const broken = await eventually(() => readMonitor('broken'), (m: BoundResource) => bindingCondition(m, AGENT)?.status === 'False');
    expect(bindingCondition(broken, AGENT)?.message).toContain('spec.endpoints[0].relabelings[0].regex');
    const events = await eventually(() => world.warningEvents(TEAM, 'ServiceMonitor', 'broken'), (items) => items.some((e) => e.related?.kind === 'PrometheusAgent'));
    expect(events.filter((e) => e.related?.kind === 'PrometheusAgent')).toEqual([
      expect.objectContaining({ reason: 'InvalidConfiguration', related: expect.objectContaining({ apiVersion: `${GROUP}/v1alpha1`, name: 'main', namespace: MONITORING }) }),
    ]);
    expect(world.logLines.join('\n')).not.toContain(REMOTE_WRITE_PASSWORD);
  });
});

describe('a PrometheusAgent in DaemonSet mode', () => {
  it('with replicas set is refused by the API server, as prometheus-operator\'s CRD refuses it, naming the field', async () => {
    const created = world.createObject('PrometheusAgent', TEAM, 'replicated', { mode: 'DaemonSet', replicas: 2 }, INSTANCE);
    await expect(created).rejects.toMatchObject({ code: 422, body: expect.stringContaining('replicas cannot be set with mode DaemonSet') });
    const statefulSets = await apps.listNamespacedStatefulSet({ namespace: TEAM });
    expect(statefulSets.items.map((s) => s.metadata?.name).filter((name) => name?.startsWith('prom-agent-'))).toEqual([]);
  });

  it('is deployed as a DaemonSet, with no StatefulSet', async () => {
    await eventually(() => apps.listNamespacedDaemonSet({ namespace: TEAM }), (list) => list.items.some((d) => d.metadata?.name === 'prom-agent-daemons'));
    const statefulSets = await apps.listNamespacedStatefulSet({ namespace: TEAM });
    expect(statefulSets.items.map((s) => s.metadata?.name).filter((name) => name?.startsWith('prom-agent-daemons'))).toEqual([]);
  });
});

describe('deleting the PrometheusAgent', () => {
  it('removes its binding from the monitor and leaves the Prometheus\' binding', async () => {
    await eventually(() => readMonitor('api'), (m) => m.status?.acceptedBy === 2);
    await world.custom.deleteNamespacedCustomObject({ group: GROUP, version: 'v1alpha1', plural: 'prometheusagents', namespace: MONITORING, name: 'main' });
    const monitor = await eventually(() => readMonitor('api'), (m) => bindingCondition(m, AGENT) === undefined);
    expect(bindingCondition(monitor, SERVER)).toMatchObject({ status: 'True' });
    expect(monitor.status).toMatchObject({ acceptedBy: 1 });
  });
});
