/** Names of the kinds as the API serves them. */

/** Plural of Prometheus, the resource name in API paths and RBAC rules. */
export const PROMETHEUS_PLURAL = 'prometheuses';
/** Plural of ServiceMonitor. */
export const SERVICE_MONITOR_PLURAL = 'servicemonitors';
/** Plural of PodMonitor. */
export const POD_MONITOR_PLURAL = 'podmonitors';
/** Plural of Probe. */
export const PROBE_PLURAL = 'probes';
/** Plural of PrometheusRule. */
export const PROMETHEUS_RULE_PLURAL = 'prometheusrules';

/** Kind → plural, for code that handles every kind alike (RBAC rules, informers). */
export const PLURALS = {
  Prometheus: PROMETHEUS_PLURAL,
  ServiceMonitor: SERVICE_MONITOR_PLURAL,
  PodMonitor: POD_MONITOR_PLURAL,
  Probe: PROBE_PLURAL,
  PrometheusRule: PROMETHEUS_RULE_PLURAL,
} as const;

/** One of the kinds promop serves. */
export type Kind = keyof typeof PLURALS;
