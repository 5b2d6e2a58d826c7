/**
 * The sentence a user reads when Prometheus would refuse a regex: a relabeling's `regex`, a PromQL `=~`/`!~`
 * matcher, a port name matched as a regex. The reading itself is Go's, by promop's port of regexp/syntax
 * (./go-regexp): the pattern alone, then anchored as Prometheus compiles it, `^(?s:<regex>)$`.
 */
import { readPrometheusRegex, type RegexReading } from './go-regexp/index.ts';

/** The longest part of the pattern quoted in a message. */
const QUOTE_LIMIT = 60;

/**
 * Returns why `regex` would not compile in Prometheus, or undefined if it would: Go's error code and the part of
 * the pattern it points at (`invalid escape sequence: \q`), with a word on what RE2 lacks for the usual mistakes.
 */
export function checkRegex(regex: string, reading: RegexReading): string | undefined {
  const read = readPrometheusRegex(regex, reading);
  if (read.ok) return undefined;
  const { code, expr } = read;
  if ((code === 'invalid or unsupported Perl syntax' || code === 'invalid named capture') && /^\(\?(=|!|<=|<!)/.test(expr)) {
    return 'lookahead and lookbehind are not supported (Prometheus uses RE2 syntax)';
  }
  if (code === 'invalid escape sequence' && /^\\[1-9]$/.test(expr)) return 'backreferences are not supported (Prometheus uses RE2 syntax)';
  switch (code) {
    case 'expression nests too deeply':
      return 'expression nests too deeply (Go allows 1000 levels, counted with the ^(?s:…)$ Prometheus puts around the regex)';
    case 'expression too large':
      return 'expression too large (over Go\'s limit on the size of a compiled regex)';
    case 'invalid repeat count':
      return `invalid repeat count: ${quote(expr)} (at most 1000, nested counts multiplied)`;
    default:
      return expr === '' ? code : `${code}: ${quote(expr)}`;
  }
}

function quote(text: string): string {
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text;
}
