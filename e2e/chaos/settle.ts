/**
 * "Synced and idle", judged from outside: promop is ready, has reconciled at least `minReconciles` times since it
 * started, its work queue is empty with no key being reconciled or waiting for a retry (`promop_workqueue_processing`,
 * `promop_workqueue_delayed`), and for `quietMs` neither its reconcile count nor `activity` (e.g. its writes
 * in the audit log) moved. A reconcile running when the window starts moves the count when it ends, so a window
 * without movement means nothing was in flight for that long.
 */
import type { PromopProcess } from './promop-process.ts';

/** Options of {@link untilSettled}. */
export interface SettleOptions {
  /** Reconciles (any result) the process must have finished first; default 1. */
  minReconciles?: number;
  /** Length of the quiet window; default 3 s. */
  quietMs?: number;
  /** Default 60 s. */
  timeoutMs?: number;
  /** Another counter that must stay still during the window, e.g. the number of writes in the audit log. */
  activity?: () => number;
}

/** Resolves with the time it took once `promop` is settled; throws at the deadline with its log's tail. */
export async function untilSettled(promop: PromopProcess, options: SettleOptions = {}): Promise<number> {
  const { minReconciles = 1, quietMs = 3_000, timeoutMs = 60_000, activity = () => 0 } = options;
  const started = Date.now();
  let last = '';
  let since = Date.now();
  for (;;) {
    const metrics = await promop.metrics();
    const reconciles = metrics?.get('promop_reconcile_total') ?? -1;
    const depth = metrics?.get('promop_workqueue_depth') ?? -1;
    // A reconcile may wait a minute for the kubelet to update a pod's files, writing nothing meanwhile: a quiet
    // window is only a settled one when no key is being reconciled or waiting for its retry time.
    const unfinished = (metrics?.get('promop_workqueue_processing') ?? -1) + (metrics?.get('promop_workqueue_delayed') ?? -1);
    const state = `${reconciles}/${depth}/${unfinished}/${activity()}`;
    if (state !== last || reconciles < minReconciles || depth !== 0 || unfinished !== 0) {
      last = state;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return Date.now() - started;
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error(`${promop.name} did not settle in ${timeoutMs} ms (reconciles/queue depth/processing+delayed/activity ${state}):\n${promop.logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Resolves once `probe` answers true, polling every 250 ms; throws `what` at the deadline. */
export async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      if (await probe()) return Date.now() - started;
    } catch {
      // Not yet (e.g. a 404 before the object exists).
    }
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
