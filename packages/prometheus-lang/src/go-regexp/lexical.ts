/** The small lexical rules of Go's regexp/syntax: escapes, digits, counts. */

/** The C escapes Go knows: `\a \f \n \r \t \v` (no `\b`, which is a word boundary). */
export const SIMPLE_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };

/** Whether an octal digit is at `at`. */
export function isOctal(s: string, at: number): boolean {
  return at < s.length && s[at]! >= '0' && s[at]! <= '7';
}

/** [0-9A-Za-z]: the ASCII characters an escape may not stand for. */
export function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** A hexadecimal digit's value, or -1. */
export function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** A decimal number at `at` without a leading zero (value -1 when it is 1e8 or more), or undefined. */
export function parseInt10(s: string, at: number): { value: number; next: number } | undefined {
  if (at >= s.length || s[at]! < '0' || s[at]! > '9') return undefined;
  if (s[at] === '0' && at + 1 < s.length && s[at + 1]! >= '0' && s[at + 1]! <= '9') return undefined;
  let t = at;
  let value = 0;
  while (t < s.length && s[t]! >= '0' && s[t]! <= '9') {
    if (value >= 0) value = value >= 1e8 ? -1 : value * 10 + s.charCodeAt(t) - 0x30;
    t++;
  }
  return { value, next: t };
}
