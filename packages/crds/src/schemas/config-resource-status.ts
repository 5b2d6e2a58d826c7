/**
 * Status of ServiceMonitors, PodMonitors and PrometheusRules: which Prometheus objects selected them and whether
 * they accepted them. `bindings` has prometheus-operator's shape; `acceptedBy` and `rejectedBy` are promop's own
 * counts of those bindings, so `kubectl get` can show them as columns.
 */
import { count, str } from './common.ts';

/** The condition of one binding. Only `Accepted` exists. */
const bindingConditionSchema = {
  type: 'object',
  required: ['type', 'status', 'lastTransitionTime'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: ['Accepted'], description: 'Condition type.' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'], description: 'Condition status.' },
    reason: str('Why; InvalidConfiguration when rejected.'),
    message: str('The validation error when rejected.'),
    lastTransitionTime: { type: 'string', format: 'date-time', description: 'When status last changed.' },
    observedGeneration: { type: 'integer', description: 'metadata.generation of the object this condition describes.' },
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
