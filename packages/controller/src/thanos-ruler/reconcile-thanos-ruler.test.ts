/**
 * The ThanosRuler reconciler's writes of its Secrets and rule ConfigMaps, on the in-memory fakes of its ports
 * (reconcile/test-reconciler-fakes.ts): it is reconciled on every PrometheusRule change anywhere, so a child that
 * already holds its body must not be written again. thanos-ruler.apiserver.test.ts runs it against the real API
 * server.
 */
import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import pino from 'pino';
import { ORPHAN_CHECK_INTERVAL_MS } from '../reconcile/orphaned-pods.ts';
import { FakeCluster, apiError } from '../reconcile/test-reconciler-fakes.ts';
import { ThanosRulerReconciler } from './reconcile-thanos-ruler.ts';

const log = pino({ level: 'silent' });

const ruler: ThanosRuler = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'ThanosRuler',
  metadata: { namespace: 'monitoring', name: 'r', uid: 'u-r', generation: 1 },
  spec: { queryEndpoints: ['thanos-query:10902'], ruleSelector: {}, ruleNamespaceSelector: {} },
} as ThanosRuler;

const rule = (expr: string, generation = 1): PrometheusRule => ({
  apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule',
  metadata: { namespace: 'team-a', name: 'slo', uid: 'u-slo', generation, resourceVersion: String(generation) },
  spec: { groups: [{ name: 'slo', rules: [{ record: 'job:errors:rate5m', expr }] }] },
} as PrometheusRule);

function setup() {
  const cluster = new FakeCluster();
  const requeued: number[] = [];
  cluster.caches.thanosRulers.put(ruler);
  cluster.caches.namespaces.put({ metadata: { name: 'team-a' } }, { metadata: { name: 'monitoring' } });
  cluster.caches.prometheusRules.put(rule('rate(errors_total[5m])'));
  const reconciler = new ThanosRulerReconciler({
    thanosRulers: cluster.caches.thanosRulers, prometheusRules: cluster.caches.prometheusRules, namespaces: cluster.caches.namespaces,
    referenced: { resolve: async () => ({ secrets: [], configMaps: [] }) },
    ownedConfigMaps: cluster.caches.ownedConfigMaps, ownedSecrets: cluster.caches.ownedSecrets, caches: cluster.caches, children: cluster.children,
    reloader: { reloadThanosRuler: async () => ({ state: 'loaded', status: { loadedReplicas: [], pendingReplicas: [] } }) as never, forget: () => undefined },
    status: cluster.status, events: cluster.recorder, requeue: (_key, delayMs) => void requeued.push(delayMs), log, now: () => new Date('2026-12-07T12:00:00Z'),
  });
  const dataWrites = () => cluster.writes.flatMap((write) => (write.to === 'child' && (write.kind === 'Secret' || write.kind === 'ConfigMap') ? [write] : []));
  return { cluster, reconciler, dataWrites, requeued };
}

describe('the ThanosRuler reconciler\'s Secrets and rule ConfigMaps', () => {
  it('reconciles again later and later while the pods of prometheus-operator\'s replaced StatefulSet remain, writing nothing again', async () => {
    const { cluster, reconciler, dataWrites, requeued } = setup();
    cluster.foreignStatefulSets.set('monitoring/thanos-ruler-r', { uid: 'uid-po-sts', managedBy: 'prometheus-operator', ownerUids: ['u-r'], replicas: 1 });
    cluster.pods.set('monitoring/thanos-ruler-r-0', 'uid-po-0');
    await reconciler.reconcile('monitoring/r');
    const first = dataWrites().length;
    await reconciler.reconcile('monitoring/r');
    await reconciler.reconcile('monitoring/r');
    expect(requeued).toEqual([ORPHAN_CHECK_INTERVAL_MS, 2 * ORPHAN_CHECK_INTERVAL_MS, 4 * ORPHAN_CHECK_INTERVAL_MS]);
    expect(dataWrites()).toHaveLength(first);
    cluster.pods.delete('monitoring/thanos-ruler-r-0');
    await reconciler.reconcile('monitoring/r');
    await reconciler.bindingsSettled();
    expect(requeued).toHaveLength(3);
    expect(cluster.writes.filter((write) => write.to === 'child' && write.op === 'annotate')).toHaveLength(1);
  });

  it('writes them once, and not again while they hold what it would write', async () => {
    const { reconciler, dataWrites } = setup();
    await reconciler.reconcile('monitoring/r');
    await reconciler.bindingsSettled();
    expect(dataWrites().map((write) => `${write.kind} ${write.name}`).sort()).toEqual([
      'ConfigMap thanos-ruler-r-rulefiles-0', 'Secret thanos-ruler-r-config', 'Secret thanos-ruler-r-tls-assets-0', 'Secret thanos-ruler-r-web-config',
    ]);
    const first = dataWrites().length;
    // Another reconcile with nothing changed (a PrometheusRule elsewhere changed, say): no write of either.
    await reconciler.reconcile('monitoring/r');
    await reconciler.bindingsSettled();
    expect(dataWrites()).toHaveLength(first);
  });

  it('writes no child at all on a reconcile that changes nothing (the Service and StatefulSet included)', async () => {
    const { cluster, reconciler } = setup();
    await reconciler.reconcile('monitoring/r');
    await reconciler.bindingsSettled();
    const childWrites = () => cluster.writes.flatMap((write) => (write.to === 'child' ? [`${write.op} ${write.kind} ${write.name}`] : []));
    expect(childWrites()).toEqual(expect.arrayContaining(['apply Service thanos-ruler-operated', 'apply StatefulSet thanos-ruler-r']));
    const first = childWrites().length;
    await reconciler.reconcile('monitoring/r');
    await reconciler.bindingsSettled();
    expect(childWrites().slice(first)).toEqual([]);
  });

  it('says in status what the API server refused in a child (an invalid toleration), instead of retrying, and recovers once fixed', async () => {
    const { cluster, reconciler } = setup();
    const message = 'StatefulSet.apps "thanos-ruler-r" is invalid: spec.template.spec.tolerations[0].operator: Unsupported value: "Sometimes"';
    cluster.fail = (write) => (write.to === 'child' && write.kind === 'StatefulSet' ? apiError(422, 'Invalid', message) : undefined);
    await expect(reconciler.reconcile('monitoring/r')).resolves.toBe('done');
    const reconciled = () => cluster.caches.thanosRulers.get('r', 'monitoring')?.status?.conditions?.find((condition) => condition.type === 'Reconciled');
    expect(reconciled()).toMatchObject({ status: 'False', reason: 'ReconciliationFailed', message: `StatefulSet thanos-ruler-r: ${message}` });
    expect(cluster.events.map((event) => event.reason)).toContain('ReconciliationFailed');
    // Any other failure (the API server unavailable) is the work queue's to retry.
    cluster.fail = (write) => (write.to === 'child' && write.kind === 'StatefulSet' ? apiError(503, 'ServiceUnavailable', 'etcd is down') : undefined);
    await expect(reconciler.reconcile('monitoring/r')).rejects.toThrow();
    cluster.fail = () => undefined;
    await reconciler.reconcile('monitoring/r');
    await reconciler.bindingsSettled();
    expect(reconciled()).toMatchObject({ status: 'True' });
  });

  it('writes only the rule ConfigMap when a selected PrometheusRule changes', async () => {
    const { cluster, reconciler, dataWrites } = setup();
    await reconciler.reconcile('monitoring/r');
    await reconciler.bindingsSettled();
    const first = dataWrites().length;
    cluster.caches.prometheusRules.put(rule('rate(errors_total[10m])', 2));
    await reconciler.reconcile('monitoring/r');
    await reconciler.bindingsSettled();
    expect(dataWrites().slice(first).map((write) => `${write.op} ${write.kind} ${write.name}`)).toEqual(['replace ConfigMap thanos-ruler-r-rulefiles-0']);
    expect(Object.values(cluster.stored.ConfigMap.get('thanos-ruler-r-rulefiles-0', 'monitoring')?.data ?? {}).join('')).toContain('errors_total[10m]');
  });

  it('says in its Reconciled condition which remote write fields its Thanos release left out', async () => {
    const { cluster, reconciler } = setup();
    cluster.caches.thanosRulers.put({ ...ruler, spec: { ...ruler.spec, version: 'v0.30.0', remoteWrite: [{ url: 'http://sink:9090/api/v1/write', roundRobinDNS: true }] } } as ThanosRuler);
    await reconciler.reconcile('monitoring/r');
    await reconciler.bindingsSettled();
    const statuses = cluster.writes.flatMap((write) => (write.to === 'status' && write.kind === 'ThanosRuler' ? [write.status as { conditions?: { type: string; status: string; message?: string }[] }] : []));
    expect(statuses.at(-1)?.conditions?.find((condition) => condition.type === 'Reconciled')).toMatchObject({
      status: 'True', message: 'spec.remoteWrite[0].roundRobinDNS: ignored because thanos rule v0.30.0 does not support it (needs v0.38.0 or later)',
    });
  });

  it('rolls a stateless ruler\'s pods when its remote write file changes (thanos rule reads it at start only)', async () => {
    const { cluster, reconciler } = setup();
    const annotation = () => cluster.caches.ownedStatefulSets.get('thanos-ruler-r', 'monitoring')?.spec?.template.metadata?.annotations?.['promop.prometheus.io/remote-write-hash'];
    await reconciler.reconcile('monitoring/r');
    expect(annotation()).toBeUndefined();
    const stateless = (url: string) => ({ ...ruler, spec: { ...ruler.spec, remoteWrite: [{ url }] } }) as ThanosRuler;
    cluster.caches.thanosRulers.put(stateless('http://sink-a:9090/api/v1/write'));
    await reconciler.reconcile('monitoring/r');
    const first = annotation();
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    await reconciler.reconcile('monitoring/r');
    expect(annotation()).toBe(first);
    cluster.caches.thanosRulers.put(stateless('http://sink-b:9090/api/v1/write'));
    await reconciler.reconcile('monitoring/r');
    expect(annotation()).not.toBe(first);
    await reconciler.bindingsSettled();
  });
});
