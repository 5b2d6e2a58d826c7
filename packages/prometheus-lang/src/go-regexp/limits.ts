/**
 * The limits Go's regexp/syntax enforces while it parses (parse.go, Go 1.19 and later), which Prometheus hits when
 * it compiles `^(?s:<regex>)$`:
 * - a parse tree at most 1000 levels high ("expression nests too deeply");
 * - a compiled program of at most 128 MB of instructions, estimated from the tree ("expression too large");
 * - at most 32M runes in all literals and classes ("expression too large");
 * - counted repetitions of at most 1000, nested ones multiplying to at most 1000 ("invalid repeat count").
 * Go computes sizes and heights lazily, caching them per node; the parser keeps the same caches (including their
 * staleness when it later edits a node), because the verdict must be Go's, not the exact one.
 * The walks here are iterative: a tree built by factoring can be a few thousand levels deep before Go measures it.
 */
import { Op, walkPostOrder, type GoRegexp } from './ast.ts';

export const MAX_HEIGHT = 1000;
/** 128 MB of 40-byte instructions. */
export const MAX_SIZE = Math.floor((128 << 20) / 40);
/** 128 MB of 4-byte runes. */
export const MAX_RUNES = (128 << 20) / 4;
/** The largest count of a repetition, and of nested repetitions multiplied. */
export const MAX_REPEAT = 1000;

/** Go's map from node to height or size, kept in the nodes' own fields (a Map costs more than the parse). */
export interface NodeCache {
  has(node: GoRegexp): boolean;
  get(node: GoRegexp): number | undefined;
  set(node: GoRegexp, value: number): void;
  delete(node: GoRegexp): void;
}

/** Go's p.height. */
export class HeightCache implements NodeCache {
  has(node: GoRegexp): boolean {
    return node.cachedHeight >= 0;
  }

  get(node: GoRegexp): number | undefined {
    return node.cachedHeight >= 0 ? node.cachedHeight : undefined;
  }

  set(node: GoRegexp, value: number): void {
    node.cachedHeight = value;
  }

  delete(node: GoRegexp): void {
    node.cachedHeight = -1;
  }
}

/** Go's p.size. */
export class SizeCache implements NodeCache {
  has(node: GoRegexp): boolean {
    return node.cachedSize >= 0;
  }

  get(node: GoRegexp): number | undefined {
    return node.cachedSize >= 0 ? node.cachedSize : undefined;
  }

  set(node: GoRegexp, value: number): void {
    node.cachedSize = value;
  }

  delete(node: GoRegexp): void {
    node.cachedSize = -1;
  }
}

/** The tree's estimated program size, from `sizes` for the nodes below it already measured (Go's calcSize). */
export function calcSize(root: GoRegexp, sizes: NodeCache): number {
  if (root.sub.every((sub) => sizes.has(sub))) {
    // The common case: every sub-expression was measured when it was pushed.
    const size = sizeOf(root, sizes);
    sizes.set(root, size);
    return size;
  }
  // The nodes not yet measured, and the root again (Go's force).
  walkPostOrder(root, (node) => sizes.has(node), (node) => sizes.set(node, sizeOf(node, sizes)));
  return sizes.get(root)!;
}

function sizeOf(re: GoRegexp, sizes: NodeCache): number {
  const sub = (i: number) => sizes.get(re.sub[i]!)!;
  let size = 0;
  switch (re.op) {
    case Op.Literal:
      size = re.runes.length;
      break;
    case Op.Capture:
    case Op.Star:
      size = 2 + sub(0);
      break;
    case Op.Plus:
    case Op.Quest:
      size = 1 + sub(0);
      break;
    case Op.Concat:
      for (let i = 0; i < re.sub.length; i++) size += sub(i);
      break;
    case Op.Alternate:
      for (let i = 0; i < re.sub.length; i++) size += sub(i);
      if (re.sub.length > 1) size += re.sub.length - 1;
      break;
    case Op.Repeat:
      if (re.max === -1) size = re.min === 0 ? 2 + sub(0) : 1 + re.min * sub(0);
      else size = re.max * sub(0) + (re.max - re.min);
      break;
  }
  return Math.max(1, size);
}

/** The tree's height, from `heights` for the nodes below it already measured (Go's calcHeight). */
export function calcHeight(root: GoRegexp, heights: NodeCache): number {
  let known = 1;
  for (const sub of root.sub) {
    const height = heights.get(sub);
    if (height === undefined) {
      known = -1;
      break;
    }
    if (height + 1 > known) known = height + 1;
  }
  if (known > 0) {
    // The common case: every sub-expression was measured when it was pushed.
    heights.set(root, known);
    return known;
  }
  walkPostOrder(root, (node) => heights.has(node), (node) => {
    let height = 1;
    for (const sub of node.sub) height = Math.max(height, 1 + heights.get(sub)!);
    heights.set(node, height);
  });
  return heights.get(root)!;
}

/**
 * Whether the repetition and the repetitions inside it repeat their innermost operand at most `n` times in all
 * (Go's repeatIsValid: `{0}` ends the chain, `{n,}` counts as n, `*`, `+` and `?` do not count).
 */
export function repeatIsValid(root: GoRegexp, limit: number): boolean {
  const stack: Array<{ node: GoRegexp; n: number }> = [{ node: root, n: limit }];
  while (stack.length > 0) {
    const { node, n: budget } = stack.pop()!;
    let n = budget;
    if (node.op === Op.Repeat) {
      let m = node.max;
      if (m === 0) continue;
      if (m < 0) m = node.min;
      if (m > n) return false;
      if (m > 0) n = Math.trunc(n / m);
    }
    for (const sub of node.sub) stack.push({ node: sub, n });
  }
  return true;
}
