/**
 * `@promop/config-generator`: a pure function from a Prometheus object and its candidate
 * monitors and rules to prometheus.yaml per shard, rule files, TLS assets and verdicts.
 */
export { generate } from './generate.ts';
export {
  DEFAULT_ALERTMANAGER_CONFIG, DEFAULT_ALERTMANAGER_VERSION, alertmanagerConfigSecretName, generateAlertmanagerConfiguration,
  type AlertmanagerConfiguration, type AlertmanagerConfigurationInput,
} from './alertmanager/alertmanager-configuration.ts';
export { RenderMemo, type RenderMemoStats } from './render-memo.ts';
export { oncePerObject } from './per-object.ts';
export { ResultsByPosition } from './by-position.ts';
export type {
  FieldProblem,
  GeneratorInput,
  GeneratorOutput,
  KeyValueSource,
  NamespaceInfo,
  ResourceKind,
  ResourceRef,
  RuleConfigMap,
  ScrapeFile,
  Verdict,
} from './model.ts';
export { toPrometheusYaml, jobSegments } from './yaml-output.ts';
export { DEFAULT_PROMETHEUS_VERSION, parsePrometheusVersion, isAtLeast, invalidVersionProblem, type PrometheusVersion } from './prometheus-version.ts';
export { shardCount } from './prometheus/sharding.ts';
export { parseDuration } from '@promop/prometheus-lang';
export {
  CERTS_DIR,
  CONFIGMAPS_DIR,
  CONFIG_DIR,
  CONFIG_FILE_NAME,
  RULES_DIR,
  ALERTMANAGER_CONFIG_DIR,
  ALERTMANAGER_CONFIG_FILE,
  ALERTMANAGER_TEMPLATES_DIR,
  SCRAPE_FILE_SLOTS,
  SECRETS_DIR,
  STORAGE_DIR,
  NAME_PREFIXES,
  NODE_NAME_ENV,
  NODE_NAME_PLACEHOLDER,
  prefixedName,
  ruleConfigMapName,
  scrapeFileName,
  inLogDirectory,
  LOG_DIR,
  tlsAssetFileName,
  tlsAssetsSecretName,
  type WorkloadKind,
} from './pod-layout.ts';
export { DAEMONSET_REFUSED_FIELDS, isAgent, isDaemonSetAgent, type PrometheusWorkload } from './prometheus/agent-mode.ts';
export { INLINE_SCRAPE_JOBS_MAX_BYTES, SCRAPE_CONFIG_FILES_SINCE, SCRAPE_FILE_MAX_BYTES } from './prometheus/scrape-config-files.ts';
export { mountedRuleConfigMapNames, MIN_RULE_CONFIGMAP_MOUNTS } from './prometheus/rule-files.ts';
export { POD_NAME_ENV } from './prometheus/external-labels.ts';
export { DEFAULT_RETENTION, RETENTION_IN_CONFIG_SINCE, XOR2_ENCODING_FEATURE, needsXor2EncodingFeature, retentionInConfigFile } from './prometheus/storage-config.ts';
export { ZONE_LABEL } from './scrape/sharding.ts';
export { REMOTE_WRITE_PROTOBUF_MESSAGES } from './prometheus/remote-write-config.ts';
export { matchLabelSelector, describeLabelSelector } from './selection/label-selector.ts';
export { ruleFileName } from './rules/rule-file-name.ts';
export {
  DEFAULT_THANOS_RULER_VERSION, THANOS_RULE_FIELD_MINIMUM_VERSIONS, generateThanosRulerRules, parseThanosVersion, thanosRulerRuleConfigMapName, thanosVersionAtLeast,
  type ThanosReleaseVersion, type ThanosRulerRules, type ThanosRulerRulesInput,
} from './thanos-ruler/thanos-ruler-rules.ts';
export {
  THANOS_REMOTE_WRITE_SINCE, generateThanosRulerRemoteWrite, type ThanosRulerRemoteWrite, type ThanosRulerRemoteWriteInput,
} from './thanos-ruler/thanos-ruler-remote-write.ts';
