/**
 * The order in which prometheus-operator's output lists map keys. It marshals Go maps (external
 * labels, headers, params, rule labels and annotations, …) and sorts map keys and resource keys
 * with Go's byte-wise string comparison, so promop sorts the same keys the same way: the output
 * then diffs cleanly against upstream's and does not depend on the input's key order or the locale.
 */

/**
 * Compares by Unicode code point, which orders strings as Go compares their UTF-8 bytes. Plain
 * UTF-16 code unit order differs only for characters above U+FFFF against U+E000–U+FFFF.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) - codePointRank(y);
    return x - y;
  }
  return a.length - b.length;
}

/** Surrogates (U+D800–U+DFFF) encode code points above U+FFFF, so they rank after U+E000–U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

/** A copy of `map` with its keys in Go's order. */
export function sortedByKey<V>(map: Readonly<Record<string, V>>): Record<string, V> {
  const sorted: Record<string, V> = {};
  for (const key of Object.keys(map).sort(compareCodePoints)) sorted[key] = map[key] as V;
  return sorted;
}
