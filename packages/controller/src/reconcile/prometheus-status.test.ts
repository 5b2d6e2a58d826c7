import type { V1StatefulSet } from '@kubernetes/client-node';
import type { Prometheus } from '@promop/crds';
import { prometheusStatus } from './prometheus-status.ts';

const now = new Date('2026-03-01T12:00:00Z');
const prometheus = (shards = 1, status?: Prometheus['status']) => ({
  apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus',
  metadata: { name: 'main', namespace: 'monitoring', generation: 4 },
  spec: { shards, replicas: 2 },
  ...(status ? { status } : {}),
}) as Prometheus;
const statefulSet = (ready: number, replicas = 2): V1StatefulSet => ({
  spec: { replicas, selector: {}, serviceName: 'prometheus-operated', template: {} },
  status: { replicas, readyReplicas: ready, availableReplicas: ready, updatedReplicas: replicas },
});
const ok = { status: 'True' as const, reason: '', message: '' };

describe('the status of a Prometheus', () => {
  it('is Available once every pod of every shard is available, with counts summed over shards', () => {
    const status = prometheusStatus(prometheus(2), { statefulSets: [statefulSet(2), statefulSet(2)], reconciled: ok, now });
    expect(status).toMatchObject({ replicas: 4, availableReplicas: 4, unavailableReplicas: 0, shards: 2 });
    expect(status.conditions?.find((c) => c.type === 'Available')).toEqual({ type: 'Available', status: 'True', observedGeneration: 4, lastTransitionTime: '2026-03-01T12:00:00Z' });
    expect(status.shardStatuses?.map((s) => s.shardID)).toEqual(['0', '1']);
  });

  it('is Degraded when some pods are ready and False (NoPodReady) when none is', () => {
    const some = prometheusStatus(prometheus(2), { statefulSets: [statefulSet(2), statefulSet(0)], reconciled: ok, now });
    expect(some.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'Degraded', reason: 'NoPodReady', message: 'shard 1: 0 of 2 pods of StatefulSet prometheus-main-shard-1 available' });
    const none = prometheusStatus(prometheus(1), { statefulSets: [statefulSet(0)], reconciled: ok, now });
    expect(none.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'False', reason: 'NoPodReady' });
    const missing = prometheusStatus(prometheus(1), { statefulSets: [undefined], reconciled: ok, now });
    expect(missing.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'False', reason: 'StatefulSetNotFound' });
  });

  it('keeps lastTransitionTime while a condition keeps its status', () => {
    const earlier = prometheusStatus(prometheus(), { statefulSets: [statefulSet(0)], reconciled: ok, now: new Date('2026-01-01T00:00:00Z') });
    const later = prometheusStatus(prometheus(1, earlier), { statefulSets: [statefulSet(0)], reconciled: { status: 'False', reason: 'ReconciliationFailed', message: 'spec.x: bad' }, now });
    expect(later.conditions?.find((c) => c.type === 'Available')?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    expect(later.conditions?.find((c) => c.type === 'Reconciled')).toMatchObject({ status: 'False', lastTransitionTime: '2026-03-01T12:00:00Z', message: 'spec.x: bad' });
  });

  it('keeps the Reconciled condition it had when no verdict is given (a paused Prometheus)', () => {
    const earlier = prometheusStatus(prometheus(), { statefulSets: [statefulSet(0)], reconciled: ok, now });
    const paused = prometheusStatus(prometheus(1, earlier), { statefulSets: [statefulSet(0)], reconciled: undefined, now: new Date('2026-04-01T00:00:00Z') });
    expect(paused.conditions?.find((c) => c.type === 'Reconciled')).toEqual(earlier.conditions?.find((c) => c.type === 'Reconciled'));
  });
  it('carries which replicas run the written files, and keeps the previous entries when nothing was reloaded', () => {
    const entry = (shardID: string) => ({ shardID, configHash: 'abc', loadedReplicas: ['prometheus-main-0'], pendingReplicas: [{ pod: 'prometheus-main-1', reason: 'NotReady' }] });
    const reloaded = prometheusStatus(prometheus(2), { statefulSets: [statefulSet(1), statefulSet(1)], reconciled: ok, now, configStatus: [entry('0'), entry('1')] });
    expect(reloaded.configStatus).toEqual([entry('0'), entry('1')]);
    // Paused, or a broken spec (nothing written): what was true stays true, for the shards that still exist.
    const kept = prometheusStatus(prometheus(1, reloaded), { statefulSets: [statefulSet(1)], reconciled: undefined, now });
    expect(kept.configStatus).toEqual([entry('0')]);
    expect(prometheusStatus(prometheus(1), { statefulSets: [statefulSet(1)], reconciled: ok, now })).not.toHaveProperty('configStatus');
  });
});
