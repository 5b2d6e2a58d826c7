/**
 * How Go's parser simplifies alternations as it builds them (its cleanAlt, mergeCharClass and the helpers of its
 * factoring): single characters and classes merge into one class, leading pieces are compared structurally.
 */
import { Flag, Op, type GoRegexp } from './ast.ts';
import { appendClass, appendLiteral, classHas, cleanClass } from './char-class.ts';
import { MAX_RUNE } from './unicode-classes.ts';

/** A single character, class or dot: what can merge into a class. */
export function isCharClass(re: GoRegexp): boolean {
  return (re.op === Op.Literal && re.runes.length === 1) || re.op === Op.CharClass || re.op === Op.AnyCharNotNL || re.op === Op.AnyChar;
}

/** Makes `dst` match what `src` matches too; `dst` is the more complex (Go's mergeCharClass). */
export function mergeCharClass(dst: GoRegexp, src: GoRegexp): void {
  switch (dst.op) {
    case Op.AnyChar:
      break;
    case Op.AnyCharNotNL:
      if (matchesNewline(src)) dst.op = Op.AnyChar;
      break;
    case Op.CharClass:
      if (Object.isFrozen(dst.runes)) dst.runes = dst.runes.slice();
      if (src.op === Op.Literal) appendLiteral(dst.runes, src.runes[0]!, src.flags);
      else appendClass(dst.runes, src.runes);
      break;
    case Op.Literal:
      if (src.runes[0] === dst.runes[0] && src.flags === dst.flags) break;
      dst.op = Op.CharClass;
      dst.runes = appendLiteral(appendLiteral([], dst.runes[0]!, dst.flags), src.runes[0]!, src.flags);
      break;
  }
}

function matchesNewline(re: GoRegexp): boolean {
  switch (re.op) {
    case Op.Literal:
      return re.runes.length === 1 && re.runes[0] === 0xa;
    case Op.CharClass:
      return classHas(re.runes, 0xa);
    case Op.AnyCharNotNL:
      return false;
    case Op.AnyChar:
      return true;
  }
  return false;
}

/** Cleans a class before it joins an alternation: a class of every rune becomes `.` (Go's cleanAlt). */
export function cleanAlt(re: GoRegexp): void {
  if (re.op !== Op.CharClass) return;
  re.runes = cleanClass(re.runes);
  const r = re.runes;
  if (r.length === 2 && r[0] === 0 && r[1] === MAX_RUNE) {
    re.runes = [];
    re.op = Op.AnyChar;
  } else if (r.length === 4 && r[0] === 0 && r[1] === 0x9 && r[2] === 0xb && r[3] === MAX_RUNE) {
    re.runes = [];
    re.op = Op.AnyCharNotNL;
  }
}

/** The literal string an alternative starts with, and whether it is case-insensitive. */
export function leadingString(re: GoRegexp): [number[], number] {
  if (re.op === Op.Concat && re.sub.length > 0) re = re.sub[0]!;
  if (re.op !== Op.Literal) return [[], 0];
  return [re.runes, re.flags & Flag.FoldCase];
}

/** The first piece of an alternative, or undefined when it starts with an empty match. */
export function leadingRegexp(re: GoRegexp): GoRegexp | undefined {
  if (re.op === Op.EmptyMatch) return undefined;
  if (re.op === Op.Concat && re.sub.length > 0) {
    const sub = re.sub[0]!;
    return sub.op === Op.EmptyMatch ? undefined : sub;
  }
  return re;
}

/** Go's Regexp.Equal: the same structure (walked with a stack, not recursion). */
export function equal(x: GoRegexp, y: GoRegexp): boolean {
  const pairs: Array<[GoRegexp, GoRegexp]> = [[x, y]];
  while (pairs.length > 0) {
    const [a, b] = pairs.pop()!;
    if (a.op !== b.op) return false;
    switch (a.op) {
      case Op.EndText:
        if ((a.flags & Flag.WasDollar) !== (b.flags & Flag.WasDollar)) return false;
        break;
      case Op.Literal:
      case Op.CharClass:
        if ((a.flags & Flag.FoldCase) !== (b.flags & Flag.FoldCase) || !sameNumbers(a.runes, b.runes)) return false;
        break;
      case Op.Alternate:
      case Op.Concat:
        if (a.sub.length !== b.sub.length) return false;
        a.sub.forEach((sub, i) => pairs.push([sub, b.sub[i]!]));
        break;
      case Op.Star:
      case Op.Plus:
      case Op.Quest:
        if ((a.flags & Flag.NonGreedy) !== (b.flags & Flag.NonGreedy)) return false;
        pairs.push([a.sub[0]!, b.sub[0]!]);
        break;
      case Op.Repeat:
        if ((a.flags & Flag.NonGreedy) !== (b.flags & Flag.NonGreedy) || a.min !== b.min || a.max !== b.max) return false;
        pairs.push([a.sub[0]!, b.sub[0]!]);
        break;
      case Op.Capture:
        if (a.cap !== b.cap || a.name !== b.name) return false;
        pairs.push([a.sub[0]!, b.sub[0]!]);
        break;
    }
  }
  return true;
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
