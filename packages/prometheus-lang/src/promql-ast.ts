/**
 * The syntax tree of a PromQL expression as Prometheus builds it (promql/parser/ast.go): the rule
 * checker parses into these nodes and type-checks them the way Prometheus' checkAST does.
 */
import type { PromqlFunction } from './promql-functions.ts';

/** Where a node is in the expression (offsets in the JavaScript string). */
export interface Span {
  from: number;
  to: number;
}

/** A problem Prometheus would report for the expression, with the part it is about. */
export interface PromqlProblem extends Span {
  message: string;
}

export type PromqlExpr =
  | NumberLiteral
  | StringLiteral
  | VectorSelector
  | MatrixSelector
  | SubqueryExpr
  | Call
  | AggregateExpr
  | BinaryExpr
  | UnaryExpr
  | ParenExpr;

export interface NumberLiteral extends Span {
  kind: 'number';
  value: number;
}

export interface StringLiteral extends Span {
  kind: 'string';
  value: string;
}

export type MatchOperator = '=' | '!=' | '=~' | '!~';

export interface LabelMatcher {
  name: string;
  operator: MatchOperator;
  value: string;
}

/** `offset` and `@` as Prometheus records them on selectors and subqueries. */
export interface TimeModifiers {
  /** An offset that counts as set: a non-zero literal or a duration expression (`offset 0s` does not). */
  offsetSet: boolean;
  /** `@ <timestamp>`, `@ start()` or `@ end()`. */
  atSet: boolean;
}

export interface VectorSelector extends Span, TimeModifiers {
  kind: 'vectorSelector';
  /** The metric name written before the braces, if any. */
  name?: string;
  /** The matchers inside the braces (without the one Prometheus adds for `name`). */
  matchers: LabelMatcher[];
  anchored: boolean;
  smoothed: boolean;
  /** Set for info()'s second argument, which may consist of empty matchers only. */
  bypassEmptyMatcherCheck: boolean;
}

export interface MatrixSelector extends Span {
  kind: 'matrixSelector';
  /** A vector selector unless Prometheus already reported "ranges only allowed for vector selectors". */
  selector: PromqlExpr;
}

export interface SubqueryExpr extends Span, TimeModifiers {
  kind: 'subquery';
  expr: PromqlExpr;
}

export interface Call extends Span {
  kind: 'call';
  name: string;
  /** Undefined for a function the target Prometheus does not know (already reported). */
  fn?: PromqlFunction;
  args: PromqlExpr[];
}

export interface AggregateExpr extends Span {
  kind: 'aggregate';
  /** `sum`, `topk`, `count_values`... in lower case. */
  operator: string;
  /** The first argument of topk, bottomk, quantile, count_values, limitk, limit_ratio. */
  param?: PromqlExpr;
  expr?: PromqlExpr;
}

export type BinaryOperator =
  | 'or' | 'and' | 'unless'
  | '==' | '!=' | '<=' | '<' | '>=' | '>' | '</' | '>/'
  | '+' | '-' | '*' | '/' | '%' | 'atan2' | '^';

export type VectorMatchCardinality = 'one-to-one' | 'many-to-one' | 'one-to-many' | 'many-to-many';

export interface BinaryExpr extends Span {
  kind: 'binary';
  operator: BinaryOperator;
  lhs: PromqlExpr;
  rhs: PromqlExpr;
  /** Where the operator is, for messages about it. */
  operatorSpan: Span;
  returnBool: boolean;
  cardinality: VectorMatchCardinality;
  /** `on(...)` rather than `ignoring(...)`. */
  on: boolean;
  matchingLabels: string[];
  /** The labels of `group_left(...)` / `group_right(...)`. */
  include: string[];
  /** A `fill()`, `fill_left()` or `fill_right()` modifier is present. */
  fill: boolean;
}

export interface UnaryExpr extends Span {
  kind: 'unary';
  operator: '+' | '-';
  expr: PromqlExpr;
}

export interface ParenExpr extends Span {
  kind: 'paren';
  expr: PromqlExpr;
}
