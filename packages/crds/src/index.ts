/** `@promop/crds`: types, validators and CRD manifests of monitoring.coreos.com/v1, all from one schema per kind. */
export { GROUP, VERSION } from './group.ts';
export {
  ALL_KINDS, API_VERSIONS, KINDS, PLURALS, PROMETHEUS_SELECTED_KINDS, PROMETHEUS_WORKLOAD_KINDS, SCRAPE_KINDS, SELECTED_KINDS, WORKLOAD_KINDS, isKind, kindNamed, kindsSelectedBy,
  type Kind, type KindRole, type ListOf, type PrometheusSelectedKind, type PrometheusWorkloadKind, type ScrapeKind, type SelectedKind, type SelectorStem, type WorkloadKind,
} from './kinds.ts';
export type {
  Alertmanager, AlertmanagerConfig, AlertmanagerConfigReceiver, AlertmanagerConfigSpec, AlertmanagerEndpoints, AlertmanagerMatcher, AlertmanagerRoute, InhibitRule, MuteTimeInterval, AlertmanagerSpec, ApiServerConfig, Authorization, BasicAuth, ConfigMapKeySelector, ConfigResourceStatus, Endpoint, LabelSelector, NamespaceSelector, OAuth2, ObjectMeta,
  PodMetricsEndpoint, PodMonitor, PodMonitorSpec, Probe, ProbeSpec, ProberSpec, ProbeTargetIngress, ProbeTargetStaticConfig, Prometheus, PrometheusAgent, PrometheusAgentSpec, ScrapeConfig, ScrapeConfigSpec, PrometheusRule, PrometheusRuleSpec, PrometheusSpec,
  PrometheusStatus, ProxyConfig, RelabelConfig, RemoteReadSpec, RemoteWriteSpec, Rule, RuleGroup, SafeAuthorization, SafeTLSConfig, SecretKeySelector,
  ResourceOfKind, SecretOrConfigMap, ServiceMonitor, ServiceMonitorSpec, Sigv4, ThanosRuler, ThanosRulerSpec, TLSConfig,
} from './types.ts';
export {
  validateAlertmanager, validateAlertmanagerConfig, validatePodMonitor, validateProbe, validateScrapeConfig, validatePrometheus, validatePrometheusAgent, validatePrometheusRule, validateServiceMonitor, validateThanosRuler, pointerToPath, VALIDATORS,
  type ValidationError, type ValidationResult,
} from './validation.ts';
export {
  alertmanagerConfigSchema, alertmanagerSchema, podMonitorSchema, probeSchema, prometheusAgentSchema, prometheusRuleSchema, prometheusSchema, scrapeConfigSchema, serviceMonitorSchema, thanosRulerSchema, RESOURCE_SCHEMAS,
} from './resource-schemas.ts';
export type { SchemaNode } from './schema-node.ts';
export { crdManifests, type CustomResourceDefinition } from './crd-manifest.ts';
export { renderCrdFiles } from './crd-files.ts';
export {
  CRD_PART_OF_LABEL, CRD_REVISION, CRD_REVISION_ANNOTATION, CRD_SCHEMA_HASH_ANNOTATION, crdSchemaHash, revisionedCrdManifests, withRevisionAnnotations,
} from './crd-revision.ts';
export { DURATION_PATTERN, BYTE_SIZE_PATTERN, URL_PATTERN, PROXY_URL_PATTERN } from './schemas/common.ts';
export { RELABEL_ACTIONS } from './schemas/relabel-config.ts';
export { keyReferences, type KeyReference, type ReferencingKind } from './key-references.ts';
