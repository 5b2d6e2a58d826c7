/**
 * The children applier on its own (fakes of test-reconciler-fakes.ts): what it writes for a set of desired children,
 * that an unchanged set costs no request, which shards it says changed, and which leftovers it deletes or retains.
 */
import type { Prometheus } from '@promop/crds';
import type { V1Secret, V1StatefulSet } from '@kubernetes/client-node';
import { pino } from 'pino';
import { PROMETHEUS_NAME_LABEL, SHARD_LABEL } from '../workload/index.ts';
import { ChildrenApplier } from './children-applier.ts';
import type { DesiredChildren } from './desired-children.ts';
import { DELETION_DEADLINE_ANNOTATION } from './shard-retention.ts';
import { FakeCluster, type Write } from './test-reconciler-fakes.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const KEY = 'monitoring/main';
const log = pino({ level: 'silent' });

function prometheus(spec: Record<string, unknown> = {}): Prometheus {
  return {
    apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus',
    metadata: { name: 'main', namespace: 'monitoring', uid: 'uid-main', generation: 1, resourceVersion: '1' },
    spec,
  } as Prometheus;
}

const owned = (shard?: number) => ({
  namespace: 'monitoring',
  labels: { [PROMETHEUS_NAME_LABEL]: 'main', ...(shard === undefined ? {} : { [SHARD_LABEL]: String(shard) }) },
  ownerReferences: [{ apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', name: 'main', uid: 'uid-main', controller: true }],
});

function secret(name: string, text: string, shard?: number): V1Secret {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, ...owned(shard) }, type: 'Opaque', data: { file: Buffer.from(text).toString('base64') } };
}

function statefulSet(shard: number): V1StatefulSet {
  const name = shard === 0 ? 'prometheus-main' : `prometheus-main-shard-${shard}`;
  return { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, ...owned(shard) }, spec: { selector: {}, serviceName: 'prometheus-operated', template: {} } };
}

/** One set of children per shard count; `text` changes the config Secrets' data. */
function desired(shards: number, text = 'config'): DesiredChildren {
  const perShard = Array.from({ length: shards }, (_, shard) => shard);
  return {
    ruleConfigMaps: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'prometheus-main-rulefiles-0', namespace: 'monitoring', labels: { 'prometheus-name': 'main' }, ownerReferences: owned().ownerReferences }, data: { 'a.yaml': 'groups: []' } }],
    tlsAssets: secret('prometheus-main-tls-assets-0', 'tls'),
    scrapeSecrets: perShard.map(() => []),
    configSecrets: perShard.map((shard) => secret(shard === 0 ? 'prometheus-main' : `prometheus-main-shard-${shard}`, `${text} ${shard}`, shard)),
    service: undefined,
    statefulSets: perShard.map(statefulSet),
  };
}

/** A child write as `<op> <kind>/<name>`. */
function opOf(write: Write): string {
  return write.to === 'child' ? `${write.op} ${write.kind}/${write.name}` : `status ${write.kind}/${write.name}`;
}

function setUp() {
  const cluster = new FakeCluster();
  const applier = new ChildrenApplier({ caches: cluster.caches, children: cluster.children, now: () => NOW });
  return { cluster, applier };
}

describe('the children applier', () => {
  it('writes every child once, in order; the same children again cost no request', async () => {
    const { cluster, applier } = setUp();
    const applied = await applier.apply(KEY, prometheus(), desired(2), log);
    expect(cluster.writesTo('child').map((w) => `${w.kind}/${w.name}`)).toEqual([
      'ConfigMap/prometheus-main-rulefiles-0', 'Secret/prometheus-main-tls-assets-0', 'Secret/prometheus-main', 'Secret/prometheus-main-shard-1',
      'StatefulSet/prometheus-main', 'StatefulSet/prometheus-main-shard-1',
    ]);
    expect([...applied.writtenAt.keys()].sort()).toEqual([0, 1]);
    expect(applied.configSecretUids).toEqual(['uid-prometheus-main', 'uid-prometheus-main-shard-1']);
    expect(applied.statefulSets.map((s) => s.metadata?.name)).toEqual(['prometheus-main', 'prometheus-main-shard-1']);

    const written = cluster.writes.length;
    const again = await applier.apply(KEY, prometheus(), desired(2), log);
    expect(cluster.writes.slice(written)).toEqual([]);
    expect(again.writtenAt.size).toBe(0);
    expect(cluster.reads).toBe(0);
  });

  it('a changed config Secret marks its shard only', async () => {
    const { cluster, applier } = setUp();
    await applier.apply(KEY, prometheus(), desired(2), log);
    const changed = desired(2);
    changed.configSecrets[1] = secret('prometheus-main-shard-1', 'other 1', 1);
    const written = cluster.writes.length;
    const applied = await applier.apply(KEY, prometheus(), changed, log);
    expect(cluster.writes.slice(written).map((w) => `${w.kind}/${w.name}`)).toEqual(['Secret/prometheus-main-shard-1']);
    expect([...applied.writtenAt.keys()]).toEqual([1]);
  });

  it('a forgotten Prometheus is read again: what its Secrets and ConfigMaps hold is no longer known', async () => {
    const { cluster, applier } = setUp();
    await applier.apply(KEY, prometheus(), desired(1), log);
    applier.forget(KEY);
    const written = cluster.writes.length;
    await applier.apply(KEY, prometheus(), desired(1), log);
    expect(cluster.writes.slice(written)).toEqual([]);
    expect(cluster.reads).toBe(3);
  });

  it('deletes the children of a removed shard, or retains them until a deadline under shardRetentionPolicy Retain', async () => {
    const deleting = setUp();
    await deleting.applier.apply(KEY, prometheus(), desired(2), log);
    let written = deleting.cluster.writes.length;
    await deleting.applier.deleteLeftovers(KEY, prometheus(), desired(1), log);
    expect(deleting.cluster.writes.slice(written).map(opOf).sort()).toEqual(['delete Secret/prometheus-main-shard-1', 'delete StatefulSet/prometheus-main-shard-1']);

    const retaining = setUp();
    const retain = prometheus({ shardRetentionPolicy: { whenScaled: 'Retain', retain: { retentionPeriod: '1h' } } });
    await retaining.applier.apply(KEY, retain, desired(2), log);
    written = retaining.cluster.writes.length;
    await retaining.applier.deleteLeftovers(KEY, retain, desired(1), log);
    expect(retaining.cluster.writes.slice(written).map(opOf)).toEqual(['annotate StatefulSet/prometheus-main-shard-1']);
    expect(retaining.cluster.caches.ownedStatefulSets.get('prometheus-main-shard-1', 'monitoring')?.metadata?.annotations?.[DELETION_DEADLINE_ANNOTATION]).toBe('2026-03-01T13:00:00.000Z');

    // Wanted again: the deadline goes.
    written = retaining.cluster.writes.length;
    await retaining.applier.apply(KEY, retain, desired(2), log);
    expect(retaining.cluster.writes.slice(written).map(opOf)).toEqual(['annotate StatefulSet/prometheus-main-shard-1']);
    expect(retaining.cluster.caches.ownedStatefulSets.get('prometheus-main-shard-1', 'monitoring')?.metadata?.annotations?.[DELETION_DEADLINE_ANNOTATION]).toBeUndefined();
  });

  it('writes the web config Secret before the StatefulSet, and deletes it once the Prometheus has no web config', async () => {
    const { cluster, applier } = setUp();
    const webConfig = secret('prometheus-main-web-config', 'tls_server_config: {}');
    await applier.apply(KEY, prometheus(), { ...desired(1), webConfig }, log);
    expect(cluster.writesTo('child').map((w) => `${w.kind}/${w.name}`)).toEqual([
      'ConfigMap/prometheus-main-rulefiles-0', 'Secret/prometheus-main-tls-assets-0', 'Secret/prometheus-main-web-config', 'Secret/prometheus-main',
      'StatefulSet/prometheus-main',
    ]);
    const written = cluster.writes.length;
    await applier.deleteLeftovers(KEY, prometheus(), desired(1), log);
    expect(cluster.writes.slice(written).map(opOf)).toEqual(['delete Secret/prometheus-main-web-config']);
  });

  it('a failed write names the child in `.child`', async () => {
    const { cluster, applier } = setUp();
    cluster.fail = (write) => (write.to === 'child' && write.kind === 'StatefulSet' ? new Error('refused') : undefined);
    await expect(applier.apply(KEY, prometheus(), desired(1), log)).rejects.toMatchObject({ child: 'StatefulSet prometheus-main' });
  });
});
