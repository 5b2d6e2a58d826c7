/**
 * PromQL syntax checking with the Prometheus team's own grammar (@prometheus-io/lezer-promql).
 * It finds syntax errors only; type errors such as `rate(up)` parse fine here and are caught by
 * the Prometheus binary (promtool in our tests).
 */
import { parser } from '@prometheus-io/lezer-promql';

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
  let errorFrom = -1;
  let errorTo = -1;
  parser.parse(expr).iterate({
    enter(node) {
      if (errorFrom >= 0) return false;
      if (node.type.isError) {
        errorFrom = node.from;
        errorTo = node.to;
        return false;
      }
      return undefined;
    },
  });
  if (errorFrom < 0) return undefined;
  const before = expr.slice(0, errorFrom);
  const line = before.split('\n').length;
  const column = errorFrom - (before.lastIndexOf('\n') + 1) + 1;
  const where = expr.includes('\n') ? `line ${line}, column ${column}` : `column ${column}`;
  return { offset: errorFrom, line, column, message: `syntax error at ${where}: unexpected ${describeToken(expr, errorFrom, errorTo)}` };
}

/**
 * What the parser choked on. A zero-width error node means "something is missing before the next
 * token", so the next token is the most useful thing to show.
 */
function describeToken(expr: string, from: number, to: number): string {
  const skipped = expr.slice(from, to).trim();
  const text = skipped !== '' ? skipped : (/^\s*(\S+)/.exec(expr.slice(from))?.[1] ?? '');
  if (text === '') return 'end of expression';
  return JSON.stringify(text.length > 20 ? `${text.slice(0, 20)}…` : text);
}
