/**
 * Status of ServiceMonitors, PodMonitors and PrometheusRules: which Prometheus objects selected them and whether
 * they accepted them. `bindings` has prometheus-operator's shape; `acceptedBy` and `rejectedBy` are promop's own
 * counts of those bindings, so `kubectl get` can show them as columns. promop also adds to each binding what that
 * Prometheus reports of the object at run time (`targets` of a monitor, `rules` of a PrometheusRule, and the
 * `Healthy` condition); every added field is optional, so statuses written before stay valid.
 */
import { count, str } from './common.ts';

/**
 * The condition of one binding: `Accepted` (prometheus-operator's), and promop's `Healthy`, what the Prometheus
 * reports of the object's targets or rules (reason TargetsUp, TargetsDown, NoTargets, RulesEvaluated, RulesFailing or
 * NoRuleGroups; nothing is written while nothing is known yet, so there is no reason for that).
 */
const bindingConditionSchema = {
  type: 'object',
  required: ['type', 'status', 'lastTransitionTime'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: ['Accepted', 'Healthy'], description: 'Condition type.' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'], description: 'Condition status.' },
    reason: str('Why; InvalidConfiguration when rejected; TargetsUp, TargetsDown, NoTargets, RulesEvaluated, RulesFailing or NoRuleGroups for Healthy.'),
    message: str('The validation error when rejected; a summary of the targets or rules for Healthy.'),
    lastTransitionTime: { type: 'string', format: 'date-time', description: 'When status last changed.' },
    observedGeneration: { type: 'integer', description: 'metadata.generation of the object this condition describes.' },
  },
} as const;

/**
 * promop: the scrape targets of a monitor as one Prometheus reports them (GET /api/v1/targets, summed over its
 * shards). Counts are as of the last write, which happens when one moves to another bucket (see docs/crds.md).
 */
const bindingTargetsSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'promop: the active scrape targets of this object in this Prometheus, summed over its shards.',
  properties: {
    active: count('Active targets (after relabelling).'),
    up: count('Targets whose last scrape succeeded.'),
    down: count('Targets whose last scrape failed.'),
    unknown: count('Targets not scraped yet.'),
    lastError: str('The most frequent last scrape error among the down targets, with credentials, user info and query values removed.'),
    lastErrorCount: count('How many down targets have an error of the same kind as lastError.'),
  },
} as const;

/** promop: the rule groups of a PrometheusRule as one Prometheus reports them (GET /api/v1/rules). */
const bindingRulesSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'promop: the rule groups of this object in this Prometheus (every shard evaluates them; the largest counts of one shard).',
  properties: {
    groups: count('Rule groups loaded from this object.'),
    rules: count('Rules of those groups.'),
    failing: count('Rules whose last evaluation failed.'),
    pending: count('Rules not evaluated yet.'),
    lastError: str('The last evaluation error of a failing rule, with credentials, user info and query values removed.'),
    firingAlerts: count('Firing alerts of the alerting rules, summed over the shards.'),
    evaluationMilliseconds: count('The longest last evaluation of one of the groups, in milliseconds.'),
  },
} as const;

/** One Prometheus (or other workload) that selected the object. */
const bindingSchema = {
  type: 'object',
  required: ['group', 'resource', 'name', 'namespace'],
  additionalProperties: false,
  properties: {
    group: { type: 'string', enum: ['monitoring.coreos.com'], description: 'API group of the workload.' },
    resource: {
      type: 'string',
      enum: ['prometheuses', 'prometheusagents', 'thanosrulers', 'alertmanagers'],
      description: 'Resource (plural) of the workload.',
    },
    name: str('Name of the workload.'),
    namespace: str('Namespace of the workload.'),
    conditions: {
      type: 'array',
      items: bindingConditionSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
    },
    targets: bindingTargetsSchema,
    rules: bindingRulesSchema,
  },
} as const;

/** Status of a configuration resource (monitor or rule). */
export const configResourceStatusSchema = {
  type: 'object',
  description: 'Which Prometheus objects selected this object and whether they accepted it.',
  additionalProperties: false,
  properties: {
    bindings: {
      type: 'array',
      items: bindingSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['group', 'resource', 'name', 'namespace'],
      description: 'One entry per workload that selects this object.',
    },
    acceptedBy: count('promop: number of bindings whose Accepted condition is True.'),
    rejectedBy: count('promop: number of bindings whose Accepted condition is False.'),
  },
} as const;
