/** Calling Prometheus pods: reload, verify what they loaded, under a network allow-list. */
export { PrometheusReloader, prometheusPodUrl, type AlertmanagerReloadRequest, type PodConfigVerifier, type ReloadRequest, type PrometheusReloaderOptions, type ThanosRulerReloadRequest } from './prometheus-reloader.ts';
export { reloadAndVerifyThanosRuler, THANOS_RULE_LAST_RELOAD_SUCCESSFUL_METRIC, type ThanosRulerReloadOptions } from './thanos-ruler-reload.ts';
export { alertmanagerConfigHash, configMetrics, reloadAndVerifyAlertmanager, type AlertmanagerReloadOptions } from './alertmanager-reload.ts';
export { abortableDelay, reloadAndVerify, type ReloadOutcome, type ReloadOutcomeKind, type ReloadAndVerifyOptions } from './reload-and-verify.ts';
export { PrometheusClient, type PrometheusClientOptions, type PrometheusError, type PrometheusResult, type RuntimeInfo, type BuildInfo, type ActiveTargets, type DroppedTargets } from './prometheus-client.ts';
export { createPrometheusAgent, type PrometheusAgentOptions } from './prometheus-agent.ts';
export { allowListOf, checkPrometheusUrl, isAllowedAddress, parseNetwork, type AllowedNetworks, type UrlCheck } from './url-policy.ts';
export { compareLoadedConfig, type ConfigComparison } from './loaded-config-comparison.ts';
export { scrapeJobsFromMetrics } from './loaded-scrape-jobs.ts';
export { compareLoadedRules, type ExpectedRuleFiles, type LoadedRuleGroup, type LoadedRule, type RuleComparison } from './rule-groups-comparison.ts';
