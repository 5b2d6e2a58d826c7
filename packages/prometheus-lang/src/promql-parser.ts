/**
 * PromQL parsed as Prometheus parses it (promql/parser/generated_parser.y, v3.16): the same
 * precedences and associativity, including how yacc settles the grammar's conflicts (a postfix
 * `offset`, `@`, `[...]`, `anchored` or `smoothed` binds to the nearest operand: `a + b offset 5m`
 * is `a + (b offset 5m)` and `-x[5m]` is `-(x[5m])`), and the checks Prometheus makes while it
 * builds the tree (offset and `@` placement, ranges only on selectors, argument counts of
 * aggregations, durations greater than zero...). Type checking is promql-types.ts.
 */
import type { AggregateExpr, BinaryExpr, BinaryOperator, PromqlExpr, PromqlProblem } from './promql-ast.ts';
import type { PromqlDialect } from './promql-dialect.ts';
import { lexPromql, type PromqlToken, type PromqlTokenKind } from './promql-lexer.ts';
import { decodePromqlString } from './promql-string.ts';
import { promqlFunctionHistory } from './promql-functions.ts';
import { UNARY_OPERAND_PRECEDENCE } from './promql-duration-parser.ts';
import { PromqlSelectorParser } from './promql-selector-parser.ts';
import { SyntaxStop } from './promql-token-reader.ts';

/** The tree, when the expression is well-formed, and every problem found while building it. */
export interface PromqlParseResult {
  expr?: PromqlExpr;
  problems: PromqlProblem[];
}

/** Parses `input` as the target Prometheus would. Never throws for bad input. */
export function parsePromql(input: string, dialect: PromqlDialect): PromqlParseResult {
  const { tokens, error } = lexPromql(input, { unquotedUtf8Names: dialect.unquotedUtf8Names, colonAfterDurationKeyword: dialect.colonAfterDurationKeyword });
  const parser = new PromqlParser(input, tokens, dialect, error?.from);
  try {
    const expr = parser.parseTop();
    // The tokens before a lexical error can form an expression; Prometheus still refuses it.
    if (error) return { problems: [...parser.problems, { from: error.from, to: input.length, message: error.message }] };
    return { expr, problems: parser.problems };
  } catch (stop) {
    if (!(stop instanceof SyntaxStop)) throw stop;
    // A lexical error is what the parser meets first when it reads up to it.
    const problem = error && stop.atLexError ? { from: error.from, to: input.length, message: error.message } : stop.problem;
    return { problems: [...parser.problems, problem] };
  }
}

/** Binding strength of the binary operators, as Prometheus' %left/%right declarations order them. */
const BINARY_PRECEDENCE: Partial<Record<PromqlTokenKind, number>> = {
  or: 1,
  and: 2,
  unless: 2,
  '==': 3,
  '!=': 3,
  '<=': 3,
  '<': 3,
  '>=': 3,
  '>': 3,
  '</': 3,
  '>/': 3,
  '+': 4,
  '-': 4,
  '*': 5,
  '/': 5,
  '%': 5,
  atan2: 5,
  '^': 6,
};

const AGGREGATORS = new Set(['sum', 'avg', 'count', 'min', 'max', 'group', 'stddev', 'stdvar', 'topk', 'bottomk', 'count_values', 'quantile', 'limitk', 'limit_ratio']);
const AGGREGATORS_WITH_PARAMETER = new Set(['topk', 'bottomk', 'count_values', 'quantile', 'limitk', 'limit_ratio']);

/** Tokens that may name a metric (Prometheus' metric_identifier): keywords that are not operators or modifiers. */
const METRIC_NAME_TOKENS = new Set<PromqlTokenKind>([
  'IDENTIFIER', 'METRIC_IDENTIFIER', ...AGGREGATORS, 'by', 'without', 'fill', 'fill_left', 'fill_right', 'and', 'or', 'unless',
  'offset', 'start', 'end', 'step', 'range', 'anchored', 'smoothed', 'max_of', 'min_of',
] as PromqlTokenKind[]);

/** Tokens that may name a grouping label (Prometheus' maybe_label). */
const GROUPING_LABEL_TOKENS = new Set<PromqlTokenKind>([
  ...METRIC_NAME_TOKENS, 'bool', 'group_left', 'group_right', 'ignoring', 'on', 'atan2',
]);

/** Keywords that call a function when "(" follows (they are names otherwise). */
const FUNCTION_KEYWORDS = new Set<PromqlTokenKind>(['start', 'end', 'step', 'range', 'max_of', 'min_of']);

/**
 * Expressions, on top of selectors, modifiers and durations (each layer reads the tokens as the one below does):
 * precedence and associativity of the operators, function calls, aggregations and vector matching.
 */
class PromqlParser extends PromqlSelectorParser {
  parseTop(): PromqlExpr {
    if (this.peek().kind === 'EOF') this.syntaxError('no expression found in input');
    const expr = this.parseExpression(0);
    if (this.peek().kind !== 'EOF') this.unexpected();
    return expr;
  }

  // ---- expressions ----

  private parseExpression(minPrecedence: number): PromqlExpr {
    let left = this.parseUnary();
    for (;;) {
      const token = this.peek();
      if (token.kind === 'offset' || token.kind === '@' || token.kind === '[' || token.kind === 'anchored' || token.kind === 'smoothed') {
        left = this.parsePostfix(left);
        continue;
      }
      const precedence = BINARY_PRECEDENCE[token.kind];
      if (precedence === undefined || precedence < minPrecedence) return left;
      if ((token.kind === '</' || token.kind === '>/') && !this.dialect.trimOperators) {
        this.syntaxError(`the ${token.kind} operator needs Prometheus v3.11.0 or later (this Prometheus is ${this.dialect.versionText})`, token);
      }
      this.advance();
      const binary = this.parseBinaryModifiers(token);
      const rhs = this.parseExpression(token.kind === '^' ? precedence : precedence + 1);
      left = this.finishBinary(binary, left, rhs);
    }
  }

  private parseUnary(): PromqlExpr {
    const token = this.peek();
    if (token.kind !== '+' && token.kind !== '-') return this.parsePrimary();
    this.advance();
    const operand = this.parseExpression(UNARY_OPERAND_PRECEDENCE);
    // Prometheus folds a sign into a number literal: `-1` is the number -1, not an operation.
    if (operand.kind === 'number') return { ...operand, value: token.kind === '-' ? -operand.value : operand.value, from: token.from };
    return { kind: 'unary', operator: token.kind, expr: operand, from: token.from, to: operand.to };
  }

  private parsePrimary(): PromqlExpr {
    const token = this.peek();
    switch (token.kind) {
      case 'NUMBER':
      case 'DURATION':
        this.advance();
        return this.numberLiteral(token, 'expression');
      case 'STRING':
        this.advance();
        return { kind: 'string', value: decodePromqlString(token.text).value, from: token.from, to: this.endOf(token) };
      case '(': {
        this.advance();
        const expr = this.parseExpression(0);
        const close = this.expect(')', 'parenthesized expression');
        return { kind: 'paren', expr, from: token.from, to: this.endOf(close) };
      }
      case '{':
        return this.parseVectorSelector(undefined);
    }
    const next = this.peek(1).kind;
    if (AGGREGATORS.has(token.kind) && (next === '(' || next === 'by' || next === 'without')) return this.parseAggregate();
    if ((token.kind === 'IDENTIFIER' || FUNCTION_KEYWORDS.has(token.kind)) && next === '(') return this.parseCall();
    if (METRIC_NAME_TOKENS.has(token.kind)) {
      this.advance();
      return this.parseVectorSelector(token);
    }
    this.unexpected();
  }

  // ---- calls and aggregations ----

  private parseCall(): PromqlExpr {
    const nameToken = this.advance();
    // Prometheus looks the function up by the name as written: `STEP()` is unknown.
    const name = nameToken.text;
    const fn = this.dialect.functions.get(name);
    const nameSpan = { from: nameToken.from, to: this.endOf(nameToken) };
    if (!fn) {
      const history = promqlFunctionHistory(name);
      const why = !history ? '' : history.until ? ` (it was removed in v${history.until})` : ` (it was added in v${history.since})`;
      this.problem(nameSpan, history ? `function ${name}() is not available in Prometheus ${this.dialect.versionText}${why}` : `unknown function ${name}()`);
    } else if (fn.experimental && !this.dialect.experimentalFunctions) {
      this.problem(nameSpan, `function ${name}() is experimental: the Prometheus must run with --enable-feature=promql-experimental-functions (spec.enableFeatures)`);
    }
    const args = this.parseCallArguments();
    return { kind: 'call', name, ...(fn ? { fn } : {}), args, from: nameToken.from, to: this.previousEnd() };
  }

  /** `( )` or `( expr, ... )`; a trailing comma is a problem, not a syntax error. */
  private parseCallArguments(): PromqlExpr[] {
    this.expect('(', 'function call');
    const args: PromqlExpr[] = [];
    if (this.peek().kind === ')') {
      this.advance();
      return args;
    }
    for (;;) {
      args.push(this.parseExpression(0));
      if (this.peek().kind === ')') break;
      const comma = this.expect(',', 'function call arguments');
      if (this.peek().kind === ')') {
        this.problem({ from: comma.from, to: comma.from + 1 }, 'trailing commas not allowed in function call args');
        break;
      }
    }
    this.advance();
    return args;
  }

  private parseAggregate(): PromqlExpr {
    const opToken = this.advance();
    const operator = opToken.kind;
    let hasModifier = false;
    if (this.peek().kind === 'by' || this.peek().kind === 'without') {
      this.advance();
      this.parseGroupingLabels();
      hasModifier = true;
    }
    const args = this.parseCallArguments();
    if (!hasModifier && (this.peek().kind === 'by' || this.peek().kind === 'without')) {
      this.advance();
      this.parseGroupingLabels();
    }
    const node: AggregateExpr = { kind: 'aggregate', operator, from: opToken.from, to: this.previousEnd() };
    if (args.length === 0) {
      this.problem(node, `${operator}() needs an argument: no arguments for aggregate expression provided`);
      return node;
    }
    let desired = 1;
    if (AGGREGATORS_WITH_PARAMETER.has(operator)) {
      if (operator === 'limitk' || operator === 'limit_ratio') {
        if (!this.dialect.limitAggregations) {
          this.problem(node, `${operator}() is not available in Prometheus ${this.dialect.versionText} (it was added in v2.54.0)`);
          return node;
        }
        if (!this.dialect.experimentalFunctions) {
          this.problem(node, `${operator}() is experimental: the Prometheus must run with --enable-feature=promql-experimental-functions (spec.enableFeatures)`);
          return node;
        }
      }
      desired = 2;
      node.param = args[0];
    }
    if (args.length !== desired) {
      this.problem(
        node,
        desired === 2
          ? `${operator}() takes 2 arguments (a parameter and an instant vector), got ${args.length}`
          : `${operator}() takes 1 argument (an instant vector), got ${args.length}`,
      );
      return node;
    }
    node.expr = args[desired - 1];
    return node;
  }

  /** `( )`, `( a, b )` or `( a, b, )` after by, without, on, ignoring, group_left, group_right. */
  private parseGroupingLabels(): string[] {
    this.expect('(', 'grouping opts');
    const labels: string[] = [];
    while (this.peek().kind !== ')') {
      const token = this.peek();
      if (token.kind === 'STRING') {
        this.requireQuotedNames(token);
        const { value, isUtf8 } = decodePromqlString(token.text);
        if (value === '' || !isUtf8) this.problem({ from: token.from, to: this.endOf(token) }, `invalid label name for grouping: ${token.text}`);
        labels.push(value);
      } else if (GROUPING_LABEL_TOKENS.has(token.kind)) {
        if (this.dialect.unquotedUtf8Names && !isUnquotedUtf8Name(token.text)) {
          this.problem({ from: token.from, to: this.endOf(token) }, `invalid label name for grouping: "${token.text}" must be quoted`);
        }
        labels.push(token.text);
      } else {
        this.unexpected('grouping opts');
      }
      this.advance();
      if (this.peek().kind === ',') this.advance();
      else if (this.peek().kind !== ')') this.unexpected('grouping opts');
    }
    this.advance();
    return labels;
  }

  // ---- binary operators ----

  private parseBinaryModifiers(operatorToken: PromqlToken): BinaryExpr {
    const binary: BinaryExpr = {
      kind: 'binary',
      operator: operatorToken.kind as BinaryOperator,
      lhs: undefined as unknown as PromqlExpr,
      rhs: undefined as unknown as PromqlExpr,
      from: 0,
      to: 0,
      operatorSpan: { from: operatorToken.from, to: this.endOf(operatorToken) },
      returnBool: false,
      cardinality: 'one-to-one',
      on: false,
      matchingLabels: [],
      include: [],
      fill: false,
    };
    if (this.peek().kind === 'bool') {
      binary.operatorSpan.to = this.endOf(this.advance());
      binary.returnBool = true;
    }
    if (this.peek().kind === 'on' || this.peek().kind === 'ignoring') {
      binary.on = this.advance().kind === 'on';
      binary.matchingLabels = this.parseGroupingLabels();
      if (this.peek().kind === 'group_left' || this.peek().kind === 'group_right') {
        binary.cardinality = this.advance().kind === 'group_left' ? 'many-to-one' : 'one-to-many';
        // `group_left (` always starts grouping labels, never the right-hand operand.
        if (this.peek().kind === '(') binary.include = this.parseGroupingLabels();
      }
    }
    const fillStart = this.peek();
    if (fillStart.kind === 'fill' || fillStart.kind === 'fill_left' || fillStart.kind === 'fill_right') {
      if (!this.dialect.fillModifiersExist) this.unexpected();
      this.advance();
      this.parseFillValue();
      const other = fillStart.kind === 'fill_left' ? 'fill_right' : fillStart.kind === 'fill_right' ? 'fill_left' : undefined;
      if (other && this.peek().kind === other) {
        this.advance();
        this.parseFillValue();
      }
      binary.fill = true;
    }
    return binary;
  }

  private parseFillValue(): void {
    this.expect('(', 'fill modifier');
    if (this.peek().kind === '+' || this.peek().kind === '-') this.advance();
    const token = this.peek();
    if (token.kind !== 'NUMBER' && token.kind !== 'DURATION') this.unexpected('fill modifier');
    this.advance();
    this.numberLiteral(token, 'expression');
    this.expect(')', 'fill modifier');
  }

  private finishBinary(binary: BinaryExpr, lhs: PromqlExpr, rhs: PromqlExpr): BinaryExpr {
    binary.lhs = lhs;
    binary.rhs = rhs;
    binary.from = lhs.from;
    binary.to = rhs.to;
    if (binary.fill && !this.dialect.fillModifiers) {
      this.problem(binary, 'fill modifiers are experimental: the Prometheus must run with --enable-feature=promql-binop-fill-modifiers (spec.enableFeatures)');
    }
    return binary;
  }
}

/** With unquoted UTF-8 names enabled, a grouping label that would need quotes must have them. */
function isUnquotedUtf8Name(name: string): boolean {
  return /^[\p{L}_][\p{L}_0-9.]*$/u.test(name);
}
