/**
 * The nodes of one parse (Go's newRegexp, reuse and checkLimits): taken from a free list as Go takes them, counted
 * as Go counts them, and measured against Go's limits (limits.ts) as they are pushed. Go's limits are checked on the
 * nodes Go allocates, so the parser frees and reuses a node exactly where Go does.
 */
import { Op, type GoRegexp } from './ast.ts';
import { calcHeight, calcSize, HeightCache, MAX_HEIGHT, MAX_RUNES, MAX_SIZE, SizeCache } from './limits.ts';
import { GoRegexpError } from './parse-error.ts';

/**
 * What a new node holds until the parser gives it runes or sub-expressions: shared, so frozen (a push into them would
 * throw, not corrupt every node).
 */
export const NO_RUNES = Object.freeze([]) as unknown as number[];
export const NO_SUBS = Object.freeze([]) as unknown as GoRegexp[];

/** One parse's nodes, free list, counts and measuring caches. */
export class NodePool {
  /** Nodes the parser is done with, reused before any new one is allocated (Go's p.free). */
  readonly free: GoRegexp[] = [];
  /** Nodes allocated (Go's p.numRegexp): Go starts measuring sizes and heights only once there are enough. */
  numRegexp = 0;
  /** Runes in all literals and classes pushed (Go's p.numRunes). */
  numRunes = 0;
  /** The product of the repetition counts seen, until sizes are measured (Go's p.repeats). */
  private repeats = 0;
  /** Go's p.height and p.size: undefined until Go would start measuring. */
  height: HeightCache | undefined;
  size: SizeCache | undefined;

  private readonly pattern: string;
  /** The parser's operator stack: what is measured when measuring starts. */
  private readonly stack: readonly GoRegexp[];

  constructor(pattern: string, stack: readonly GoRegexp[]) {
    this.pattern = pattern;
    this.stack = stack;
  }

  /** A node with operator `op` and nothing else set, from the free list if it has one. */
  newRegexp(op: number): GoRegexp {
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

  /** Puts `re` on the free list (its measured size stays cached, stale, as in Go's map). */
  reuse(re: GoRegexp): void {
    this.height?.delete(re);
    this.free.push(re);
  }

  /** Whether the runes counted so far are over Go's limit (what Go checks first when it pushes a node). */
  runesOverLimit(): boolean {
    return this.numRunes > MAX_RUNES;
  }

  /** Throws Go's error when the runes, or `re`'s size or height, are over Go's limits. */
  checkLimits(re: GoRegexp): void {
    if (this.numRunes > MAX_RUNES) throw new GoRegexpError('expression too large', this.pattern);
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
    if (calcSize(re, this.size) > MAX_SIZE) throw new GoRegexpError('expression too large', this.pattern);
  }

  private checkHeight(re: GoRegexp): void {
    // No tree can be higher than the nodes allocated: Go starts measuring at 1000.
    if (this.numRegexp < MAX_HEIGHT) return;
    if (!this.height) {
      this.height = new HeightCache();
      for (const node of [...this.stack]) this.checkHeight(node);
    }
    if (calcHeight(re, this.height) > MAX_HEIGHT) throw new GoRegexpError('expression nests too deeply', this.pattern);
  }
}
