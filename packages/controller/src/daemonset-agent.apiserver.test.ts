/**
 * A PrometheusAgent with `spec.mode: DaemonSet` against a real kube-apiserver, promop running as its least-privilege
 * identity: it gets the DaemonSet `prom-agent-<name>` (no StatefulSet, no governing Service) whose pods read their
 * node's copy of the configuration, and the config Secret with the generated prometheus.yaml (PodMonitor jobs
 * limited to `spec.nodeName=$(NODE_NAME)`) plus one copy per node its pods are bound to, the name filled in. The test
 * environment has no scheduler, DaemonSet controller or kubelet, so the test binds a pod with the DaemonSet's labels
 * to a node itself, as the scheduler would. A refused field is refused by the API server (the CRD's CEL rule, as
 * upstream's); switching the mode replaces the one workload object by the other.
 */
import { AppsV1Api, PatchStrategy, setHeaderOptions, type V1DaemonSet } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { GROUP, API_VERSIONS, PLURALS } from '@promop/crds';
import { eventually } from '@promop/testkit';
import { configTextOf, OperatorWorld, type Condition } from './test-support/operator-world.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `ds-monitoring-${id}`;
const TEAM = `ds-team-${id}`;
const INSTANCE = { 'promop.test/instance': id };
const NAME = 'nodes';
const CHILD = `prom-agent-${NAME}`;

let world: OperatorWorld;
let apps: AppsV1Api;

type Agent = { status?: { conditions?: Condition[] } };
const readAgent = () => world.readObject<Agent>('PrometheusAgent', MONITORING, NAME);
const reconciled = (agent: Agent) => agent.status?.conditions?.find((condition) => condition.type === 'Reconciled');
const readDaemonSet = () => apps.readNamespacedDaemonSet({ namespace: MONITORING, name: CHILD }).catch(() => undefined);
const readStatefulSet = () => apps.readNamespacedStatefulSet({ namespace: MONITORING, name: CHILD }).catch(() => undefined);
const readConfigSecret = () => world.core.readNamespacedSecret({ namespace: MONITORING, name: CHILD });
/** Gone, or deleted in the foreground and waiting for a garbage collector this environment does not run. */
const goneOrGoing = (object: { metadata?: { deletionTimestamp?: Date } } | undefined) => object === undefined || object.metadata?.deletionTimestamp !== undefined;

async function patchAgent(spec: Record<string, unknown>): Promise<void> {
  await world.custom.patchNamespacedCustomObject({
    group: GROUP, version: API_VERSIONS.PrometheusAgent, plural: PLURALS.PrometheusAgent, namespace: MONITORING, name: NAME, body: { spec },
  }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
}

const AGENT_SPEC = {
  mode: 'DaemonSet', version: 'v3.16.0',
  podMonitorSelector: { matchLabels: { team: 'a' } }, podMonitorNamespaceSelector: { matchLabels: { 'promop.test/ds': id } },
  tolerations: [{ operator: 'Exists' }],
  remoteWrite: [{ url: 'http://receiver.example:9090/api/v1/write' }],
};

beforeAll(async () => {
  world = await OperatorWorld.create({
    operatorNamespace: `promop-ds-system-${id}`, identity: `promop-ds-${id}`,
    namespaces: { [MONITORING]: {}, [TEAM]: { 'promop.test/ds': id } },
  });
  apps = world.admin.makeApiClient(AppsV1Api);
  // A team's literal $(NODE_NAME), which no node's copy may fill in.
  const relabelings = [{ targetLabel: 'literal', replacement: '$(NODE_NAME)' }];
  await world.createObject('PodMonitor', TEAM, 'workers', { selector: { matchLabels: { app: 'worker' } }, podMetricsEndpoints: [{ port: 'metrics', relabelings }] }, { team: 'a' });
  await world.createObject('PrometheusAgent', MONITORING, NAME, AGENT_SPEC, INSTANCE);
  await world.startOperator({ prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}` });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe('a PrometheusAgent in DaemonSet mode', () => {
  let daemonSet: V1DaemonSet;

  it('gets the DaemonSet prom-agent-<name>, owned by the agent, whose pods read their node\'s copy of the configuration', async () => {
    daemonSet = (await eventually(readDaemonSet, (found) => found !== undefined))!;
    expect(daemonSet.metadata?.ownerReferences?.map((ref) => `${ref.kind}/${ref.name}/${ref.controller}`)).toEqual([`PrometheusAgent/${NAME}/true`]);
    expect(daemonSet.metadata?.labels).toMatchObject({ 'operator.prometheus.io/mode': 'agent', 'app.kubernetes.io/managed-by': 'promop' });
    const pod = daemonSet.spec?.template.spec;
    const container = pod?.containers.find((each) => each.name === 'prometheus');
    expect(container?.args).toEqual(expect.arrayContaining(['--agent', '--config.file=/etc/prometheus/config/node-$(NODE_NAME).yaml']));
    expect(container?.env?.find((variable) => variable.name === 'NODE_NAME')?.valueFrom?.fieldRef?.fieldPath).toBe('spec.nodeName');
    expect(pod?.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('gets no StatefulSet and no governing Service', async () => {
    expect(await readStatefulSet()).toBeUndefined();
    await expect(world.core.readNamespacedService({ namespace: MONITORING, name: 'prometheus-agent-operated' })).rejects.toMatchObject({ code: 404 });
  });

  it('gets its DaemonSet back at once when it is deleted, and reports its pod counts when they change (the resync is 5 min)', async () => {
    const before = (await readDaemonSet())!;
    await apps.deleteNamespacedDaemonSet({ namespace: MONITORING, name: CHILD, propagationPolicy: 'Background' });
    const recreated = await eventually(readDaemonSet, (found) => found !== undefined && found.metadata?.uid !== before.metadata?.uid, 15_000);
    expect(recreated?.metadata?.ownerReferences?.map((ref) => ref.name)).toEqual([NAME]);
    // What the DaemonSet controller (absent here) would write once one pod on one node is Ready.
    await apps.patchNamespacedDaemonSetStatus({
      namespace: MONITORING, name: CHILD,
      body: { status: { desiredNumberScheduled: 1, currentNumberScheduled: 1, numberReady: 1, numberAvailable: 1, updatedNumberScheduled: 1, numberMisscheduled: 0 } },
    }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    const agent = await eventually(readAgent, (found) => (found as { status?: { availableReplicas?: number } }).status?.availableReplicas === 1, 15_000);
    expect((agent as { status?: { replicas?: number } }).status?.replicas).toBe(1);
    daemonSet = recreated!;
  });

  it('ignores spec.serviceName, as upstream does in this mode (a DaemonSet has no governing Service): no Service needed', async () => {
    await patchAgent({ serviceName: 'no-such-service' });
    const generation = (await world.readObject<{ metadata: { generation?: number } }>('PrometheusAgent', MONITORING, NAME)).metadata.generation;
    const agent = await eventually(readAgent, (found) => (reconciled(found) as { observedGeneration?: number } | undefined)?.observedGeneration === generation);
    expect(reconciled(agent)).toMatchObject({ status: 'True' });
    expect(goneOrGoing(await readDaemonSet())).toBe(false);
    await patchAgent({ serviceName: null });
  });

  it('has its PodMonitor jobs limited to the node by a field selector, in the config Secret as generated', async () => {
    const secret = await eventually(readConfigSecret, (found) => configTextOf(found).includes(`podMonitor/${TEAM}/workers/0`));
    expect(configTextOf(secret)).toContain('field: spec.nodeName=$(NODE_NAME)');
    expect(configTextOf(secret)).not.toContain('hashmod');
  });

  it('writes a copy with the node\'s name for each node a pod of the DaemonSet is bound to, and only those', async () => {
    const labels = daemonSet.spec?.template.metadata?.labels ?? {};
    for (const node of ['node-a', 'node-b']) {
      await world.core.createNamespacedPod({
        namespace: MONITORING,
        body: { metadata: { name: `${CHILD}-${node}`, labels }, spec: { nodeName: node, containers: [{ name: 'prometheus', image: 'prom/prometheus:v3.16.0' }] } },
      });
    }
    const secret = await eventually(readConfigSecret, (found) => Object.keys(found.data ?? {}).length === 3);
    expect(Object.keys(secret.data ?? {}).sort()).toEqual(['node-node-a.yaml', 'node-node-b.yaml', 'prometheus.yaml']);
    const copy = configTextOf(secret, 'node-node-a.yaml');
    expect(copy).toContain('field: spec.nodeName=node-a\n');
    expect(copy).toContain('replacement: $(NODE_NAME)\n');
    expect(copy.replace('spec.nodeName=node-a', 'spec.nodeName=$(NODE_NAME)')).toBe(configTextOf(secret));
    await world.core.deleteNamespacedPod({ namespace: MONITORING, name: `${CHILD}-node-b`, gracePeriodSeconds: 0 });
    const after = await eventually(readConfigSecret, (found) => Object.keys(found.data ?? {}).length === 2);
    expect(Object.keys(after.data ?? {}).sort()).toEqual(['node-node-a.yaml', 'prometheus.yaml']);
  });

  it('refuses a field upstream\'s CRD refuses in this mode at apply (the CRD\'s rule), and keeps its DaemonSet', async () => {
    await expect(patchAgent({ replicas: 3 })).rejects.toMatchObject({ code: 422, body: expect.stringContaining('replicas cannot be set with mode DaemonSet') });
    await expect(patchAgent({ shards: 2 })).rejects.toMatchObject({ code: 422, body: expect.stringContaining('shards cannot be above 1 with mode DaemonSet') });
    await patchAgent({ shards: 1 });
    expect(reconciled(await readAgent())?.status).not.toBe('False');
    expect(goneOrGoing(await readDaemonSet())).toBe(false);
  });

  it('switched to StatefulSet mode gets its StatefulSet, and its DaemonSet is deleted; switched back, the other way round', async () => {
    await patchAgent({ mode: 'StatefulSet' });
    await eventually(readStatefulSet, (found) => found !== undefined && !goneOrGoing(found));
    await eventually(readDaemonSet, goneOrGoing);
    await patchAgent({ mode: 'DaemonSet' });
    // Deleted in the foreground, the DaemonSet may still be there while its deletion waits; the new one follows.
    await eventually(readStatefulSet, goneOrGoing);
  });
});
