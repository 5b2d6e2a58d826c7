import type { Verdict } from '@promop/config-generator';
import { bindResource } from './bindings.ts';

const owner = { namespace: 'monitoring', name: 'main' };
const resource = { kind: 'ServiceMonitor' as const, namespace: 'team-a', name: 'api' };
const accepted: Verdict = { resource, selected: true, accepted: true, warnings: [] };
const rejected: Verdict = {
  resource, selected: true, accepted: false, reason: 'spec.endpoints[0].relabelings[0].regex: bad', warnings: [],
  problems: [{ path: 'spec.endpoints[0].relabelings[0].regex', message: 'is not a valid RE2 regular expression' }],
};
const t0 = new Date('2026-01-01T00:00:00Z');
const t1 = new Date('2026-01-01T00:05:00Z');

describe('a monitor selected by a Prometheus', () => {
  it('gets an accepted binding and counts 1/0', () => {
    const change = bindResource({ metadata: { generation: 3 } }, owner, accepted, t0);
    expect(change.status).toEqual({
      bindings: [{
        group: 'monitoring.coreos.com', resource: 'prometheuses', namespace: 'monitoring', name: 'main',
        conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', observedGeneration: 3, lastTransitionTime: '2026-01-01T00:00:00Z' }],
      }],
      acceptedBy: 1,
      rejectedBy: 0,
    });
    expect(change.changed).toBe(true);
    expect(change.newRejection).toBeUndefined();
  });

  it('when rejected, says which field is wrong and asks for one Event, not another for the same reason', () => {
    const first = bindResource({ metadata: { generation: 1 } }, owner, rejected, t0);
    expect(first.status.bindings?.[0]?.conditions?.[0]).toMatchObject({
      status: 'False', reason: 'InvalidConfiguration', message: 'spec.endpoints[0].relabelings[0].regex: is not a valid RE2 regular expression',
    });
    expect(first.status).toMatchObject({ acceptedBy: 0, rejectedBy: 1 });
    expect(first.newRejection).toMatch(/relabelings\[0\]\.regex/);
    const again = bindResource({ metadata: { generation: 1 }, status: first.status }, owner, rejected, t1);
    expect(again.changed).toBe(false);
    expect(again.newRejection).toBeUndefined();
    expect(again.status).toEqual(first.status);
  });

  it('keeps lastTransitionTime while the status stays, and moves it when it flips', () => {
    const first = bindResource({ metadata: { generation: 1 } }, owner, accepted, t0);
    const same = bindResource({ metadata: { generation: 2 }, status: first.status }, owner, accepted, t1);
    expect(same.changed).toBe(true); // observedGeneration moved
    expect(same.status.bindings?.[0]?.conditions?.[0]?.lastTransitionTime).toBe('2026-01-01T00:00:00Z');
    const flipped = bindResource({ metadata: { generation: 2 }, status: first.status }, owner, rejected, t1);
    expect(flipped.status.bindings?.[0]?.conditions?.[0]?.lastTransitionTime).toBe('2026-01-01T00:05:00Z');
  });

  it("leaves other Prometheus objects' bindings alone and removes its own once no longer selected", () => {
    const other = bindResource({ metadata: { generation: 1 } }, { namespace: 'monitoring', name: 'other' }, rejected, t0);
    const both = bindResource({ metadata: { generation: 1 }, status: other.status }, owner, accepted, t0);
    expect(both.status.bindings?.map((b) => b.name)).toEqual(['main', 'other']);
    expect(both.status).toMatchObject({ acceptedBy: 1, rejectedBy: 1 });
    const unselected: Verdict = { resource, selected: false, reason: 'not selected' };
    const removed = bindResource({ metadata: { generation: 1 }, status: both.status }, owner, unselected, t1);
    expect(removed.status.bindings?.map((b) => b.name)).toEqual(['other']);
    expect(removed.status).toMatchObject({ acceptedBy: 0, rejectedBy: 1 });
    expect(removed.changed).toBe(true);
  });

  it('writes nothing to a monitor without status that this Prometheus does not select', () => {
    const unselected: Verdict = { resource, selected: false, reason: 'not selected' };
    expect(bindResource({ metadata: { generation: 1 } }, owner, unselected, t0).changed).toBe(false);
    // With a status from elsewhere (counts only), the counts are still corrected.
    expect(bindResource({ metadata: { generation: 1 }, status: { acceptedBy: 1 } }, owner, unselected, t0).changed).toBe(true);
  });
});
