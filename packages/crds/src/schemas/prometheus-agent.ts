/**
 * PrometheusAgent (monitoring.coreos.com/v1alpha1): Prometheus in agent mode, which scrapes and remote-writes but
 * keeps no queryable TSDB, evaluates no rules and sends no alerts. Its spec is the fields it shares with a
 * Prometheus server (the same schema, not a copy) and `mode`.
 */
import { oneOf } from './common.ts';
import { commonPrometheusProperties } from './prometheus.ts';

/** How the agent's pods are deployed: StatefulSets (sharded, with storage) or one pod per node (DaemonSet). */
export const PROMETHEUS_AGENT_MODES = ['StatefulSet', 'DaemonSet'] as const;

/**
 * The spec fields a DaemonSet agent may not set, refused by the API server at apply as prometheus-operator's CRD
 * refuses them (CEL), `shards` only above 1. The generator refuses the same fields at their paths
 * (config-generator's agent-mode.ts) for objects stored before the CRD carried these rules.
 */
const DAEMONSET_REFUSED = [
  'replicas', 'storage', 'persistentVolumeClaimRetentionPolicy', 'shardingStrategy', 'additionalScrapeConfigs',
  'serviceMonitorSelector', 'serviceMonitorNamespaceSelector', 'probeSelector', 'probeNamespaceSelector',
  'scrapeConfigSelector', 'scrapeConfigNamespaceSelector',
] as const;

/** One CEL rule per refused field, naming the field in its message. */
const daemonSetRules = [
  ...DAEMONSET_REFUSED.map((field) => ({
    rule: `!has(self.mode) || self.mode != 'DaemonSet' || !has(self.${field})`,
    message: `${field} cannot be set with mode DaemonSet`,
  })),
  { rule: `!has(self.mode) || self.mode != 'DaemonSet' || !has(self.shards) || self.shards <= 1`, message: 'shards cannot be above 1 with mode DaemonSet' },
];

/** PrometheusAgent spec. */
export const prometheusAgentSpecSchema = {
  type: 'object',
  description: 'Desired state of a Prometheus agent.',
  additionalProperties: false,
  properties: {
    mode: oneOf(PROMETHEUS_AGENT_MODES, 'How the pods are deployed (default StatefulSet). DaemonSet runs one agent pod per node, scraping the pods of its node (PodMonitors only), without replicas, shards or storage.'),
    ...commonPrometheusProperties,
  },
  'x-kubernetes-validations': daemonSetRules,
} as const;
