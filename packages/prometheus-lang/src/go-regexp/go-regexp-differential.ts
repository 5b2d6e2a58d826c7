/**
 * Compares promop's reading of regexes with Prometheus' own (tools/go-check, built with Prometheus' relabel and
 * labels packages: relabel.NewRegexp for a relabeling, labels.NewFastRegexMatcher for a PromQL matcher), for the
 * differential test and the long campaign (scripts/go-regexp-differential.ts). All patterns of one reading go to
 * one go-check process.
 */
import { compileRegexesWithGoSync, type GoRegexReading } from '@promop/testkit';
import { readPrometheusRegex } from './prometheus-regex.ts';
import { isUnicodeClassName, type RegexReading } from './unicode-classes.ts';

/** A verdict as both sides are compared: `refused: <Go's error code>` or `accepted, matches empty: <bool>`. */
export function promopVerdict(pattern: string, reading: RegexReading): string {
  const read = readPrometheusRegex(pattern, reading);
  return read.ok ? `accepted, matches empty: ${read.matchesEmpty}` : `refused: ${read.code}`;
}

/** Go's verdict in the same words. */
export function goVerdict(reading: GoRegexReading): string {
  return reading.ok ? `accepted, matches empty: ${reading.matchesEmpty}` : `refused: ${reading.code ?? reading.error}`;
}

/** The Unicode class names a pattern may spell (`\pX`, `\p{Name}`), generously: a name too many only skips a case. */
function unicodeNames(pattern: string): string[] {
  return [...pattern.matchAll(/\\[pP](?:\{\^?([^}]*)\}|\^?([\s\S]))/gu)].map((match) => match[1] ?? match[2]!);
}

/**
 * The names the Go toolchain's regexp/syntax accepts and a relabeling's reading in promop refuses: the toolchain
 * matches names loosely (`\ps` is `\pS`, `\p{greek}` is Greek), promop reads only the exact names, stricter on
 * purpose (unicode-classes.ts). A matcher's names are read exactly on both sides, so none deviate there.
 */
function deviatingNames(patterns: readonly string[], reading: RegexReading): Set<string> {
  if (reading === 'matcher') return new Set();
  const names = [...new Set(patterns.flatMap(unicodeNames))];
  const go = compileRegexesWithGoSync(names.map((name) => `\\p{${name}}`), 'go');
  return new Set(names.filter((name, i) => (go[i]!.ok === true) !== isUnicodeClassName(name, reading)));
}

/** What a comparison found. */
export interface RegexComparison {
  cases: number;
  accepted: number;
  /** Relabeling cases spelling a Unicode class name only the toolchain's loose lookup knows (not compared). */
  skipped: number;
  /** The longest time promop took on one pattern, in milliseconds. */
  slowestMs: number;
  disagreements: Array<{ pattern: string; promop: string; go: string }>;
}

/**
 * Reads every pattern with promop and with Prometheus' own reader for `reading`, and lists where the verdicts
 * differ. A matcher is compared with labels.NewFastRegexMatcher itself. A relabeling is compared with Go's
 * regexp/syntax on the pattern alone, then anchored, error codes included (promop reports the pattern's own error
 * first); relabel.NewRegexp reads the anchored form only, where a pattern such as `a)|(b` closes Prometheus' own
 * group and is accepted with another meaning, so promop is stricter there on purpose — and it must never accept
 * what relabel.NewRegexp refuses, which is checked too.
 */
export function compareWithGo(patterns: readonly string[], reading: RegexReading): RegexComparison {
  const go = compileRegexesWithGoSync(patterns, reading === 'matcher' ? 'matcher' : 'go');
  const prometheus = reading === 'relabeling' ? compileRegexesWithGoSync(patterns, 'relabeling') : go;
  const deviating = deviatingNames(patterns, reading);
  const result: RegexComparison = { cases: patterns.length, accepted: 0, skipped: 0, slowestMs: 0, disagreements: [] };
  patterns.forEach((pattern, i) => {
    if (unicodeNames(pattern).some((name) => deviating.has(name))) {
      result.skipped++;
      return;
    }
    const started = performance.now();
    const promop = promopVerdict(pattern, reading);
    result.slowestMs = Math.max(result.slowestMs, performance.now() - started);
    const expected = goVerdict(go[i]!);
    if (promop.startsWith('accepted')) result.accepted++;
    const shown = pattern.length > 200 ? `${pattern.slice(0, 200)}… (${pattern.length} chars)` : pattern;
    if (promop !== expected) result.disagreements.push({ pattern: shown, promop, go: expected });
    else if (promop.startsWith('accepted') && goVerdict(prometheus[i]!) !== promop) {
      result.disagreements.push({ pattern: shown, promop, go: `Prometheus: ${goVerdict(prometheus[i]!)}` });
    }
  });
  return result;
}
