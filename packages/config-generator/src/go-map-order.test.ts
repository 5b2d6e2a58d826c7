import { compareCodePoints, sortedByKey } from './go-map-order.ts';

describe('Go map key order', () => {
  it('sorts keys byte-wise like Go, whatever the order they were written in', () => {
    expect(Object.keys(sortedByKey({ b: 1, B: 2, a: 3, _x: 4, 'a.b': 5 }))).toEqual(['B', '_x', 'a', 'a.b', 'b']);
  });

  it('puts characters above U+FFFF after U+E000–U+FFFF, as their UTF-8 bytes do', () => {
    // UTF-16 code units would put the emoji (surrogates 0xD83D…) before U+FF21.
    expect(['😀', 'Ａ', 'z'].sort(compareCodePoints)).toEqual(['z', 'Ａ', '😀']);
    expect(compareCodePoints('a😀', 'a😀')).toBe(0);
    expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
  });
});
