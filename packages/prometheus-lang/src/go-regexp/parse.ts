/**
 * A parser of Go's regexp/syntax language, written to accept and refuse exactly what Go's syntax.Parse does (Go
 * 1.26, /usr/local/go/src/regexp/syntax/parse.go), including its limits (limits.ts). It follows Go's algorithm
 * step by step — an operator stack with incremental concatenation of literals, factoring of alternations, a free
 * list of nodes — because the limits are measured on the tree Go builds and counted on the nodes Go allocates.
 *
 * Nothing here backtracks or recurses on the pattern's nesting: every loop advances through the pattern, the walks
 * over the tree are iterative or bounded by Go's limits, and searches for a closing `:]` are remembered, so a
 * pattern is parsed in about linear time (a class under (?i) costs the runes that fold within its ranges).
 */
import { Flag, Op, type GoRegexp, type GoRegexpErrorCode, type GoRegexpParse } from './ast.ts';
import { cleanAlt, equal, isCharClass, leadingRegexp, leadingString, mergeCharClass } from './alternation.ts';
import {
  appendClass, appendFoldedRange, appendNamedClass, appendNegatedClass, appendRange, cleanClass, minFoldRune, negateClass, negatedUnicodeClassRanges,
  PERL_CLASSES, posixClass,
} from './char-class.ts';
import { isAlnum, isOctal, parseInt10, SIMPLE_ESCAPES, unhex } from './lexical.ts';
import { calcHeight, calcSize, HeightCache, MAX_HEIGHT, MAX_REPEAT, MAX_RUNES, MAX_SIZE, repeatIsValid, SizeCache } from './limits.ts';
import { isUnicodeClassName, MAX_RUNE, simpleFold, unicodeClassRanges, type RegexReading } from './unicode-classes.ts';

/** Parses `pattern` with Go's syntax flags (`PERL_FLAGS | Flag.DotNL` for what Prometheus parses first). */
export function parseGoRegexp(pattern: string, flags: number, reading: RegexReading = 'matcher'): GoRegexpParse {
  const parser = new Parser(pattern, flags, reading);
  try {
    return { ok: true, regex: parser.parse() };
  } catch (error) {
    if (error instanceof GoRegexpError) return { ok: false, code: error.code, expr: error.expr };
    // The factoring went deeper than Go's limit lets a tree be (see collapse); a stack overflow can only come from
    // there too. Go would finish the tree, then refuse it when it pushes it, for its runes first, else its height.
    if (error instanceof DeepFactoring || error instanceof RangeError) {
      return { ok: false, code: parser.runesOverLimit() ? 'expression too large' : 'expression nests too deeply', expr: pattern };
    }
    throw error;
  }
}

/** Thrown when the factoring of an alternation nests deeper than any tree Go accepts. */
class DeepFactoring extends Error {}

/**
 * How deep the factoring of alternations may recurse before promop stops it: each level wraps the next in a
 * concatenation, so past 1000 levels the tree is higher than Go's limit, and the JavaScript stack is the limit here
 * (`[ab]` × 2000, then x, or the same with y, recurses 2000 levels).
 */
const FACTOR_DEPTH_LIMIT = MAX_HEIGHT + 50;

class GoRegexpError extends Error {
  readonly code: GoRegexpErrorCode;
  readonly expr: string;

  constructor(code: GoRegexpErrorCode, expr: string) {
    super(`${code}: ${expr}`);
    this.code = code;
    this.expr = expr;
  }
}

const BACKSLASH = 0x5c;

/** A rune and where the text after it starts. */
interface Step {
  rune: number;
  next: number;
}

class Parser {
  private readonly s: string;
  private flags: number;
  private stack: GoRegexp[] = [];
  private free: GoRegexp[] = [];
  private numCap = 0;
  private numRegexp = 0;
  private numRunes = 0;
  private repeats = 0;
  private height: HeightCache | undefined;
  private size: SizeCache | undefined;
  /** How deep collapse and factor call each other now. */
  private factorDepth = 0;
  /** The last search for ":]": from where, and where it was found (-1: nowhere after). */
  private posixEnd = { from: Infinity, at: -1 };

  /** Which of Prometheus' readings looks Unicode class names up (unicode-classes.ts). */
  private readonly reading: RegexReading;

  constructor(pattern: string, flags: number, reading: RegexReading) {
    this.s = pattern;
    this.flags = flags;
    this.reading = reading;
  }

  parse(): GoRegexp {
    const s = this.s;
    let t = 0;
    let lastRepeat = -1;
    while (t < s.length) {
      let repeat = -1;
      const code = s.charCodeAt(t);
      // The plain characters first: most of a long pattern is literal text.
      if (code < 128 ? SPECIAL[code] === 0 : code < 0xd800 || code > 0xdfff) {
        t++;
        if (this.appendToText(code)) t = this.appendTextRun(t);
        else this.literal(code);
        lastRepeat = -1;
        continue;
      }
      const c = s[t];
      switch (c) {
        case '(':
          if (this.flags & Flag.PerlX && s[t + 1] === '?') {
            t = this.parsePerlFlags(t);
            break;
          }
          this.numCap++;
          this.op(Op.LeftParen)!.cap = this.numCap;
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
          this.op(this.flags & Flag.OneLine ? Op.BeginText : Op.BeginLine);
          t++;
          break;
        case '$':
          if (this.flags & Flag.OneLine) this.op(Op.EndText)!.flags |= Flag.WasDollar;
          else this.op(Op.EndLine);
          t++;
          break;
        case '.':
          this.op(this.flags & Flag.DotNL ? Op.AnyChar : Op.AnyCharNotNL);
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
          t = this.repeat(op, 0, 0, t, t + 1, lastRepeat);
          break;
        }
        case '{': {
          const counts = this.parseRepeat(t);
          if (!counts) {
            // Not a repetition: the brace is a literal.
            this.literal(0x7b);
            t++;
            break;
          }
          const { min, max, after } = counts;
          if (min < 0 || min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max)) {
            throw new GoRegexpError('invalid repeat count', s.slice(t, after));
          }
          repeat = t;
          t = this.repeat(Op.Repeat, min, max, t, after, lastRepeat);
          break;
        }
        case '\\':
          t = this.parseBackslash(t);
          break;
        default: {
          const { rune, next } = this.nextRune(t);
          this.literal(rune);
          t = next;
        }
      }
      lastRepeat = repeat;
    }
    this.concat();
    if (this.swapVerticalBar()) this.stack.pop();
    this.alternate();
    if (this.stack.length !== 1) throw new GoRegexpError('missing closing )', s);
    return this.stack[0]!;
  }

  // ---- nodes and the stack ----

  private newRegexp(op: number): GoRegexp {
    let re = this.free.pop();
    if (re) {
      re.flags = 0;
      re.runes = NO_RUNES;
      re.sub = NO_SUBS;
      re.min = 0;
      re.max = 0;
      re.cap = 0;
      re.name = '';
    } else {
      re = { op, flags: 0, runes: NO_RUNES, sub: NO_SUBS, min: 0, max: 0, cap: 0, name: '', cachedHeight: -1, cachedSize: -1 };
      this.numRegexp++;
    }
    re.op = op;
    return re;
  }

  private reuse(re: GoRegexp): void {
    this.height?.delete(re);
    this.free.push(re);
  }

  /** Whether the runes counted so far are over Go's limit (what Go checks first when it pushes a node). */
  runesOverLimit(): boolean {
    return this.numRunes > MAX_RUNES;
  }

  private checkLimits(re: GoRegexp): void {
    if (this.numRunes > MAX_RUNES) throw new GoRegexpError('expression too large', this.s);
    this.checkSize(re);
    this.checkHeight(re);
  }

  private checkSize(re: GoRegexp): void {
    if (!this.size) {
      // Go measures sizes only once the nodes allocated times the repetitions seen could exceed the limit.
      if (this.repeats === 0) this.repeats = 1;
      if (re.op === Op.Repeat) {
        let n = re.max === -1 ? re.min : re.max;
        if (n <= 0) n = 1;
        if (n > Math.trunc(MAX_SIZE / this.repeats)) this.repeats = MAX_SIZE;
        else this.repeats *= n;
      }
      if (this.numRegexp < Math.trunc(MAX_SIZE / this.repeats)) return;
      this.size = new SizeCache();
      for (const node of [...this.stack]) this.checkSize(node);
    }
    if (calcSize(re, this.size) > MAX_SIZE) throw new GoRegexpError('expression too large', this.s);
  }

  private checkHeight(re: GoRegexp): void {
    // No tree can be higher than the nodes allocated: Go starts measuring at 1000.
    if (this.numRegexp < MAX_HEIGHT) return;
    if (!this.height) {
      this.height = new HeightCache();
      for (const node of [...this.stack]) this.checkHeight(node);
    }
    if (calcHeight(re, this.height) > MAX_HEIGHT) throw new GoRegexpError('expression nests too deeply', this.s);
  }

  /** Pushes a node, turning a one-rune class into a literal and joining literals (Go's push). */
  private push(re: GoRegexp): GoRegexp | undefined {
    this.numRunes += re.runes.length;
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
    this.stack.push(re);
    this.checkLimits(re);
    return re;
  }

  /**
   * Joins the two literals on top of the stack, if they are, into one; then reuses the top node for `rune` when it
   * is given (reporting whether it did), as Go's maybeConcat does before each push.
   */
  private maybeConcat(rune: number, flags: number): boolean {
    const n = this.stack.length;
    if (n < 2) return false;
    const re1 = this.stack[n - 1]!;
    const re2 = this.stack[n - 2]!;
    if (re1.op !== Op.Literal || re2.op !== Op.Literal || (re1.flags & Flag.FoldCase) !== (re2.flags & Flag.FoldCase)) return false;
    const runes = re1.runes;
    for (let i = 0; i < runes.length; i++) re2.runes.push(runes[i]!);
    if (rune >= 0) {
      re1.runes = [rune];
      re1.flags = flags;
      return true;
    }
    this.stack.pop();
    this.reuse(re1);
    return false;
  }

  /**
   * literal(rune) in the common state of a long literal text — two literals on top of the stack, a node on the free
   * list, no (?i) — with the same effects, step for step, and less work. Returns false outside that state.
   */
  private appendToText(rune: number): boolean {
    const stack = this.stack;
    const n = stack.length;
    if (n < 2 || this.free.length === 0 || this.flags & Flag.FoldCase) return false;
    const x = stack[n - 2]!;
    const y = stack[n - 1]!;
    if (x.op !== Op.Literal || y.op !== Op.Literal || (x.flags & Flag.FoldCase) !== (y.flags & Flag.FoldCase)) return false;
    // newRegexp
    const re = this.free.pop()!;
    re.op = Op.Literal;
    re.flags = this.flags;
    re.runes = [rune];
    re.sub = NO_SUBS;
    re.min = 0;
    re.max = 0;
    re.cap = 0;
    re.name = '';
    // push: maybeConcat joins y into x and frees y
    this.numRunes += 1;
    const runes = y.runes;
    for (let i = 0; i < runes.length; i++) x.runes.push(runes[i]!);
    stack[n - 1] = re;
    this.reuse(y);
    this.checkLimits(re);
    return true;
  }

  /**
   * The plain characters from `t` on, with the effects appendToText would have on each (it was just called, so its
   * state holds): at each character the top of the stack joins the text below it and trades places with the node on
   * top of the free list, which takes the character; the caches get the same entries as step by step.
   * Returns where the run ends.
   */
  private appendTextRun(t: number): number {
    const s = this.s;
    const stack = this.stack;
    const free = this.free;
    const x = stack[stack.length - 2]!;
    const top = stack[stack.length - 1]!;
    const spare = free[free.length - 1];
    if (!spare || x.flags & Flag.FoldCase || top.flags & Flag.FoldCase) return t;
    let end = t;
    while (end < s.length) {
      const code = s.charCodeAt(end);
      if (code < 128 ? SPECIAL[code] !== 0 : code >= 0xd800 && code <= 0xdfff) break;
      end++;
    }
    const steps = end - t;
    if (steps === 0) return t;
    if (this.numRunes + steps > MAX_RUNES) throw new GoRegexpError('expression too large', s);
    this.numRunes += steps;
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
      this.size?.set(node, 1);
    }
    last.runes = [s.charCodeAt(end - 1)];
    if (steps > 1) other.runes = [s.charCodeAt(end - 2)];
    this.height?.delete(other);
    this.height?.set(last, 1);
    stack[stack.length - 1] = last;
    free[free.length - 1] = other;
    return end;
  }

  private literal(rune: number): void {
    const re = this.newRegexp(Op.Literal);
    re.flags = this.flags;
    re.runes = [this.flags & Flag.FoldCase ? minFoldRune(rune) : rune];
    this.push(re);
  }

  private op(op: number): GoRegexp | undefined {
    const re = this.newRegexp(op);
    re.flags = this.flags;
    return this.push(re);
  }

  /** Applies a repetition operator (from `before` to `after`) to the top of the stack; returns where parsing goes on. */
  private repeat(op: number, min: number, max: number, before: number, after: number, lastRepeat: number): number {
    let flags = this.flags;
    if (this.flags & Flag.PerlX) {
      if (this.s[after] === '?') {
        after++;
        flags ^= Flag.NonGreedy;
      }
      // `a**` is an error in Perl syntax, not a doubled star.
      if (lastRepeat >= 0) throw new GoRegexpError('invalid nested repetition operator', this.s.slice(lastRepeat, after));
    }
    const n = this.stack.length;
    const sub = this.stack[n - 1];
    if (!sub || sub.op >= Op.Pseudo) throw new GoRegexpError('missing argument to repetition operator', this.s.slice(before, after));
    const re = this.newRegexp(op);
    re.min = min;
    re.max = max;
    re.flags = flags;
    re.sub = [sub];
    this.stack[n - 1] = re;
    this.checkLimits(re);
    if (op === Op.Repeat && (min >= 2 || max >= 2) && !repeatIsValid(re, MAX_REPEAT)) {
      throw new GoRegexpError('invalid repeat count', this.s.slice(before, after));
    }
    return after;
  }

  /** Replaces the top of the stack above the last `|` or `(` with its concatenation. */
  private concat(): GoRegexp | undefined {
    this.maybeConcat(-1, 0);
    const subs = this.popOperands();
    if (subs.length === 0) return this.push(this.newRegexp(Op.EmptyMatch));
    return this.push(this.collapse(subs, Op.Concat));
  }

  /** Replaces the top of the stack above the last `(` with its alternation. */
  private alternate(): GoRegexp | undefined {
    const subs = this.popOperands();
    if (subs.length > 0) cleanAlt(subs[subs.length - 1]!);
    if (subs.length === 0) return this.push(this.newRegexp(Op.NoMatch));
    return this.push(this.collapse(subs, Op.Alternate));
  }

  private popOperands(): GoRegexp[] {
    let i = this.stack.length;
    while (i > 0 && this.stack[i - 1]!.op < Op.Pseudo) i--;
    return this.stack.splice(i);
  }

  /** `op` applied to `subs`, hoisting the subs' own `op` nodes (no concatenation of concatenations). */
  private collapse(subs: GoRegexp[], op: number): GoRegexp {
    if (subs.length === 1) return subs[0]!;
    let re = this.newRegexp(op);
    re.sub = [];
    for (const sub of subs) {
      if (sub.op === op) {
        for (const inner of sub.sub) re.sub.push(inner);
        this.reuse(sub);
      } else {
        re.sub.push(sub);
      }
    }
    if (op === Op.Alternate) {
      if (++this.factorDepth > FACTOR_DEPTH_LIMIT) throw new DeepFactoring();
      re.sub = this.factor(re.sub);
      this.factorDepth--;
      if (re.sub.length === 1) {
        const old = re;
        re = re.sub[0]!;
        this.reuse(old);
      }
    }
    return re;
  }

  /**
   * Go's factoring of an alternation: common literal prefixes (`abc|abd` → `ab(?:c|d)`), common leading classes,
   * runs of single characters merged into one class, runs of empty matches merged into one.
   */
  private factor(sub: GoRegexp[]): GoRegexp[] {
    if (sub.length < 2) return sub;

    // Round 1: common literal prefixes.
    let out: GoRegexp[] = [];
    let str: number[] = [];
    let strLength = 0;
    let strFlags = 0;
    let start = 0;
    for (let i = 0; i <= sub.length; i++) {
      let istr: number[] = [];
      let iflags = 0;
      if (i < sub.length) {
        [istr, iflags] = leadingString(sub[i]!);
        if (iflags === strFlags) {
          let same = 0;
          while (same < strLength && same < istr.length && str[same] === istr[same]) same++;
          if (same > 0) {
            strLength = same;
            continue;
          }
        }
      }
      if (i === start + 1) {
        out.push(sub[start]!);
      } else if (i > start + 1) {
        const prefix = this.newRegexp(Op.Literal);
        prefix.flags = strFlags;
        prefix.runes = str.slice(0, strLength);
        out.push(this.factorOut(prefix, sub, start, i, (re) => this.removeLeadingString(re, strLength)));
      }
      start = i;
      str = istr;
      strLength = istr.length;
      strFlags = iflags;
    }
    sub = out;

    // Round 2: a common leading class, or fixed repetition of a class.
    start = 0;
    out = [];
    let first: GoRegexp | undefined;
    for (let i = 0; i <= sub.length; i++) {
      let ifirst: GoRegexp | undefined;
      if (i < sub.length) {
        ifirst = leadingRegexp(sub[i]!);
        if (
          first &&
          ifirst &&
          equal(first, ifirst) &&
          (isCharClass(first) || (first.op === Op.Repeat && first.min === first.max && isCharClass(first.sub[0]!)))
        ) {
          continue;
        }
      }
      if (i === start + 1) {
        out.push(sub[start]!);
      } else if (i > start + 1) {
        // The prefix is sub[start]'s own leading piece: the others' are reused.
        out.push(this.factorOut(first!, sub, start, i, (re, j) => this.removeLeadingRegexp(re, j !== start)));
      }
      start = i;
      first = ifirst;
    }
    sub = out;

    // Round 3: runs of single characters and classes become one class.
    start = 0;
    out = [];
    for (let i = 0; i <= sub.length; i++) {
      if (i < sub.length && isCharClass(sub[i]!)) continue;
      if (i === start + 1) {
        out.push(sub[start]!);
      } else if (i > start + 1) {
        // Merge into the most complex one.
        let most = start;
        for (let j = start + 1; j < i; j++) {
          const a = sub[most]!;
          const b = sub[j]!;
          if (a.op < b.op || (a.op === b.op && a.runes.length < b.runes.length)) most = j;
        }
        [sub[start], sub[most]] = [sub[most]!, sub[start]!];
        for (let j = start + 1; j < i; j++) {
          mergeCharClass(sub[start]!, sub[j]!);
          this.reuse(sub[j]!);
        }
        cleanAlt(sub[start]!);
        out.push(sub[start]!);
      }
      if (i < sub.length) out.push(sub[i]!);
      start = i + 1;
    }
    sub = out;

    // Round 4: runs of empty matches become one.
    out = [];
    for (let i = 0; i < sub.length; i++) {
      if (i + 1 < sub.length && sub[i]!.op === Op.EmptyMatch && sub[i + 1]!.op === Op.EmptyMatch) continue;
      out.push(sub[i]!);
    }
    return out;
  }

  /** `prefix(?:rest of sub[start]|…|rest of sub[end - 1])`, each alternative stripped of its prefix by `strip`. */
  private factorOut(prefix: GoRegexp, sub: GoRegexp[], start: number, end: number, strip: (re: GoRegexp, j: number) => GoRegexp): GoRegexp {
    for (let j = start; j < end; j++) {
      sub[j] = strip(sub[j]!, j);
      this.checkLimits(sub[j]!);
    }
    const suffix = this.collapse(sub.slice(start, end), Op.Alternate);
    const re = this.newRegexp(Op.Concat);
    re.sub = [prefix, suffix];
    return re;
  }

  private removeLeadingString(re: GoRegexp, n: number): GoRegexp {
    if (re.op === Op.Concat && re.sub.length > 0) {
      const sub = this.removeLeadingString(re.sub[0]!, n);
      re.sub[0] = sub;
      if (sub.op === Op.EmptyMatch) {
        this.reuse(sub);
        switch (re.sub.length) {
          case 0:
          case 1:
            re.op = Op.EmptyMatch;
            re.sub = [];
            break;
          case 2: {
            const old = re;
            re = re.sub[1]!;
            this.reuse(old);
            break;
          }
          default:
            re.sub.shift();
        }
      }
      return re;
    }
    if (re.op === Op.Literal) {
      // In place, as Go does; shift() lets V8 move the array's start instead of copying the rest (an alternation
      // such as a|aa|aaa|… drops one rune from every alternative at each level of its factoring).
      if (n <= 16) for (let i = 0; i < n; i++) re.runes.shift();
      else re.runes = re.runes.slice(n);
      if (re.runes.length === 0) re.op = Op.EmptyMatch;
    }
    return re;
  }

  private removeLeadingRegexp(re: GoRegexp, reuse: boolean): GoRegexp {
    if (re.op === Op.Concat && re.sub.length > 0) {
      if (reuse) this.reuse(re.sub[0]!);
      re.sub.shift();
      if (re.sub.length === 0) {
        re.op = Op.EmptyMatch;
        re.sub = [];
      } else if (re.sub.length === 1) {
        const old = re;
        re = re.sub[0]!;
        this.reuse(old);
      }
      return re;
    }
    if (reuse) this.reuse(re);
    return this.newRegexp(Op.EmptyMatch);
  }

  // ---- the pieces of syntax ----

  private parseVerticalBar(): void {
    this.concat();
    if (!this.swapVerticalBar()) this.op(Op.VerticalBar);
  }

  /**
   * With a `|` below the top of the stack, moves the top below it, merging it into the alternative below when both
   * are characters or classes. Reports whether there was a `|`.
   */
  private swapVerticalBar(): boolean {
    const stack = this.stack;
    const n = stack.length;
    if (n >= 3 && stack[n - 2]!.op === Op.VerticalBar && isCharClass(stack[n - 1]!) && isCharClass(stack[n - 3]!)) {
      let re1 = stack[n - 1]!;
      let re3 = stack[n - 3]!;
      if (re1.op > re3.op) {
        [re1, re3] = [re3, re1];
        stack[n - 3] = re3;
      }
      mergeCharClass(re3, re1);
      this.reuse(re1);
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

  private parseRightParen(): void {
    this.concat();
    if (this.swapVerticalBar()) this.stack.pop();
    this.alternate();
    const n = this.stack.length;
    if (n < 2) throw new GoRegexpError('unexpected )', this.s);
    const re1 = this.stack.pop()!;
    const re2 = this.stack.pop()!;
    if (re2.op !== Op.LeftParen) throw new GoRegexpError('unexpected )', this.s);
    this.flags = re2.flags;
    if (re2.cap === 0) {
      this.push(re1);
    } else {
      re2.op = Op.Capture;
      re2.sub = [re1];
      this.push(re2);
    }
  }

  /** `{n}`, `{n,}` or `{n,m}` at `at`: the counts (-1 for a number too large) and where it ends; undefined if not one. */
  private parseRepeat(at: number): { min: number; max: number; after: number } | undefined {
    const s = this.s;
    const minimum = parseInt10(s, at + 1);
    if (!minimum) return undefined;
    let min = minimum.value;
    let max: number;
    let t = minimum.next;
    if (t >= s.length) return undefined;
    if (s[t] !== ',') {
      max = min;
    } else {
      t++;
      if (t >= s.length) return undefined;
      if (s[t] === '}') {
        max = -1;
      } else {
        const maximum = parseInt10(s, t);
        if (!maximum) return undefined;
        max = maximum.value;
        t = maximum.next;
        if (max < 0) min = -1;
      }
    }
    if (t >= s.length || s[t] !== '}') return undefined;
    return { min, max, after: t + 1 };
  }

  /** `(?flags)`, `(?flags:`, `(?P<name>` or `(?<name>` at `at`; returns where parsing goes on. */
  private parsePerlFlags(at: number): number {
    const s = this.s;
    const startsWithP = s.length - at > 4 && s[at + 2] === 'P' && s[at + 3] === '<';
    const startsWithName = s.length - at > 3 && s[at + 2] === '<';
    if (startsWithP || startsWithName) {
      const nameStart = at + (startsWithP ? 4 : 3);
      const end = s.indexOf('>', at);
      if (end < 0) throw new GoRegexpError('invalid named capture', s.slice(at));
      const name = s.slice(nameStart, end);
      if (!/^[A-Za-z0-9_]+$/.test(name)) throw new GoRegexpError('invalid named capture', s.slice(at, end + 1));
      this.numCap++;
      const re = this.op(Op.LeftParen)!;
      re.cap = this.numCap;
      re.name = name;
      return end + 1;
    }

    const MASK = 0xffff;
    let t = at + 2;
    let flags = this.flags;
    let sign = 1;
    let sawFlag = false;
    while (t < s.length) {
      const { rune, next } = this.nextRune(t);
      t = next;
      const c = String.fromCodePoint(rune);
      if (c === 'i') {
        flags |= Flag.FoldCase;
        sawFlag = true;
      } else if (c === 'm') {
        flags &= ~Flag.OneLine & MASK;
        sawFlag = true;
      } else if (c === 's') {
        flags |= Flag.DotNL;
        sawFlag = true;
      } else if (c === 'U') {
        flags |= Flag.NonGreedy;
        sawFlag = true;
      } else if (c === '-') {
        if (sign < 0) break;
        sign = -1;
        // Inverted, so that setting a flag clears it; inverted back at the end.
        flags = ~flags & MASK;
        sawFlag = false;
      } else if (c === ':' || c === ')') {
        if (sign < 0) {
          if (!sawFlag) break;
          flags = ~flags & MASK;
        }
        if (c === ':') this.op(Op.LeftParen);
        this.flags = flags;
        return t;
      } else {
        break;
      }
    }
    throw new GoRegexpError('invalid or unsupported Perl syntax', s.slice(at, t));
  }

  /** A backslash outside brackets: an assertion, `\Q…\E`, a class or an escaped character. */
  private parseBackslash(t: number): number {
    const s = this.s;
    if (this.flags & Flag.PerlX && t + 1 < s.length) {
      switch (s[t + 1]) {
        case 'A':
          this.op(Op.BeginText);
          return t + 2;
        case 'b':
          this.op(Op.WordBoundary);
          return t + 2;
        case 'B':
          this.op(Op.NoWordBoundary);
          return t + 2;
        case 'C':
          // Any byte: not supported.
          throw new GoRegexpError('invalid escape sequence', '\\C');
        case 'Q': {
          const end = s.indexOf('\\E', t + 2);
          const literalEnd = end < 0 ? s.length : end;
          for (let i = t + 2; i < literalEnd; ) {
            const { rune, next } = this.nextRune(i);
            if (!this.appendToText(rune)) this.literal(rune);
            i = next;
          }
          return end < 0 ? s.length : end + 2;
        }
        case 'z':
          this.op(Op.EndText);
          return t + 2;
      }
    }
    const re = this.newRegexp(Op.CharClass);
    re.flags = this.flags;
    if (s[t + 1] === 'p' || s[t + 1] === 'P') {
      const unicode = this.parseUnicodeClass(t, undefined);
      if (unicode) {
        re.runes = unicode.runes;
        this.push(re);
        return unicode.next;
      }
    }
    const perl = this.parsePerlClassEscape(t, []);
    if (perl) {
      re.runes = perl.runes;
      this.push(re);
      return perl.next;
    }
    this.reuse(re);
    const { rune, next } = this.parseEscape(t);
    this.literal(rune);
    return next;
  }

  /** An escaped character at `at` (the backslash): its rune and where the text after it starts. */
  private parseEscape(at: number): Step {
    const s = this.s;
    let t = at + 1;
    if (t >= s.length) throw new GoRegexpError('trailing backslash at end of expression', '');
    const first = this.nextRune(t);
    const c = first.rune;
    t = first.next;
    const invalid = (end: number) => new GoRegexpError('invalid escape sequence', s.slice(at, end));
    if (c >= 0x31 && c <= 0x37) {
      // \1 to \7 alone would be a backreference: refused. With another octal digit, an octal escape.
      if (!isOctal(s, t)) throw invalid(t);
    }
    if (c >= 0x30 && c <= 0x37) {
      let r = c - 0x30;
      for (let i = 1; i < 3 && isOctal(s, t); i++) r = r * 8 + s.charCodeAt(t++) - 0x30;
      return { rune: r, next: t };
    }
    if (c === 0x78) {
      // \x41 or \x{10FFFF}
      if (t >= s.length) throw invalid(t);
      const open = this.nextRune(t);
      t = open.next;
      if (open.rune === 0x7b) {
        let digits = 0;
        let r = 0;
        for (;;) {
          if (t >= s.length) throw invalid(t);
          const d = this.nextRune(t);
          t = d.next;
          if (d.rune === 0x7d) break;
          const v = unhex(d.rune);
          if (v < 0) throw invalid(t);
          r = r * 16 + v;
          if (r > MAX_RUNE) throw invalid(t);
          digits++;
        }
        if (digits === 0) throw invalid(t);
        return { rune: r, next: t };
      }
      const x = unhex(open.rune);
      const second = this.nextRune(t);
      t = second.next;
      const y = unhex(second.rune);
      if (x < 0 || y < 0) throw invalid(t);
      return { rune: x * 16 + y, next: t };
    }
    const simple = SIMPLE_ESCAPES[String.fromCodePoint(c)];
    if (simple !== undefined) return { rune: simple, next: t };
    // Any other ASCII punctuation stands for itself (`\_` too); letters, digits and non-ASCII are refused.
    if (c < 0x80 && !isAlnum(c)) return { rune: c, next: t };
    throw invalid(t);
  }

  /** `\p{Greek}`, `\pL`, `\P{^Greek}` at `at`, appended to `runes` (none: outside brackets); undefined when `at` holds no `\p` or `\P`. */
  private parseUnicodeClass(at: number, runes: number[] | undefined): { runes: number[]; next: number } | undefined {
    const s = this.s;
    if (!(this.flags & Flag.UnicodeGroups) || s.length - at < 2 || s.charCodeAt(at) !== BACKSLASH || (s[at + 1] !== 'p' && s[at + 1] !== 'P')) {
      return undefined;
    }
    let sign = s[at + 1] === 'P' ? -1 : 1;
    const c = this.nextRune(at + 2);
    let t = c.next;
    let seq: string;
    let name: string;
    if (c.rune !== 0x7b) {
      seq = s.slice(at, t);
      name = seq.slice(2);
    } else {
      const end = s.indexOf('}', at);
      if (end < 0) throw new GoRegexpError('invalid character class range', s.slice(at));
      seq = s.slice(at, end + 1);
      t = end + 1;
      name = s.slice(at + 3, end);
    }
    if (name.startsWith('^')) {
      sign = -sign;
      name = name.slice(1);
    }
    const folded = (this.flags & Flag.FoldCase) !== 0;
    const table = isUnicodeClassName(name, this.reading) ? unicodeClassRanges(name, folded) : undefined;
    if (!table) throw new GoRegexpError('invalid character class range', seq);
    // Outside brackets the class is the table itself, shared and frozen (mergeCharClass copies it before it adds):
    // Go copies it, and thirty thousand copies of \pL are what its rune limit stops.
    if (!runes) return { runes: (sign > 0 ? table : negatedUnicodeClassRanges(name, folded)!) as number[], next: t };
    return { runes: sign > 0 ? appendClass(runes, table) : appendNegatedClass(runes, table), next: t };
  }

  /** `\d`, `\s`, `\w` and their negations at `at`, appended to `runes`. */
  private parsePerlClassEscape(at: number, runes: number[]): { runes: number[]; next: number } | undefined {
    const s = this.s;
    if (!(this.flags & Flag.PerlX) || s.length - at < 2 || s.charCodeAt(at) !== BACKSLASH) return undefined;
    const letter = s[at + 1]!;
    if (!Object.hasOwn(PERL_CLASSES, letter)) return undefined;
    return { runes: appendNamedClass(runes, PERL_CLASSES[letter]!, this.flags), next: at + 2 };
  }

  /** A bracket expression at `at`, pushed as a class; returns where parsing goes on. */
  private parseClass(at: number): number {
    const s = this.s;
    let t = at + 1;
    const re = this.newRegexp(Op.CharClass);
    re.flags = this.flags;
    let runes: number[] = [];
    let sign = 1;
    if (s[t] === '^') {
      sign = -1;
      t++;
      // A class that does not match \n holds it before negation.
      if (!(this.flags & Flag.ClassNL)) runes.push(0xa, 0xa);
    }
    let first = true;
    let cleanAt = CLEAN_AT;
    while (t >= s.length || s[t] !== ']' || first) {
      if (t < s.length && s[t] === '-' && !(this.flags & Flag.PerlX) && !first && (t + 1 >= s.length || s[t + 1] !== ']')) {
        throw new GoRegexpError('invalid character class range', s.slice(t, t + 1 + (this.nextRune(t + 1).next - t - 1)));
      }
      first = false;
      if (s.length - t > 2 && s[t] === '[' && s[t + 1] === ':') {
        const end = this.findPosixEnd(t + 2);
        if (end >= 0) {
          const text = s.slice(t, end + 2);
          const group = posixClass(text);
          if (!group) throw new GoRegexpError('invalid character class range', text);
          runes = appendNamedClass(runes, group, this.flags);
          t = end + 2;
          continue;
        }
      }
      const unicode = this.parseUnicodeClass(t, runes);
      if (unicode) {
        runes = unicode.runes;
        t = unicode.next;
        continue;
      }
      const perl = this.parsePerlClassEscape(t, runes);
      if (perl) {
        runes = perl.runes;
        t = perl.next;
        continue;
      }
      const rangeStart = t;
      const low = this.parseClassChar(t, at);
      t = low.next;
      let hi = low.rune;
      // [a-] is a and -: a range needs something other than ] after the dash.
      if (s.length - t >= 2 && s[t] === '-' && s[t + 1] !== ']') {
        const high = this.parseClassChar(t + 1, at);
        t = high.next;
        hi = high.rune;
        if (hi < low.rune) throw new GoRegexpError('invalid character class range', s.slice(rangeStart, t));
      }
      if (this.flags & Flag.FoldCase) appendFoldedRange(runes, low.rune, hi);
      else appendRange(runes, low.rune, hi);
      // Go cleans the class once, at the end; cleaning it along the way gives the same class and keeps a long
      // bracket expression of few distinct characters (appendRange merges with the last two pairs only) small.
      if (runes.length > cleanAt) {
        runes = cleanClass(runes);
        cleanAt = Math.max(CLEAN_AT, 2 * runes.length);
      }
    }
    t++;
    runes = cleanClass(runes);
    re.runes = sign < 0 ? negateClass(runes) : runes;
    this.push(re);
    return t;
  }

  private parseClassChar(at: number, classStart: number): Step {
    if (at >= this.s.length) throw new GoRegexpError('missing closing ]', this.s.slice(classStart));
    if (this.s.charCodeAt(at) === BACKSLASH) return this.parseEscape(at);
    return this.nextRune(at);
  }

  /** Where the next ":]" at or after `from` is (-1: none), remembering the answer: Go searches the rest each time. */
  private findPosixEnd(from: number): number {
    const cached = this.posixEnd;
    if (from >= cached.from && (cached.at < 0 || cached.at >= from)) return cached.at;
    const at = this.s.indexOf(':]', from);
    this.posixEnd = { from, at };
    return at;
  }

  /** The rune at `at` (U+FFFD for a lone surrogate, as UTF-8 encoding makes it) and where the next one starts. */
  private nextRune(at: number): Step {
    if (at >= this.s.length) return { rune: 0xfffd, next: at };
    const rune = this.s.codePointAt(at)!;
    if (rune > 0xffff) return { rune, next: at + 2 };
    return { rune: rune >= 0xd800 && rune <= 0xdfff ? 0xfffd : rune, next: at + 1 };
  }
}

/** The characters with a meaning of their own outside brackets (by char code). */
const SPECIAL = new Uint8Array(128);
for (const c of '\\()|^$.[*+?{') SPECIAL[c.charCodeAt(0)] = 1;

/**
 * What a new node holds until the parser gives it runes or sub-expressions: shared, so frozen (a push into them would
 * throw, not corrupt every node).
 */
const NO_RUNES = Object.freeze([]) as unknown as number[];
const NO_SUBS = Object.freeze([]) as unknown as GoRegexp[];

/** How many rune pairs a bracket expression collects before it is cleaned along the way. */
const CLEAN_AT = 4096;
