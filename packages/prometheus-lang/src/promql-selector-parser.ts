/**
 * PromQL's selectors and what may follow an operand, as Prometheus' parser checks them while it builds the tree:
 * vector selectors and their label matchers (regexes checked as Go's RE2 reads them), ranges and subqueries, and
 * the `offset`, `@`, `anchored` and `smoothed` modifiers with the operands each may follow.
 */
import type { LabelMatcher, MatchOperator, PromqlExpr, VectorSelector } from './promql-ast.ts';
import type { PromqlToken } from './promql-lexer.ts';
import { decodePromqlString } from './promql-string.ts';
import { checkRegex } from './re2-regex.ts';
import { shortened } from './shown-text.ts';
import { PromqlDurationParser, type DurationValue } from './promql-duration-parser.ts';

/** Selectors and postfix modifiers, on top of durations. */
export class PromqlSelectorParser extends PromqlDurationParser {
  // ---- selectors ----

  protected parseVectorSelector(nameToken: PromqlToken | undefined): VectorSelector {
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
  protected parseLabelMatcher(): LabelMatcher[] {
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

  // ---- offset, @, ranges, subqueries, anchored, smoothed ----

  protected parsePostfix(left: PromqlExpr): PromqlExpr {
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
  protected extended(node: PromqlExpr): PromqlExpr {
    node.to = Math.max(node.to, this.previousEnd());
    return node;
  }

  protected parseRangeOrSubquery(left: PromqlExpr, open: PromqlToken): PromqlExpr {
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

  protected addOffset(target: PromqlExpr, duration: DurationValue): void {
    const modifiers = this.timeModifiersOf(target, 'offset modifier must be preceded by an instant vector selector or range vector selector or a subquery');
    if (!modifiers) return;
    if (modifiers.offsetSet) {
      this.problem(target, 'offset may not be set multiple times');
      return;
    }
    // Prometheus stores the offset in nanoseconds; only a non-zero one counts as set.
    modifiers.offsetSet = 'expression' in duration || Math.round(duration.literal.value * 1e9) !== 0;
  }

  protected parseAt(target: PromqlExpr, at: PromqlToken): void {
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
  protected timeModifiersOf(target: PromqlExpr, wrongTarget: string): { offsetSet: boolean; atSet: boolean } | undefined {
    if (target.kind === 'vectorSelector' || target.kind === 'subquery') return target;
    if (target.kind === 'matrixSelector') {
      if (target.selector.kind === 'vectorSelector') return target.selector;
      this.problem(target, 'ranges only allowed for vector selectors');
      return undefined;
    }
    this.problem(target, wrongTarget);
    return undefined;
  }

  protected setRangeModifier(target: PromqlExpr, token: PromqlToken): void {
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
}
