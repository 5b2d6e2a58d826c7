import fc from 'fast-check';
import { parseLabelSelectorString } from '../selection/label-selector-string.ts';
import { labelSelectorString } from './selector-relabelings.ts';

describe('a label selector as text', () => {
  it('sorts requirements by key and values within them, as Kubernetes prints it', () => {
    expect(
      labelSelectorString({
        matchLabels: { zone: 'a', app: 'x' },
        matchExpressions: [
          { key: 'tier', operator: 'NotIn', values: ['web', 'db'] },
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'app', operator: 'Exists' },
        ],
      }),
    ).toBe('app=x,app,!canary,tier notin (db,web),zone=a');
  });
});

describe('the label selector a RoleSelector ServiceMonitor or PodMonitor hands to Kubernetes discovery', () => {
  // Monitors' selectors are structured (matchLabels/matchExpressions) and validated before this text is made, so the
  // text Prometheus parses when it loads the file must always parse: a failure here is a promop bug, not user input.
  const key = fc.constantFrom('app', 'app.kubernetes.io/name', 'example.com/tier', 'in', 'notin', 'a-b_c.d', 'X9');
  const value = fc.constantFrom('', 'web', 'in', 'notin', 'v1.2-3_a', 'Z');
  const selector = fc.record({
    matchLabels: fc.dictionary(key, value, { maxKeys: 3 }),
    matchExpressions: fc.array(
      fc.oneof(
        fc.record({ key, operator: fc.constantFrom('In' as const, 'NotIn' as const), values: fc.array(value, { minLength: 1, maxLength: 3 }) }),
        fc.record({ key, operator: fc.constantFrom('Exists' as const, 'DoesNotExist' as const) }),
      ),
      { maxLength: 3 },
    ),
  });

  it('always parses as labels.Parse reads it, with the same requirements', () => {
    fc.assert(
      fc.property(selector, (s) => {
        const parsed = parseLabelSelectorString(labelSelectorString(s));
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(parsed.requirements).toHaveLength(Object.keys(s.matchLabels).length + s.matchExpressions.length);
      }),
    );
  });
});
