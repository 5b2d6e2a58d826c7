/**
 * Whether Prometheus would accept a rule's PromQL expression: parsed and type-checked exactly as
 * the target Prometheus does (promql-parser.ts, promql-types.ts). Proven against `promtool check
 * rules` by rule-check.differential.test.ts.
 */
import type { PromqlProblem } from './promql-ast.ts';
import { promqlDialectOf, type PromqlDialect } from './promql-dialect.ts';
import { parsePromql } from './promql-parser.ts';
import { findPromqlSyntaxError } from './promql-syntax.ts';
import { findPromqlTypeErrors } from './promql-types.ts';
import { toPrometheusVersion, type PrometheusVersion } from './prometheus-version.ts';

/** The Prometheus whose PromQL an expression is checked as. */
export interface PromqlTarget {
  /** The release (`v3.16.0`), as text or read. */
  version: PrometheusVersion | string;
  /** Its `--enable-feature` values (comma-separated lists allowed, as on the command line). */
  features?: readonly string[];
}

/** Why Prometheus would refuse an expression. */
export interface ExpressionProblem {
  /** Where, in UTF-16 code units (as JavaScript strings count). */
  offset: number;
  /** Prometheus' objection, without the position: `unexpected "by"`, `expected type range vector in call to function "rate", got instant vector`. */
  reason: string;
  /** The sentence a user reads, with the position: `column 7: …` (or the editor grammar's `syntax error at column 12: unexpected "by" after "sum "`). */
  message: string;
}

/**
 * The dialect of each target object: a caller checking many expressions for one Prometheus passes the same
 * object, and the dialect (the release's function table) is worked out once. Weak, so a target lives no longer
 * than its caller keeps it.
 */
const dialects = new WeakMap<PromqlTarget, PromqlDialect>();

function dialectOf(target: PromqlTarget): PromqlDialect {
  let dialect = dialects.get(target);
  if (!dialect) {
    dialect = promqlDialectOf(toPrometheusVersion(target.version), target.features ?? []);
    dialects.set(target, dialect);
  }
  return dialect;
}

/**
 * Why the target Prometheus would refuse `expr` when it loads it in a rule file, or undefined when it accepts it:
 * parsed and type-checked as that release, with those feature flags, does.
 */
export function checkExpression(expr: string, target: PromqlTarget): ExpressionProblem | undefined {
  const problem = findPromqlProblem(expr, dialectOf(target));
  if (!problem) return undefined;
  const positioned = `${describePosition(expr, problem.from)}: ${problem.message}`;
  // Too deep for the exact check: the editor grammar, deep-limited too, never errs at the same place, and reading
  // thousands of levels with it cost seconds.
  if (problem.message === TOO_DEEP) return { offset: problem.from, reason: problem.message, message: positioned };
  // When the editor grammar finds an error at the same place, its sentence (with the text before the error) reads
  // better; whether the expression is refused is decided by the exact check above.
  const syntaxError = findPromqlSyntaxError(expr);
  const sameError = syntaxError !== undefined && syntaxError.offset === problem.from;
  return { offset: problem.from, reason: problem.message, message: sameError ? syntaxError.message : positioned };
}

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
