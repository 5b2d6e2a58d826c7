import { Flag, PERL_FLAGS, type GoRegexp, type GoRegexpErrorCode } from './ast.ts';
import { matchesEmpty } from './matches-empty.ts';
import { parseGoRegexp } from './parse.ts';

/** A regex as Prometheus reads it: the anchored tree and whether it matches the empty string, or Go's refusal. */
export type PrometheusRegex =
  | { ok: true; regex: GoRegexp; matchesEmpty: boolean }
  | { ok: false; code: GoRegexpErrorCode; expr: string; anchored: boolean };

/**
 * Reads a relabeling regex or a PromQL `=~`/`!~` matcher as Prometheus compiles it (relabel.NewRegexp,
 * labels.NewFastRegexMatcher): the pattern is parsed alone first (syntax.Perl | syntax.DotNL), then compiled
 * anchored as `^(?s:<pattern>)$`, whose extra levels and nodes can cross Go's limits when the pattern alone does not.
 */
export function readPrometheusRegex(pattern: string): PrometheusRegex {
  const alone = parseGoRegexp(pattern, PERL_FLAGS | Flag.DotNL);
  if (!alone.ok) return { ...alone, anchored: false };
  const anchored = parseGoRegexp(`^(?s:${pattern})$`, PERL_FLAGS);
  if (!anchored.ok) return { ...anchored, anchored: true };
  return { ok: true, regex: anchored.regex, matchesEmpty: matchesEmpty(anchored.regex) };
}
