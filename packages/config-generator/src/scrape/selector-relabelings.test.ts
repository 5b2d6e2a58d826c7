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
