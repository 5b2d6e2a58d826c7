/**
 * Unified diffs of text files (`diff -u` format), for `promop diff`. The shortest edit script is found with
 * Myers' O(ND) algorithm after the common first and last lines are set aside, which leaves only the changed
 * region of a configuration to compare; a region needing more than MAX_EDIT_DISTANCE edits is shown as removed
 * and added whole instead of spending quadratic memory on it.
 */

/** The labels of the two sides, as `--- <old>` and `+++ <new>`. */
export interface DiffLabels {
  old: string;
  new: string;
}

/** Lines of context around each change (diff -u's default). */
export const DEFAULT_CONTEXT = 3;
/** Beyond this many inserted and deleted lines, the changed region is not aligned line by line. */
const MAX_EDIT_DISTANCE = 3_000;

type Op = { kind: 'equal' | 'delete' | 'insert'; oldIndex: number; newIndex: number };

/** The unified diff of two texts, or '' when they are equal. */
export function unifiedDiff(oldText: string, newText: string, labels: DiffLabels, context = DEFAULT_CONTEXT): string {
  if (oldText === newText) return '';
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const ops = editScript(oldLines.lines, newLines.lines);
  const out = [`--- ${labels.old}`, `+++ ${labels.new}`];
  for (const hunk of hunks(ops, context)) {
    const first = ops[hunk.start]!;
    const oldCount = ops.slice(hunk.start, hunk.end).filter((op) => op.kind !== 'insert').length;
    const newCount = ops.slice(hunk.start, hunk.end).filter((op) => op.kind !== 'delete').length;
    // diff -u numbers lines from 1; an empty side names the line before it.
    const range = (start: number, count: number) => `${count === 0 ? start : start + 1}${count === 1 ? '' : `,${count}`}`;
    out.push(`@@ -${range(first.oldIndex, oldCount)} +${range(first.newIndex, newCount)} @@`);
    for (const op of ops.slice(hunk.start, hunk.end)) {
      if (op.kind === 'equal') out.push(` ${oldLines.lines[op.oldIndex]}`, ...noNewline(oldLines, op.oldIndex));
      else if (op.kind === 'delete') out.push(`-${oldLines.lines[op.oldIndex]}`, ...noNewline(oldLines, op.oldIndex));
      else out.push(`+${newLines.lines[op.newIndex]}`, ...noNewline(newLines, op.newIndex));
    }
  }
  return `${out.join('\n')}\n`;
}

interface SplitText {
  lines: string[];
  /** The last line has no newline after it. */
  unterminated: boolean;
}

function splitLines(text: string): SplitText {
  if (text === '') return { lines: [], unterminated: false };
  const unterminated = !text.endsWith('\n');
  return { lines: (unterminated ? text : text.slice(0, -1)).split('\n'), unterminated };
}

function noNewline(text: SplitText, index: number): string[] {
  return text.unterminated && index === text.lines.length - 1 ? ['\\ No newline at end of file'] : [];
}

/** Every line of both texts as equal, deleted or inserted, in order (each op carries its position on both sides). */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const ops: Op[] = [];
  for (let i = 0; i < prefix; i++) ops.push({ kind: 'equal', oldIndex: i, newIndex: i });
  const middle = myers(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix));
  for (const op of middle) ops.push({ kind: op.kind, oldIndex: op.oldIndex + prefix, newIndex: op.newIndex + prefix });
  for (let i = suffix; i > 0; i--) ops.push({ kind: 'equal', oldIndex: a.length - i, newIndex: b.length - i });
  return ops;
}

/**
 * Myers' greedy algorithm: for d = 0, 1, ... the furthest point reachable on each diagonal k = x - y with d
 * edits, keeping each round's frontier to walk the path back from the end.
 */
function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return wholeReplacement(n, m);
  const max = n + m;
  const offset = max;
  // frontier[offset + k]: the furthest x reached on diagonal k. Round d writes only the diagonals of d's parity
  // and reads the others, so one array serves every round.
  const frontier = new Int32Array(2 * max + 2);
  const history: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE); d++) {
    history.push(frontier.slice(offset - d, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      // Down (an insertion) from diagonal k+1, or right (a deletion) from k-1, whichever reaches further.
      let x = k === -d || (k !== d && frontier[offset + k - 1]! < frontier[offset + k + 1]!) ? frontier[offset + k + 1]! : frontier[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      frontier[offset + k] = x;
      if (x >= n && y >= m) return backtrack(history, d, n, m);
    }
  }
  return wholeReplacement(n, m);
}

/** Walks the recorded frontiers back from (n, m) to (0, 0). `history[d]` holds the frontier before round d. */
function backtrack(history: readonly Int32Array[], lastD: number, n: number, m: number): Op[] {
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = lastD; d > 0; d--) {
    const before = history[d]!; // frontier after round d-1, indexed from diagonal -d
    const at = (k: number) => before[k + d]!;
    const k = x - y;
    const fromInsert = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = fromInsert ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    const startX = fromInsert ? previousX : previousX + 1;
    const startY = startX - k;
    while (x > startX && y > startY) ops.push({ kind: 'equal', oldIndex: --x, newIndex: --y });
    if (fromInsert) ops.push({ kind: 'insert', oldIndex: previousX, newIndex: --y });
    else ops.push({ kind: 'delete', oldIndex: --x, newIndex: previousY });
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) ops.push({ kind: 'equal', oldIndex: --x, newIndex: --y });
  return ops.reverse();
}

function wholeReplacement(n: number, m: number): Op[] {
  return [
    ...Array.from({ length: n }, (_, i): Op => ({ kind: 'delete', oldIndex: i, newIndex: 0 })),
    ...Array.from({ length: m }, (_, j): Op => ({ kind: 'insert', oldIndex: n, newIndex: j })),
  ];
}

/** Ranges of `ops` to print: each change with `context` equal lines around it, close ranges merged. */
function hunks(ops: readonly Op[], context: number): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (let i = 0; i < ops.length; i++) {
    if (ops[i]!.kind === 'equal') continue;
    const start = Math.max(0, i - context);
    let end = i;
    while (end < ops.length && ops[end]!.kind !== 'equal') end++;
    const range = { start, end: Math.min(ops.length, end + context) };
    const last = ranges[ranges.length - 1];
    if (last && range.start <= last.end) last.end = range.end;
    else ranges.push(range);
    i = end - 1;
  }
  return ranges;
}
