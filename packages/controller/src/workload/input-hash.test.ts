import { createHash } from 'node:crypto';
import { canonicalJsonOf, inputHash } from './input-hash.ts';
import { base64Data } from './secret-size.ts';

describe('the input hash', () => {
  it('does not depend on key order or undefined fields', () => {
    expect(inputHash({ a: 1, b: { c: [1, 2], d: 'x' } })).toBe(inputHash({ b: { d: 'x', c: [1, 2], e: undefined }, a: 1 }));
  });

  it('hashes Secret data base64Data made as the same JSON as any copy of it', () => {
    const secret = { metadata: { name: 's' }, data: base64Data({ 'a.yaml': 'x'.repeat(300), 'b.yaml': 'ünïcode ✓'.repeat(100) }) };
    expect(inputHash(secret)).toBe(inputHash({ ...secret, data: { ...secret.data } }));
    expect(canonicalJsonOf(secret)).toBe(JSON.stringify({ data: Object.fromEntries(Object.entries(secret.data).sort()), metadata: { name: 's' } }));
  });

  it('changes with any value, including array order', () => {
    const base = inputHash({ a: [1, 2] });
    expect(inputHash({ a: [2, 1] })).not.toBe(base);
    expect(inputHash({ a: [1, 3] })).not.toBe(base);
    expect(inputHash({ a: ['1', 2] })).not.toBe(base);
  });
});

describe('the canonical JSON behind the input hash', () => {
  // The form the hash had when it was one JSON string built at once: a promop upgrade must not see every
  // applied-hash and input-hash annotation change (that would rewrite every child once).
  const asOneString = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(asOneString).join(',')}]`;
    if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${asOneString(item)}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
  };

  it('is the same text as JSON with sorted keys, long plain strings, escapes and unicode included', () => {
    const long = Buffer.from('x'.repeat(3_000)).toString('base64');
    const values: unknown[] = [
      { data: { 'a.yaml': long, 'b.yaml': `${long}"quoted"`, 'c.yaml': `${'y'.repeat(300)}\n` }, metadata: { name: 'n', labels: { z: '1', a: '2' } } },
      ['é', 'line\nbreak', 'tab\there', '\u2028', null, true, 0, -1.5, [], {}, { k: undefined }],
      `${'plain text, with: spaces-and.dots_'.repeat(20)}`,
      `${'a'.repeat(400)}\\`,
      'short',
    ];
    for (const value of values) expect(canonicalJsonOf(value)).toBe(asOneString(value));
  });

  it('hashes what it writes', () => {
    const value = { spec: { replicas: 2, template: { metadata: { annotations: { 'a/b': 'c' } } } } };
    expect(inputHash(value)).toBe(createHash('sha256').update(asOneString(value)).digest('hex'));
  });
});
