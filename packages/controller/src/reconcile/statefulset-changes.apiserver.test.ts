/**
 * StatefulSet changes the API server refuses to make in place, and shards that go away, against the real API server
 * (the shared control plane: its kube-controller-manager runs the StatefulSet controller, which makes the pods, and
 * the garbage collector, which orphans them; there is no kubelet, so the pods stay Pending but exist).
 */
import { AppsV1Api, CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Pod, type V1StatefulSet } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed } from '@promop/testkit';
import { sharedTestEnv } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { eventually } from '@promop/testkit';
import { operatorIdentity } from '../test-support/operator-identity.ts';
import { DELETION_DEADLINE_ANNOTATION } from './shard-retention.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-sts-${id}`;
const MONITORING = `monitoring-sts-${id}`;
const INSTANCE_LABEL = { 'promop.test/instance': `sts-${id}` };
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

let admin: KubeConfig;
let apps: AppsV1Api;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;
const logLines: string[] = [];

type Condition = { type: string; status: string; reason?: string; message?: string; observedGeneration?: number };
type PrometheusObject = { metadata: { generation: number }; status?: { conditions?: Condition[] } };
const prometheusApi = { group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING, name: 'main' };
const readPrometheus = async () => (await custom.getNamespacedCustomObject(prometheusApi)) as PrometheusObject;
const patchPrometheus = (spec: Record<string, unknown>) => custom.patchNamespacedCustomObject({ ...prometheusApi, body: { spec } }, MERGE_PATCH);
const reconciledAt = (prometheus: PrometheusObject) => prometheus.status?.conditions?.find((c) => c.type === 'Reconciled' && c.observedGeneration === prometheus.metadata.generation);
const readStatefulSet = (name: string) => apps.readNamespacedStatefulSet({ namespace: MONITORING, name });
const storageOf = (statefulSet: V1StatefulSet) => statefulSet.spec?.volumeClaimTemplates?.[0]?.spec?.resources?.requests?.storage;
const controllerOf = (pod: V1Pod) => pod.metadata?.ownerReferences?.find((ref) => ref.controller)?.uid;

/** Waits until the Prometheus' current generation is reconciled; returns its Reconciled condition. */
async function untilReconciled(): Promise<Condition | undefined> {
  return reconciledAt(await eventually(readPrometheus, (p) => reconciledAt(p) !== undefined, 60_000));
}

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  apps = admin.makeApiClient(AppsV1Api);
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const name of [OPERATOR_NS, MONITORING]) await core.createNamespace({ body: { metadata: { name } } });
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-sts-${id}`);
  await untilServed(() => custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', labels: INSTANCE_LABEL },
      spec: {
        replicas: 1, shards: 2,
        storage: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } },
        shardRetentionPolicy: { whenScaled: 'Retain', retain: { retentionPeriod: '1h' } },
      },
    },
  }));
  const log = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  operator = new Operator({ kubeConfig: kc, log, prometheusSelector: `promop.test/instance=sts-${id}`, alertmanagerSelector: `promop.test/instance=sts-${id}`, thanosRulerSelector: `promop.test/instance=sts-${id}` });
  await operator.start();
}, 60_000);

afterAll(async () => {
  await operator?.stop();
});

describe('a Prometheus whose StatefulSet must change a field fixed at creation', () => {
  it('starts reconciled with a StatefulSet per shard and their pods', async () => {
    expect(await untilReconciled()).toMatchObject({ status: 'True' });
    const pod = await eventually(() => core.readNamespacedPod({ namespace: MONITORING, name: 'prometheus-main-0' }), (p) => controllerOf(p) !== undefined);
    expect(controllerOf(pod)).toBe((await readStatefulSet('prometheus-main')).metadata?.uid);
  }, 90_000);

  it('a new storage request (volumeClaimTemplates) recreates the StatefulSet, orphaning its pod instead of deleting it', async () => {
    const before = await readStatefulSet('prometheus-main');
    const podBefore = await core.readNamespacedPod({ namespace: MONITORING, name: 'prometheus-main-0' });
    await patchPrometheus({ storage: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } } } });

    const after = await eventually(() => readStatefulSet('prometheus-main'), (s) => s.metadata?.uid !== before.metadata?.uid && storageOf(s) === '2Gi', 60_000);
    expect([storageOf(before), storageOf(after)]).toEqual(['1Gi', '2Gi']);
    expect(after.metadata?.uid).not.toBe(before.metadata?.uid);
    // The same pod (same uid: never deleted), released by the old StatefulSet (Orphan) and adopted by the new one.
    const podAfter = await eventually(() => core.readNamespacedPod({ namespace: MONITORING, name: 'prometheus-main-0' }), (p) => controllerOf(p) === after.metadata?.uid);
    expect(podAfter.metadata?.uid).toBe(podBefore.metadata?.uid);
    expect(controllerOf(podAfter)).toBe(after.metadata?.uid);
    expect(await untilReconciled()).toMatchObject({ status: 'True' });
    expect(logLines.some((line) => line.includes('StatefulSet deleted (pods orphaned, not deleted)'))).toBe(true);
  }, 90_000);

  it('a new spec.serviceName recreates it too, and the StatefulSet names that Service', async () => {
    const before = await readStatefulSet('prometheus-main-shard-1');
    // The named Service must exist and select the pods, as prometheus-operator requires (workload/governing-service.ts).
    await core.createNamespacedService({ namespace: MONITORING, body: { metadata: { name: 'my-governing-service' }, spec: { clusterIP: 'None', selector: { 'app.kubernetes.io/name': 'prometheus', prometheus: 'main' }, ports: [{ name: 'web', port: 9090 }] } } });
    await patchPrometheus({ serviceName: 'my-governing-service' });
    const after = await eventually(() => readStatefulSet('prometheus-main-shard-1'), (s) => s.spec?.serviceName === 'my-governing-service', 60_000);
    expect(after.spec?.serviceName).toBe('my-governing-service');
    expect(after.metadata?.uid).not.toBe(before.metadata?.uid);
    expect(await untilReconciled()).toMatchObject({ status: 'True' });
  }, 90_000);
});

describe('a Prometheus that names its own governing Service from the start', () => {
  it('gets StatefulSets with that serviceName and no prometheus-operated Service', async () => {
    const namespace = `own-service-${id}`;
    await core.createNamespace({ body: { metadata: { name: namespace } } });
    await core.createNamespacedService({ namespace, body: { metadata: { name: 'mine' }, spec: { clusterIP: 'None', selector: { 'app.kubernetes.io/name': 'prometheus' }, ports: [{ name: 'web', port: 9090 }] } } });
    await custom.createNamespacedCustomObject({
      group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace,
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'custom', labels: INSTANCE_LABEL }, spec: { replicas: 1, serviceName: 'mine' } },
    });
    const read = async () => (await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace, name: 'custom' })) as PrometheusObject;
    expect(reconciledAt(await eventually(read, (p) => reconciledAt(p) !== undefined, 60_000))).toMatchObject({ status: 'True' });
    expect((await apps.readNamespacedStatefulSet({ namespace, name: 'prometheus-custom' })).spec?.serviceName).toBe('mine');
    await expect(core.readNamespacedService({ namespace, name: 'prometheus-operated' })).rejects.toMatchObject({ code: 404 });
  }, 90_000);
});

describe('scaling down with shardRetentionPolicy', () => {
  it('Retain keeps the removed shard\'s StatefulSet and config Secret, with a deletion deadline an hour ahead', async () => {
    await patchPrometheus({ shards: 1 });
    const retained = await eventually(() => readStatefulSet('prometheus-main-shard-1'), (s) => s.metadata?.annotations?.[DELETION_DEADLINE_ANNOTATION] !== undefined, 60_000);
    const deadline = Date.parse(retained.metadata?.annotations?.[DELETION_DEADLINE_ANNOTATION] ?? '');
    expect(deadline - Date.now()).toBeGreaterThan(55 * 60_000);
    expect(deadline - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    expect(await untilReconciled()).toMatchObject({ status: 'True' });
    await core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main-shard-1' });
  }, 90_000);

  it('scaling back up reuses the retained shard and drops its deadline', async () => {
    const retained = await readStatefulSet('prometheus-main-shard-1');
    await patchPrometheus({ shards: 2 });
    const reused = await eventually(() => readStatefulSet('prometheus-main-shard-1'), (s) => s.metadata?.annotations?.[DELETION_DEADLINE_ANNOTATION] === undefined, 60_000);
    expect(reused.metadata?.annotations?.[DELETION_DEADLINE_ANNOTATION]).toBeUndefined();
    expect(reused.metadata?.uid).toBe(retained.metadata?.uid);
    expect(await untilReconciled()).toMatchObject({ status: 'True' });
  }, 90_000);

  it('Delete removes the removed shard\'s StatefulSet and config Secret at once', async () => {
    await patchPrometheus({ shards: 1, shardRetentionPolicy: { whenScaled: 'Delete' } });
    const gone = async () => {
      try {
        await readStatefulSet('prometheus-main-shard-1');
        return false;
      } catch {
        return true;
      }
    };
    expect(await eventually(gone, (isGone) => isGone, 60_000)).toBe(true);
    await expect(core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main-shard-1' })).rejects.toMatchObject({ code: 404 });
    expect(await untilReconciled()).toMatchObject({ status: 'True' });
  }, 90_000);

  it('a shardRetentionPolicy no Prometheus could follow is refused at kubectl apply with its field path (the CRD\'s enum, as upstream\'s)', async () => {
    // An object stored under an older CRD without the enum still gets promop's own check (shard-retention.test.ts).
    await expect(patchPrometheus({ shardRetentionPolicy: { whenScaled: 'Keep' } })).rejects.toMatchObject({ code: 422, body: expect.stringContaining('spec.shardRetentionPolicy.whenScaled: Unsupported value: \\"Keep\\"') });
    expect(await untilReconciled()).toMatchObject({ status: 'True' });
  }, 90_000);
});
