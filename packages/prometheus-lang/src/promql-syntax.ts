/**
 * PromQL syntax checking with the Prometheus team's own grammar (@prometheus-io/lezer-promql).
 * It finds syntax errors, plus two of Prometheus' own parse-time rules: regex matchers must compile
 * as RE2, and a selector without a metric name needs a matcher that does not match the empty
 * string (`{job=~".*"}` would select every series).
 * Type errors such as `rate(up)` parse fine here and are caught by the Prometheus binary (promtool
 * in our tests).
 */
import { parser } from '@prometheus-io/lezer-promql';
import { readPrometheusRegex } from './go-regexp/index.ts';
import { checkRegex } from './re2-regex.ts';
import { unquotePromqlString } from './promql-string.ts';
import { shortened } from './shown-text.ts';

/** lezer's syntax node type, named through the parser so @lezer/common need not be a dependency. */
type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

/** Where an expression stops being PromQL, and what the parser found there. */
export interface PromqlSyntaxError {
  /** Offset in the expression (UTF-16 code units, as JavaScript strings count). */
  offset: number;
  /** 1-based line and column of `offset`. */
  line: number;
  column: number;
  /** A sentence like `syntax error at column 12: unexpected "by"`. */
  message: string;
}

/** Returns the first syntax error in `expr`, or undefined when it parses. */
export function findPromqlSyntaxError(expr: string): PromqlSyntaxError | undefined {
  let error: { from: number; to: number; problem: 'syntax' | 'empty-matchers' | { regex: string } } | undefined;
  const tree = parser.parse(expr);
  tree.iterate({
    enter(node) {
      if (error) return false;
      if (node.type.isError) error = { from: node.from, to: node.to, problem: 'syntax' };
      return undefined;
    },
  });
  // Only a well-formed expression is checked for selectors Prometheus refuses.
  if (!error) {
    tree.iterate({
      enter(node) {
        if (error || node.name !== 'VectorSelector') return error ? false : undefined;
        const badRegex = findInvalidRegexMatcher(expr, node.node);
        if (badRegex) error = { from: badRegex.from, to: badRegex.to, problem: { regex: badRegex.reason } };
        else if (matchesEverySeries(expr, node.node)) error = { from: node.from, to: node.to, problem: 'empty-matchers' };
        return false;
      },
    });
  }
  if (!error) return undefined;
  const before = expr.slice(0, error.from);
  const line = before.split('\n').length;
  const column = error.from - (before.lastIndexOf('\n') + 1) + 1;
  const where = expr.includes('\n') ? `line ${line}, column ${column}` : `column ${column}`;
  const message =
    error.problem === 'syntax'
      ? `syntax error at ${where}: unexpected ${describeToken(expr, error.from, error.to)}`
      : error.problem === 'empty-matchers'
        ? `selector ${shortened(expr.slice(error.from, error.to))} at ${where} needs a metric name or a matcher that does not match the empty string`
        : `invalid regular expression in ${shortened(expr.slice(error.from, error.to))} at ${where}: ${error.problem.regex}`;
  return { offset: error.from, line, column, message };
}

/** The first `=~`/`!~` matcher of `selector` whose regex RE2 (Prometheus' regex engine) would refuse. */
function findInvalidRegexMatcher(expr: string, selector: SyntaxNode): { from: number; to: number; reason: string } | undefined {
  const braces = selector.getChild('LabelMatchers');
  for (let matcher = braces?.firstChild; matcher; matcher = matcher.nextSibling) {
    const operator = matcher.getChild('MatchOp');
    const literal = matcher.getChild('StringLiteral');
    if (!operator || !literal || !expr.slice(operator.from, operator.to).includes('~')) continue;
    const value = unquotePromqlString(expr.slice(literal.from, literal.to));
    const reason = value === undefined ? undefined : checkRegex(value, 'matcher');
    if (reason) return { from: matcher.from, to: matcher.to, reason };
  }
  return undefined;
}

/**
 * True for a selector without a metric name whose matchers all accept the empty string; Prometheus
 * refuses it at parse time. Whether a regex matches the empty string is read off Go's parse tree of it
 * (go-regexp/), never by running it.
 */
function matchesEverySeries(expr: string, selector: SyntaxNode): boolean {
  if (selector.getChild('Identifier')) return false;
  const braces = selector.getChild('LabelMatchers');
  if (!braces) return false;
  for (let matcher = braces.firstChild; matcher; matcher = matcher.nextSibling) {
    if (matcher.name === 'QuotedLabelName') return false; // {"metric.name"}
    if (matcher.name !== 'UnquotedLabelMatcher' && matcher.name !== 'QuotedLabelMatcher') continue;
    const operator = matcher.getChild('MatchOp');
    const literal = matcher.getChild('StringLiteral');
    const value = literal ? unquotePromqlString(expr.slice(literal.from, literal.to)) : undefined;
    if (!operator || value === undefined) return false;
    if (!matchesEmpty(expr.slice(operator.from, operator.to), value)) return false;
  }
  return true;
}

function matchesEmpty(operator: string, value: string): boolean {
  if (operator === '=') return value === '';
  if (operator === '!=') return value !== '';
  // A regex Go refuses is reported by findInvalidRegexMatcher; here it counts as selective.
  const read = readPrometheusRegex(value, 'matcher');
  if (!read.ok) return false;
  return operator === '=~' ? read.matchesEmpty : !read.matchesEmpty;
}

/**
 * What the parser choked on, and the text just before it. A zero-width error node means
 * "something is missing before the next token", so the next token is the most useful thing to show.
 */
function describeToken(expr: string, from: number, to: number): string {
  const skipped = expr.slice(from, to).trim();
  const token = skipped !== '' ? skipped : (NEXT_TOKEN.exec(expr.slice(from))?.[1] ?? '');
  const found = token === '' ? 'end of expression' : JSON.stringify(token.length > 20 ? `${token.slice(0, 20)}…` : token);
  const before = expr.slice(Math.max(0, from - 16), from).replace(/\s+/g, ' ').trim();
  return before === '' ? found : `${found} after "${from > 16 ? '…' : ''}${before}"`;
}

/** The next PromQL token: a name, a number or duration, a string, or one punctuation character. */
const NEXT_TOKEN = /^\s*([a-zA-Z_:][\w:]*|\d[\w.]*|"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|`[^`]*`?|[^\s\w])/;
