import { Flag, PERL_FLAGS, type GoRegexpErrorCode } from './ast.ts';
import { matchesEmpty } from './matches-empty.ts';
import { parseGoRegexp } from './parse.ts';
import type { RegexReading } from './unicode-classes.ts';

/** A regex as Prometheus reads it: the anchored tree and whether it matches the empty string, or Go's refusal. */
export type PrometheusRegex =
  | { ok: true; matchesEmpty: boolean }
  | { ok: false; code: GoRegexpErrorCode; expr: string; anchored: boolean };

/**
 * Reads a relabeling regex or a PromQL `=~`/`!~` matcher as Prometheus compiles it (relabel.NewRegexp,
 * labels.NewFastRegexMatcher): the pattern is parsed alone first (syntax.Perl | syntax.DotNL), then compiled
 * anchored as `^(?s:<pattern>)$`, whose extra levels and nodes can cross Go's limits when the pattern alone does not.
 */
export function readPrometheusRegex(pattern: string, reading: RegexReading): PrometheusRegex {
  // A matcher that is only literals between "|" is never parsed by Prometheus (labels' optimizeAlternatingLiterals
  // matches it as a set of strings), whatever its size.
  if (reading === 'matcher' && !REGEX_METACHARACTER.test(pattern)) return { ok: true, matchesEmpty: pattern.split('|').includes('') };
  const alone = parseGoRegexp(pattern, PERL_FLAGS | Flag.DotNL, reading);
  if (!alone.ok) return { ...alone, anchored: false };
  // A matcher is compiled from the parsed tree written back as text, where a \Q never ended is closed: the
  // anchoring's own `)$` are not swallowed into the literal as they are for a relabeling, compiled from the text.
  const inner = reading === 'matcher' && unterminatedQuote(pattern) ? `${pattern}\\E` : pattern;
  const anchored = parseGoRegexp(`^(?s:${inner})$`, PERL_FLAGS, reading);
  if (!anchored.ok) return { ...anchored, anchored: true };
  return { ok: true, matchesEmpty: matchesEmpty(anchored.regex) };
}

/** Whether the pattern ends inside a \Q…\E literal (a \Q whose \E never comes), as regexp/syntax reads it. */
function unterminatedQuote(pattern: string): boolean {
  let inQuote = false;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] !== '\\') continue;
    const next = pattern[i + 1];
    if (inQuote) {
      if (next === 'E') inQuote = false;
    } else if (next === 'Q') inQuote = true;
    i++;
  }
  return inQuote;
}

/** The characters Go's regexp.QuoteMeta escapes: a pattern without them is a literal, or literals between "|". */
const REGEX_METACHARACTER = /[\\.+*?()[\]{}^$]/;
