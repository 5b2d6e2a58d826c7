/**
 * The StatefulSet replacements of an Alertmanager and a ThanosRuler (reconcile/statefulset-apply.ts, shared with
 * Prometheus) against the real API server, with the shared control plane's kube-controller-manager: its StatefulSet
 * controller makes the pods (no kubelet, so they stay Pending but exist) and its garbage collector would delete
 * them with a StatefulSet deleted in the foreground, and releases them from one deleted with propagationPolicy
 * Orphan. The operator runs as the ServiceAccount its ClusterRole rules give.
 *
 * - Takeover: a StatefulSet `alertmanager-<name>` / `thanos-ruler-<name>` that prometheus-operator created (its
 *   managed-by label and pod selector say so), owned by the object, with a pod, exists before promop starts. promop
 *   replaces it with its own (new uid, promop's selector); the old pod is not deleted, only released; once it is
 *   deleted, promop touches its StatefulSet so the StatefulSet controller makes promop's pod of that name.
 * - A new `spec.storage` (volumeClaimTemplates, fixed at creation) is applied by re-creating the StatefulSet; its
 *   pod is kept and adopted by the new one.
 */
import { AppsV1Api, PatchStrategy, setHeaderOptions, type V1Pod, type V1StatefulSet } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS, type Kind } from '@promop/crds';
import { eventually } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { ORPHAN_GONE_ANNOTATION } from './reconcile/orphaned-pods.ts';
import { OperatorWorld } from './test-support/operator-world.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `sts-replace-${id}`;
const INSTANCE = { 'promop.test/instance': `sts-replace-${id}` };
const INSTANCE_SELECTOR = `promop.test/instance=sts-replace-${id}`;
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const MANAGED_BY = 'app.kubernetes.io/managed-by';

const storage = (size: string) => ({ volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } } } });
const storageOf = (statefulSet: V1StatefulSet) => statefulSet.spec?.volumeClaimTemplates?.[0]?.spec?.resources?.requests?.storage;
const controllerOf = (pod: V1Pod) => pod.metadata?.ownerReferences?.find((ref) => ref.controller)?.uid;

/** The two workload kinds whose StatefulSet this file replaces, with what differs between them. */
const WORKLOADS: { kind: Kind; prefix: string; nameLabel: string; spec: object }[] = [
  { kind: 'Alertmanager', prefix: 'alertmanager', nameLabel: 'alertmanager', spec: { replicas: 1 } },
  { kind: 'ThanosRuler', prefix: 'thanos-ruler', nameLabel: 'thanos-ruler', spec: { replicas: 1, queryEndpoints: ['thanos-query:10902'], ruleSelector: {} } },
];

let world: OperatorWorld;
let apps: AppsV1Api;
/** Per kind, the uid of prometheus-operator's StatefulSet and of its pod, before promop started. */
const foreign = new Map<Kind, { statefulSetUid: string; podUid: string }>();

const readStatefulSet = (name: string) => apps.readNamespacedStatefulSet({ namespace: MONITORING, name });
const readPod = (name: string) => world.core.readNamespacedPod({ namespace: MONITORING, name });

/** A StatefulSet as prometheus-operator writes one for `kind/name`: its managed-by label in the pod selector, owned by the object. */
function prometheusOperatorStatefulSet(kind: Kind, prefix: string, nameLabel: string, name: string, uid: string): V1StatefulSet {
  const labels = { [MANAGED_BY]: 'prometheus-operator', 'app.kubernetes.io/name': prefix, [nameLabel]: name };
  return {
    metadata: {
      name: `${prefix}-${name}`, namespace: MONITORING, labels,
      ownerReferences: [{ apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, name, uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      replicas: 1, serviceName: `${prefix}-operated`, selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: prefix, image: 'quay.io/prometheus/busybox:latest' }] } },
    },
  };
}

beforeAll(async () => {
  world = await OperatorWorld.create({ operatorNamespace: `promop-sts-replace-${id}`, identity: `promop-sts-replace-${id}`, namespaces: { [MONITORING]: {} } });
  apps = world.admin.makeApiClient(AppsV1Api);
  for (const { kind, prefix, nameLabel, spec } of WORKLOADS) {
    await world.createObject(kind, MONITORING, 'taken', spec, INSTANCE);
    await world.createObject(kind, MONITORING, 'stored', { ...spec, storage: storage('1Gi') }, INSTANCE);
    const { metadata } = await world.readObject<{ metadata: { uid: string } }>(kind, MONITORING, 'taken');
    const created = await apps.createNamespacedStatefulSet({ namespace: MONITORING, body: prometheusOperatorStatefulSet(kind, prefix, nameLabel, 'taken', metadata.uid) });
    // The StatefulSet controller makes its pod, as it did under prometheus-operator.
    const pod = await eventually(() => readPod(`${prefix}-taken-0`), (p) => controllerOf(p) === created.metadata?.uid, 60_000);
    foreign.set(kind, { statefulSetUid: created.metadata?.uid ?? '', podUid: pod.metadata?.uid ?? '' });
  }
  await world.startOperator({ prometheusSelector: INSTANCE_SELECTOR, alertmanagerSelector: INSTANCE_SELECTOR, thanosRulerSelector: INSTANCE_SELECTOR });
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

describe.each(WORKLOADS)('a $kind', ({ kind, prefix }) => {
  it('whose StatefulSet prometheus-operator created gets promop\'s instead, its pod released and not deleted', async () => {
    const before = foreign.get(kind)!;
    const statefulSetName = `${prefix}-taken`;
    const after = await eventually(() => readStatefulSet(statefulSetName), (s) => s.metadata?.uid !== before.statefulSetUid && s.metadata?.labels?.[MANAGED_BY] === 'promop', 60_000);
    expect(after.spec?.selector?.matchLabels?.[MANAGED_BY]).toBe('promop');
    // The same pod (same uid: never deleted), released by the garbage collector (Orphan), not adopted by promop's
    // StatefulSet, whose selector it does not match.
    const orphan = await eventually(() => readPod(`${statefulSetName}-0`), (p) => controllerOf(p) === undefined, 60_000);
    expect(orphan.metadata?.uid).toBe(before.podUid);
    expect(orphan.metadata?.labels?.[MANAGED_BY]).toBe('prometheus-operator');
    expect(world.logLines.some((line) => line.includes(`StatefulSet another operator created for this ${kind} deleted (pods orphaned, not deleted)`) && line.includes(before.statefulSetUid))).toBe(true);

    // The platform deletes the old pod: promop touches its StatefulSet, whose controller then makes promop's pod.
    await world.core.deleteNamespacedPod({ namespace: MONITORING, name: `${statefulSetName}-0` });
    const touched = await eventually(() => readStatefulSet(statefulSetName), (s) => s.metadata?.annotations?.[ORPHAN_GONE_ANNOTATION] !== undefined, 60_000);
    expect(touched.metadata?.annotations?.[ORPHAN_GONE_ANNOTATION]).toBe(`${statefulSetName}-0/${before.podUid}`);
    const replacement = await eventually(() => readPod(`${statefulSetName}-0`), (p) => controllerOf(p) === after.metadata?.uid, 60_000);
    expect(replacement.metadata?.labels?.[MANAGED_BY]).toBe('promop');
  }, 180_000);

  it('whose spec.storage changes gets its StatefulSet created again with the new claim template, its pod kept', async () => {
    const statefulSetName = `${prefix}-stored`;
    const before = await eventually(() => readStatefulSet(statefulSetName), (s) => storageOf(s) === '1Gi', 60_000);
    const podBefore = await eventually(() => readPod(`${statefulSetName}-0`), (p) => controllerOf(p) === before.metadata?.uid, 60_000);
    await world.custom.patchNamespacedCustomObject({
      group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace: MONITORING, name: 'stored', body: { spec: { storage: storage('2Gi') } },
    }, MERGE_PATCH);
    const after = await eventually(() => readStatefulSet(statefulSetName), (s) => s.metadata?.uid !== before.metadata?.uid && storageOf(s) === '2Gi', 60_000);
    expect(storageOf(after)).toBe('2Gi');
    // Released by the old StatefulSet (Orphan) and adopted by the new one: the same pod, never deleted.
    const podAfter = await eventually(() => readPod(`${statefulSetName}-0`), (p) => controllerOf(p) === after.metadata?.uid, 60_000);
    expect(podAfter.metadata?.uid).toBe(podBefore.metadata?.uid);
    expect(world.logLines.some((line) => line.includes('StatefulSet deleted (pods orphaned, not deleted) to change a field fixed at creation') && line.includes(`"childName":"${statefulSetName}"`))).toBe(true);
  }, 120_000);
});
