import type { Prometheus } from '@promop/crds';
import { DELETION_DEADLINE_ANNOTATION, removedShardAction, shardRetentionProblems } from './shard-retention.ts';

const prometheus = (spec: Record<string, unknown>): Prometheus => ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'main', namespace: 'monitoring' }, spec } as Prometheus);
const now = new Date('2026-12-01T12:00:00.000Z');
const statefulSet = (deadline?: string) => ({ metadata: { name: 'prometheus-main-shard-1', ...(deadline ? { annotations: { [DELETION_DEADLINE_ANNOTATION]: deadline } } : {}) } });

describe('a shard that spec.shards no longer has', () => {
  it('is deleted at once without a policy or with whenScaled: Delete', () => {
    expect(removedShardAction(prometheus({}), statefulSet(), now)).toEqual({ action: 'delete', reason: 'policy Delete' });
    expect(removedShardAction(prometheus({ shardRetentionPolicy: { whenScaled: 'Delete' } }), statefulSet(), now)).toEqual({ action: 'delete', reason: 'policy Delete' });
  });

  it('with whenScaled: Retain is kept until now + retentionPeriod, else spec.retention, else 24h', () => {
    expect(removedShardAction(prometheus({ shardRetentionPolicy: { whenScaled: 'Retain', retain: { retentionPeriod: '2h' } } }), statefulSet(), now))
      .toEqual({ action: 'retain', until: '2026-12-01T14:00:00.000Z', deadline: '2026-12-01T14:00:00.000Z' });
    expect(removedShardAction(prometheus({ retention: '7d', shardRetentionPolicy: { whenScaled: 'Retain' } }), statefulSet(), now))
      .toMatchObject({ action: 'retain', deadline: '2026-12-08T12:00:00.000Z' });
    expect(removedShardAction(prometheus({ shardRetentionPolicy: { whenScaled: 'Retain' } }), statefulSet(), now))
      .toMatchObject({ action: 'retain', deadline: '2026-12-02T12:00:00.000Z' });
  });

  it('keeps the deadline already written, and is deleted once it passed', () => {
    const retain = prometheus({ shardRetentionPolicy: { whenScaled: 'Retain', retain: { retentionPeriod: '2h' } } });
    expect(removedShardAction(retain, statefulSet('2026-12-01T13:00:00.000Z'), now)).toEqual({ action: 'retain', until: '2026-12-01T13:00:00.000Z' });
    expect(removedShardAction(retain, statefulSet('2026-12-01T11:59:59.000Z'), now)).toEqual({ action: 'delete', reason: 'deadline passed' });
    expect(removedShardAction(retain, statefulSet('soon'), now)).toMatchObject({ action: 'retain', deadline: '2026-12-01T14:00:00.000Z' });
  });

  it('reports a wrong policy with its field path', () => {
    expect(shardRetentionProblems(prometheus({ shardRetentionPolicy: { whenScaled: 'Keep', retain: { retentionPeriod: '2 hours' } } }))).toEqual([
      { path: 'spec.shardRetentionPolicy.whenScaled', message: 'must be Delete or Retain, not "Keep"' },
      { path: 'spec.shardRetentionPolicy.retain.retentionPeriod', message: 'must be a Prometheus duration such as 12h or 7d, not "2 hours"' },
    ]);
    expect(shardRetentionProblems(prometheus({ shardRetentionPolicy: { whenScaled: 'Retain', retain: { retentionPeriod: '30d' } } }))).toEqual([]);
    expect(shardRetentionProblems(prometheus({}))).toEqual([]);
  });
});
