/**
 * The Kubernetes objects promop applies for one Prometheus, built by pure functions from the Prometheus object
 * and the generator's output: config Secrets (one per shard) and their scrape Secrets, the TLS assets Secret, the
 * web config Secret, rule ConfigMaps, the governing Service and one StatefulSet per shard. No I/O; the controller
 * applies them.
 */
export type { BuildResult } from './build-result.ts';
export { buildConfigSecrets } from './config-secret.ts';
export { buildScrapeSecrets, type ScrapeSecretMemo } from './scrape-secrets.ts';
export { buildTlsAssetsSecret } from './tls-assets-secret.ts';
export {
  CLIENT_CERT_REQUIRED, WEB_CONFIG_DIR, WEB_CONFIG_FILE_NAME, WEB_CONFIG_HASH_ANNOTATION, buildWebConfigSecret, webConfigOf,
  webConfigSecretName, type WebConfig, type WebTlsReference,
} from './web-config.ts';
export { buildRuleConfigMaps } from './rule-configmaps.ts';
export { buildGoverningService, GOVERNING_SERVICE_NAME } from './governing-service.ts';
export {
  buildThanosHttpClientSecret, usesHttpClientFile, DEFAULT_THANOS_BASE_IMAGE, DEFAULT_THANOS_VERSION, THANOS_GRPC_PORT, THANOS_HTTP_PORT,
  THANOS_SIDECAR_CONTAINER_NAME,
} from './thanos-sidecar.ts';
export { buildStatefulSets, DEFAULT_POD_SECURITY_CONTEXT, DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS } from './statefulset.ts';
export { agentNodesOf, daemonSetSelectorLabels, buildDaemonSet, buildNodeConfigSecret, configForNode, nodeConfigFileName } from './daemonset.ts';
export { INPUT_HASH_ANNOTATION, inputHash } from './input-hash.ts';
export {
  MANAGED_BY, MANAGED_BY_LABEL, PROMETHEUS_NAME_LABEL, RULE_CONFIGMAP_PROMETHEUS_LABEL, SHARD_LABEL, managedByLabels, shardSelectorLabels,
} from './labels.ts';
export { prometheusOwnerReference } from './owner-reference.ts';
export { configSecretName, scrapeSecretName, statefulSetName } from './shard-names.ts';
export { MAX_SECRET_DATA_BYTES } from './secret-size.ts';
export { prometheusArgs, routePrefix, AGENT_FEATURE, EXPAND_EXTERNAL_LABELS_FEATURE, PROMETHEUS_PORT } from './prometheus-args.ts';
export { prometheusContainer, prometheusImage, DEFAULT_BASE_IMAGE, PROMETHEUS_CONTAINER_NAME, WEB_PORT_NAME } from './prometheus-container.ts';
export { mergeContainers, patchContainer } from './container-patch.ts';
export { podVolumes, storageVolumeName, CONFIGMAPS_DIR, SECRETS_DIR, STORAGE_SUB_PATH, type PodVolumes } from './pod-volumes.ts';
export { MODE_LABEL, WORKLOADS, namingOf, workloadKind, type PrometheusWorkload, type WorkloadKind, type WorkloadNaming } from './workload-kind.ts';
