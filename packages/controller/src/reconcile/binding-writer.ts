/**
 * Writes the bindings of each Prometheus beside the work queue, so a reconcile never waits for them. Adding 9,000
 * monitors to a Prometheus ends each reconcile with thousands of status writes; while the reconcile awaited them,
 * the next one (which puts the monitors created meanwhile into the config) could not start, and the config lagged
 * far behind the last create (docs/performance.md, "settle after adding 9,000 to 1,000").
 *
 * Per owner (the reconcile key), one pass at a time: a pass computes what to write from the newest desired
 * verdicts and the caches and writes it (verdict-recorder.ts). A reconcile hands the writer a
 * pass for its verdicts and returns. A pass handed while another runs waits, and replaces any pass that was waiting
 * before it: intermediate states are never written. The running pass is told (`superseded()`) to start no more
 * writes; the writes it has in flight finish first, then the newest pass starts and recomputes from the caches.
 * Different owners are independent.
 *
 * A pass that asks for a retry (a 409: the cache was behind another write to the same status) or throws makes the
 * owner's key be reconciled again after a backoff that grows with the owner's failures in a row (client-go's
 * item backoff, work-queue.ts) and is reset by a pass that completed. The count is the writer's own: the work queue
 * forgets a key's failures whenever its reconcile succeeds, which a reconcile now does before its bindings are
 * written, so a binding write that fails every time would otherwise be retried every 5 ms.
 */
import type { Logger } from 'pino';
import { describeError } from '../kube/index.ts';
import { backoffDelay, type ProcessOutcome } from './work-queue.ts';

/**
 * One pass over an owner's bindings. It checks `superseded()` before starting each write and starts none once it
 * is true (a newer pass waits, or the writer is stopping). `retry` asks for the owner's key to be reconciled again.
 */
export type BindingPass = (superseded: () => boolean) => Promise<ProcessOutcome>;

/** Options of a BindingWriter. */
export interface BindingWriterOptions {
  /** Reconciles `key` again after `delayMs` (the operator: the work queue's addAfter). */
  requeue: (key: string, delayMs: number) => void;
  /** Where failed passes are logged. */
  log: Logger;
  /** First retry delay (default the work queue's, 5 ms). */
  baseDelayMs?: number;
  /** Longest retry delay (default the work queue's, 1000 s). */
  maxDelayMs?: number;
}

/** What the writer holds for one owner while it has a pass running or waiting. */
interface OwnerPasses {
  /** The pass to run when the running one ends; only the newest handed is kept. */
  waiting: BindingPass | undefined;
  /** The loop running this owner's passes; resolves (never rejects) when none is left. */
  running: Promise<void>;
}

/** Runs each owner's binding passes one at a time, newest wins; see the file comment. */
export class BindingWriter {
  readonly #options: BindingWriterOptions;
  readonly #owners = new Map<string, OwnerPasses>();
  /** Failed passes in a row per owner key, for the retry backoff. */
  readonly #failures = new Map<string, number>();
  #stopped = false;

  constructor(options: BindingWriterOptions) {
    this.#options = options;
  }

  /**
   * Hands the newest pass of owner `key`. It starts now when the owner has no pass running, else after the running
   * one, which starts no more writes. Ignored once the writer is stopped.
   */
  hand(key: string, pass: BindingPass): void {
    if (this.#stopped) return;
    const owner = this.#owners.get(key);
    if (owner) {
      owner.waiting = pass;
      return;
    }
    const started: OwnerPasses = { waiting: pass, running: Promise.resolve() };
    this.#owners.set(key, started);
    started.running = this.#runPasses(key, started);
  }

  /** Whether owner `key` has a pass running or waiting. */
  busy(key: string): boolean {
    return this.#owners.has(key);
  }

  /**
   * Resolves once owner `key` (or, without a key, every owner) has no pass running or waiting: the bindings handed
   * so far are written, or their failure has been logged and the key requeued. For tests and shutdown.
   */
  async settled(key?: string): Promise<void> {
    for (;;) {
      const running = key === undefined ? [...this.#owners.values()].map((owner) => owner.running) : [this.#owners.get(key)?.running];
      const pending = running.filter((promise): promise is Promise<void> => promise !== undefined);
      if (pending.length === 0) return;
      await Promise.all(pending);
    }
  }

  /**
   * Stops for good: no pass and no write starts after this call (the running passes see `superseded()` true, the
   * waiting ones are dropped, new ones are ignored); resolves once the writes in flight ended.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const owner of this.#owners.values()) owner.waiting = undefined;
    await this.settled();
  }

  async #runPasses(key: string, owner: OwnerPasses): Promise<void> {
    try {
      // Started in a microtask: passes handed in the same tick fold into the newest.
      await Promise.resolve();
      const superseded = () => this.#stopped || owner.waiting !== undefined;
      while (owner.waiting && !this.#stopped) {
        const pass = owner.waiting;
        owner.waiting = undefined;
        await this.#runPass(key, pass, superseded, () => owner.waiting !== undefined);
      }
    } finally {
      this.#owners.delete(key);
    }
  }

  /** Runs one pass; a failure counts for the backoff, is logged, and requeues the key. Never throws. */
  async #runPass(key: string, pass: BindingPass, superseded: () => boolean, newerWaiting: () => boolean): Promise<void> {
    let outcome: ProcessOutcome;
    let failure: { error: unknown } | undefined;
    try {
      outcome = await pass(superseded);
    } catch (error) {
      outcome = 'retry';
      failure = { error };
    }
    if (outcome === 'done') {
      // A pass cut short by a newer one wrote only part of what it computed: no proof that the owner is healthy.
      if (!newerWaiting() && !this.#stopped) this.#failures.delete(key);
      return;
    }
    const failures = (this.#failures.get(key) ?? 0) + 1;
    this.#failures.set(key, failures);
    const delayMs = backoffDelay(failures, this.#options.baseDelayMs, this.#options.maxDelayMs);
    // Logged like a failed reconcile (operator.ts); a 409 is a stale cache, retried without an error line, as the
    // work queue retries a reconcile that returned `retry`.
    if (failure) this.#options.log.error({ prometheus: key, failures, err: describeError(failure.error) }, 'binding writes failed; retrying with backoff');
    else this.#options.log.debug({ prometheus: key, failures, delayMs }, 'a binding write met a newer version (409); retrying with backoff');
    this.#options.requeue(key, delayMs);
  }
}
