/** The operator's own observability: its metrics and the /metrics, /healthz, /readyz server. */
export { OperatorMetrics, type OperatorMetricsOptions, type ReconcileResult } from './operator-metrics.ts';
export type { CacheRequestMetrics, WorkQueueMetrics } from './queue-and-cache-metrics.ts';
export { managedCounts, configBytesPerShard, MANAGED_KINDS, type ManagedKind, type ManagedCounts } from './generator-output-metrics.ts';
export { startMetricsServer, type MetricsServer, type MetricsServerOptions } from './metrics-server.ts';
export { parseListenAddress, DEFAULT_LISTEN_ADDRESS, type ListenAddress } from './listen-address.ts';
export { MeteredRawApi, resourceOfPath } from './metered-raw-api.ts';
export { recordedReconcile, type ReconcileMetrics, type RecordedReconcileOptions } from './recorded-reconcile.ts';
