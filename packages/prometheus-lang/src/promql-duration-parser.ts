/**
 * PromQL's duration sub-language, as Prometheus' grammar reads it in ranges, subquery steps and offsets: literals
 * within Go's time.Duration, duration arithmetic with PromQL's precedences (3.4+ behind a flag, 3.14+ always), the
 * duration functions `step()`, `range()`, `min_of()`, `max_of()` (3.13+), and the short form an offset prefers.
 */
import type { NumberLiteral, Span } from './promql-ast.ts';
import type { PromqlToken } from './promql-lexer.ts';
import { PromqlTokenReader } from './promql-token-reader.ts';

/** Unary minus and plus bind like `*`: `-a ^ b` is `-(a ^ b)`, `-a * b` is `(-a) * b`. */
export const UNARY_OPERAND_PRECEDENCE = 6;

/** 2^63 nanoseconds in seconds: the largest duration Go's time.Duration holds. */
const MAX_DURATION_SECONDS = 9223372036.854775808;

/** A duration in a range, subquery step or offset: a literal (seconds) or an expression. */
export type DurationValue = { literal: NumberLiteral } | { expression: Span };

/** Durations, on top of reading tokens. */
export class PromqlDurationParser extends PromqlTokenReader {
  // ---- durations ----

  /** A range or subquery step: Prometheus requires a literal to be greater than zero. */
  protected parsePositiveDuration(): DurationValue {
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
  protected parseOffsetDuration(): DurationValue {
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
  protected parseDurationExpression(minPrecedence: number): DurationValue {
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

  protected parseDurationUnary(): DurationValue {
    const token = this.peek();
    if (token.kind !== '+' && token.kind !== '-') return this.parseDurationPrimary();
    this.requireDurationExpressions(token);
    this.advance();
    const operand = this.parseDurationExpression(UNARY_OPERAND_PRECEDENCE);
    if ('expression' in operand) return { expression: { from: token.from, to: operand.expression.to } };
    const literal: NumberLiteral = { ...operand.literal, value: token.kind === '-' ? -operand.literal.value : operand.literal.value, from: token.from };
    return { literal: this.inDurationRange(literal) };
  }

  protected parseDurationPrimary(): DurationValue {
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

  protected parseDurationFunction(): DurationValue {
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

  protected requireDurationExpressions(token: PromqlToken): void {
    if (this.dialect.durationExpressions) return;
    this.syntaxError(
      `arithmetic in durations needs Prometheus v3.14.0 or later, or v3.4.0 or later with --enable-feature=promql-duration-expr (this Prometheus is ${this.dialect.versionText})`,
      token,
    );
  }

  /** Prometheus refuses a literal duration that does not fit Go's time.Duration (about 292 years). */
  protected inDurationRange(literal: NumberLiteral): NumberLiteral {
    if (literal.value > MAX_DURATION_SECONDS || literal.value < -MAX_DURATION_SECONDS) {
      this.problem(literal, 'duration out of range');
      return { ...literal, value: 0 };
    }
    return literal;
  }

  protected durationLiteral(token: PromqlToken): NumberLiteral {
    if (token.kind === 'NUMBER' && !this.dialect.numberDurations) {
      this.syntaxError(`a plain number as a duration needs Prometheus v2.54.0 or later: write a unit, such as 5m`, token);
    }
    return this.numberLiteral(token, 'duration');
  }
}

function spanOf(value: DurationValue): Span {
  return 'literal' in value ? value.literal : value.expression;
}
