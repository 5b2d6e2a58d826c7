/**
 * PromQL parsed as Prometheus parses it (promql/parser/generated_parser.y, v3.16): the same
 * precedences and associativity, including how yacc settles the grammar's conflicts (a postfix
 * `offset`, `@`, `[...]`, `anchored` or `smoothed` binds to the nearest operand: `a + b offset 5m`
 * is `a + (b offset 5m)` and `-x[5m]` is `-(x[5m])`), and the checks Prometheus makes while it
 * builds the tree (offset and `@` placement, ranges only on selectors, argument counts of
 * aggregations, durations greater than zero...). Type checking is promql-types.ts.
 */
import type {
  AggregateExpr,
  BinaryExpr,
  BinaryOperator,
  LabelMatcher,
  MatchOperator,
  NumberLiteral,
  PromqlExpr,
  PromqlProblem,
  Span,
  VectorMatchCardinality,
  VectorSelector,
} from './promql-ast.ts';
import type { PromqlDialect } from './promql-dialect.ts';
import { lexPromql, type PromqlToken, type PromqlTokenKind } from './promql-lexer.ts';
import { parseGoNumberLiteral } from './go-number.ts';
import { decodePromqlString } from './promql-string.ts';
import { parseDuration } from './duration.ts';
import { checkRegex } from './re2-regex.ts';
import { promqlFunctionHistory } from './promql-functions.ts';
import { shortened } from './shown-text.ts';

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
/** Unary minus and plus bind like `*`: `-a ^ b` is `-(a ^ b)`, `-a * b` is `(-a) * b`. */
const UNARY_OPERAND_PRECEDENCE = 6;

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

/** 2^63 nanoseconds in seconds: the largest duration Go's time.Duration holds. */
const MAX_DURATION_SECONDS = 9223372036.854775808;

/** A duration in a range, subquery step or offset: a literal (seconds) or an expression. */
type DurationValue = { literal: NumberLiteral } | { expression: Span };

/**
 * Thrown to abandon the parse at a syntax error and caught in parsePromql. Not an Error: a stack
 * trace would cost more than the whole parse, and bad input is a value, not a bug.
 */
class SyntaxStop {
  readonly problem: PromqlProblem;
  /** Reached the end of the tokens a lexical error cut short: the lexer's message is the one to show. */
  readonly atLexError: boolean;

  constructor(problem: PromqlProblem, atLexError: boolean) {
    this.problem = problem;
    this.atLexError = atLexError;
  }
}

class PromqlParser {
  readonly problems: PromqlProblem[] = [];
  private index = 0;
  private readonly input: string;
  private readonly tokens: PromqlToken[];
  private readonly dialect: PromqlDialect;
  private readonly lexErrorAt: number | undefined;

  constructor(input: string, tokens: PromqlToken[], dialect: PromqlDialect, lexErrorAt: number | undefined) {
    this.input = input;
    this.tokens = tokens;
    this.dialect = dialect;
    this.lexErrorAt = lexErrorAt;
  }

  parseTop(): PromqlExpr {
    if (this.peek().kind === 'EOF') this.syntaxError('no expression found in input');
    const expr = this.parseExpression(0);
    if (this.peek().kind !== 'EOF') this.unexpected();
    return expr;
  }

  // ---- tokens ----

  /** The next token; past the tokens of a lexical error, a marker that stops the parse there. */
  private peek(ahead = 0): PromqlToken {
    const token = this.tokens[this.index + ahead];
    if (token) return token;
    return { kind: 'EOF', text: '', from: this.lexErrorAt ?? this.input.length };
  }

  private advance(): PromqlToken {
    const token = this.peek();
    if (this.index < this.tokens.length) this.index++;
    return token;
  }

  private expect(kind: PromqlTokenKind, context: string): PromqlToken {
    if (this.peek().kind !== kind) this.unexpected(context);
    return this.advance();
  }

  private endOf(token: PromqlToken): number {
    return token.from + token.text.length;
  }

  private previousEnd(): number {
    const previous = this.tokens[this.index - 1];
    return previous ? this.endOf(previous) : 0;
  }

  private problem(span: Span, message: string): void {
    this.problems.push({ from: span.from, to: span.to, message });
  }

  private syntaxError(message: string, token = this.peek()): never {
    const atLexError = this.index >= this.tokens.length && this.lexErrorAt !== undefined;
    throw new SyntaxStop({ from: token.from, to: this.endOf(token), message }, atLexError);
  }

  private unexpected(context?: string): never {
    const token = this.peek();
    this.syntaxError(`unexpected ${describeToken(token)}${context ? ` in ${context}` : ''}`, token);
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

  // ---- selectors ----

  private parseVectorSelector(nameToken: PromqlToken | undefined): VectorSelector {
    const from = nameToken?.from ?? this.peek().from;
    let to = nameToken ? this.endOf(nameToken) : from;
    const matchers: LabelMatcher[] = [];
    if (this.peek().kind === '{') {
      this.advance();
      while (this.peek().kind !== '}') {
        matchers.push(...this.parseLabelMatcher());
        if (this.peek().kind === ',') this.advance();
        else if (this.peek().kind !== '}') this.unexpected('label matching');
      }
      to = this.endOf(this.advance());
    }
    const name = nameToken?.text;
    return {
      kind: 'vectorSelector',
      ...(name !== undefined ? { name } : {}),
      matchers,
      from,
      to,
      offsetSet: false,
      atSet: false,
      anchored: false,
      smoothed: false,
      bypassEmptyMatcherCheck: false,
    };
  }

  /** One `name op "value"`, `"name" op "value"` or `"metric name"`; none when Prometheus dropped a bad one. */
  private parseLabelMatcher(): LabelMatcher[] {
    const nameToken = this.peek();
    if (nameToken.kind !== 'IDENTIFIER' && nameToken.kind !== 'STRING') this.unexpected('label matching');
    this.advance();
    if (nameToken.kind === 'STRING') this.requireQuotedNames(nameToken);
    const name = nameToken.kind === 'STRING' ? decodePromqlString(nameToken.text).value : nameToken.text;
    const operator = this.peek().kind;
    if (operator !== '=' && operator !== '!=' && operator !== '=~' && operator !== '!~') {
      if (nameToken.kind === 'STRING') return [{ name: '__name__', operator: '=', value: name }];
      this.unexpected('label matching');
    }
    this.advance();
    const valueToken = this.expect('STRING', 'label matching');
    const value = decodePromqlString(valueToken.text).value;
    if (operator === '=~' || operator === '!~') {
      const reason = checkRegex(value, 'matcher');
      if (reason) {
        this.problem({ from: nameToken.from, to: this.endOf(valueToken) }, `invalid regular expression ${shortened(valueToken.text)}: ${reason}`);
        return [];
      }
    }
    return [{ name, operator: operator as MatchOperator, value }];
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

  // ---- offset, @, ranges, subqueries, anchored, smoothed ----

  private parsePostfix(left: PromqlExpr): PromqlExpr {
    const token = this.advance();
    switch (token.kind) {
      case 'offset':
        this.addOffset(left, this.parseOffsetDuration());
        return this.extended(left);
      case '@':
        this.parseAt(left, token);
        return this.extended(left);
      case 'anchored':
      case 'smoothed':
        this.setRangeModifier(left, token);
        return this.extended(left);
      default:
        return this.parseRangeOrSubquery(left, token);
    }
  }

  /** The node after a postfix modifier: Prometheus extends its position to the modifier's end. */
  private extended(node: PromqlExpr): PromqlExpr {
    node.to = Math.max(node.to, this.previousEnd());
    return node;
  }

  private parseRangeOrSubquery(left: PromqlExpr, open: PromqlToken): PromqlExpr {
    this.parsePositiveDuration();
    if (this.peek().kind === ']') {
      const close = this.advance();
      const span = { from: open.from, to: this.endOf(close) };
      if (left.kind !== 'vectorSelector') this.problem(span, `a range [..] can only follow a metric selector such as x{a="b"}: ranges only allowed for vector selectors`);
      else if (left.offsetSet) this.problem(span, 'no offset modifiers allowed before range: write x[5m] offset 1h, not x offset 1h [5m]');
      else if (left.atSet) this.problem(span, 'no @ modifiers allowed before range: write x[5m] @ 123, not x @ 123 [5m]');
      return { kind: 'matrixSelector', selector: left, from: left.from, to: this.endOf(close) };
    }
    if (this.peek().kind !== ':') this.unexpected('subquery or range');
    this.advance();
    if (this.peek().kind !== ']') this.parsePositiveDuration();
    const close = this.expect(']', 'subquery selector');
    return { kind: 'subquery', expr: left, from: left.from, to: this.endOf(close), offsetSet: false, atSet: false };
  }

  private addOffset(target: PromqlExpr, duration: DurationValue): void {
    const modifiers = this.timeModifiersOf(target, 'offset modifier must be preceded by an instant vector selector or range vector selector or a subquery');
    if (!modifiers) return;
    if (modifiers.offsetSet) {
      this.problem(target, 'offset may not be set multiple times');
      return;
    }
    // Prometheus stores the offset in nanoseconds; only a non-zero one counts as set.
    modifiers.offsetSet = 'expression' in duration || Math.round(duration.literal.value * 1e9) !== 0;
  }

  private parseAt(target: PromqlExpr, at: PromqlToken): void {
    if (!this.dialect.atModifier) this.syntaxError(`the @ modifier needs Prometheus v2.33.0 or later (this Prometheus is ${this.dialect.versionText})`, at);
    const token = this.peek();
    if (token.kind === 'start' || token.kind === 'end') {
      this.advance();
      this.expect('(', '@');
      this.expect(')', '@');
    } else {
      let sign = 1;
      if (token.kind === '+' || token.kind === '-') {
        sign = this.advance().kind === '-' ? -1 : 1;
      }
      const number = this.peek();
      if (number.kind !== 'NUMBER' && number.kind !== 'DURATION') this.unexpected('@, expected timestamp');
      this.advance();
      const timestamp = sign * this.numberLiteral(number, 'expression').value;
      if (!Number.isFinite(timestamp) || timestamp >= 2 ** 63 || timestamp <= -(2 ** 63)) {
        this.problem(target, `timestamp out of bounds for @ modifier: ${timestamp}`);
      }
    }
    const modifiers = this.timeModifiersOf(target, '@ modifier must be preceded by an instant vector selector or range vector selector or a subquery');
    if (!modifiers) return;
    if (modifiers.atSet) {
      this.problem(target, '@ <timestamp> may not be set multiple times');
      return;
    }
    modifiers.atSet = true;
  }

  /** Where offset and @ are recorded for `target`, or undefined after reporting that they cannot be. */
  private timeModifiersOf(target: PromqlExpr, wrongTarget: string): { offsetSet: boolean; atSet: boolean } | undefined {
    if (target.kind === 'vectorSelector' || target.kind === 'subquery') return target;
    if (target.kind === 'matrixSelector') {
      if (target.selector.kind === 'vectorSelector') return target.selector;
      this.problem(target, 'ranges only allowed for vector selectors');
      return undefined;
    }
    this.problem(target, wrongTarget);
    return undefined;
  }

  private setRangeModifier(target: PromqlExpr, token: PromqlToken): void {
    const name = token.kind;
    if (!this.dialect.extendedRangeSelectorsExist) this.unexpected();
    if (!this.dialect.extendedRangeSelectors) {
      this.problem(target, `the ${name} modifier is experimental in ${this.dialect.versionText}: the Prometheus must run with --enable-feature=promql-extended-range-selectors`);
      return;
    }
    const selector = target.kind === 'matrixSelector' ? target.selector : target;
    if (target.kind === 'subquery') {
      this.problem(target, `${name} modifier is not supported for subqueries`);
    } else if (selector.kind === 'vectorSelector') {
      if (name === 'anchored') selector.anchored = true;
      else selector.smoothed = true;
      if (selector.anchored && selector.smoothed) this.problem(target, 'anchored and smoothed modifiers cannot be used together');
    } else if (target.kind !== 'matrixSelector') {
      this.problem(target, `${name} modifier not implemented: it applies to a selector such as x or x[5m]`);
    }
  }

  // ---- durations ----

  /** A range or subquery step: Prometheus requires a literal to be greater than zero. */
  private parsePositiveDuration(): DurationValue {
    const value = this.parseDurationExpression(0);
    if ('literal' in value && value.literal.value <= 0) {
      this.problem(value.literal, 'duration must be greater than 0');
    }
    return value;
  }

  /**
   * After `offset`, Prometheus' grammar prefers a short form: a literal with an optional sign,
   * `step()`, `range()`, `min_of()`/`max_of()` or a signed parenthesis ends the offset, so
   * `x offset 5m + 1` is `(x offset 5m) + 1`. Only an offset that starts with "(" (or a second
   * sign) continues as duration arithmetic: `x offset (1m) + 1m` is an offset of 2m.
   */
  private parseOffsetDuration(): DurationValue {
    const token = this.peek();
    const sign = token.kind === '+' || token.kind === '-' ? token : undefined;
    const head = sign ? this.peek(1) : token;
    if (sign && !this.dialect.negativeOffsets && sign.kind === '-') {
      this.syntaxError(`negative offsets need Prometheus v2.33.0 or later (this Prometheus is ${this.dialect.versionText})`, sign);
    }
    if (head.kind === 'NUMBER' || head.kind === 'DURATION') {
      if (sign) this.advance();
      this.advance();
      const literal = this.durationLiteral(head);
      if (sign?.kind === '-') literal.value = -literal.value;
      if (sign) literal.from = sign.from;
      return { literal: this.inDurationRange(literal) };
    }
    if (head.kind === 'step' || head.kind === 'range' || head.kind === 'max_of' || head.kind === 'min_of') {
      if (sign) this.advance();
      return this.parseDurationFunction();
    }
    if (sign && head.kind === '(') {
      this.requireDurationExpressions(sign);
      this.advance();
      this.advance();
      this.parseDurationExpression(0);
      this.expect(')', 'offset');
      return { expression: { from: sign.from, to: this.previousEnd() } };
    }
    if (sign || token.kind === '(') {
      this.requireDurationExpressions(token);
      return this.parseDurationExpression(0);
    }
    this.unexpected('offset, expected number, duration, step(), or range()');
  }

  /** Duration arithmetic (`5m + 1m`, `2 * step()`), with PromQL's precedences. */
  private parseDurationExpression(minPrecedence: number): DurationValue {
    let left = this.parseDurationUnary();
    for (;;) {
      const token = this.peek();
      const precedence = token.kind === '+' || token.kind === '-' ? 4 : token.kind === '*' || token.kind === '/' || token.kind === '%' ? 5 : token.kind === '^' ? 6 : undefined;
      if (precedence === undefined || precedence < minPrecedence) return left;
      this.requireDurationExpressions(token);
      this.advance();
      const right = this.parseDurationExpression(token.kind === '^' ? precedence : precedence + 1);
      if ((token.kind === '/' || token.kind === '%') && 'literal' in right && right.literal.value === 0) {
        this.problem({ from: token.from, to: token.from + 1 }, token.kind === '/' ? 'division by zero' : 'modulo by zero');
        left = { literal: { kind: 'number', value: 0, from: token.from, to: token.from + 1 } };
        continue;
      }
      left = { expression: { from: spanOf(left).from, to: spanOf(right).to } };
    }
  }

  private parseDurationUnary(): DurationValue {
    const token = this.peek();
    if (token.kind !== '+' && token.kind !== '-') return this.parseDurationPrimary();
    this.requireDurationExpressions(token);
    this.advance();
    const operand = this.parseDurationExpression(UNARY_OPERAND_PRECEDENCE);
    if ('expression' in operand) return { expression: { from: token.from, to: operand.expression.to } };
    const literal: NumberLiteral = { ...operand.literal, value: token.kind === '-' ? -operand.literal.value : operand.literal.value, from: token.from };
    return { literal: this.inDurationRange(literal) };
  }

  private parseDurationPrimary(): DurationValue {
    const token = this.peek();
    if (token.kind === 'NUMBER' || token.kind === 'DURATION') {
      this.advance();
      return { literal: this.inDurationRange(this.durationLiteral(token)) };
    }
    if (token.kind === 'step' || token.kind === 'range' || token.kind === 'max_of' || token.kind === 'min_of') return this.parseDurationFunction();
    if (token.kind === '(') {
      this.requireDurationExpressions(token);
      this.advance();
      this.parseDurationExpression(0);
      const close = this.expect(')', 'duration expression');
      // A parenthesised literal is an expression for Prometheus: `[(0)]` is not checked for > 0.
      return { expression: { from: token.from, to: this.endOf(close) } };
    }
    this.unexpected('duration expression, expected number, duration, step(), or range()');
  }

  private parseDurationFunction(): DurationValue {
    const token = this.advance();
    if (!this.dialect.durationFunctions) {
      this.syntaxError(`${token.text}() in a duration needs Prometheus v3.13.0 or later (this Prometheus is ${this.dialect.versionText})`, token);
    }
    this.expect('(', 'duration expression');
    if (token.kind === 'max_of' || token.kind === 'min_of') {
      this.parseDurationExpression(0);
      this.expect(',', 'duration expression');
      this.parseDurationExpression(0);
    }
    const close = this.expect(')', 'duration expression');
    return { expression: { from: token.from, to: this.endOf(close) } };
  }

  private requireDurationExpressions(token: PromqlToken): void {
    if (this.dialect.durationExpressions) return;
    this.syntaxError(
      `arithmetic in durations needs Prometheus v3.14.0 or later, or v3.4.0 or later with --enable-feature=promql-duration-expr (this Prometheus is ${this.dialect.versionText})`,
      token,
    );
  }

  /** Prometheus refuses a literal duration that does not fit Go's time.Duration (about 292 years). */
  private inDurationRange(literal: NumberLiteral): NumberLiteral {
    if (literal.value > MAX_DURATION_SECONDS || literal.value < -MAX_DURATION_SECONDS) {
      this.problem(literal, 'duration out of range');
      return { ...literal, value: 0 };
    }
    return literal;
  }

  private durationLiteral(token: PromqlToken): NumberLiteral {
    if (token.kind === 'NUMBER' && !this.dialect.numberDurations) {
      this.syntaxError(`a plain number as a duration needs Prometheus v2.54.0 or later: write a unit, such as 5m`, token);
    }
    return this.numberLiteral(token, 'duration');
  }

  /** A NUMBER or DURATION token's value in seconds, reporting what Go cannot parse. */
  private numberLiteral(token: PromqlToken, position: 'expression' | 'duration'): NumberLiteral {
    const span = { from: token.from, to: this.endOf(token) };
    let value: number;
    if (token.kind === 'DURATION') {
      if (position === 'expression' && !this.dialect.numberDurations) {
        this.syntaxError(`a duration as a number needs Prometheus v2.54.0 or later (this Prometheus is ${this.dialect.versionText})`, token);
      }
      const milliseconds = parseDuration(token.text);
      if (milliseconds === undefined) this.problem(span, `"${token.text}" is not a valid duration (examples: 30s, 5m, 1h30m)`);
      value = (milliseconds ?? 0) / 1000;
    } else {
      if (token.text.includes('_') && !this.dialect.numberDurations) {
        this.syntaxError(`"_" in numbers needs Prometheus v2.54.0 or later (this Prometheus is ${this.dialect.versionText})`, token);
      }
      const parsed = parseGoNumberLiteral(token.text);
      if (parsed === undefined) this.problem(span, `"${token.text}" is not a number Prometheus can read`);
      value = parsed ?? 0;
    }
    return { kind: 'number', value, ...span };
  }

  private requireQuotedNames(token: PromqlToken): void {
    if (!this.dialect.quotedNames) {
      this.syntaxError(`quoted metric and label names need Prometheus v3.0.0 or later (this Prometheus is ${this.dialect.versionText})`, token);
    }
  }
}

function spanOf(value: DurationValue): Span {
  return 'literal' in value ? value.literal : value.expression;
}

/** With unquoted UTF-8 names enabled, a grouping label that would need quotes must have them. */
function isUnquotedUtf8Name(name: string): boolean {
  return /^[\p{L}_][\p{L}_0-9.]*$/u.test(name);
}

/** How a token reads in a message: `"foo"`, `number "5"`, `end of expression`. */
function describeToken(token: PromqlToken): string {
  switch (token.kind) {
    case 'EOF':
      return 'end of expression';
    case 'IDENTIFIER':
    case 'METRIC_IDENTIFIER':
      return `identifier "${token.text}"`;
    case 'NUMBER':
      return `number "${token.text}"`;
    case 'DURATION':
      return `duration "${token.text}"`;
    case 'STRING':
      return `string ${token.text.length > 20 ? `${token.text.slice(0, 20)}…` : token.text}`;
    default:
      return `"${token.text}"`;
  }
}

