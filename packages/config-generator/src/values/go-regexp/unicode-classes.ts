/**
 * Unicode classes (`\pL`, `\p{Greek}`) and case folding as Go's regexp/syntax sees them, from tables generated
 * out of Go's unicode package (unicode-tables.ts, by tools/go-regexp-tables).
 *
 * The names are looked up exactly, as Prometheus' regexp (github.com/grafana/regexp, which carries its own copy of
 * regexp/syntax) looks them up: `Any`, a key of unicode.Categories or a key of unicode.Scripts. Go 1.26's own
 * regexp/syntax also accepts loose spellings (`\p{greek}`, `\p{Letter}`) and refuses the underscored script names
 * (`\p{Old_Italic}`); Prometheus 3.16 does the opposite, and promop checks for Prometheus.
 */
import { SIMPLE_FOLD_ORBITS, UNICODE_CLASS_RANGES } from './unicode-tables.ts';

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

/** Whether Prometheus knows `\p{name}`. */
export function isUnicodeClassName(name: string): boolean {
  return Object.hasOwn(UNICODE_CLASS_RANGES, name);
}

/** The sorted [lo, hi] pairs of `\p{name}` (frozen), with its case-folded runes when `folded`; undefined for an unknown name. */
export function unicodeClassRanges(name: string, folded: boolean): readonly number[] | undefined {
  if (!isUnicodeClassName(name)) return undefined;
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

