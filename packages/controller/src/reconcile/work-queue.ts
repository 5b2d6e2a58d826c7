/**
 * A rate-limited work queue of string keys, in the shape of client-go's `workqueue`:
 * - a key waiting to be processed is queued once, however often it is added (dedup);
 * - a key being processed is never handed to a second worker; added meanwhile, it is processed again afterwards
 *   (the "dirty" set), so no change is lost and no key is processed twice at once;
 * - a failed key comes back after a per-key exponential backoff, 5 ms doubling up to 1000 s (client-go's
 *   `DefaultItemBasedRateLimiter`); success forgets its failures;
 * - a key whose processing ended less than `minIntervalMs` ago (asked of the option when it ends: a number, or a
 *   function of the key) waits out the rest before it is processed again (default 0: no wait): under a stream of
 *   changes to one Prometheus, each reconcile folds the changes of that window, instead of rendering and writing
 *   its whole config for every one of them;
 * - a fixed number of workers (1 or 2 for promop: reconciles are I/O-bound and few);
 * - client-go's metrics: depth, adds, retries, time waiting (add → taken) and time worked.
 */
import type { WorkQueueMetrics } from '../observability/queue-and-cache-metrics.ts';

/** What processing a key ended with: `retry` requeues it with backoff, `done` forgets its failures. */
export type ProcessOutcome = 'done' | 'retry';

/**
 * Processes one key, added (first, since it was last taken) at `addedAtMs` (the clock's ms): when the change that
 * queued it was seen. A throw counts as `retry` and is reported to `onError`.
 */
export type ProcessKey = (key: string, addedAtMs: number) => Promise<ProcessOutcome>;

/** Options of a WorkQueue. */
export interface WorkQueueOptions {
  /** Workers processing keys in parallel (default 1). */
  workers?: number;
  /** First retry delay (default 5 ms). */
  baseDelayMs?: number;
  /** Longest retry delay (default 1000 s). */
  maxDelayMs?: number;
  /** The least time from the end of a key's processing to the start of its next, asked when it ends (default 0). */
  minIntervalMs?: number | ((key: string) => number);
  /** Called when processing a key throws (a bug or an unexpected API failure). Must not throw. */
  onError?: (key: string, error: unknown, failures: number) => void;
  /** Where to record depth, adds, retries and durations (default nowhere). */
  metrics?: WorkQueueMetrics;
  /** The clock in ms (tests fix it). */
  now?: () => number;
}

/** First retry delay: client-go's default item rate limiter (5 ms). */
export const DEFAULT_BASE_DELAY_MS = 5;
/** Longest retry delay: client-go's default item rate limiter (1000 s). */
export const DEFAULT_MAX_DELAY_MS = 1_000_000;

/** The backoff before retry number `failures` (1-based): base·2^(failures−1), capped at max. */
export function backoffDelay(failures: number, baseDelayMs = DEFAULT_BASE_DELAY_MS, maxDelayMs = DEFAULT_MAX_DELAY_MS): number {
  // 2^exp overflows to Infinity long after the cap; Math.min keeps the cap.
  return Math.min(baseDelayMs * 2 ** Math.max(0, failures - 1), maxDelayMs);
}

/** A deduplicating, rate-limited queue feeding a fixed number of workers. */
export class WorkQueue {
  readonly #workers: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #minIntervalMs: (key: string) => number;
  /** Until when each key waits after its last processing (only with a minimum interval). */
  readonly #heldUntil = new Map<string, number>();
  /** Keys added (dirty) that wait out the minimum interval, with the timer that queues them. */
  readonly #held = new Map<string, NodeJS.Timeout>();
  readonly #onError: NonNullable<WorkQueueOptions['onError']>;
  readonly #metrics: WorkQueueMetrics | undefined;
  readonly #now: () => number;
  /** When each key in #dirty was added (the queue latency's start). */
  readonly #addedAt = new Map<string, number>();
  /** Keys waiting, in order. */
  readonly #queue: string[] = [];
  /** Keys that need processing (waiting, or added again while being processed). */
  readonly #dirty = new Set<string>();
  readonly #processing = new Set<string>();
  readonly #failures = new Map<string, number>();
  readonly #delayed = new Map<string, { timer: NodeJS.Timeout; dueAt: number }>();
  readonly #running = new Set<Promise<void>>();
  #process: ProcessKey | undefined;
  #shuttingDown = false;
  #pumpScheduled = false;

  constructor(options: WorkQueueOptions = {}) {
    this.#workers = options.workers ?? 1;
    this.#baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
    this.#maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
    const interval = options.minIntervalMs ?? 0;
    this.#minIntervalMs = typeof interval === 'number' ? () => interval : interval;
    this.#onError = options.onError ?? (() => {});
    this.#metrics = options.metrics;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Queues `key` unless it is already waiting. Ignored after shutdown. Workers take keys in a later turn of the
   * event loop (#schedulePump), not at once: every add of one event handler (a monitor's change enqueues every
   * Prometheus, then those of its bindings) and of every watch event read meanwhile folds into a single wait,
   * instead of the first add starting a reconcile that the second add then repeats.
   */
  add(key: string): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#dirty.add(key);
    this.#addedAt.set(key, this.#now());
    this.#metrics?.added();
    if (!this.#processing.has(key)) {
      if (!this.#pushWhenDue(key)) return;
      this.#schedulePump();
    }
  }

  /**
   * Pumps once the event loop has turned (setImmediate), never in the microtasks of the code that queued: a
   * reconcile that writes nothing awaits only settled promises, so reconciles started from microtasks would follow
   * one another (each watch read adding the key again) without a timer running in between, and monitors created in
   * bulk while another Prometheus exists would hold off the Lease renewal (a timer) past its deadline.
   */
  #schedulePump(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  /** Queues `key` after its backoff and counts one more failure for it. */
  addRateLimited(key: string): void {
    if (this.#shuttingDown) return;
    const failures = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, failures);
    this.#metrics?.retried();
    this.#addAfter(key, backoffDelay(failures, this.#baseDelayMs, this.#maxDelayMs));
  }

  /**
   * Queues `key` after `delayMs` without counting a failure of its own (one pending delay per key: the one due
   * first). Ignored after shutdown. For retries whose failures are counted elsewhere: the binding writer's.
   */
  addAfter(key: string, delayMs: number): void {
    if (this.#shuttingDown) return;
    // Not a queue retry (promop_workqueue_retries_total counts failed reconciles); it shows in the delayed gauge.
    this.#addAfter(key, delayMs);
  }

  /** Forgets the failures of `key`: its next retry starts from the base delay again. */
  forget(key: string): void {
    this.#failures.delete(key);
  }

  /** How many times `key` failed since it last succeeded. */
  failures(key: string): number {
    return this.#failures.get(key) ?? 0;
  }

  /** Keys waiting (not counting those being processed or delayed). */
  get length(): number {
    return this.#queue.length;
  }

  /** Starts the workers with `process`. */
  start(process: ProcessKey): void {
    if (this.#process) throw new Error('bug: WorkQueue started twice');
    this.#process = process;
    this.#pump();
  }

  /** Stops taking keys, cancels pending retries and waits for the keys being processed. */
  async shutdown(): Promise<void> {
    this.#shuttingDown = true;
    for (const { timer } of this.#delayed.values()) {
      clearTimeout(timer);
      this.#metrics?.delayed(-1);
    }
    this.#delayed.clear();
    for (const timer of this.#held.values()) {
      clearTimeout(timer);
      this.#metrics?.delayed(-1);
    }
    this.#held.clear();
    this.#queue.length = 0;
    this.#dirty.clear();
    this.#addedAt.clear();
    this.#metrics?.depth(0);
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  #addAfter(key: string, delayMs: number): void {
    // One pending timer per key, the one due first: a later request is dropped (the key is processed at the earlier
    // time and reads the latest state then), a sooner one replaces it. Two sources retry the same key (a failed
    // reconcile, a failed binding write): neither's long backoff may hold back the other's short one.
    const dueAt = this.#now() + delayMs;
    const pending = this.#delayed.get(key);
    if (pending) {
      if (pending.dueAt <= dueAt) return;
      clearTimeout(pending.timer);
    } else {
      this.#metrics?.delayed(1);
    }
    const timer = setTimeout(() => {
      this.#delayed.delete(key);
      this.#metrics?.delayed(-1);
      this.add(key);
    }, delayMs);
    this.#delayed.set(key, { timer, dueAt });
  }

  #pump(): void {
    const process = this.#process;
    if (!process) return;
    while (!this.#shuttingDown && this.#running.size < this.#workers && this.#queue.length > 0) {
      const key = this.#queue.shift() as string;
      this.#metrics?.depth(this.#queue.length);
      const now = this.#now();
      const addedAt = this.#addedAt.get(key) ?? now;
      this.#metrics?.queued(Math.max(0, now - addedAt) / 1000);
      this.#addedAt.delete(key);
      this.#dirty.delete(key);
      this.#processing.add(key);
      this.#metrics?.processing(1);
      const run = this.#runOne(process, key, addedAt).finally(() => {
        this.#running.delete(run);
        this.#processing.delete(key);
        this.#metrics?.processing(-1);
        const interval = this.#minIntervalMs(key);
        if (interval > 0) this.#heldUntil.set(key, this.#now() + interval);
        else this.#heldUntil.delete(key);
        // Added while it was processed: it waited in #dirty only; queue it now (or once its interval passed).
        if (this.#dirty.has(key) && !this.#shuttingDown) this.#pushWhenDue(key);
        this.#schedulePump();
      });
      this.#running.add(run);
    }
  }

  /**
   * Queues the dirty `key` now, or holds it until `minIntervalMs` after its last processing ended (it stays dirty
   * meanwhile, so adds fold into it; the wait shows in the delayed gauge). Whether it was queued now.
   */
  #pushWhenDue(key: string): boolean {
    const until = this.#heldUntil.get(key);
    const wait = until === undefined ? 0 : until - this.#now();
    if (wait <= 0) {
      this.#heldUntil.delete(key);
      this.#push(key);
      return true;
    }
    if (this.#held.has(key)) return false;
    this.#metrics?.delayed(1);
    this.#held.set(key, setTimeout(() => {
      this.#held.delete(key);
      this.#metrics?.delayed(-1);
      if (this.#shuttingDown || !this.#dirty.has(key) || this.#processing.has(key)) return;
      this.#heldUntil.delete(key);
      this.#push(key);
      this.#pump();
    }, wait));
    return false;
  }

  #push(key: string): void {
    this.#queue.push(key);
    this.#metrics?.depth(this.#queue.length);
  }

  async #runOne(process: ProcessKey, key: string, addedAt: number): Promise<void> {
    let outcome: ProcessOutcome;
    const started = this.#now();
    try {
      outcome = await process(key, addedAt);
    } catch (error) {
      outcome = 'retry';
      this.#onError(key, error, (this.#failures.get(key) ?? 0) + 1);
    }
    this.#metrics?.worked(Math.max(0, this.#now() - started) / 1000);
    if (outcome === 'done') this.forget(key);
    else this.addRateLimited(key);
  }
}
