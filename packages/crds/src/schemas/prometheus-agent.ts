/**
 * PrometheusAgent (monitoring.coreos.com/v1alpha1): Prometheus in agent mode, which scrapes and remote-writes but
 * keeps no queryable TSDB, evaluates no rules and sends no alerts. Its spec is the fields it shares with a
 * Prometheus server (the same schema, not a copy) and `mode`.
 */
import { oneOf } from './common.ts';
import { commonPrometheusProperties } from './prometheus.ts';

/** How the agent's pods are deployed; promop implements StatefulSet only (see docs/compatibility.md). */
export const PROMETHEUS_AGENT_MODES = ['StatefulSet', 'DaemonSet'] as const;

/** PrometheusAgent spec. */
export const prometheusAgentSpecSchema = {
  type: 'object',
  description: 'Desired state of a Prometheus agent.',
  additionalProperties: false,
  properties: {
    mode: oneOf(PROMETHEUS_AGENT_MODES, 'How the pods are deployed (default StatefulSet). promop does not implement DaemonSet and says so in the status.'),
    ...commonPrometheusProperties,
  },
} as const;
