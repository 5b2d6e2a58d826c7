/**
 * One pace for every request promop sends while the API server pushes back (429 Too Many Requests, 502/503/504, or
 * no connection at all).
 *
 * Each of promop's loops backs off on its own: a key of the work queue from 5 ms doubling, each binding owner's
 * writes, each watch. That bounds every loop, not their sum: when a burst of changes meets an API server that
 * refuses everything, ten binding writes per pass times a backoff starting at 5 ms made hundreds of requests a
 * minute, the opposite of what a server answering 429 asks for. client-go has a process-wide client-side rate
 * limiter and honours Retry-After for the same reason.
 *
 * The gate is open while the server answers. The first pushback closes it: from then on one request at a time (the
 * probe) goes out, after a pause that doubles with each failed probe (from {@link FIRST_PAUSE_MS} up to
 * {@link LONGEST_PAUSE_MS}, or the server's Retry-After when longer, up to {@link LONGEST_RETRY_AFTER_MS}); every
 * other request waits. Any answer that is not pushback — a success, a 404, a 409 — opens it again and every waiting
 * request goes. Watches are not paced here: each has its own backoff and a watch must not wait behind writes. Nor is
 * the leader's Lease (run-command.ts gives it a RawApi of its own): one renewal per retry period is its liveness.
 *
 * A 500 does not close the gate: the API server answers it for one request's own trouble as well as for its own
 * (an admission webhook of one namespace failing, a conversion webhook of one kind), and one team's object must not
 * slow every other team's writes to one every few seconds. Those requests are retried by their own loops' backoff.
 * An overloaded or unavailable API server answers 429 (API Priority and Fairness, with Retry-After), 503 or 504, or
 * takes no connection.
 */

/** The first pause after the API server pushed back. */
export const FIRST_PAUSE_MS = 250;
/** The longest pause between two probes, whatever the streak. */
export const LONGEST_PAUSE_MS = 5_000;
/** The longest Retry-After promop waits for (a larger one is the server's mistake or a proxy's). */
export const LONGEST_RETRY_AFTER_MS = 30_000;

/**
 * How a request ended, as the gate sees it: the server `answered` (anything but pushback), pushed back, or nothing
 * is known (the caller aborted it, or it never left: no credentials) and the gate stays as it is.
 */
export type RequestOutcome =
  | { kind: 'answered' }
  | { kind: 'pushback'; cause: string; retryAfterMs?: number }
  | { kind: 'unknown' };

/** A request the gate let through; `done` must be called once with how it ended. */
export interface Admission {
  done(outcome: RequestOutcome): void;
}

/** What the gate tells the log: closed (with why and for how long), open again (after how many failed probes). */
export interface BackpressureListener {
  closed?(cause: string, pauseMs: number): void;
  reopened?(failedProbes: number): void;
}

/** The HTTP statuses that say "the server cannot serve anything now" rather than "this request failed". */
export function isPushbackStatus(status: number): boolean {
  return status === 429 || status === 502 || status === 503 || status === 504;
}

/** Retry-After in ms from its header (seconds; an HTTP date is not sent by the API server and is ignored). */
export function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Math.min(Number(value.trim()) * 1000, LONGEST_RETRY_AFTER_MS);
}

/** The pause after `failedProbes` failures in a row (1-based). */
export function pauseAfter(failedProbes: number, retryAfter?: number): number {
  const backoff = Math.min(FIRST_PAUSE_MS * 2 ** Math.max(0, failedProbes - 1), LONGEST_PAUSE_MS);
  return Math.max(backoff, retryAfter ?? 0);
}

/** The shared gate of one promop process (the caches' reads and the writers' requests). */
export class ApiBackpressure {
  readonly #now: () => number;
  readonly #listener: BackpressureListener;
  /** Failed probes in a row; 0 while the gate is open. */
  #failures = 0;
  /** No probe before this time (the clock's ms). */
  #notBefore = 0;
  #probeInFlight = false;
  /** Requests waiting for the gate, woken when it opens or a probe ends. */
  #waiters = new Set<() => void>();

  constructor(options: { now?: () => number; listener?: BackpressureListener } = {}) {
    this.#now = options.now ?? Date.now;
    this.#listener = options.listener ?? {};
  }

  /** Whether requests are being held back now. */
  get closed(): boolean {
    return this.#failures > 0;
  }

  /** Resolves when this request may go; rejects with the signal's reason when it aborts while waiting. */
  async admit(signal?: AbortSignal): Promise<Admission> {
    for (;;) {
      signal?.throwIfAborted();
      if (this.#failures === 0) return this.#admission(false);
      const wait = this.#notBefore - this.#now();
      if (!this.#probeInFlight && wait <= 0) {
        this.#probeInFlight = true;
        return this.#admission(true);
      }
      await this.#waitForChange(this.#probeInFlight ? undefined : wait, signal);
    }
  }

  #admission(probe: boolean): Admission {
    let ended = false;
    return {
      done: (outcome) => {
        if (ended) return;
        ended = true;
        this.#ended(probe, outcome);
      },
    };
  }

  #ended(probe: boolean, outcome: RequestOutcome): void {
    if (probe) this.#probeInFlight = false;
    if (outcome.kind === 'answered') {
      if (this.#failures > 0) {
        const failed = this.#failures;
        this.#failures = 0;
        this.#listener.reopened?.(failed);
      }
    } else if (outcome.kind === 'pushback' && (probe || this.#failures === 0)) {
      // Requests that were already in flight when the gate closed fail together: only the first of them and the
      // probes count, so a burst does not jump straight to the longest pause.
      this.#failures += 1;
      const pause = pauseAfter(this.#failures, outcome.retryAfterMs);
      this.#notBefore = this.#now() + pause;
      if (this.#failures === 1) this.#listener.closed?.(outcome.cause, pause);
    }
    this.#wakeAll();
  }

  #wakeAll(): void {
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
  }

  /** Waits until the gate changes (a probe ended, it opened), `ms` passed (when given), or `signal` aborts. */
  #waitForChange(ms: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const wake = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        this.#waiters.delete(wake);
        resolve();
      };
      this.#waiters.add(wake);
      if (ms !== undefined) timer = setTimeout(wake, ms);
      signal?.addEventListener('abort', wake, { once: true });
    });
  }
}
