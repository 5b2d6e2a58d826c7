/**
 * `@promop/controller`: the operator (reconcile loop, Kubernetes access, RBAC rules, Prometheus
 * reload and verification, metrics) and the offline renderer behind `promop render`.
 */
export { readManifests, type Manifests, type ManifestResource } from './cli/manifest-reader.ts';
export { renderManifests, outputFiles, formatRenderReport, type RenderResult, type RenderedPrometheus } from './cli/render-command.ts';
export { Operator } from './operator.ts';
export { CRD_MANAGER_RULES, OPERATOR_CLUSTER_ROLE_RULES } from './rbac/index.ts';
export type { ConfigReloader, ExpectedShardFiles, ReloadResult, ShardConfigStatus } from './reconcile/index.ts';
export { ShardReloader, FixedPodNetworks, NodePodNetworks, CONFIG_HASH_ANNOTATION } from './reload/index.ts';
export { PrometheusReloader, prometheusPodUrl, type PodConfigVerifier } from './prometheus-client/index.ts';
export { OperatorMetrics, startMetricsServer } from './observability/index.ts';
