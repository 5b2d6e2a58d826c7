/**
 * Reading the pattern text outside bracket expressions (Go's nextRune, parseEscape, parseRepeat and the reading half
 * of parsePerlFlags): each function reads at a position of the pattern and returns what it read and where the text
 * after it starts, or throws Go's error. The parser decides what the text does to the stack (parse.ts).
 */
import { Flag } from './ast.ts';
import { isAlnum, isOctal, parseInt10, SIMPLE_ESCAPES, unhex } from './lexical.ts';
import { GoRegexpError } from './parse-error.ts';
import { MAX_RUNE } from './unicode-classes.ts';

export const BACKSLASH = 0x5c;

/** A rune and where the text after it starts. */
export interface Step {
  rune: number;
  next: number;
}

/** The characters with a meaning of their own outside brackets (by char code). */
const SPECIAL = new Uint8Array(128);
for (const c of '\\()|^$.[*+?{') SPECIAL[c.charCodeAt(0)] = 1;

/**
 * Whether the char code is a character that stands for itself outside brackets: most of a long pattern is such
 * literal text. A surrogate is not, so that nextRune reads the whole code point (or a lone one as U+FFFD).
 */
export function isPlainText(code: number): boolean {
  return code < 128 ? SPECIAL[code] === 0 : code < 0xd800 || code > 0xdfff;
}

/** The rune at `at` (U+FFFD for a lone surrogate, as UTF-8 encoding makes it) and where the next one starts. */
export function nextRune(s: string, at: number): Step {
  if (at >= s.length) return { rune: 0xfffd, next: at };
  const rune = s.codePointAt(at)!;
  if (rune > 0xffff) return { rune, next: at + 2 };
  return { rune: rune >= 0xd800 && rune <= 0xdfff ? 0xfffd : rune, next: at + 1 };
}

/** An escaped character at `at` (the backslash) in `s`: its rune and where the text after it starts. */
export function parseEscape(s: string, at: number): Step {
  let t = at + 1;
  if (t >= s.length) throw new GoRegexpError('trailing backslash at end of expression', '');
  const first = nextRune(s, t);
  const c = first.rune;
  t = first.next;
  const invalid = (end: number) => new GoRegexpError('invalid escape sequence', s.slice(at, end));
  if (c >= 0x31 && c <= 0x37) {
    // \1 to \7 alone would be a backreference: refused. With another octal digit, an octal escape.
    if (!isOctal(s, t)) throw invalid(t);
  }
  if (c >= 0x30 && c <= 0x37) {
    let r = c - 0x30;
    for (let i = 1; i < 3 && isOctal(s, t); i++) r = r * 8 + s.charCodeAt(t++) - 0x30;
    return { rune: r, next: t };
  }
  if (c === 0x78) {
    // \x41 or \x{10FFFF}
    if (t >= s.length) throw invalid(t);
    const open = nextRune(s, t);
    t = open.next;
    if (open.rune === 0x7b) {
      let digits = 0;
      let r = 0;
      for (;;) {
        if (t >= s.length) throw invalid(t);
        const d = nextRune(s, t);
        t = d.next;
        if (d.rune === 0x7d) break;
        const v = unhex(d.rune);
        if (v < 0) throw invalid(t);
        r = r * 16 + v;
        if (r > MAX_RUNE) throw invalid(t);
        digits++;
      }
      if (digits === 0) throw invalid(t);
      return { rune: r, next: t };
    }
    const x = unhex(open.rune);
    const second = nextRune(s, t);
    t = second.next;
    const y = unhex(second.rune);
    if (x < 0 || y < 0) throw invalid(t);
    return { rune: x * 16 + y, next: t };
  }
  const simple = SIMPLE_ESCAPES[String.fromCodePoint(c)];
  if (simple !== undefined) return { rune: simple, next: t };
  // Any other ASCII punctuation stands for itself (`\_` too); letters, digits and non-ASCII are refused.
  if (c < 0x80 && !isAlnum(c)) return { rune: c, next: t };
  throw invalid(t);
}

/** `{n}`, `{n,}` or `{n,m}` at `at`: the counts (-1 for a number too large) and where it ends; undefined if not one. */
export function parseRepeat(s: string, at: number): { min: number; max: number; after: number } | undefined {
  const minimum = parseInt10(s, at + 1);
  if (!minimum) return undefined;
  let min = minimum.value;
  let max: number;
  let t = minimum.next;
  if (t >= s.length) return undefined;
  if (s[t] !== ',') {
    max = min;
  } else {
    t++;
    if (t >= s.length) return undefined;
    if (s[t] === '}') {
      max = -1;
    } else {
      const maximum = parseInt10(s, t);
      if (!maximum) return undefined;
      max = maximum.value;
      t = maximum.next;
      if (max < 0) min = -1;
    }
  }
  if (t >= s.length || s[t] !== '}') return undefined;
  return { min, max, after: t + 1 };
}

/**
 * What a `(?` opens: a named capture (`(?P<name>`, `(?<name>`), or new flags — for a group (`(?flags:`) or for the
 * rest of the current one (`(?flags)`).
 */
export type PerlGroup = { kind: 'capture'; name: string; next: number } | { kind: 'flags'; flags: number; group: boolean; next: number };

/** The `(?…` at `at`, read with the current `flags`; `next` is where parsing goes on. */
export function parsePerlFlags(s: string, at: number, flags: number): PerlGroup {
  const startsWithP = s.length - at > 4 && s[at + 2] === 'P' && s[at + 3] === '<';
  const startsWithName = s.length - at > 3 && s[at + 2] === '<';
  if (startsWithP || startsWithName) {
    const nameStart = at + (startsWithP ? 4 : 3);
    const end = s.indexOf('>', at);
    if (end < 0) throw new GoRegexpError('invalid named capture', s.slice(at));
    const name = s.slice(nameStart, end);
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new GoRegexpError('invalid named capture', s.slice(at, end + 1));
    return { kind: 'capture', name, next: end + 1 };
  }

  const MASK = 0xffff;
  let t = at + 2;
  let sign = 1;
  let sawFlag = false;
  while (t < s.length) {
    const { rune, next } = nextRune(s, t);
    t = next;
    const c = String.fromCodePoint(rune);
    if (c === 'i') {
      flags |= Flag.FoldCase;
      sawFlag = true;
    } else if (c === 'm') {
      flags &= ~Flag.OneLine & MASK;
      sawFlag = true;
    } else if (c === 's') {
      flags |= Flag.DotNL;
      sawFlag = true;
    } else if (c === 'U') {
      flags |= Flag.NonGreedy;
      sawFlag = true;
    } else if (c === '-') {
      if (sign < 0) break;
      sign = -1;
      // Inverted, so that setting a flag clears it; inverted back at the end.
      flags = ~flags & MASK;
      sawFlag = false;
    } else if (c === ':' || c === ')') {
      if (sign < 0) {
        if (!sawFlag) break;
        flags = ~flags & MASK;
      }
      return { kind: 'flags', flags, group: c === ':', next: t };
    } else {
      break;
    }
  }
  throw new GoRegexpError('invalid or unsupported Perl syntax', s.slice(at, t));
}
