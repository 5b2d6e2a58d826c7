/**
 * Regexes written to hurt the one thread that reconciles everything: on a backtracking engine (JavaScript's, for
 * one) some take seconds to minutes; others reach Go's limits or are megabytes long. Each must be
 * decided — refused or accepted, and whether it matches the empty string — quickly, with Go's verdict.
 * Used by hostile-regexes.test.ts (the verdicts, compared with Go's) and bench/regex-hostile.bench.ts (the time).
 */

/** One hostile regex: a short name, the pattern, and Go's verdict in the differential test's words. */
export interface HostileRegex {
  name: string;
  pattern: string;
  verdict: string;
}

const ACCEPTED = 'accepted, matches empty: false';
const MB = 1_400_000;

const nest = (depth: number, inner: string, open = '(', close = ')') => open.repeat(depth) + inner + close.repeat(depth);
const fill = (piece: string, length: number) => piece.repeat(Math.ceil(length / piece.length)).slice(0, length - (length % piece.length));

/** The forms, built on demand (some are megabytes). */
export function hostileRegexes(): HostileRegex[] {
  return [
    { name: '(|) × 40, then x (22.8 s for 26 groups on V8)', pattern: `${'(|)'.repeat(40)}x`, verdict: ACCEPTED },
    { name: '(a*)*b', pattern: '(a*)*b', verdict: ACCEPTED },
    { name: '(a|a)* × 10,000', pattern: '(a|a)*'.repeat(10_000) + 'b', verdict: ACCEPTED },
    { name: '(a|aa)*c', pattern: '(a|aa)*c', verdict: ACCEPTED },
    { name: '50,000 nested groups', pattern: nest(50_000, 'a'), verdict: 'refused: expression nests too deeply' },
    { name: '50,000 nested (?: groups', pattern: nest(50_000, 'a', '(?:'), verdict: ACCEPTED },
    { name: '50,000 ( never closed', pattern: '('.repeat(50_000), verdict: 'refused: missing closing )' },
    { name: '1.4 MB of text', pattern: fill('http_requests_total_', MB), verdict: ACCEPTED },
    { name: '1.4 MB of [a-z]+_', pattern: fill('[a-z]+_', MB), verdict: ACCEPTED },
    // \Q without \E runs to the end, taking the `)$` Prometheus puts around the regex with it.
    { name: '1.4 MB of \\Q text', pattern: `\\Q${fill('.*+?', MB)}\\E`, verdict: ACCEPTED },
    // Go looks for the ":]" of a POSIX class at each "[:", through the rest of the pattern.
    { name: '1.4 MB of [[: never closed', pattern: `[${fill('[:a', MB)}]`, verdict: ACCEPTED },
    { name: '1.4 MB alternation a|aa|aaa|…', pattern: Array.from({ length: 1673 }, (_, i) => 'a'.repeat(i + 1)).join('|'), verdict: 'refused: expression nests too deeply' },
    // Go factors the common leading [ab] out again and again: 2,000 levels of recursion.
    { name: '[ab] × 2,000 then x, or then y', pattern: `${'[ab]'.repeat(2_000)}x|${'[ab]'.repeat(2_000)}y`, verdict: 'refused: expression nests too deeply' },
    { name: '\\pL × 30,000', pattern: '\\pL'.repeat(30_000), verdict: 'refused: expression too large' },
    { name: '(?i) class over all folding runes × 1,000', pattern: `(?i)${'[A-\\x{1e943}]'.repeat(1_000)}`, verdict: ACCEPTED },
    { name: 'a{1000} × 3,400', pattern: 'a{1000}'.repeat(3_400), verdict: 'refused: expression too large' },
    { name: '((a{1000}){1000}){1000}', pattern: '((a{1000}){1000}){1000}', verdict: 'refused: invalid repeat count' },
  ];
}
