/**
 * Whether Prometheus would accept a rule's PromQL expression: parsed and type-checked exactly as
 * the target Prometheus does (promql-parser.ts, promql-types.ts). Proven against `promtool check
 * rules` by rule-check.differential.test.ts.
 */
import type { PromqlProblem } from './promql-ast.ts';
import type { PromqlDialect } from './promql-dialect.ts';
import { parsePromql } from './promql-parser.ts';
import { findPromqlTypeErrors } from './promql-types.ts';

/** The first problem Prometheus would report for `expr`, or undefined when it accepts it. */
export function findPromqlProblem(expr: string, dialect: PromqlDialect): PromqlProblem | undefined {
  try {
    const { expr: tree, problems } = parsePromql(expr, dialect);
    if (problems.length > 0 || !tree) return problems[0] ?? { from: 0, to: expr.length, message: 'no expression found in input' };
    // Like Prometheus, types are checked only when the expression parsed without problems.
    return findPromqlTypeErrors(tree, expr)[0];
  } catch (error) {
    // The parser and the type checker recurse once per level of nesting. Prometheus has no such
    // limit, but an expression thousands of levels deep is not one anybody maintains, and refusing
    // it is better than one team's rule stopping every team's rules from being written.
    if (error instanceof RangeError) return { from: 0, to: expr.length, message: TOO_DEEP };
    throw error;
  }
}

/** Why an expression or template too deeply nested to check is refused. */
export const TOO_DEEP = 'nested too deeply for promop to check (thousands of levels); split it into recording rules';

/** `column 7` or `line 2, column 3` for an offset into `expr`. */
export function describePosition(expr: string, offset: number): string {
  const before = expr.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return expr.includes('\n') ? `line ${line}, column ${column}` : `column ${column}`;
}
