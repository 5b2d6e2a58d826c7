import { GROUP } from '@promop/crds';
import { bindingWithHealth, healthAlarm, healthChangesClass, reportedHealth, type Binding, type BindingHealth } from './binding-health.ts';
import { bindResource } from '../reconcile/bindings.ts';

const now = new Date('2026-12-07T08:00:00Z');
const later = new Date('2026-12-07T09:00:00Z');
const bare: Binding = {
  group: GROUP, resource: 'prometheuses', namespace: 'monitoring', name: 'main',
  conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', lastTransitionTime: '2026-12-07T07:00:00Z' }],
};
const targets = (active: number, up: number, down: number, lastError?: string): BindingHealth =>
  ({ kind: 'targets', summary: { active, up, down, unknown: active - up - down, ...(lastError ? { lastError, lastErrorCount: down } : {}) } });

describe('the Warning a change of health is worth', () => {
  const after = (from: Binding, health: BindingHealth) => bindingWithHealth(from, health, now);
  const rules = (failing: number): BindingHealth => ({ kind: 'rules', summary: { groups: 1, rules: 2, failing, pending: 0, firingAlerts: 0, evaluationMilliseconds: 1, ...(failing ? { lastError: 'many-to-many matching not allowed' } : {}) } });

  it('is one when a monitor comes to find no target, or only down ones, or a rule to fail', () => {
    const up = after(bare, targets(2, 2, 0));
    expect(healthAlarm(up, after(up, targets(0, 0, 0)))).toEqual({ reason: 'NoTargets', message: expect.stringContaining('no active target') });
    expect(healthAlarm(up, after(up, targets(2, 0, 2, 'EOF')))).toEqual({ reason: 'AllTargetsDown', message: 'all 2 down (0/2 up); 2 with: EOF' });
    expect(healthAlarm(bare, after(bare, rules(1)))).toEqual({ reason: 'RulesFailing', message: expect.stringContaining('many-to-many') });
  });

  it('is none while the state stays, for some targets down, for a recovery, and for the first read of a healthy object', () => {
    const allDown = after(bare, targets(2, 0, 2, 'EOF'));
    expect(healthAlarm(allDown, after(allDown, targets(3, 0, 3, 'EOF')))).toBeUndefined();
    expect(healthAlarm(bare, after(bare, targets(3, 2, 1, 'EOF')))).toBeUndefined();
    expect(healthAlarm(allDown, after(allDown, targets(2, 2, 0)))).toBeUndefined();
    expect(healthAlarm(bare, after(bare, targets(2, 2, 0)))).toBeUndefined();
  });
});

describe('the health written into a binding', () => {
  it('adds the counts and a Healthy condition beside Accepted', () => {
    const written = bindingWithHealth(bare, targets(2, 2, 0), now);
    expect(written.targets).toEqual({ active: 2, up: 2, down: 0, unknown: 0 });
    expect(written.conditions).toEqual([
      bare.conditions![0],
      { type: 'Healthy', status: 'True', reason: 'TargetsUp', message: '2/2 up', lastTransitionTime: '2026-12-07T08:00:00Z' },
    ]);
  });

  it('changes class only when the reason, the error kind or a bucket changes', () => {
    const written = bindingWithHealth(bare, targets(20, 20, 0), now);
    expect(healthChangesClass(bare, targets(20, 20, 0))).toBe(true);
    expect(healthChangesClass(written, targets(20, 20, 0))).toBe(false);
    // 20 → 25 targets stays in [16, 32).
    expect(healthChangesClass(written, targets(25, 25, 0))).toBe(false);
    expect(healthChangesClass(written, targets(40, 40, 0))).toBe(true);
    expect(healthChangesClass(written, targets(20, 19, 1, 'EOF'))).toBe(true);
    const down = bindingWithHealth(bare, targets(3, 1, 2, 'dial tcp 10.0.0.1:80: connect: connection refused'), now);
    // The same kind of error on other addresses is the same class; another error is not.
    expect(healthChangesClass(down, targets(3, 1, 2, 'dial tcp 10.0.0.2:81: connect: connection refused'))).toBe(false);
    expect(healthChangesClass(down, targets(3, 1, 2, 'context deadline exceeded'))).toBe(true);
  });

  it('keeps the Healthy condition\'s transition time while its status stays', () => {
    const first = bindingWithHealth(bare, targets(3, 1, 2, 'EOF'), now);
    const second = bindingWithHealth(first, targets(9, 1, 8, 'EOF'), later);
    expect(second.conditions?.find((c) => c.type === 'Healthy')?.lastTransitionTime).toBe('2026-12-07T08:00:00Z');
    expect(bindingWithHealth(second, targets(9, 9, 0), later).conditions?.find((c) => c.type === 'Healthy')?.lastTransitionTime).toBe('2026-12-07T09:00:00Z');
  });

  it('survives the verdict recorder\'s next write of the binding', () => {
    const withHealth = bindingWithHealth(bare, targets(2, 1, 1, 'EOF'), now);
    const verdict = { selected: true, accepted: true, warnings: [], problems: [], reason: '', resource: { kind: 'ServiceMonitor', namespace: 'team-a', name: 'api' } };
    const change = bindResource({ metadata: { generation: 1 }, status: { bindings: [withHealth], acceptedBy: 1, rejectedBy: 0 } }, { namespace: 'monitoring', name: 'main' }, verdict as never, later);
    expect(change.status.bindings?.[0]?.targets).toEqual(withHealth.targets);
    expect(change.status.bindings?.[0]?.conditions?.map((c) => c.type)).toEqual(['Accepted', 'Healthy']);
  });
});

describe('the health a binding reports to a reader', () => {
  it('is its Healthy condition with the counts beside it, and nothing before a first report', () => {
    expect(reportedHealth(undefined)).toBeUndefined();
    expect(reportedHealth(bare)).toBeUndefined();
    expect(reportedHealth(bindingWithHealth(bare, targets(3, 2, 1, 'EOF'), now))).toEqual({
      status: 'False', reason: 'TargetsDown', message: '1 of 3 down (2/3 up); 1 with: EOF', since: '2026-12-07T08:00:00Z',
      targets: { active: 3, up: 2, down: 1, unknown: 0, lastError: 'EOF', lastErrorCount: 1 },
    });
  });
});

describe('the reason a monitor finds no target', () => {
  const none = (noTargetsReason?: string): BindingHealth => ({ kind: 'targets', summary: { active: 0, up: 0, down: 0, unknown: 0 }, ...(noTargetsReason ? { noTargetsReason } : {}) });
  const port = 'spec.endpoints[0].port: no Service selected by spec.selector in namespace team-b has a port named "metricz"';

  it('is written into the condition and read back from it', () => {
    const written = bindingWithHealth(bare, none(port), now);
    expect(written.conditions?.find((c) => c.type === 'Healthy')?.message).toBe(`no active target: ${port}`);
    expect(healthChangesClass(written, none(port))).toBe(false);
    expect(reportedHealth(bindingWithHealth(bare, none(), now))?.message).toBe('no active target: service discovery found none, or relabelling dropped them all');
  });

  it('changes the class when it changes, but not when only the count of discovered targets does', () => {
    const dropped = (n: number) => `spec.endpoints[0]: Prometheus discovered ${n} targets of the selected Services and relabeling dropped them all`;
    const written = bindingWithHealth(bare, none(dropped(2)), now);
    expect(healthChangesClass(written, none(dropped(7)))).toBe(false);
    expect(healthChangesClass(written, none(port))).toBe(true);
    expect(healthChangesClass(written, none())).toBe(true);
  });
});
