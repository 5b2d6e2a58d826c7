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
  const { expr: tree, problems } = parsePromql(expr, dialect);
  if (problems.length > 0 || !tree) return problems[0] ?? { from: 0, to: expr.length, message: 'no expression found in input' };
  // Like Prometheus, types are checked only when the expression parsed without problems.
  return findPromqlTypeErrors(tree, expr)[0];
}

/** `column 7` or `line 2, column 3` for an offset into `expr`. */
export function describePosition(expr: string, offset: number): string {
  const before = expr.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return expr.includes('\n') ? `line ${line}, column ${column}` : `column ${column}`;
}
