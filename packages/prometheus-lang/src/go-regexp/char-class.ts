/**
 * Character classes as Go's regexp/syntax builds them: a class is a list of [lo, hi] rune pairs, appended to
 * (merging with the last two pairs, as Go does), then cleaned (sorted and merged). The parser's limits count these
 * runes and its factoring compares classes, so the lists must come out as Go's do once cleaned.
 */
import { foldingRunesIn, MAX_RUNE, simpleFold, unicodeClassRanges } from './unicode-classes.ts';
import { Flag } from './ast.ts';

/** The lowest and highest runes that take part in case folding (Go's minFold and maxFold). */
const MIN_FOLD = 0x41;
const MAX_FOLD = 0x1e943;

/** Appends [lo, hi], widening one of the last two pairs when it overlaps or touches. */
export function appendRange(runes: number[], lo: number, hi: number): number[] {
  const n = runes.length;
  for (let i = 2; i <= 4; i += 2) {
    if (n >= i) {
      const rlo = runes[n - i]!;
      const rhi = runes[n - i + 1]!;
      if (lo <= rhi + 1 && rlo <= hi + 1) {
        if (lo < rlo) runes[n - i] = lo;
        if (hi > rhi) runes[n - i + 1] = hi;
        return runes;
      }
    }
  }
  runes.push(lo, hi);
  return runes;
}

/** The runes of [lo, hi] and every rune they fold to. */
export function appendFoldedRange(runes: number[], lo: number, hi: number): number[] {
  if ((lo <= MIN_FOLD && hi >= MAX_FOLD) || hi < MIN_FOLD || lo > MAX_FOLD) return appendRange(runes, lo, hi);
  appendRange(runes, lo, hi);
  // Go walks every rune of the range; only the runes with a fold partner add anything, and those are few.
  for (const rune of foldingRunesIn(lo, hi)) {
    for (let folded = simpleFold(rune); folded !== rune; folded = simpleFold(folded)) appendRange(runes, folded, folded);
  }
  return runes;
}

/** Appends a literal rune, with its case variants under (?i). */
export function appendLiteral(runes: number[], rune: number, flags: number): number[] {
  return flags & Flag.FoldCase ? appendFoldedRange(runes, rune, rune) : appendRange(runes, rune, rune);
}

/** Appends a clean class. */
export function appendClass(runes: number[], pairs: readonly number[]): number[] {
  for (let i = 0; i < pairs.length; i += 2) appendRange(runes, pairs[i]!, pairs[i + 1]!);
  return runes;
}

/** Appends the case folding of a class. */
export function appendFoldedClass(runes: number[], pairs: readonly number[]): number[] {
  for (let i = 0; i < pairs.length; i += 2) appendFoldedRange(runes, pairs[i]!, pairs[i + 1]!);
  return runes;
}

/** Appends the complement of a clean class. */
export function appendNegatedClass(runes: number[], pairs: readonly number[]): number[] {
  let nextLo = 0;
  for (let i = 0; i < pairs.length; i += 2) {
    if (nextLo <= pairs[i]! - 1) appendRange(runes, nextLo, pairs[i]! - 1);
    nextLo = pairs[i + 1]! + 1;
  }
  if (nextLo <= MAX_RUNE) appendRange(runes, nextLo, MAX_RUNE);
  return runes;
}

/** Above every rune: a pair's sort key is lo * KEY_BASE + (KEY_BASE - 1 - hi), exact in a double. */
const KEY_BASE = 0x200000;

/** Sorts the pairs (lo ascending, hi descending) and merges those that overlap or touch. */
export function cleanClass(runes: number[]): number[] {
  if (runes.length < 4) return runes;
  let sorted = true;
  let clean = true;
  for (let i = 2; i < runes.length && sorted; i += 2) {
    if (runes[i]! < runes[i - 2]! || (runes[i] === runes[i - 2] && runes[i + 1]! > runes[i - 1]!)) sorted = false;
    else if (runes[i]! <= runes[i - 1]! + 1) clean = false;
  }
  // Already clean (a Unicode table shared between nodes among them): nothing to write.
  if (sorted && clean) return runes;
  let pairs = runes;
  if (!sorted) {
    // One number per pair, ordered as Go orders them (lo ascending, hi descending): a native numeric sort.
    const keys = new Float64Array(runes.length / 2);
    for (let i = 0; i < keys.length; i++) keys[i] = runes[2 * i]! * KEY_BASE + (KEY_BASE - 1 - runes[2 * i + 1]!);
    keys.sort();
    pairs = new Array<number>(runes.length);
    for (let i = 0; i < keys.length; i++) {
      const lo = Math.floor(keys[i]! / KEY_BASE);
      pairs[2 * i] = lo;
      pairs[2 * i + 1] = KEY_BASE - 1 - (keys[i]! - lo * KEY_BASE);
    }
  }
  let w = 2;
  const out = pairs === runes ? runes : pairs;
  for (let i = 2; i < pairs.length; i += 2) {
    const lo = pairs[i]!;
    const hi = pairs[i + 1]!;
    if (lo <= out[w - 1]! + 1) {
      if (hi > out[w - 1]!) out[w - 1] = hi;
      continue;
    }
    out[w] = lo;
    out[w + 1] = hi;
    w += 2;
  }
  out.length = w;
  return out;
}

/** The complement of a clean class. */
export function negateClass(runes: readonly number[]): number[] {
  return appendNegatedClass([], runes);
}

const negatedTables = new Map<string, readonly number[]>();

/** The complement of `\p{name}` (what `\P{name}` holds), frozen and computed once per name; undefined if unknown. */
export function negatedUnicodeClassRanges(name: string, folded: boolean): readonly number[] | undefined {
  const key = `${folded ? 'i' : ''}${name}`;
  let negated = negatedTables.get(key);
  if (!negated) {
    const table = unicodeClassRanges(name, folded);
    if (!table) return undefined;
    negated = Object.freeze(negateClass(table));
    negatedTables.set(key, negated);
  }
  return negated;
}

/** Whether a clean class holds `rune`. */
export function classHas(runes: readonly number[], rune: number): boolean {
  for (let i = 0; i < runes.length; i += 2) if (runes[i]! <= rune && rune <= runes[i + 1]!) return true;
  return false;
}

/** The least rune that folds to the same as `rune` (Go's minFoldRune). */
export function minFoldRune(rune: number): number {
  if (rune < MIN_FOLD || rune > MAX_FOLD) return rune;
  let least = rune;
  for (let r = simpleFold(rune); r !== rune; r = simpleFold(r)) least = Math.min(least, r);
  return least;
}

/** A Perl or POSIX class: its pairs, and whether it is negated. */
export interface NamedClass {
  negated: boolean;
  pairs: readonly number[];
}

const DIGIT = [0x30, 0x39];
const SPACE = [0x9, 0xa, 0xc, 0xd, 0x20, 0x20];
const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];

/** `\d \D \s \S \w \W`: ASCII only in Go. */
export const PERL_CLASSES: Readonly<Record<string, NamedClass>> = {
  d: { negated: false, pairs: DIGIT },
  D: { negated: true, pairs: DIGIT },
  s: { negated: false, pairs: SPACE },
  S: { negated: true, pairs: SPACE },
  w: { negated: false, pairs: WORD },
  W: { negated: true, pairs: WORD },
};

const POSIX_PAIRS: Readonly<Record<string, readonly number[]>> = {
  alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
  alpha: [0x41, 0x5a, 0x61, 0x7a],
  ascii: [0x0, 0x7f],
  blank: [0x9, 0x9, 0x20, 0x20],
  cntrl: [0x0, 0x1f, 0x7f, 0x7f],
  digit: DIGIT,
  graph: [0x21, 0x7e],
  lower: [0x61, 0x7a],
  print: [0x20, 0x7e],
  punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
  space: [0x9, 0xd, 0x20, 0x20],
  upper: [0x41, 0x5a],
  word: WORD,
  xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
};

/** `[:alpha:]` or `[:^alpha:]` (the whole text between the brackets' `[` and `]`), or undefined. */
export function posixClass(text: string): NamedClass | undefined {
  const negated = text.startsWith('[:^');
  const name = text.slice(negated ? 3 : 2, -2);
  return Object.hasOwn(POSIX_PAIRS, name) ? { negated, pairs: POSIX_PAIRS[name]! } : undefined;
}

/** Appends a Perl or POSIX class, folded under (?i), as Go's appendGroup does. */
export function appendNamedClass(runes: number[], group: NamedClass, flags: number): number[] {
  const pairs = flags & Flag.FoldCase ? cleanClass(appendFoldedClass([], group.pairs)) : group.pairs;
  return group.negated ? appendNegatedClass(runes, pairs) : appendClass(runes, pairs);
}
