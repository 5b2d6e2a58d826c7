/**
 * The reconciler's decisions, with in-memory fakes of what it reads and writes through (test-reconciler-fakes.ts):
 * what it writes, what it leaves alone, and what it returns, for a broken spec, a rejected monitor, nothing
 * changed, a conflict on a binding, a deleted or paused Prometheus, a failed reload and a refused StatefulSet; and
 * that the bindings are written beside the reconcile (binding-writer.ts): a reconcile does not wait for them, newer
 * verdicts replace older ones not yet written, and a failed binding write requeues the key. A reconcile resolves
 * before its bindings are written, so the tests wait for them with `bindingsSettled`. Against the real API server
 * the reconciler is tested by the operator's API-server tests.
 */
import type { Prometheus, ServiceMonitor } from '@promop/crds';
import { ORPHAN_CHECK_INTERVAL_MS, ORPHAN_GONE_ANNOTATION } from './orphaned-pods.ts';
import { pino } from 'pino';
import { PrometheusReconciler } from './reconcile-prometheus.ts';
import { CUSTOM_SERVICE_RECHECK_MS } from '../workload/governing-service.ts';
import { apiError, FakeCluster, FakeReloader } from './test-reconciler-fakes.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const KEY = 'monitoring/main';

function prometheus(spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}): Prometheus {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { name: 'main', namespace: 'monitoring', uid: 'uid-main', generation: 1, resourceVersion: '1', ...metadata },
    spec: { serviceMonitorSelector: {}, ...spec },
  } as Prometheus;
}

function serviceMonitor(name: string, endpoint: Record<string, unknown> = {}): ServiceMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name, namespace: 'monitoring', uid: `uid-${name}`, generation: 1, resourceVersion: '1' },
    spec: { selector: { matchLabels: { app: name } }, endpoints: [{ port: 'web', ...endpoint }] },
  } as ServiceMonitor;
}

/** A bad endpoint: a scrape timeout longer than its interval. */
const TOO_LONG_TIMEOUT = { interval: '10s', scrapeTimeout: '1m' };

function setUp(...objects: (Prometheus | ServiceMonitor)[]) {
  const cluster = new FakeCluster();
  cluster.caches.namespaces.put({ metadata: { name: 'monitoring' } });
  for (const object of objects) {
    if (object.kind === 'Prometheus') {
      cluster.caches.prometheuses.put(object);
      cluster.existing.add(`${object.metadata.namespace}/${object.metadata.name}`);
    } else {
      cluster.caches.serviceMonitors.put(object);
    }
  }
  return reconcilerOf(cluster);
}

/** A reconciler (a promop process) working on `cluster`; another one on the same cluster is a restarted promop. */
function reconcilerOf(cluster: FakeCluster) {
  /** The keys the binding writer asked to reconcile again, with their delays. */
  const requeued: { key: string; delayMs: number }[] = [];
  /** Every log line, parsed. */
  const logLines: Record<string, unknown>[] = [];
  const reloader = new FakeReloader();
  /** The keys whose per-Prometheus metric series the reconciler dropped. */
  const metricsForgotten: string[] = [];
  const reconciler = new PrometheusReconciler({
    metrics: { recordGenerated: () => undefined, forgetPrometheus: (prometheusKey) => void metricsForgotten.push(prometheusKey) },
    caches: cluster.caches,
    referenced: cluster.referenced,
    children: cluster.children,
    status: cluster.status,
    events: cluster.recorder,
    reloader,
    prometheusExists: cluster.prometheusExists,
    requeue: (key, delayMs) => requeued.push({ key, delayMs }),
    log: pino({ level: 'debug' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) }),
    now: () => NOW,
  });
  /** Reconciles KEY and waits until its bindings are written too; resolves with the reconcile's outcome. */
  const reconcileAndBind = async () => {
    const outcome = await reconciler.reconcile(KEY);
    await reconciler.bindingsSettled(KEY);
    return outcome;
  };
  return { cluster, reloader, reconciler, requeued, logLines, reconcileAndBind, metricsForgotten };
}

function reconciledOf(cluster: FakeCluster) {
  return cluster.caches.prometheuses.get('main', 'monitoring')?.status?.conditions?.find((c) => c.type === 'Reconciled');
}

function bindingOf(cluster: FakeCluster, name: string) {
  const status = cluster.caches.serviceMonitors.get(name, 'monitoring')?.status;
  return { status, accepted: status?.bindings?.find((b) => b.name === 'main')?.conditions?.find((c) => c.type === 'Accepted') };
}

describe('reconcile of one Prometheus', () => {
  it('a broken Prometheus spec: Reconciled=False with the path, no child written, nothing reloaded', async () => {
    const { cluster, reloader, reconcileAndBind } = setUp(prometheus({ scrapeInterval: 'often' }), serviceMonitor('good'));
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(reconciledOf(cluster)).toMatchObject({ status: 'False', reason: 'ReconciliationFailed', message: expect.stringMatching(/^spec\.scrapeInterval: /) });
    expect(cluster.writesTo('child')).toEqual([]);
    expect(reloader.reloads).toEqual([]);
  });

  it('a rejected monitor: its binding with the path and one Warning Event; the others and the children still written', async () => {
    const { cluster, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'), serviceMonitor('bad', TOO_LONG_TIMEOUT));
    await expect(reconcileAndBind()).resolves.toBe('done');

    const bad = bindingOf(cluster, 'bad');
    expect(bad.accepted).toMatchObject({ status: 'False', reason: 'InvalidConfiguration', message: expect.stringMatching(/^spec\.endpoints\[0\]\.scrapeTimeout: /) });
    expect(bad.status).toMatchObject({ acceptedBy: 0, rejectedBy: 1 });
    expect(bindingOf(cluster, 'good').accepted).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(cluster.events).toHaveLength(1);
    expect(cluster.events[0]).toMatchObject({
      type: 'Warning', reason: 'InvalidConfiguration', regarding: { kind: 'ServiceMonitor', namespace: 'monitoring', name: 'bad', uid: 'uid-bad' },
      related: { kind: 'Prometheus', name: 'main', uid: 'uid-main' }, note: expect.stringContaining('spec.endpoints[0].scrapeTimeout: '),
    });
    // The Prometheus still gets its config, with the good monitor's job and without the bad one's.
    const config = cluster.stored.Secret.list('monitoring')
      .flatMap((secret) => [...Object.values(secret.stringData ?? {}), ...Object.values(secret.data ?? {}).map((data) => Buffer.from(data, 'base64').toString())])
      .join('\n');
    expect(config).toContain('serviceMonitor/monitoring/good/0');
    expect(config).not.toContain('serviceMonitor/monitoring/bad/');
    expect(reconciledOf(cluster)).toMatchObject({ status: 'True' });

    // The same rejection again is no new Event.
    await reconcileAndBind();
    expect(cluster.events).toHaveLength(1);
  });

  it('nothing changed since the last reconcile: zero writes, and the shards are still asked to run their files', async () => {
    const { cluster, reloader, reconciler, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'), serviceMonitor('bad', TOO_LONG_TIMEOUT));
    await expect(reconcileAndBind()).resolves.toBe('done');
    const first = cluster.writes.length;
    expect(cluster.writesTo('child').map((w) => w.kind)).toEqual(expect.arrayContaining(['Secret', 'ConfigMap', 'Service', 'StatefulSet']));
    expect(cluster.writesTo('status').map((w) => `${w.kind}/${w.name}`).sort()).toEqual(['Prometheus/main', 'ServiceMonitor/bad', 'ServiceMonitor/good']);

    expect(reconciler.wroteFiles('monitoring/main')).toBe(true);
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(cluster.writes.slice(first)).toEqual([]);
    // Nothing written: the operator does not hold back the next reconcile after this one.
    expect(reconciler.wroteFiles('monitoring/main')).toBe(false);
    expect(reloader.reloads).toHaveLength(2);
    // Known from its own writes (their cache holds metadata only): no Secret or ConfigMap was read.
    expect(cluster.reads).toBe(0);
  });

  it('a restarted promop reads each of its Secrets and ConfigMaps once and writes nothing; an edit of their data is written back', async () => {
    const { cluster, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    await expect(reconcileAndBind()).resolves.toBe('done');
    const dataChildren = cluster.stored.Secret.list().length + cluster.stored.ConfigMap.list().length;
    expect(dataChildren).toBeGreaterThanOrEqual(3);
    const written = cluster.writes.length;

    const restarted = reconcilerOf(cluster);
    await expect(restarted.reconcileAndBind()).resolves.toBe('done');
    expect(cluster.writes.slice(written)).toEqual([]);
    expect(cluster.reads).toBe(dataChildren);
    await expect(restarted.reconcileAndBind()).resolves.toBe('done');
    expect(cluster.reads).toBe(dataChildren);

    // Someone changes the config's data and leaves promop's applied-hash: the cache shows a new resourceVersion only.
    const secret = cluster.stored.Secret.get('prometheus-main', 'monitoring')!;
    cluster.editData('Secret', 'monitoring', 'prometheus-main', (current) => ({ ...current, data: Object.fromEntries(Object.keys(current.data ?? {}).map((key) => [key, 'ZWRpdGVk'])) }));
    await expect(restarted.reconcileAndBind()).resolves.toBe('done');
    expect(cluster.writes.slice(written).flatMap((w) => (w.to === 'child' ? [`${w.op} ${w.kind} ${w.name}`] : []))).toEqual(['replace Secret prometheus-main']);
    expect(cluster.stored.Secret.get('prometheus-main', 'monitoring')!.data).toEqual(secret.data);
    expect(cluster.reads).toBe(dataChildren + 1);
  });

  it('keys someone added to a rule ConfigMap, the config Secret or the Service selector are removed with one patch each', async () => {
    const { cluster, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    await expect(reconcileAndBind()).resolves.toBe('done');
    const { ownedServices } = cluster.caches;
    const configMap = cluster.stored.ConfigMap.list('monitoring')[0]!;
    const secret = cluster.stored.Secret.get('prometheus-main', 'monitoring')!;
    const service = ownedServices.get('prometheus-operated', 'monitoring')!;
    // What another manager's patch leaves: promop's applied-hash unchanged, one key more.
    cluster.editData('ConfigMap', 'monitoring', configMap.metadata!.name!, (current) => ({ ...current, data: { ...current.data, 'someone-else.yaml': 'groups: []\n' } }));
    cluster.editData('Secret', 'monitoring', 'prometheus-main', (current) => ({ ...current, data: { ...current.data, 'extra.yaml': 'e30=' } }));
    ownedServices.put({ ...service, spec: { ...service.spec, selector: { ...service.spec?.selector, team: 'other' } } });

    const before = cluster.writes.length;
    await expect(reconcileAndBind()).resolves.toBe('done');
    const childWrites = cluster.writes.slice(before).flatMap((w) => (w.to === 'child' ? [`${w.op} ${w.kind}`] : []));
    expect(childWrites.sort()).toEqual(['merge-patch ConfigMap', 'merge-patch Secret', 'merge-patch Service']);
    expect(cluster.stored.ConfigMap.get(configMap.metadata!.name!, 'monitoring')!.data).toEqual(configMap.data);
    expect(cluster.stored.Secret.get('prometheus-main', 'monitoring')!.data).toEqual(secret.data);
    expect(ownedServices.get('prometheus-operated', 'monitoring')!.spec?.selector).toEqual(service.spec?.selector);

    // The versions the patches stored are noted as promop's: the next reconcile neither writes nor reads.
    const [after, readsAfter] = [cluster.writes.length, cluster.reads];
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(cluster.writes.slice(after)).toEqual([]);
    expect(cluster.reads).toBe(readsAfter);
  });

  it('a cache that has not yet seen promop\'s last write is not taken for it: the Secret is read, not skipped', async () => {
    const { cluster, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    await expect(reconcileAndBind()).resolves.toBe('done');
    const cached = cluster.caches.ownedSecrets.get('prometheus-main', 'monitoring')!;
    // An older version with promop's applied-hash (the watch lags): it may hold anything, so it is read and compared.
    cluster.caches.ownedSecrets.put({ ...cached, metadata: { ...cached.metadata, resourceVersion: '1' } });
    const [written, reads] = [cluster.writes.length, cluster.reads];
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(cluster.reads).toBe(reads + 1);
    expect(cluster.writes.slice(written)).toEqual([]);
  });

  it('a 409 on one binding requeues the key with a growing backoff; the other bindings and the status are still written', async () => {
    const { cluster, requeued, reconcileAndBind } = setUp(prometheus(), serviceMonitor('a'), serviceMonitor('b'), serviceMonitor('c'));
    cluster.fail = (write) => (write.to === 'status' && write.kind === 'ServiceMonitor' && write.name === 'b' ? apiError(409, 'Conflict', 'the object has been modified') : undefined);
    // The reconcile's own outcome is the config's (written); the binding writer asks for the retry.
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(requeued).toEqual([{ key: KEY, delayMs: 5 }]);
    expect(bindingOf(cluster, 'a').accepted).toMatchObject({ status: 'True' });
    expect(bindingOf(cluster, 'c').accepted).toMatchObject({ status: 'True' });
    expect(bindingOf(cluster, 'b').status).toBeUndefined();
    expect(reconciledOf(cluster)).toMatchObject({ status: 'True' });

    // Still in conflict: the reconcile succeeds again, and the backoff grows all the same.
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(requeued).toEqual([{ key: KEY, delayMs: 5 }, { key: KEY, delayMs: 10 }]);

    // Once the conflict is gone, the retry writes the missing binding and only that, and asks for no other.
    cluster.fail = () => undefined;
    const before = cluster.writes.length;
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(cluster.writes.slice(before).map((w) => `${w.to}:${w.kind}/${w.name}`)).toEqual(['status:ServiceMonitor/b']);
    expect(requeued).toHaveLength(2);
  });

  it('a binding write that fails otherwise (403) is logged as an error and requeues the key', async () => {
    const { cluster, requeued, logLines, reconcileAndBind } = setUp(prometheus(), serviceMonitor('a'));
    cluster.fail = (write) => (write.to === 'status' && write.kind === 'ServiceMonitor' ? apiError(403, 'Forbidden', 'servicemonitors.monitoring.coreos.com "a" is forbidden') : undefined);
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(requeued).toEqual([{ key: KEY, delayMs: 5 }]);
    const errors = logLines.filter((line) => line.level === 50);
    expect(errors).toEqual([expect.objectContaining({ msg: 'binding writes failed; retrying with backoff', prometheus: KEY, kind: 'Prometheus', failures: 1 })]);
    expect(JSON.stringify(errors[0])).toContain('forbidden');
  });

  it('a deleted Prometheus: its bindings are removed, nothing else is written, the reloader and the metrics forget it', async () => {
    const { cluster, reloader, reconcileAndBind, metricsForgotten } = setUp(prometheus(), serviceMonitor('good'), serviceMonitor('bad', TOO_LONG_TIMEOUT));
    await reconcileAndBind();
    expect(bindingOf(cluster, 'good').status?.bindings).toHaveLength(1);

    cluster.caches.prometheuses.remove('main', 'monitoring');
    cluster.existing.delete(KEY);
    const before = cluster.writes.length;
    await expect(reconcileAndBind()).resolves.toBe('done');
    const after = cluster.writes.slice(before);
    expect(after.map((w) => `${w.to}:${w.kind}/${w.name}`).sort()).toEqual(['status:ServiceMonitor/bad', 'status:ServiceMonitor/good']);
    for (const name of ['good', 'bad']) expect(bindingOf(cluster, name).status).toEqual({ bindings: [], acceptedBy: 0, rejectedBy: 0 });
    expect(reloader.forgotten).toEqual([KEY]);
    // Its series go here too, not only on the delete event: a reconcile under way then may have set them since.
    expect(metricsForgotten).toEqual([KEY]);

    // Nothing left to remove: the next reconcile of the key writes nothing.
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(cluster.writes.slice(before + after.length)).toEqual([]);
  });

  it('a Prometheus missing from the cache but present in the API server (another operator\'s) keeps its bindings', async () => {
    const { cluster, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    await reconcileAndBind();
    cluster.caches.prometheuses.remove('main', 'monitoring');
    const before = cluster.writes.length;
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(cluster.writes.slice(before)).toEqual([]);
    expect(bindingOf(cluster, 'good').accepted).toMatchObject({ status: 'True' });
  });

  it('a Prometheus being deleted (deletionTimestamp) has its bindings removed too', async () => {
    const { cluster, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    await reconcileAndBind();
    const current = cluster.caches.prometheuses.get('main', 'monitoring') as Prometheus;
    cluster.caches.prometheuses.put({ ...current, metadata: { ...current.metadata, deletionTimestamp: '2026-03-01T11:59:00Z' } } as Prometheus);
    const before = cluster.writes.length;
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(cluster.writes.slice(before).map((w) => `${w.to}:${w.kind}/${w.name}`)).toEqual(['status:ServiceMonitor/good']);
  });

  it('a paused Prometheus: only its status is written (nothing rendered, applied, bound or reloaded)', async () => {
    const { cluster, reloader, reconcileAndBind } = setUp(prometheus({ paused: true }), serviceMonitor('good'), serviceMonitor('bad', TOO_LONG_TIMEOUT));
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(cluster.writes.map((w) => `${w.to}:${w.kind}/${w.name}`)).toEqual(['status:Prometheus/main']);
    expect(cluster.caches.prometheuses.get('main', 'monitoring')?.status).toMatchObject({ paused: true });
    expect(cluster.events).toEqual([]);
    expect(reloader.reloads).toEqual([]);
  });

  it('a failed reload: Reconciled=False (ReloadFailed) with the shard; the reloader retries, not the work queue', async () => {
    const { cluster, reloader, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    reloader.failure = 'POST /-/reload: connection refused';
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(reconciledOf(cluster)).toMatchObject({ status: 'False', reason: 'ReloadFailed', message: 'shard 0: POST /-/reload: connection refused' });
    expect(cluster.caches.prometheuses.get('main', 'monitoring')?.status?.configStatus?.[0]).toMatchObject({ shardID: '0', pendingReplicas: [{ reason: 'ReloadFailed' }] });
    // The bindings are written all the same.
    expect(bindingOf(cluster, 'good').accepted).toMatchObject({ status: 'True' });

    reloader.failure = undefined;
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(reconciledOf(cluster)).toMatchObject({ status: 'True' });
  });

  it('a reload under way: Reconciled=Unknown (Reloading) naming the pods, and the end of the reloader\'s round requeues the key at once', async () => {
    const { cluster, reloader, requeued, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    reloader.reloading = true;
    await expect(reconcileAndBind()).resolves.toBe('done');
    const hash = reloader.reloads[0]!.expected.hash;
    expect(reconciledOf(cluster)).toMatchObject({ status: 'Unknown', reason: 'Reloading', message: `shard 0: prometheus-main-0 loading config ${hash}` });
    expect(cluster.caches.prometheuses.get('main', 'monitoring')?.status?.configStatus).toEqual([{ shardID: '0', configHash: hash, pendingReplicas: [{ pod: 'prometheus-main-0', reason: 'Reloading', message: 'reloading' }] }]);
    expect(requeued).toEqual([]);
    reloader.reloads[0]!.onRoundEnd?.();
    expect(requeued).toEqual([{ key: 'monitoring/main', delayMs: 0 }]);

    reloader.reloading = false;
    await reconcileAndBind();
    expect(reconciledOf(cluster)).toMatchObject({ status: 'True' });
    expect(cluster.caches.prometheuses.get('main', 'monitoring')?.status?.configStatus).toEqual([{ shardID: '0', configHash: hash, loadedReplicas: ['prometheus-main-0'] }]);
  });

  it('a restarted promop confirming files the status already shows writes no status while it confirms', async () => {
    const { cluster, reloader, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    await reconcileAndBind();
    const written = cluster.writes.length;
    const before = cluster.caches.prometheuses.get('main', 'monitoring')?.status;
    // The reloader of a new process knows no pod yet: the same files are "reloading" until its round ends.
    reloader.reloading = true;
    await reconcileAndBind();
    expect(cluster.writes.slice(written)).toEqual([]);
    expect(cluster.caches.prometheuses.get('main', 'monitoring')?.status).toEqual(before);
  });

  it('a StatefulSet the API server refuses (422) is Reconciled=False naming it, not a throw', async () => {
    const { cluster, reloader, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    cluster.fail = (write) => (write.to === 'child' && write.kind === 'StatefulSet'
      ? apiError(422, 'Invalid', 'StatefulSet.apps "prometheus-main" is invalid: spec.template.spec.tolerations[0].operator: Unsupported value: "Sometimes"')
      : undefined);
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(reconciledOf(cluster)).toMatchObject({ status: 'False', reason: 'ReconciliationFailed', message: expect.stringMatching(/^StatefulSet prometheus-main: .*tolerations\[0\]\.operator/) });
    expect(reloader.reloads).toEqual([]);
    expect(bindingOf(cluster, 'good').accepted).toMatchObject({ status: 'True' });
  });

  it('a spec.serviceName naming no Service, or one selecting other pods, is Reconciled=False at its path with nothing written, and looked at again; one selecting the pods passes', async () => {
    const { cluster, reloader, requeued, reconcileAndBind } = setUp(prometheus({ serviceName: 'main-governing' }), serviceMonitor('good'));
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(reconciledOf(cluster)).toMatchObject({
      status: 'False', reason: 'ReconciliationFailed',
      message: 'spec.serviceName: Service monitoring/main-governing does not exist; create the headless Service that governs the pods, or leave spec.serviceName unset',
    });
    expect(cluster.writesTo('child')).toEqual([]);
    expect(reloader.reloads).toEqual([]);
    expect(requeued).toContainEqual({ key: KEY, delayMs: CUSTOM_SERVICE_RECHECK_MS });

    // prometheus-operator's pods' managed-by value: a Service written for them does not select promop's pods.
    cluster.userServices.put({ metadata: { name: 'main-governing', namespace: 'monitoring' }, spec: { clusterIP: 'None', selector: { 'app.kubernetes.io/managed-by': 'prometheus-operator', prometheus: 'main' } } });
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(reconciledOf(cluster)).toMatchObject({
      status: 'False',
      message: expect.stringMatching(/^spec\.serviceName: Service monitoring\/main-governing selects app\.kubernetes\.io\/managed-by=prometheus-operator,prometheus=main, which does not select the pods \(labels .*\): app\.kubernetes\.io\/managed-by is "promop" on the pods$/),
    });
    expect(cluster.writesTo('child')).toEqual([]);

    cluster.userServices.put({ metadata: { name: 'main-governing', namespace: 'monitoring' }, spec: { clusterIP: 'None', selector: { 'app.kubernetes.io/name': 'prometheus', prometheus: 'main' } } });
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(reconciledOf(cluster)).toMatchObject({ status: 'True' });
    // The StatefulSet is governed by the user's Service; promop applies no prometheus-operated for this Prometheus.
    expect(cluster.caches.ownedStatefulSets.get('prometheus-main', 'monitoring')?.spec?.serviceName).toBe('main-governing');
    expect(cluster.caches.ownedServices.get('prometheus-operated', 'monitoring')).toBeUndefined();
  });

  it('a spec.serviceName that is no Service name is refused before promop reads anything by it', async () => {
    const { cluster, reconcileAndBind } = setUp(prometheus({ serviceName: '../secrets/x' }), serviceMonitor('good'));
    let reads = 0;
    const readService = cluster.children.readService;
    cluster.children.readService = async (namespace, name) => (reads += 1, readService(namespace, name));
    await expect(reconcileAndBind()).resolves.toBe('done');
    expect(reconciledOf(cluster)).toMatchObject({ status: 'False', message: 'spec.serviceName: "../secrets/x" is not a Service name (at most 63 lower-case letters, digits and \'-\', starting with a letter)' });
    expect(reads).toBe(0);
    expect(cluster.writesTo('child')).toEqual([]);
  });

  it('prometheus-operator\'s StatefulSet of the same Prometheus is deleted without its pods, then promop\'s created; another\'s is left to the apply', async () => {
    const { cluster, logLines, requeued, reconcileAndBind } = setUp(prometheus(), serviceMonitor('good'));
    cluster.foreignStatefulSets.set('monitoring/prometheus-main', { uid: 'uid-po-sts', managedBy: 'prometheus-operator', ownerUids: ['uid-main'], replicas: 2 });
    cluster.pods.set('monitoring/prometheus-main-0', 'uid-po-0');
    cluster.pods.set('monitoring/prometheus-main-1', 'uid-po-1');
    await expect(reconcileAndBind()).resolves.toBe('done');
    const statefulSetWrites = (writes: typeof cluster.writes) => writes.flatMap((write) => (write.to === 'child' && write.kind === 'StatefulSet' ? [write.op] : []));
    expect(statefulSetWrites(cluster.writes)).toEqual(['orphan-delete', 'apply']);
    expect(logLines.find((line) => line.previousUid === 'uid-po-sts')).toMatchObject({ previousManager: 'prometheus-operator', childName: 'prometheus-main' });
    expect(reconciledOf(cluster)).toMatchObject({ status: 'True' });
    // Its pods keep running: promop looks again shortly, and touches its StatefulSet as soon as one is gone, so the
    // StatefulSet controller starts promop's pod then instead of after its back-off.
    expect(requeued).toEqual([{ key: KEY, delayMs: ORPHAN_CHECK_INTERVAL_MS }]);
    cluster.writes.length = 0;
    await reconcileAndBind();
    expect(statefulSetWrites(cluster.writes)).toEqual([]);
    // Still there: each look is a whole reconcile, so the next one waits longer.
    expect(requeued[1]).toEqual({ key: KEY, delayMs: 2 * ORPHAN_CHECK_INTERVAL_MS });
    cluster.pods.delete('monitoring/prometheus-main-0');
    await reconcileAndBind();
    expect(statefulSetWrites(cluster.writes)).toEqual(['annotate']);
    expect(cluster.caches.ownedStatefulSets.get('prometheus-main', 'monitoring')?.metadata?.annotations?.[ORPHAN_GONE_ANNOTATION]).toBe('prometheus-main-0/uid-po-0');
    // One went: the next may go soon too.
    expect(requeued).toHaveLength(3);
    expect(requeued[2]).toEqual({ key: KEY, delayMs: ORPHAN_CHECK_INTERVAL_MS });
    cluster.pods.set('monitoring/prometheus-main-1', 'uid-promop-1');
    await reconcileAndBind();
    expect(statefulSetWrites(cluster.writes)).toEqual(['annotate', 'annotate']);
    // None left: no more looking.
    expect(requeued).toHaveLength(3);

    // A StatefulSet of that name the Prometheus does not own is not promop's to delete.
    const other = setUp(prometheus(), serviceMonitor('good'));
    other.cluster.foreignStatefulSets.set('monitoring/prometheus-main', { uid: 'uid-someone', managedBy: 'someone', ownerUids: ['uid-other'], replicas: 1 });
    await other.reconcileAndBind();
    expect(statefulSetWrites(other.cluster.writes)).toEqual(['apply']);
  });

  it('an API error that is not the user\'s (503) is thrown for the work queue to retry with backoff', async () => {
    const { cluster, reconciler } = setUp(prometheus(), serviceMonitor('good'));
    cluster.fail = (write) => (write.to === 'child' && write.kind === 'Secret' ? apiError(503, 'ServiceUnavailable', 'etcd is down') : undefined);
    await expect(reconciler.reconcile(KEY)).rejects.toMatchObject({ code: 503 });
  });
});

/** A promise and its resolve: what a held status write waits for. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A ServiceMonitor of `team` (label `team`). */
function teamMonitor(name: string, team: string): ServiceMonitor {
  const monitor = serviceMonitor(name);
  return { ...monitor, metadata: { ...monitor.metadata, labels: { team } } };
}

/** Resolves once `check` is true (polling every tick), or fails after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Monitors `<prefix>00`..: more than the 16 binding writes in flight at once, so some wait for a free slot. */
const MONITORS = 20;
const IN_FLIGHT = 16;
const teamMonitors = (prefix: string, team: string, count: number) =>
  Array.from({ length: count }, (_, i) => teamMonitor(`${prefix}${String(i).padStart(2, '0')}`, team));

describe('the bindings of a Prometheus, written beside its reconciles', () => {
  it('a reconcile returns with the config and status written while its binding writes are still held', async () => {
    const { cluster, reconciler } = setUp(prometheus(), serviceMonitor('a'), serviceMonitor('b'));
    const held = gate();
    const started: string[] = [];
    cluster.hold = (target) => (target.kind === 'ServiceMonitor' ? (started.push(target.name), held.promise) : undefined);

    const outcome = await Promise.race([reconciler.reconcile(KEY), new Promise((resolve) => setTimeout(() => resolve('still waiting for the bindings'), 2_000))]);
    expect(outcome).toBe('done');
    expect(cluster.caches.ownedSecrets.get('prometheus-main', 'monitoring')).toBeDefined();
    expect(reconciledOf(cluster)).toMatchObject({ status: 'True' });
    await until(() => started.length === 2);
    expect(bindingOf(cluster, 'a').status).toBeUndefined();

    held.open();
    await reconciler.bindingsSettled(KEY);
    expect(bindingOf(cluster, 'a').accepted).toMatchObject({ status: 'True' });
    expect(bindingOf(cluster, 'b').accepted).toMatchObject({ status: 'True' });
  });

  it('newer verdicts handed while a pass is held replace it: the writes it had not started never start, and the statuses end as the newer verdicts say', async () => {
    const { cluster, reconciler } = setUp(prometheus({ serviceMonitorSelector: { matchLabels: { team: 'a' } } }), ...teamMonitors('a', 'a', MONITORS), ...teamMonitors('b', 'b', 5));
    const held = gate();
    const started: string[] = [];
    cluster.hold = (target) => (target.kind === 'ServiceMonitor' ? (started.push(target.name), held.promise) : undefined);

    // A: team a selected; its pass starts 16 of its 20 writes and is held.
    await expect(reconciler.reconcile(KEY)).resolves.toBe('done');
    await until(() => started.length === IN_FLIGHT);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toHaveLength(IN_FLIGHT);
    const startedInA = [...started];
    const neverStarted = teamMonitors('a', 'a', MONITORS).map((m) => m.metadata.name).filter((name) => !startedInA.includes(name));
    expect(neverStarted).toHaveLength(MONITORS - IN_FLIGHT);

    // B: the Prometheus now selects team b. Its reconcile returns while A's writes are still held.
    const current = cluster.caches.prometheuses.get('main', 'monitoring') as Prometheus;
    cluster.caches.prometheuses.put({ ...current, metadata: { ...current.metadata, generation: 2 }, spec: { ...current.spec, serviceMonitorSelector: { matchLabels: { team: 'b' } } } } as Prometheus);
    await expect(reconciler.reconcile(KEY)).resolves.toBe('done');
    expect(started).toHaveLength(IN_FLIGHT);

    held.open();
    await reconciler.bindingsSettled(KEY);
    // After B arrived: A's 16 bindings removed again, team b's written; none of the 4 only A wanted was started.
    const startedAfterB = started.slice(IN_FLIGHT);
    expect(startedAfterB.filter((name) => name.startsWith('b')).sort()).toEqual(['b00', 'b01', 'b02', 'b03', 'b04']);
    expect(startedAfterB.filter((name) => name.startsWith('a')).sort()).toEqual([...startedInA].sort());
    for (const name of neverStarted) expect(started).not.toContain(name);
    for (const monitor of teamMonitors('a', 'a', MONITORS)) expect(bindingOf(cluster, monitor.metadata.name).accepted).toBeUndefined();
    for (const monitor of teamMonitors('b', 'b', 5)) expect(bindingOf(cluster, monitor.metadata.name).accepted).toMatchObject({ status: 'True' });
  });

  it('stopping the binding writes starts no write after the call and waits for those in flight', async () => {
    const { cluster, reconciler } = setUp(prometheus(), ...teamMonitors('a', 'a', MONITORS));
    const held = gate();
    const started: string[] = [];
    cluster.hold = (target) => (target.kind === 'ServiceMonitor' ? (started.push(target.name), held.promise) : undefined);
    await reconciler.reconcile(KEY);
    await until(() => started.length === IN_FLIGHT);

    let stopped = false;
    const stopping = reconciler.stopBindingWrites().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(cluster.writesTo('status').filter((w) => w.kind === 'ServiceMonitor')).toHaveLength(IN_FLIGHT);
    expect(started).toHaveLength(IN_FLIGHT);

    // A reconcile after the stop hands bindings that are never written.
    await reconciler.reconcile(KEY);
    await reconciler.bindingsSettled(KEY);
    expect(started).toHaveLength(IN_FLIGHT);
  });
});
