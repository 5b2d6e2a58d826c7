/**
 * Unicode classes (`\pL`, `\p{Greek}`) and case folding as Go's regexp/syntax sees them, from tables generated
 * out of Go's unicode package (unicode-tables.ts, by tools/go-regexp-tables).
 *
 * Prometheus looks class names up in two ways. A PromQL matcher is parsed by Prometheus' own copy of regexp/syntax
 * (github.com/grafana/regexp/syntax: exact names, `Any`, a key of unicode.Categories or of unicode.Scripts; the
 * tree it makes is then compiled from its ranges, so the name is read once). A relabeling regex is compiled by the
 * Go toolchain's regexp/syntax, which in Go 1.26 matches names loosely (`\p{greek}`, `\p{Letter}`) and refuses the
 * underscored script names (`\p{Old_Italic}`). promop reads a matcher's names exactly as Prometheus does, and a
 * relabeling's as the exact names the toolchain also accepts: stricter than Prometheus on the loose spellings
 * (read as unknown classes), never looser, since a name Prometheus refused would stop every team's reload.
 */
import { NAMES_THE_TOOLCHAIN_REFUSES, SIMPLE_FOLD_ORBITS, UNICODE_CLASS_RANGES } from './unicode-tables.ts';

/** The largest rune (unicode.MaxRune). */
export const MAX_RUNE = 0x10ffff;

function decode(encoded: string): number[] {
  if (encoded === '') return [];
  const runes: number[] = [];
  let last = 0;
  for (const delta of encoded.split(',')) {
    last += parseInt(delta, 36);
    runes.push(last);
  }
  return runes;
}

const decoded = new Map<string, { plain: number[]; folded: number[] }>();

const REFUSED_BY_THE_TOOLCHAIN: ReadonlySet<string> = new Set(NAMES_THE_TOOLCHAIN_REFUSES);

/** Which of Prometheus' readings a regex gets: a PromQL matcher's, or a relabeling's (see above). */
export type RegexReading = 'matcher' | 'relabeling';

/** Whether `\p{name}` is a class in `reading`. */
export function isUnicodeClassName(name: string, reading: RegexReading): boolean {
  return Object.hasOwn(UNICODE_CLASS_RANGES, name) && (reading === 'matcher' || !REFUSED_BY_THE_TOOLCHAIN.has(name));
}

/** The sorted [lo, hi] pairs of `\p{name}` (frozen), with its case-folded runes when `folded`; undefined for an unknown name. */
export function unicodeClassRanges(name: string, folded: boolean): readonly number[] | undefined {
  if (!Object.hasOwn(UNICODE_CLASS_RANGES, name)) return undefined;
  let entry = decoded.get(name);
  if (!entry) {
    const encoded = UNICODE_CLASS_RANGES[name]!;
    entry = { plain: Object.freeze(decode(encoded.plain)) as number[], folded: Object.freeze(decode(encoded.folded)) as number[] };
    decoded.set(name, entry);
  }
  return folded ? entry.folded : entry.plain;
}

let foldNext: Map<number, number> | undefined;
/** Every rune that folds to another, sorted: the only runes case folding can add to a range. */
let foldingRunes: number[] = [];

function foldTable(): Map<number, number> {
  if (!foldNext) {
    foldNext = new Map();
    for (const orbit of SIMPLE_FOLD_ORBITS.split(',')) {
      const runes = orbit.split(' ').map((rune) => parseInt(rune, 36));
      runes.forEach((rune, i) => foldNext!.set(rune, runes[(i + 1) % runes.length]!));
    }
    foldingRunes = [...foldNext.keys()].sort((a, b) => a - b);
  }
  return foldNext;
}

/** unicode.SimpleFold: the next rune of r's case-folding orbit (r itself when it has none). */
export function simpleFold(rune: number): number {
  return foldTable().get(rune) ?? rune;
}

/** The runes of [lo, hi] that fold to some other rune, in order (binary search: no walk over the whole range). */
export function foldingRunesIn(lo: number, hi: number): number[] {
  foldTable();
  let left = 0;
  let right = foldingRunes.length;
  while (left < right) {
    const mid = (left + right) >> 1;
    if (foldingRunes[mid]! < lo) left = mid + 1;
    else right = mid;
  }
  const runes: number[] = [];
  for (let i = left; i < foldingRunes.length && foldingRunes[i]! <= hi; i++) runes.push(foldingRunes[i]!);
  return runes;
}

