/** The reconcile loop: work queue, change → key mapping, and reconcile(key) for a Prometheus. */
export { WorkQueue, backoffDelay, DEFAULT_BASE_DELAY_MS, DEFAULT_MAX_DELAY_MS, type ProcessKey, type ProcessOutcome, type WorkQueueOptions } from './work-queue.ts';
export { enqueueEveryPrometheus, enqueueOnChanges, type KeySink, type ReferenceIndex, type WorkloadQueues } from './enqueue-mapping.ts';
export { referencedObjects } from './references.ts';
export { PrometheusReconciler, type ReconcilerDependencies } from './reconcile-prometheus.ts';
export type { ConfigReloader, ExpectedShardFiles, ReloadContext, ReloadResult, ShardConfigStatus } from './config-reloader.ts';
export { expectedRuleFiles, expectedShardFiles, shardFilesHash } from './expected-shard-files.ts';
export { podReloadState } from './enqueue-mapping.ts';
export { bindResource, hasBindingOf, ACCEPTED_REASON, REJECTED_REASON, type BindingChange } from './bindings.ts';
export { prometheusStatus, shardCount, type ReconciledVerdict } from './prometheus-status.ts';
export { objectKey, splitKey, workloadKey } from './key.ts';
