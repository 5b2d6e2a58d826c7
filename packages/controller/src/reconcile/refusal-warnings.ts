/**
 * The Warning Event of a refused workload (an Alertmanager or ThanosRuler that cannot run as written) goes out
 * once per new refusal, not once per reconcile: a refused object is reconciled again on every change of what it
 * selects and, when it waits for a Service of the user's, every 30 s. Like PrometheusStatusWriter.fail, the
 * Reconciled condition this process last wrote decides, because the cache may not show that write yet.
 */
import type { Logger } from 'pino';
import { describeError } from '../kube/index.ts';
import type { EventSpec } from '../kube/event-recorder.ts';
import type { ReconcilerEvents } from './reconciler-ports.ts';

interface ReconciledCondition { status: string; reason?: string; message?: string }

/** What each object's Reconciled condition last said, per `namespace/name`. */
export class ReconciledMemory {
  readonly #last = new Map<string, string>();

  /** True when `after` says something else than what was last written for `key` (at first: than `cached`). Remembers `after`. */
  changed(key: string, cached: ReconciledCondition | undefined, after: ReconciledCondition | undefined): boolean {
    const said = reconciledText(after);
    const before = this.#last.get(key) ?? reconciledText(cached);
    this.#last.set(key, said);
    return said !== before;
  }

  /** Forgets `key` (the object is gone). */
  forget(key: string): void {
    this.#last.delete(key);
  }
}

/** Writes `event`; a failure is logged, not thrown: the status already says it, and the reconcile carries on. */
export async function recordWarning(events: ReconcilerEvents, event: EventSpec, log: Logger): Promise<void> {
  try {
    await events.record(event);
  } catch (error) {
    log.error({ err: describeError(error) }, 'could not write the Warning event');
  }
}

function reconciledText(condition: ReconciledCondition | undefined): string {
  return condition ? `${condition.status}\n${condition.reason ?? ''}\n${condition.message ?? ''}` : '';
}
