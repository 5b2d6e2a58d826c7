/**
 * The parser's operator stack (Go's p.stack with push, maybeConcat, literal, op, repeat, concat, alternate and
 * swapVerticalBar): nodes are pushed as the pattern is read, adjacent literals are joined as they come, and a
 * concatenation or alternation replaces its operands when its `|` or `)` is read. Go counts and measures the nodes
 * where it pushes them, so the stack does the same, step for step.
 */
import { Flag, Op, type GoRegexp } from './ast.ts';
import { cleanAlt, isCharClass, mergeCharClass } from './alternation.ts';
import { minFoldRune } from './char-class.ts';
import type { Factoring } from './factor.ts';
import { MAX_REPEAT, MAX_RUNES, repeatIsValid } from './limits.ts';
import { NO_SUBS, type NodePool } from './node-pool.ts';
import { GoRegexpError } from './parse-error.ts';
import { isPlainText } from './pattern-text.ts';
import { simpleFold } from './unicode-classes.ts';

/** The operands and operators of one parse, with the flags in effect where the parser is. */
export class OperatorStack {
  /** Bottom first; operators (`(`, `|`) are marked by ops at or above Op.Pseudo. Shared with the node pool. */
  readonly items: GoRegexp[];
  /** The flags in effect at the parser's position (Go's p.flags): every node pushed takes them. */
  flags: number;

  private readonly s: string;
  private readonly nodes: NodePool;
  private readonly factoring: Factoring;

  constructor(pattern: string, flags: number, items: GoRegexp[], nodes: NodePool, factoring: Factoring) {
    this.s = pattern;
    this.flags = flags;
    this.items = items;
    this.nodes = nodes;
    this.factoring = factoring;
  }

  /** Pushes a node, turning a one-rune class into a literal and joining literals (Go's push). */
  push(re: GoRegexp): GoRegexp | undefined {
    this.nodes.numRunes += re.runes.length;
    const r = re.runes;
    if (re.op === Op.CharClass && r.length === 2 && r[0] === r[1]) {
      if (this.maybeConcat(r[0]!, this.flags & ~Flag.FoldCase)) return undefined;
      re.op = Op.Literal;
      re.runes = [r[0]!];
      re.flags = this.flags & ~Flag.FoldCase;
    } else if (
      re.op === Op.CharClass &&
      ((r.length === 4 && r[0] === r[1] && r[2] === r[3] && simpleFold(r[0]!) === r[2] && simpleFold(r[2]!) === r[0]) ||
        (r.length === 2 && r[0]! + 1 === r[1] && simpleFold(r[0]!) === r[1] && simpleFold(r[1]!) === r[0]))
    ) {
      // A class of one letter in both cases, such as [Aa]: a case-insensitive literal.
      if (this.maybeConcat(r[0]!, this.flags | Flag.FoldCase)) return undefined;
      re.op = Op.Literal;
      re.runes = [r[0]!];
      re.flags = this.flags | Flag.FoldCase;
    } else {
      this.maybeConcat(-1, 0);
    }
    this.items.push(re);
    this.nodes.checkLimits(re);
    return re;
  }

  /**
   * Joins the two literals on top of the stack, if they are, into one; then reuses the top node for `rune` when it
   * is given (reporting whether it did), as Go's maybeConcat does before each push.
   */
  private maybeConcat(rune: number, flags: number): boolean {
    const n = this.items.length;
    if (n < 2) return false;
    const re1 = this.items[n - 1]!;
    const re2 = this.items[n - 2]!;
    if (re1.op !== Op.Literal || re2.op !== Op.Literal || (re1.flags & Flag.FoldCase) !== (re2.flags & Flag.FoldCase)) return false;
    const runes = re1.runes;
    for (let i = 0; i < runes.length; i++) re2.runes.push(runes[i]!);
    if (rune >= 0) {
      re1.runes = [rune];
      re1.flags = flags;
      return true;
    }
    this.items.pop();
    this.nodes.reuse(re1);
    return false;
  }

  /**
   * literal(rune) in the common state of a long literal text — two literals on top of the stack, a node on the free
   * list, no (?i) — with the same effects, step for step, and less work. Returns false outside that state.
   */
  appendToText(rune: number): boolean {
    const stack = this.items;
    const n = stack.length;
    if (n < 2 || this.nodes.free.length === 0 || this.flags & Flag.FoldCase) return false;
    const x = stack[n - 2]!;
    const y = stack[n - 1]!;
    if (x.op !== Op.Literal || y.op !== Op.Literal || (x.flags & Flag.FoldCase) !== (y.flags & Flag.FoldCase)) return false;
    // newRegexp
    const re = this.nodes.free.pop()!;
    re.op = Op.Literal;
    re.flags = this.flags;
    re.runes = [rune];
    re.sub = NO_SUBS;
    re.min = 0;
    re.max = 0;
    re.cap = 0;
    re.name = '';
    // push: maybeConcat joins y into x and frees y
    this.nodes.numRunes += 1;
    const runes = y.runes;
    for (let i = 0; i < runes.length; i++) x.runes.push(runes[i]!);
    stack[n - 1] = re;
    this.nodes.reuse(y);
    this.nodes.checkLimits(re);
    return true;
  }

  /**
   * The plain characters from `t` on, with the effects appendToText would have on each (it was just called, so its
   * state holds): at each character the top of the stack joins the text below it and trades places with the node on
   * top of the free list, which takes the character; the caches get the same entries as step by step.
   * Returns where the run ends.
   */
  appendTextRun(t: number): number {
    const s = this.s;
    const stack = this.items;
    const free = this.nodes.free;
    const x = stack[stack.length - 2]!;
    const top = stack[stack.length - 1]!;
    const spare = free[free.length - 1];
    if (!spare || x.flags & Flag.FoldCase || top.flags & Flag.FoldCase) return t;
    let end = t;
    while (end < s.length && isPlainText(s.charCodeAt(end))) end++;
    const steps = end - t;
    if (steps === 0) return t;
    if (this.nodes.numRunes + steps > MAX_RUNES) throw new GoRegexpError('expression too large', s);
    this.nodes.numRunes += steps;
    const text = x.runes;
    for (let i = 0; i < top.runes.length; i++) text.push(top.runes[i]!);
    for (let i = t; i < end - 1; i++) text.push(s.charCodeAt(i));
    // After an odd number of steps the two nodes have traded places.
    const [last, other] = steps % 2 === 1 ? [spare, top] : [top, spare];
    for (const node of steps === 1 ? [last] : [last, other]) {
      node.op = Op.Literal;
      node.flags = this.flags;
      node.sub = NO_SUBS;
      node.min = 0;
      node.max = 0;
      node.cap = 0;
      node.name = '';
      this.nodes.size?.set(node, 1);
    }
    last.runes = [s.charCodeAt(end - 1)];
    if (steps > 1) other.runes = [s.charCodeAt(end - 2)];
    this.nodes.height?.delete(other);
    this.nodes.height?.set(last, 1);
    stack[stack.length - 1] = last;
    free[free.length - 1] = other;
    return end;
  }

  /** Pushes the literal `rune`, folded to its smallest case under (?i) (Go's literal). */
  literal(rune: number): void {
    const re = this.nodes.newRegexp(Op.Literal);
    re.flags = this.flags;
    re.runes = [this.flags & Flag.FoldCase ? minFoldRune(rune) : rune];
    this.push(re);
  }

  /** Pushes a node of operator `op` with the current flags (Go's op). */
  op(op: number): GoRegexp | undefined {
    const re = this.nodes.newRegexp(op);
    re.flags = this.flags;
    return this.push(re);
  }

  /** Applies a repetition operator (from `before` to `after`) to the top of the stack; returns where parsing goes on. */
  repeat(op: number, min: number, max: number, before: number, after: number, lastRepeat: number): number {
    let flags = this.flags;
    if (flags & Flag.PerlX) {
      if (this.s[after] === '?') {
        after++;
        flags ^= Flag.NonGreedy;
      }
      // `a**` is an error in Perl syntax, not a doubled star.
      if (lastRepeat >= 0) throw new GoRegexpError('invalid nested repetition operator', this.s.slice(lastRepeat, after));
    }
    const items = this.items;
    const n = items.length;
    const sub = items[n - 1];
    if (!sub || sub.op >= Op.Pseudo) throw new GoRegexpError('missing argument to repetition operator', this.s.slice(before, after));
    const re = this.nodes.newRegexp(op);
    re.min = min;
    re.max = max;
    re.flags = flags;
    re.sub = [sub];
    items[n - 1] = re;
    this.nodes.checkLimits(re);
    if (op === Op.Repeat && (min >= 2 || max >= 2) && !repeatIsValid(re, MAX_REPEAT)) {
      throw new GoRegexpError('invalid repeat count', this.s.slice(before, after));
    }
    return after;
  }

  /** Replaces the top of the stack above the last `|` or `(` with its concatenation. */
  concat(): GoRegexp | undefined {
    this.maybeConcat(-1, 0);
    const subs = this.popOperands();
    if (subs.length === 0) return this.push(this.nodes.newRegexp(Op.EmptyMatch));
    return this.push(this.factoring.collapse(subs, Op.Concat));
  }

  /** Replaces the top of the stack above the last `(` with its alternation. */
  alternate(): GoRegexp | undefined {
    const subs = this.popOperands();
    if (subs.length > 0) cleanAlt(subs[subs.length - 1]!);
    if (subs.length === 0) return this.push(this.nodes.newRegexp(Op.NoMatch));
    return this.push(this.factoring.collapse(subs, Op.Alternate));
  }

  private popOperands(): GoRegexp[] {
    let i = this.items.length;
    while (i > 0 && this.items[i - 1]!.op < Op.Pseudo) i--;
    return this.items.splice(i);
  }

  /**
   * With a `|` below the top of the stack, moves the top below it, merging it into the alternative below when both
   * are characters or classes. Reports whether there was a `|`.
   */
  swapVerticalBar(): boolean {
    const stack = this.items;
    const n = stack.length;
    if (n >= 3 && stack[n - 2]!.op === Op.VerticalBar && isCharClass(stack[n - 1]!) && isCharClass(stack[n - 3]!)) {
      let re1 = stack[n - 1]!;
      let re3 = stack[n - 3]!;
      if (re1.op > re3.op) {
        [re1, re3] = [re3, re1];
        stack[n - 3] = re3;
      }
      mergeCharClass(re3, re1);
      this.nodes.reuse(re1);
      stack.pop();
      return true;
    }
    if (n >= 2) {
      const re1 = stack[n - 1]!;
      const re2 = stack[n - 2]!;
      if (re2.op === Op.VerticalBar) {
        if (n >= 3) cleanAlt(stack[n - 3]!);
        stack[n - 2] = re1;
        stack[n - 1] = re2;
        return true;
      }
    }
    return false;
  }
}
