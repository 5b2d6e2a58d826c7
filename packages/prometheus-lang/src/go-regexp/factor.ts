/**
 * The simplification of alternations and concatenations as Go's parser builds them (its collapse, factor and their
 * helpers): nested operators hoisted, common leading literals and classes factored out of an alternation
 * (`abc|abd` → `ab(?:c|d)`), single characters merged into one class. Go's limits are measured on the tree this
 * builds, with the nodes it frees and allocates, so it frees and allocates them exactly as Go does.
 */
import { Op, type GoRegexp } from './ast.ts';
import { cleanAlt, equal, isCharClass, leadingRegexp, leadingString, mergeCharClass } from './alternation.ts';
import { MAX_HEIGHT } from './limits.ts';
import type { NodePool } from './node-pool.ts';

/** Thrown when the factoring of an alternation nests deeper than any tree Go accepts. */
export class DeepFactoring extends Error {}

/**
 * How deep the factoring of alternations may recurse before promop stops it: each level wraps the next in a
 * concatenation, so past 1000 levels the tree is higher than Go's limit, and the JavaScript stack is the limit here
 * (`[ab]` × 2000, then x, or the same with y, recurses 2000 levels).
 */
const FACTOR_DEPTH_LIMIT = MAX_HEIGHT + 50;

/** Builds the concatenations and alternations of one parse from the nodes of `nodes`. */
export class Factoring {
  private readonly nodes: NodePool;
  /** How deep collapse and factor call each other now. */
  private factorDepth = 0;

  constructor(nodes: NodePool) {
    this.nodes = nodes;
  }

  /** `op` applied to `subs`, hoisting the subs' own `op` nodes (no concatenation of concatenations). */
  collapse(subs: GoRegexp[], op: number): GoRegexp {
    if (subs.length === 1) return subs[0]!;
    let re = this.nodes.newRegexp(op);
    re.sub = [];
    for (const sub of subs) {
      if (sub.op === op) {
        for (const inner of sub.sub) re.sub.push(inner);
        this.nodes.reuse(sub);
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
        this.nodes.reuse(old);
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
        const prefix = this.nodes.newRegexp(Op.Literal);
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
          this.nodes.reuse(sub[j]!);
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
      this.nodes.checkLimits(sub[j]!);
    }
    const suffix = this.collapse(sub.slice(start, end), Op.Alternate);
    const re = this.nodes.newRegexp(Op.Concat);
    re.sub = [prefix, suffix];
    return re;
  }

  private removeLeadingString(re: GoRegexp, n: number): GoRegexp {
    if (re.op === Op.Concat && re.sub.length > 0) {
      const sub = this.removeLeadingString(re.sub[0]!, n);
      re.sub[0] = sub;
      if (sub.op === Op.EmptyMatch) {
        this.nodes.reuse(sub);
        switch (re.sub.length) {
          case 0:
          case 1:
            re.op = Op.EmptyMatch;
            re.sub = [];
            break;
          case 2: {
            const old = re;
            re = re.sub[1]!;
            this.nodes.reuse(old);
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
      if (reuse) this.nodes.reuse(re.sub[0]!);
      re.sub.shift();
      if (re.sub.length === 0) {
        re.op = Op.EmptyMatch;
        re.sub = [];
      } else if (re.sub.length === 1) {
        const old = re;
        re = re.sub[0]!;
        this.nodes.reuse(old);
      }
      return re;
    }
    if (reuse) this.nodes.reuse(re);
    return this.nodes.newRegexp(Op.EmptyMatch);
  }
}
