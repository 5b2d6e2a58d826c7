/** Status of a Prometheus: replica counts summed over shards, per-shard counts and the Available/Reconciled conditions. */
import { count, str } from './common.ts';

/** A condition of a Prometheus (Available, Reconciled). Available may also be Degraded, as in prometheus-operator. */
export const prometheusConditionSchema = {
  type: 'object',
  required: ['type', 'status', 'lastTransitionTime'],
  additionalProperties: false,
  properties: {
    type: str('Available or Reconciled.'),
    status: { type: 'string', enum: ['True', 'False', 'Unknown', 'Degraded'], description: 'Condition status.' },
    lastTransitionTime: { type: 'string', format: 'date-time', description: 'When status last changed.' },
    reason: str('One CamelCase word saying why.'),
    message: str('Details for humans.'),
    observedGeneration: { type: 'integer', description: 'metadata.generation this condition was computed from.' },
  },
} as const;

/** Replica counts of one shard. */
const shardStatusSchema = {
  type: 'object',
  required: ['shardID', 'replicas', 'updatedReplicas', 'availableReplicas', 'unavailableReplicas'],
  additionalProperties: false,
  properties: {
    shardID: str('Shard number, as a string.'),
    replicas: count('Pods of the shard.'),
    updatedReplicas: count('Pods of the shard running the latest spec.'),
    availableReplicas: count('Available pods of the shard.'),
    unavailableReplicas: count('Unavailable pods of the shard.'),
  },
} as const;

/** Prometheus status. */
export const prometheusStatusSchema = {
  type: 'object',
  description: 'Observed state of the Prometheus, written by promop.',
  additionalProperties: false,
  properties: {
    paused: { type: 'boolean', description: 'Whether reconciliation is paused.' },
    replicas: count('Pods of all shards.'),
    updatedReplicas: count('Pods running the latest spec.'),
    availableReplicas: count('Available pods.'),
    unavailableReplicas: count('Unavailable pods.'),
    conditions: {
      type: 'array',
      items: prometheusConditionSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
      description: 'Available and Reconciled.',
    },
    shardStatuses: {
      type: 'array',
      items: shardStatusSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['shardID'],
      description: 'Replica counts per shard.',
    },
    shards: count('Number of shards (the scale subresource reads it).'),
    selector: str('Label selector of the pods, as a string (the scale subresource reads it).'),
  },
} as const;
