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
