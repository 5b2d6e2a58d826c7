/**
 * The work queue's worker, measured: wraps `reconcile(key)` so each run is counted by result (success, retry,
 * error) and timed, and tells the metrics when the change that queued the key was seen (for
 * promop_config_change_to_loaded_seconds). A throw is recorded as `error` and rethrown: the work queue retries it.
 */
import type { ProcessKey, ProcessOutcome } from '../reconcile/work-queue.ts';
import type { ReconcileResult } from './operator-metrics.ts';

/** What the wrapper records (OperatorMetrics implements it). */
export interface ReconcileMetrics {
  reconcileStarting(prometheusKey: string, seenAtMs: number): void;
  recordReconcile(result: ReconcileResult, durationSeconds: number, prometheusKey: string): void;
}

/** Options of recordedReconcile. */
export interface RecordedReconcileOptions {
  /** Called after each run that returned (not after a throw), e.g. for a debug log line. */
  onReconciled?: (key: string, outcome: ProcessOutcome, durationMs: number) => void;
  /** The monotonic clock in ms (tests fix it). */
  now?: () => number;
  /**
   * The key the metrics know the object by, from the queue's key (default the same): a PrometheusAgent's is its
   * workloadKey, as the reloader records it, so a Prometheus and an agent of the same name stay apart.
   */
  metricsKey?: (key: string) => string;
}

/** `reconcile` as a ProcessKey whose every run is recorded in `metrics`. */
export function recordedReconcile(metrics: ReconcileMetrics, reconcile: (key: string) => Promise<ProcessOutcome>, options: RecordedReconcileOptions = {}): ProcessKey {
  const now = options.now ?? (() => performance.now());
  return async (key, addedAtMs) => {
    const started = now();
    const metricsKey = options.metricsKey?.(key) ?? key;
    metrics.reconcileStarting(metricsKey, addedAtMs);
    let outcome: ProcessOutcome;
    try {
      outcome = await reconcile(key);
    } catch (error) {
      metrics.recordReconcile('error', (now() - started) / 1000, metricsKey);
      throw error;
    }
    const durationMs = now() - started;
    metrics.recordReconcile(outcome === 'done' ? 'success' : 'retry', durationMs / 1000, metricsKey);
    options.onReconciled?.(key, outcome, durationMs);
    return outcome;
  };
}
