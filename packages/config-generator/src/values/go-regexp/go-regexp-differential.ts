/**
 * Compares promop's reading of regexes with Go's (tools/go-check: Go's regexp compiling as Prometheus does,
 * syntax.Parse(p, Perl|DotNL) then regexp.Compile("^(?s:" + p + ")$")), for the differential test and the long
 * campaign (scripts/go-regexp-differential.ts). All patterns go to one go-check process.
 */
import { compileRegexesWithGoSync, type GoRegexReading } from '@promop/e2e';
import { readPrometheusRegex } from './prometheus-regex.ts';
import { isUnicodeClassName } from './unicode-classes.ts';

/** A verdict as both sides are compared: `refused: <Go's error code>` or `accepted, matches empty: <bool>`. */
export function promopVerdict(pattern: string): string {
  const read = readPrometheusRegex(pattern);
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
 * The names whose verdict differs between Go 1.26's regexp/syntax, which reads them loosely (`\ps` is `\pS`,
 * `\p{greek}` is Greek) and refuses the underscored scripts, and Prometheus' own copy of regexp/syntax (in
 * github.com/grafana/regexp), which looks them up exactly. promop follows Prometheus; go-regexp.test.ts shows both.
 */
function deviatingNames(patterns: readonly string[]): Set<string> {
  const names = [...new Set(patterns.flatMap(unicodeNames))];
  const go = compileRegexesWithGoSync(names.map((name) => `\\p{${name}}`));
  return new Set(names.filter((name, i) => (go[i]!.ok === true) !== isUnicodeClassName(name)));
}

/** What a comparison found. */
export interface RegexComparison {
  cases: number;
  accepted: number;
  /** Cases spelling a Unicode class name the two regexp/syntax copies read differently (not compared). */
  skipped: number;
  /** The longest time promop took on one pattern, in milliseconds. */
  slowestMs: number;
  disagreements: Array<{ pattern: string; promop: string; go: string }>;
}

/** Reads every pattern with promop and with Go and lists where the verdicts differ. */
export function compareWithGo(patterns: readonly string[]): RegexComparison {
  const go = compileRegexesWithGoSync(patterns);
  const deviating = deviatingNames(patterns);
  const result: RegexComparison = { cases: patterns.length, accepted: 0, skipped: 0, slowestMs: 0, disagreements: [] };
  patterns.forEach((pattern, i) => {
    if (unicodeNames(pattern).some((name) => deviating.has(name))) {
      result.skipped++;
      return;
    }
    const started = performance.now();
    const promop = promopVerdict(pattern);
    result.slowestMs = Math.max(result.slowestMs, performance.now() - started);
    const expected = goVerdict(go[i]!);
    if (promop.startsWith('accepted')) result.accepted++;
    if (promop !== expected) {
      const shown = pattern.length > 200 ? `${pattern.slice(0, 200)}… (${pattern.length} chars)` : pattern;
      result.disagreements.push({ pattern: shown, promop, go: expected });
    }
  });
  return result;
}
