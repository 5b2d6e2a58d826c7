/**
 * A parser of Go's regexp/syntax language, written to accept and refuse exactly what Go's syntax.Parse does (Go
 * 1.26, /usr/local/go/src/regexp/syntax/parse.go), including its limits (limits.ts). It follows Go's algorithm
 * step by step — an operator stack with incremental concatenation of literals, factoring of alternations, a free
 * list of nodes — because the limits are measured on the tree Go builds and counted on the nodes Go allocates.
 *
 * Go keeps all of it in one parser struct; here each concern has its own module, and the functions and methods keep
 * the names of their Go counterparts (push, maybeConcat, collapse, factor, parseEscape, parseClass, …) so the two
 * read side by side:
 * - pattern-text.ts and class-text.ts read the pattern text: escapes, counts, flags, classes;
 * - node-pool.ts allocates and reuses the nodes and checks Go's limits on them;
 * - stack.ts is the operator stack, factor.ts the simplification of what it collapses;
 * - this file is the main loop, which reads the text and tells the stack what it read.
 *
 * Nothing here backtracks or recurses on the pattern's nesting: every loop advances through the pattern, the walks
 * over the tree are iterative or bounded by Go's limits, and searches for a closing `:]` are remembered, so a
 * pattern is parsed in about linear time (a class under (?i) costs the runes that fold within its ranges).
 */
import { Flag, Op, type GoRegexp, type GoRegexpParse } from './ast.ts';
import { ClassReader } from './class-text.ts';
import { DeepFactoring, Factoring } from './factor.ts';
import { MAX_REPEAT } from './limits.ts';
import { NodePool } from './node-pool.ts';
import { GoRegexpError } from './parse-error.ts';
import { isPlainText, nextRune, parseEscape, parsePerlFlags, parseRepeat } from './pattern-text.ts';
import { OperatorStack } from './stack.ts';
import { type RegexReading } from './unicode-classes.ts';

/** Parses `pattern` with Go's syntax flags (`PERL_FLAGS | Flag.DotNL` for what Prometheus parses first). */
export function parseGoRegexp(pattern: string, flags: number, reading: RegexReading = 'matcher'): GoRegexpParse {
  const parser = new Parser(pattern, flags, reading);
  try {
    return { ok: true, regex: parser.parse() };
  } catch (error) {
    if (error instanceof GoRegexpError) return { ok: false, code: error.code, expr: error.expr };
    // The factoring went deeper than Go's limit lets a tree be (see collapse in factor.ts); a stack overflow can
    // only come from there too. Go would finish the tree, then refuse it when it pushes it, for its runes first, else
    // its height.
    if (error instanceof DeepFactoring || error instanceof RangeError) {
      return { ok: false, code: parser.nodes.runesOverLimit() ? 'expression too large' : 'expression nests too deeply', expr: pattern };
    }
    throw error;
  }
}

class Parser {
  private readonly s: string;
  /** Also read after a parse stopped deep in the factoring: whether its runes were over Go's limit. */
  readonly nodes: NodePool;
  private readonly stack: OperatorStack;
  private readonly classes: ClassReader;
  private numCap = 0;

  constructor(pattern: string, flags: number, reading: RegexReading) {
    this.s = pattern;
    const items: GoRegexp[] = [];
    this.nodes = new NodePool(pattern, items);
    this.stack = new OperatorStack(pattern, flags, items, this.nodes, new Factoring(this.nodes));
    this.classes = new ClassReader(pattern, reading);
  }

  parse(): GoRegexp {
    const s = this.s;
    const stack = this.stack;
    let t = 0;
    let lastRepeat = -1;
    while (t < s.length) {
      let repeat = -1;
      const code = s.charCodeAt(t);
      // The plain characters first: most of a long pattern is literal text.
      if (isPlainText(code)) {
        t++;
        if (stack.appendToText(code)) t = stack.appendTextRun(t);
        else stack.literal(code);
        lastRepeat = -1;
        continue;
      }
      const c = s[t];
      switch (c) {
        case '(':
          if (stack.flags & Flag.PerlX && s[t + 1] === '?') {
            t = this.parsePerlFlags(t);
            break;
          }
          this.numCap++;
          stack.op(Op.LeftParen)!.cap = this.numCap;
          t++;
          break;
        case '|':
          this.parseVerticalBar();
          t++;
          break;
        case ')':
          this.parseRightParen();
          t++;
          break;
        case '^':
          stack.op(stack.flags & Flag.OneLine ? Op.BeginText : Op.BeginLine);
          t++;
          break;
        case '$':
          if (stack.flags & Flag.OneLine) stack.op(Op.EndText)!.flags |= Flag.WasDollar;
          else stack.op(Op.EndLine);
          t++;
          break;
        case '.':
          stack.op(stack.flags & Flag.DotNL ? Op.AnyChar : Op.AnyCharNotNL);
          t++;
          break;
        case '[':
          t = this.parseClass(t);
          break;
        case '*':
        case '+':
        case '?': {
          const op = c === '*' ? Op.Star : c === '+' ? Op.Plus : Op.Quest;
          repeat = t;
          t = stack.repeat(op, 0, 0, t, t + 1, lastRepeat);
          break;
        }
        case '{': {
          const counts = parseRepeat(s, t);
          if (!counts) {
            // Not a repetition: the brace is a literal.
            stack.literal(0x7b);
            t++;
            break;
          }
          const { min, max, after } = counts;
          if (min < 0 || min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max)) {
            throw new GoRegexpError('invalid repeat count', s.slice(t, after));
          }
          repeat = t;
          t = stack.repeat(Op.Repeat, min, max, t, after, lastRepeat);
          break;
        }
        case '\\':
          t = this.parseBackslash(t);
          break;
        default: {
          const { rune, next } = nextRune(s, t);
          stack.literal(rune);
          t = next;
        }
      }
      lastRepeat = repeat;
    }
    stack.concat();
    if (stack.swapVerticalBar()) stack.items.pop();
    stack.alternate();
    if (stack.items.length !== 1) throw new GoRegexpError('missing closing )', s);
    return stack.items[0]!;
  }

  private parseVerticalBar(): void {
    this.stack.concat();
    if (!this.stack.swapVerticalBar()) this.stack.op(Op.VerticalBar);
  }

  private parseRightParen(): void {
    const stack = this.stack;
    stack.concat();
    if (stack.swapVerticalBar()) stack.items.pop();
    stack.alternate();
    const n = stack.items.length;
    if (n < 2) throw new GoRegexpError('unexpected )', this.s);
    const re1 = stack.items.pop()!;
    const re2 = stack.items.pop()!;
    if (re2.op !== Op.LeftParen) throw new GoRegexpError('unexpected )', this.s);
    stack.flags = re2.flags;
    if (re2.cap === 0) {
      stack.push(re1);
    } else {
      re2.op = Op.Capture;
      re2.sub = [re1];
      stack.push(re2);
    }
  }

  /** `(?flags)`, `(?flags:`, `(?P<name>` or `(?<name>` at `at`; returns where parsing goes on. */
  private parsePerlFlags(at: number): number {
    const group = parsePerlFlags(this.s, at, this.stack.flags);
    if (group.kind === 'capture') {
      this.numCap++;
      const re = this.stack.op(Op.LeftParen)!;
      re.cap = this.numCap;
      re.name = group.name;
    } else {
      // The group's `(` keeps the flags outside it, which its `)` restores.
      if (group.group) this.stack.op(Op.LeftParen);
      this.stack.flags = group.flags;
    }
    return group.next;
  }

  /** A backslash outside brackets: an assertion, `\Q…\E`, a class or an escaped character. */
  private parseBackslash(t: number): number {
    const s = this.s;
    const stack = this.stack;
    if (stack.flags & Flag.PerlX && t + 1 < s.length) {
      switch (s[t + 1]) {
        case 'A':
          stack.op(Op.BeginText);
          return t + 2;
        case 'b':
          stack.op(Op.WordBoundary);
          return t + 2;
        case 'B':
          stack.op(Op.NoWordBoundary);
          return t + 2;
        case 'C':
          // Any byte: not supported.
          throw new GoRegexpError('invalid escape sequence', '\\C');
        case 'Q': {
          const end = s.indexOf('\\E', t + 2);
          const literalEnd = end < 0 ? s.length : end;
          for (let i = t + 2; i < literalEnd; ) {
            const { rune, next } = nextRune(s, i);
            if (!stack.appendToText(rune)) stack.literal(rune);
            i = next;
          }
          return end < 0 ? s.length : end + 2;
        }
        case 'z':
          stack.op(Op.EndText);
          return t + 2;
      }
    }
    const re = this.nodes.newRegexp(Op.CharClass);
    re.flags = stack.flags;
    if (s[t + 1] === 'p' || s[t + 1] === 'P') {
      const unicode = this.classes.parseUnicodeClass(t, stack.flags, undefined);
      if (unicode) {
        re.runes = unicode.runes;
        stack.push(re);
        return unicode.next;
      }
    }
    const perl = this.classes.parsePerlClassEscape(t, stack.flags, []);
    if (perl) {
      re.runes = perl.runes;
      stack.push(re);
      return perl.next;
    }
    this.nodes.reuse(re);
    const { rune, next } = parseEscape(s, t);
    stack.literal(rune);
    return next;
  }

  /** A bracket expression at `at`, pushed as a class; returns where parsing goes on. */
  private parseClass(at: number): number {
    const re = this.nodes.newRegexp(Op.CharClass);
    re.flags = this.stack.flags;
    const { runes, next } = this.classes.parseClass(at, this.stack.flags);
    re.runes = runes;
    this.stack.push(re);
    return next;
  }
}
