/** PrometheusRule: alerting and recording rules loaded by the Prometheus objects that select them. */
import { count, duration, intOrString, str, stringMap } from './common.ts';
import { configResourceStatusSchema } from './config-resource-status.ts';

/**
 * One alerting or recording rule. Field names are Prometheus' own (snake_case `keep_firing_for`), because
 * the rule is copied into a Prometheus rule file.
 */
export const ruleSchema = {
  type: 'object',
  description: 'An alerting rule (alert) or a recording rule (record).',
  required: ['expr'],
  additionalProperties: false,
  properties: {
    record: str('Name of the series a recording rule writes.'),
    alert: str('Name of the alert.'),
    expr: intOrString('PromQL expression.'),
    for: duration('How long the expression must hold before the alert fires.'),
    keep_firing_for: duration('How long the alert keeps firing after the expression stops holding.'),
    labels: stringMap('Labels added to the alert or the recorded series.'),
    annotations: stringMap('Annotations of the alert.'),
  },
} as const;

/** A group of rules evaluated together. */
export const ruleGroupSchema = {
  type: 'object',
  description: 'Rules evaluated together at one interval.',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, description: 'Name of the group, unique within the object.' },
    interval: duration('Evaluation interval (default: the Prometheus evaluationInterval).'),
    rules: { type: 'array', items: ruleSchema, description: 'The rules.' },
    limit: count('Limit of alerts or series a rule may produce (Prometheus limit).'),
    query_offset: duration('How far in the past to evaluate (Prometheus >= 2.53).'),
    labels: stringMap('Labels added to every rule of the group (Prometheus >= 3.0).'),
    partial_response_strategy: str('Thanos Ruler only; ignored for Prometheus.'),
  },
} as const;

/** PrometheusRule spec. */
export const prometheusRuleSpecSchema = {
  type: 'object',
  description: 'Groups of alerting and recording rules.',
  additionalProperties: false,
  properties: {
    groups: {
      type: 'array',
      items: ruleGroupSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      description: 'Rule groups; names are unique.',
    },
  },
} as const;

/** PrometheusRule status. */
export const prometheusRuleStatusSchema = configResourceStatusSchema;
