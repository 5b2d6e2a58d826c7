/**
 * The Alertmanager reconciler's order of writes, on the in-memory fakes of its ports (reconcile/test-reconciler-fakes.ts);
 * alertmanager.apiserver.test.ts and alertmanager-https.apiserver.test.ts run it against the real API server.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Alertmanager } from '@promop/crds';
import { createPki } from '@promop/testkit';
import pino from 'pino';
import { ORPHAN_CHECK_INTERVAL_MS } from '../reconcile/orphaned-pods.ts';
import { FakeCluster, apiError } from '../reconcile/test-reconciler-fakes.ts';
import { AlertmanagerReconciler } from './reconcile-alertmanager.ts';

const log = pino({ level: 'silent' });
const dir = mkdtempSync(join(tmpdir(), 'promop-am-reconcile-'));
const pki = createPki(dir);
const server = { cert: readFileSync(pki.servingCert, 'utf8'), key: readFileSync(pki.servingKey, 'utf8') };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const withWebTls: Alertmanager = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager',
  metadata: { namespace: 'monitoring', name: 'main', uid: 'u-main', generation: 1 },
  spec: { replicas: 1, web: { tlsConfig: { cert: { secret: { name: 'web-tls', key: 'tls.crt' } }, keySecret: { name: 'web-tls', key: 'tls.key' } } } },
} as Alertmanager;

const plain = { ...withWebTls, spec: { replicas: 1 } } as Alertmanager;

/** A reconciler of `alertmanager` on fakes, resolving the web TLS Secret; `requeued` collects its requeue delays. */
function setup(alertmanager: Alertmanager = plain, prepare: (cluster: FakeCluster) => void = () => undefined) {
  const cluster = new FakeCluster();
  cluster.caches.alertmanagers.put(alertmanager);
  cluster.caches.namespaces.put({ metadata: { name: 'monitoring' } });
  prepare(cluster);
  const requeued: number[] = [];
  const reconciler = new AlertmanagerReconciler({
    alertmanagers: cluster.caches.alertmanagers, alertmanagerConfigs: cluster.caches.alertmanagerConfigs, namespaces: cluster.caches.namespaces,
    ownedSecrets: cluster.caches.ownedSecrets, caches: cluster.caches,
    referenced: { resolve: async () => ({ secrets: [{ namespace: 'monitoring', name: 'web-tls', data: { 'tls.crt': server.cert, 'tls.key': server.key } }], configMaps: [] }) },
    children: cluster.children,
    reloader: { reloadAlertmanager: async () => ({ state: 'loaded', status: { loadedReplicas: [], pendingReplicas: [] } }) as never, forget: () => undefined },
    status: cluster.status, events: cluster.recorder, requeue: (_key, delayMs) => void requeued.push(delayMs), log,
  });
  return { cluster, reconciler, requeued };
}

describe('the Alertmanager reconciler', () => {
  it('deletes the web config Secret of a field no longer set only after the StatefulSet stopped mounting it', async () => {
    const { cluster, reconciler } = setup(withWebTls);
    await reconciler.reconcile('monitoring/main');
    expect(cluster.caches.ownedSecrets.get('alertmanager-main-web-config', 'monitoring')).toBeDefined();
    const before = cluster.writes.length;
    cluster.caches.alertmanagers.put({ ...withWebTls, metadata: { ...withWebTls.metadata, generation: 2 }, spec: { replicas: 1 } } as Alertmanager);
    await reconciler.reconcile('monitoring/main');
    await reconciler.bindingsSettled();
    const later = cluster.writes.slice(before).flatMap((write) => (write.to === 'child' ? [`${write.op} ${write.kind} ${write.name}`] : []));
    expect(later).toContain('delete Secret alertmanager-main-web-config');
    expect(later.indexOf('apply StatefulSet alertmanager-main')).toBeGreaterThanOrEqual(0);
    expect(later.indexOf('apply StatefulSet alertmanager-main')).toBeLessThan(later.indexOf('delete Secret alertmanager-main-web-config'));
  });

  it('writes no child on a reconcile that changes nothing (an AlertmanagerConfig of another Alertmanager changed, say)', async () => {
    const { cluster, reconciler } = setup();
    await reconciler.reconcile('monitoring/main');
    await reconciler.bindingsSettled();
    const childWrites = () => cluster.writes.flatMap((write) => (write.to === 'child' ? [`${write.op} ${write.kind} ${write.name}`] : []));
    expect(childWrites()).toEqual(expect.arrayContaining(['apply Service alertmanager-operated', 'apply StatefulSet alertmanager-main']));
    expect(childWrites().filter((write) => write.endsWith('Secret alertmanager-main-generated'))).toHaveLength(1);
    const first = childWrites().length;
    await reconciler.reconcile('monitoring/main');
    await reconciler.bindingsSettled();
    expect(childWrites().slice(first)).toEqual([]);
    // A change of the pods' flags alone (the retention) applies the StatefulSet alone.
    cluster.caches.alertmanagers.put({ ...plain, spec: { ...plain.spec, retention: '240h' } } as Alertmanager);
    await reconciler.reconcile('monitoring/main');
    await reconciler.bindingsSettled();
    expect(childWrites().slice(first)).toEqual(['apply StatefulSet alertmanager-main']);
  });

  it('says in status what the API server refused in a child (an invalid toleration), instead of retrying, and recovers once fixed', async () => {
    const { cluster, reconciler } = setup();
    const message = 'StatefulSet.apps "alertmanager-main" is invalid: spec.template.spec.tolerations[0].operator: Unsupported value: "Sometimes"';
    cluster.fail = (write) => (write.to === 'child' && write.kind === 'StatefulSet' ? apiError(422, 'Invalid', message) : undefined);
    await expect(reconciler.reconcile('monitoring/main')).resolves.toBe('done');
    const reconciled = () => cluster.caches.alertmanagers.get('main', 'monitoring')?.status?.conditions?.find((condition) => condition.type === 'Reconciled');
    expect(reconciled()).toMatchObject({ status: 'False', reason: 'ReconciliationFailed', message: `StatefulSet alertmanager-main: ${message}` });
    expect(cluster.events.map((event) => event.reason)).toContain('ReconciliationFailed');
    cluster.fail = (write) => (write.to === 'child' && write.kind === 'StatefulSet' ? apiError(503, 'ServiceUnavailable', 'etcd is down') : undefined);
    await expect(reconciler.reconcile('monitoring/main')).rejects.toThrow();
    cluster.fail = () => undefined;
    await reconciler.reconcile('monitoring/main');
    await reconciler.bindingsSettled();
    expect(reconciled()).toMatchObject({ status: 'True' });
  });

  it('reconciles again later and later while the pods of prometheus-operator\'s replaced StatefulSet remain', async () => {
    const { cluster, reconciler, requeued } = setup(plain, (fake) => {
      fake.foreignStatefulSets.set('monitoring/alertmanager-main', { uid: 'uid-po-sts', managedBy: 'prometheus-operator', ownerUids: ['u-main'], replicas: 1 });
      fake.pods.set('monitoring/alertmanager-main-0', 'uid-po-0');
    });
    for (let look = 0; look < 3; look += 1) await reconciler.reconcile('monitoring/main');
    expect(requeued).toEqual([ORPHAN_CHECK_INTERVAL_MS, 2 * ORPHAN_CHECK_INTERVAL_MS, 4 * ORPHAN_CHECK_INTERVAL_MS]);
    cluster.pods.delete('monitoring/alertmanager-main-0');
    await reconciler.reconcile('monitoring/main');
    await reconciler.bindingsSettled();
    // Gone: promop's StatefulSet touched, and no more looking.
    expect(requeued).toHaveLength(3);
    expect(cluster.writes.filter((write) => write.to === 'child' && write.op === 'annotate')).toHaveLength(1);
  });
});
