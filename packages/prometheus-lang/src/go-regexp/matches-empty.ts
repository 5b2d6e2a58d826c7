import { Op, walkPostOrder, type GoRegexp } from './ast.ts';

/**
 * Whether the regex matches the empty string, read off the parse tree in one pass (no regex engine runs). On the
 * empty input every position is the start and end of the text and of a line, so `^ $ \A \z` match there (with or
 * without (?m)); no word character is next to it, so `\b` fails and `\B` matches.
 */
export function matchesEmpty(root: GoRegexp): boolean {
  // Go keeps an accepted tree within 1000 levels, so recursion is safe; deeper (never seen) takes the slower walk.
  const shallow = matchesEmptyWithin(root, 0);
  return shallow ?? matchesEmptyDeep(root);
}

/** matchesEmpty by recursion, stopping at the first sub-expression that decides; undefined past MAX_DEPTH. */
function matchesEmptyWithin(re: GoRegexp, depth: number): boolean | undefined {
  if (depth > MAX_DEPTH) return undefined;
  switch (re.op) {
    case Op.Capture:
    case Op.Plus:
      return matchesEmptyWithin(re.sub[0]!, depth + 1);
    case Op.Repeat:
      return re.min === 0 ? true : matchesEmptyWithin(re.sub[0]!, depth + 1);
    case Op.Concat:
      for (const sub of re.sub) {
        const empty = matchesEmptyWithin(sub, depth + 1);
        if (empty !== true) return empty;
      }
      return true;
    case Op.Alternate:
      for (const sub of re.sub) {
        const empty = matchesEmptyWithin(sub, depth + 1);
        if (empty !== false) return empty;
      }
      return false;
    default:
      return emptyMatchOf(re, () => false);
  }
}

const MAX_DEPTH = 2000;

function matchesEmptyDeep(root: GoRegexp): boolean {
  const result = new Map<GoRegexp, boolean>();
  walkPostOrder(root, (node) => result.has(node), (node) => result.set(node, emptyMatchOf(node, (sub) => result.get(sub)!)));
  return result.get(root)!;
}

function emptyMatchOf(re: GoRegexp, sub: (node: GoRegexp) => boolean): boolean {
  switch (re.op) {
    case Op.EmptyMatch:
    case Op.BeginLine:
    case Op.EndLine:
    case Op.BeginText:
    case Op.EndText:
    case Op.NoWordBoundary:
    case Op.Star:
    case Op.Quest:
      return true;
    case Op.Literal:
      return re.runes.length === 0;
    case Op.Capture:
    case Op.Plus:
      return sub(re.sub[0]!);
    case Op.Repeat:
      return re.min === 0 || sub(re.sub[0]!);
    case Op.Concat:
      return re.sub.every(sub);
    case Op.Alternate:
      return re.sub.some(sub);
    default:
      // No match, a character, a class, a word boundary.
      return false;
  }
}
