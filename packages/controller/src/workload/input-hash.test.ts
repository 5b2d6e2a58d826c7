import { inputHash } from './input-hash.ts';

describe('the input hash', () => {
  it('does not depend on key order or undefined fields', () => {
    expect(inputHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(inputHash({ b: { d: 'x', c: [1, 2], e: undefined }, a: 1 }));
  });

  it('changes with any value, including array order', () => {
    const base = inputHash({ a: [1, 2] });
    expect(inputHash({ a: [2, 1] })).not.toBe(base);
    expect(inputHash({ a: [1, 3] })).not.toBe(base);
    expect(inputHash({ a: ['1', 2] })).not.toBe(base);
  });
});
