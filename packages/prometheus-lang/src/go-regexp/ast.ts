/**
 * The parse tree of Go's regexp/syntax, as promop's parser builds it (parse.ts). The numbering of the operators is
 * Go's own (syntax.Op): the parser compares them when it merges character classes, so the order matters.
 */

/** Go's syntax.Op values, and the two pseudo-operators its parser keeps on its stack. */
export const Op = {
  NoMatch: 1,
  EmptyMatch: 2,
  Literal: 3,
  CharClass: 4,
  AnyCharNotNL: 5,
  AnyChar: 6,
  BeginLine: 7,
  EndLine: 8,
  BeginText: 9,
  EndText: 10,
  WordBoundary: 11,
  NoWordBoundary: 12,
  Capture: 13,
  Star: 14,
  Plus: 15,
  Quest: 16,
  Repeat: 17,
  Concat: 18,
  Alternate: 19,
  /** Where the parser's pseudo-operators start: an open parenthesis and a vertical bar waiting on the stack. */
  Pseudo: 128,
  LeftParen: 128,
  VerticalBar: 129,
} as const;

/** Go's syntax.Flags bits (a 16-bit set). */
export const Flag = {
  FoldCase: 1,
  Literal: 2,
  ClassNL: 4,
  DotNL: 8,
  OneLine: 16,
  NonGreedy: 32,
  PerlX: 64,
  UnicodeGroups: 128,
  WasDollar: 256,
  Simple: 512,
} as const;

/** syntax.Perl | syntax.DotNL: how Prometheus parses a user's regex (before anchoring it). */
export const PERL_FLAGS = Flag.ClassNL | Flag.OneLine | Flag.PerlX | Flag.UnicodeGroups;

/** One node of the parse tree (Go's syntax.Regexp). */
export interface GoRegexp {
  op: number;
  flags: number;
  /** A literal's runes, or a class's sorted [lo, hi] pairs. */
  runes: number[];
  sub: GoRegexp[];
  /** Counts of a counted repetition (`max` -1: no upper bound). */
  min: number;
  max: number;
  /** Capture index, and name for `(?P<name>…)`. */
  cap: number;
  name: string;
  /**
   * The parser's caches of the node's height and program size (Go keeps them in maps keyed by node, and so reads
   * them stale after it edits a node, which the verdict depends on); -1 when not measured.
   */
  cachedHeight: number;
  cachedSize: number;
}

/** Go's error codes (syntax.ErrorCode) that its parser can return for a Perl-syntax pattern. */
export type GoRegexpErrorCode =
  | 'invalid character class range'
  | 'invalid escape sequence'
  | 'invalid named capture'
  | 'invalid or unsupported Perl syntax'
  | 'invalid nested repetition operator'
  | 'invalid repeat count'
  | 'missing closing ]'
  | 'missing closing )'
  | 'missing argument to repetition operator'
  | 'trailing backslash at end of expression'
  | 'unexpected )'
  | 'expression nests too deeply'
  | 'expression too large';

/** What parsing a pattern gave: the tree, or Go's error code and the part of the pattern it quotes. */
export type GoRegexpParse = { ok: true; regex: GoRegexp } | { ok: false; code: GoRegexpErrorCode; expr: string };

/**
 * Visits the nodes below `root` (and `root`) that `known` does not know yet, each after its sub-expressions,
 * without recursion: a tree can be thousands of levels deep before Go's height limit is checked on it.
 */
export function walkPostOrder(root: GoRegexp, known: (node: GoRegexp) => boolean, visit: (node: GoRegexp) => void): void {
  const stack: Array<{ node: GoRegexp; visited: boolean }> = [{ node: root, visited: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (!top.visited) {
      top.visited = true;
      for (const sub of top.node.sub) if (!known(sub)) stack.push({ node: sub, visited: false });
      continue;
    }
    stack.pop();
    visit(top.node);
  }
}
