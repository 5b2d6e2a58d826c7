/** Names of the kinds as the API serves them. */

/** Plural of Prometheus, the resource name in API paths and RBAC rules. */
export const PROMETHEUS_PLURAL = 'prometheuses';
/** Plural of PrometheusAgent. */
export const PROMETHEUS_AGENT_PLURAL = 'prometheusagents';
/** Plural of ServiceMonitor. */
export const SERVICE_MONITOR_PLURAL = 'servicemonitors';
/** Plural of PodMonitor. */
export const POD_MONITOR_PLURAL = 'podmonitors';
/** Plural of Probe. */
export const PROBE_PLURAL = 'probes';
/** Plural of ScrapeConfig. */
export const SCRAPE_CONFIG_PLURAL = 'scrapeconfigs';
/** Plural of PrometheusRule. */
export const PROMETHEUS_RULE_PLURAL = 'prometheusrules';

/** Kind → plural, for code that handles every kind alike (RBAC rules, informers). */
export const PLURALS = {
  Prometheus: PROMETHEUS_PLURAL,
  PrometheusAgent: PROMETHEUS_AGENT_PLURAL,
  ServiceMonitor: SERVICE_MONITOR_PLURAL,
  PodMonitor: POD_MONITOR_PLURAL,
  Probe: PROBE_PLURAL,
  ScrapeConfig: SCRAPE_CONFIG_PLURAL,
  PrometheusRule: PROMETHEUS_RULE_PLURAL,
} as const;

/** One of the kinds promop serves. */
export type Kind = keyof typeof PLURALS;

/**
 * The API version each kind is served at: `v1` (VERSION) but for ScrapeConfig and PrometheusAgent, which
 * prometheus-operator still serves as `v1alpha1` only. Use it wherever a path or an apiVersion names a kind.
 */
export const API_VERSIONS = {
  Prometheus: 'v1',
  PrometheusAgent: 'v1alpha1',
  ServiceMonitor: 'v1',
  PodMonitor: 'v1',
  Probe: 'v1',
  ScrapeConfig: 'v1alpha1',
  PrometheusRule: 'v1',
} as const satisfies Record<Kind, string>;
