/** RenderMemo.sortedBy: the order a plain sort gives, reused when only objects were replaced. */
import fc from 'fast-check';
import { compareCodePoints } from './go-map-order.ts';
import { RenderMemo } from './render-memo.ts';

interface Item {
  key: string;
  version: number;
}

const plainSort = (items: readonly Item[]) => [...items].sort((a, b) => compareCodePoints(a.key, b.key));

describe('RenderMemo.sortedBy', () => {
  it('gives what a stable sort gives over random sequences of lists: objects replaced, added, removed, keys repeated', () => {
    const list = fc.array(fc.constantFrom('a/x', 'a/y', 'b/x', 'team-1/app', 'team-10/app', 'é/z', '\u{1F600}/q'), { maxLength: 8 });
    fc.assert(
      fc.property(fc.array(fc.tuple(list, fc.array(fc.nat(), { maxLength: 3 })), { minLength: 1, maxLength: 6 }), (steps) => {
        const memo = new RenderMemo();
        let current: Item[] = [];
        for (const [keys, replaced] of steps) {
          // Either a new list, or the previous one with some objects replaced by new versions (the common change).
          current = replaced.length > 0 && current.length > 0
            ? current.map((item, index) => (replaced.includes(index % 4) ? { key: item.key, version: item.version + 1 } : item))
            : keys.map((key) => ({ key, version: 0 }));
          const sorted = memo.sortedBy('ServiceMonitor', current, (item) => item.key);
          expect(sorted).toEqual(plainSort(current));
          expect(sorted.every((item) => current.includes(item))).toBe(true);
        }
      }),
      { numRuns: 500, seed: 20261201 },
    );
  });

  it('places two objects with the same key by sorting again, never into one place', () => {
    const memo = new RenderMemo();
    const first = [{ key: 'b', version: 0 }, { key: 'a', version: 0 }, { key: 'a', version: 1 }];
    expect(memo.sortedBy('PodMonitor', first, (item) => item.key)).toEqual(plainSort(first));
    const second = [{ key: 'a', version: 2 }, { key: 'a', version: 3 }, { key: 'b', version: 0 }];
    expect(memo.sortedBy('PodMonitor', second, (item) => item.key)).toEqual(plainSort(second));
  });

  it('does not place one of two objects with the same key by identity and the other by key (they could swap)', () => {
    const memo = new RenderMemo();
    const x = { key: 'x', version: 0 };
    const a = { key: 'k', version: 0 };
    const b = { key: 'k', version: 1 };
    expect(memo.sortedBy('Probe', [x, a, b], (item) => item.key)).toEqual([a, b, x]);
    // b replaced by a new version and moved to the front, a kept where it was, x replaced: a stable sort puts the
    // new b before a.
    const second = [{ key: 'k', version: 2 }, a, { key: 'x', version: 1 }];
    expect(memo.sortedBy('Probe', second, (item) => item.key)).toEqual(plainSort(second));
  });
});
