/** The reconcile loop: work queue, change → key mapping, and reconcile(key) for a Prometheus. */
export { WorkQueue, backoffDelay, DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS, type ProcessKey, type ProcessOutcome, type WorkQueueOptions } from './work-queue.ts';
export { enqueueEveryPrometheus, enqueueOnChanges, type KeySink } from './enqueue-mapping.ts';
export { PrometheusReconciler, type ReconcilerDependencies } from './reconcile-prometheus.ts';
export { NO_OP_RELOADER, type ConfigReloader, type ReloadResult } from './config-reloader.ts';
export { bindResource, hasBindingOf, ACCEPTED_REASON, REJECTED_REASON, type BindingChange } from './bindings.ts';
export { prometheusStatus, shardCount, type ReconciledVerdict } from './prometheus-status.ts';
export { objectKey, splitKey } from './key.ts';
