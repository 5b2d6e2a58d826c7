/**
 * PromQL type checking as Prometheus does it after parsing (checkAST in promql/parser/parse.go):
 * every node has a value type (scalar, string, instant vector, range vector), and functions,
 * aggregations, operators, unary minus and subqueries accept only some. Prometheus refuses a rule
 * file with any of these errors, so they are found here first and explained.
 */
import type { AggregateExpr, BinaryExpr, Call, PromqlExpr, PromqlProblem, Span, VectorSelector } from './promql-ast.ts';
import type { PromqlValueType } from './promql-functions.ts';
import { readPrometheusRegex } from './go-regexp/index.ts';

/** Every type error in `expr` (a tree parsed without problems), in Prometheus' order. */
export function findPromqlTypeErrors(expr: PromqlExpr, input: string): PromqlProblem[] {
  const checker = new TypeChecker(input);
  checker.check(expr);
  return checker.problems;
}

/** The value type Prometheus gives a well-formed node. */
export function typeOf(node: PromqlExpr): PromqlValueType {
  switch (node.kind) {
    case 'number':
      return 'scalar';
    case 'string':
      return 'string';
    case 'vectorSelector':
    case 'aggregate':
      return 'vector';
    case 'matrixSelector':
    case 'subquery':
      return 'matrix';
    case 'call':
      return node.fn?.returnType ?? 'vector';
    case 'paren':
    case 'unary':
      return typeOf(node.expr);
    case 'binary':
      return typeOf(node.lhs) === 'scalar' && typeOf(node.rhs) === 'scalar' ? 'scalar' : 'vector';
  }
}

const COMPARISON_OPERATORS = new Set(['==', '!=', '<=', '<', '>=', '>']);
const SET_OPERATORS = new Set(['and', 'or', 'unless']);
const SCALAR_PARAMETER_AGGREGATORS = new Set(['topk', 'bottomk', 'quantile', 'limitk', 'limit_ratio']);

/** "an instant vector", "a range vector"... */
export function describeValueType(type: PromqlValueType): string {
  return { scalar: 'a scalar', string: 'a string', vector: 'an instant vector', matrix: 'a range vector' }[type];
}

/** An example of each type, to show what was expected. */
const EXAMPLES: Record<PromqlValueType, string> = {
  scalar: 'such as 0.9 or scalar(x)',
  string: 'such as "label"',
  vector: 'such as x or rate(x[5m])',
  matrix: 'such as x[5m] or a subquery (expr)[1h:5m]',
};

class TypeChecker {
  readonly problems: PromqlProblem[] = [];
  private readonly input: string;

  constructor(input: string) {
    this.input = input;
  }

  check(node: PromqlExpr): PromqlValueType {
    const type = typeOf(node);
    switch (node.kind) {
      case 'aggregate':
        this.checkAggregate(node);
        break;
      case 'binary':
        this.checkBinary(node);
        break;
      case 'call':
        this.checkCall(node);
        break;
      case 'paren':
        this.check(node.expr);
        break;
      case 'unary': {
        const inner = this.check(node.expr);
        if (inner !== 'scalar' && inner !== 'vector') {
          this.problem(node, `unary ${node.operator} applies to a scalar or an instant vector, not to ${describeValueType(inner)}`);
        }
        break;
      }
      case 'subquery': {
        const inner = this.check(node.expr);
        if (inner !== 'vector') {
          this.problem(node, `a subquery [range:step] applies to an instant vector (such as rate(x[5m])), not to ${describeValueType(inner)} ${this.quote(node.expr)}`);
        }
        break;
      }
      case 'matrixSelector':
        this.check(node.selector);
        break;
      case 'vectorSelector':
        this.checkVectorSelector(node);
        break;
      case 'number':
      case 'string':
        break;
    }
    return type;
  }

  private checkAggregate(node: AggregateExpr): void {
    const operator = node.operator;
    if (node.expr) this.expectType(node.expr, 'vector', `${operator}() aggregates`);
    if (node.param && SCALAR_PARAMETER_AGGREGATORS.has(operator)) this.expectType(node.param, 'scalar', `the parameter of ${operator}() must be`);
    if (node.param && operator === 'count_values') this.expectType(node.param, 'string', 'the parameter of count_values() (the output label name) must be');
  }

  private checkBinary(node: BinaryExpr): void {
    const left = this.check(node.lhs);
    const right = this.check(node.rhs);
    const operator = node.operator;
    const isComparison = COMPARISON_OPERATORS.has(operator);
    const isSetOperator = SET_OPERATORS.has(operator);
    if (node.returnBool && !isComparison) {
      this.problem(node.operatorSpan, `bool can only follow a comparison operator (==, !=, <, <=, >, >=), not "${operator}"`);
    }
    if (isComparison && !node.returnBool && left === 'scalar' && right === 'scalar') {
      this.problem(node.operatorSpan, `a comparison between two scalars must use bool, as in 1 ${operator} bool 2`);
    }
    const cardinality = isSetOperator && node.cardinality === 'one-to-one' ? 'many-to-many' : node.cardinality;
    if (node.on) {
      for (const label of node.matchingLabels) {
        if (node.include.includes(label)) this.problem(node.operatorSpan, `label "${label}" must not occur in on() and in the group modifier at once`);
      }
    }
    if (left !== 'scalar' && left !== 'vector') {
      this.problem(node.lhs, `"${operator}" takes scalars and instant vectors, but its left side is ${describeValueType(left)} ${this.quote(node.lhs)}`);
    }
    if (right !== 'scalar' && right !== 'vector') {
      this.problem(node.rhs, `"${operator}" takes scalars and instant vectors, but its right side is ${describeValueType(right)} ${this.quote(node.rhs)}`);
    }
    if (left !== 'vector' || right !== 'vector') {
      if (node.matchingLabels.length > 0) this.problem(node, `vector matching (on/ignoring) is only allowed between two instant vectors`);
      if (node.fill) this.problem(node, 'filling in missing series is only allowed between two instant vectors');
    } else if (isSetOperator) {
      if (cardinality === 'one-to-many' || cardinality === 'many-to-one') this.problem(node, `no grouping (group_left/group_right) allowed for "${operator}"`);
      if (cardinality !== 'many-to-many') this.problem(node, 'set operations must always be many-to-many');
      if (node.fill) this.problem(node, 'filling in missing series is not allowed for set operators');
    }
    if ((left === 'scalar' || right === 'scalar') && isSetOperator) {
      this.problem(node, `"${operator}" works between two instant vectors only, not with a scalar`);
    }
  }

  private checkCall(node: Call): void {
    const fn = node.fn;
    if (!fn) return;
    const declared = fn.argTypes.length;
    const given = node.args.length;
    if (fn.variadic === 0) {
      if (declared !== given) this.problem(node, `${fn.name}() takes ${plural(declared, 'argument')}, got ${given}`);
    } else {
      const minimum = declared - 1;
      if (minimum > given) this.problem(node, `${fn.name}() takes at least ${plural(minimum, 'argument')}, got ${given}`);
      else if (fn.variadic > 0 && minimum + fn.variadic < given) this.problem(node, `${fn.name}() takes at most ${plural(minimum + fn.variadic, 'argument')}, got ${given}`);
    }
    const labelSelector = node.args[1];
    if (fn.name === 'info' && labelSelector) {
      if (typeOf(labelSelector) !== 'vector') this.problem(node, `the second argument of info() must be a label selector such as {k8s_cluster_name="a"}, got ${describeValueType(typeOf(labelSelector))}`);
      if (labelSelector.kind === 'vectorSelector' && labelSelector.name !== undefined) {
        this.problem(labelSelector, 'the second argument of info() must be label matchers only, without a metric name');
      } else if (labelSelector.kind === 'vectorSelector') {
        labelSelector.bypassEmptyMatcherCheck = true;
      } else {
        this.problem(labelSelector, 'the second argument of info() must be label matchers only, such as {k8s_cluster_name="a"}');
      }
    }
    node.args.forEach((arg, index) => {
      let position = index;
      if (position >= declared) {
        // Extra arguments of a fixed-arity function are already an error, and not checked.
        if (fn.variadic === 0) return;
        position = declared - 1;
      }
      const expected = fn.argTypes[position]!;
      const actual = this.check(arg);
      if (actual !== expected) {
        this.problem(arg, `${fn.name}() expects ${describeValueType(expected)} as argument ${index + 1} (${EXAMPLES[expected]}), got ${describeValueType(actual)} ${this.quote(arg)}`);
      }
    });
  }

  private checkVectorSelector(node: VectorSelector): void {
    if (node.name !== undefined) {
      for (const matcher of node.matchers) {
        if (matcher.name === '__name__') this.problem(node, `the metric name is set twice: "${node.name}" and "${matcher.value}"`);
      }
      return;
    }
    if (node.bypassEmptyMatcherCheck) return;
    const selective = node.matchers.some((matcher) => !matchesEmptyValue(matcher.operator, matcher.value));
    if (!selective) {
      this.problem(node, `selector ${this.quote(node)} needs a metric name or a matcher that does not match the empty string (it would select every series)`);
    }
  }

  private expectType(node: PromqlExpr, expected: PromqlValueType, what: string): void {
    const actual = this.check(node);
    if (actual !== expected) this.problem(node, `${what} ${describeValueType(expected)} (${EXAMPLES[expected]}), got ${describeValueType(actual)} ${this.quote(node)}`);
  }

  private problem(span: Span, message: string): void {
    this.problems.push({ from: span.from, to: span.to, message });
  }

  /** The node's text in quotes, shortened. */
  private quote(span: Span): string {
    const text = this.input.slice(span.from, span.to).replace(/\s+/g, ' ').trim();
    return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  }
}

function matchesEmptyValue(operator: string, value: string): boolean {
  switch (operator) {
    case '=':
      return value === '';
    case '!=':
      return value !== '';
    case '=~':
      return regexMatchesEmpty(value);
    default:
      return !regexMatchesEmpty(value);
  }
}

/**
 * Whether a regex matcher's pattern matches the empty string, read off Go's parse tree of the anchored regex. A
 * pattern Go refuses is reported on its own; here it counts as not matching, so that doubt never adds a problem.
 */
function regexMatchesEmpty(value: string): boolean {
  const read = readPrometheusRegex(value, 'matcher');
  return read.ok && read.matchesEmpty;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
