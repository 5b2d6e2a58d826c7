/** Status of a Prometheus: replica counts summed over shards, per-shard counts, which replicas run the written config, and the Available/Reconciled conditions. */
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

/** The Available and Reconciled conditions of a workload (Prometheus, PrometheusAgent, Alertmanager). */
export const workloadConditionsSchema = {
  type: 'array',
  items: prometheusConditionSchema,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
  description: 'Available and Reconciled.',
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

/** A replica (of a shard) that does not (yet) run the written configuration, and why. */
const pendingReplicaSchema = {
  type: 'object',
  required: ['pod', 'reason'],
  additionalProperties: false,
  properties: {
    pod: str('Pod name.'),
    reason: str('One CamelCase word: NotRunning, NotReady, NoPodIP, Terminating, ListenLocal (not waited for; the pod loads the files when it starts), or Refused, Unreachable, Rejected, Stale, ReloadFailed (the reload failed; Reconciled is False).'),
    message: str('Details for humans, e.g. the reason the program gave for refusing the configuration.'),
  },
} as const;

/** Which replicas run the configuration promop wrote: the hash of the files, the pods verified, the others. */
const loadedConfigProperties = {
  configHash: str('Short keyed hash of the files promop wrote (configuration, and for Prometheus rule files and TLS assets); the pods carry it in the annotation promop.prometheus.io/config-hash.'),
  loadedReplicas: {
    type: 'array',
    items: { type: 'string' },
    description: 'Pods verified to run exactly these files (reloaded, then what the program reports loaded compared with what was written).',
  },
  pendingReplicas: {
    type: 'array',
    items: pendingReplicaSchema,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['pod'],
    description: 'Pods not verified to run these files, with the reason.',
  },
} as const;

/**
 * Which replicas of one shard run the configuration promop wrote (a promop addition: prometheus-operator's
 * config-reloader sidecar does not report back).
 */
const shardConfigStatusSchema = {
  type: 'object',
  // The lists are optional and left out when empty: server-side apply drops an empty associative list from the
  // stored object, so a required one made every status write with no pending pod fail validation (422).
  required: ['shardID', 'configHash'],
  additionalProperties: false,
  properties: {
    shardID: str('Shard number, as a string.'),
    ...loadedConfigProperties,
  },
} as const;

/** Which replicas of an Alertmanager run the configuration promop wrote (a promop addition, as for Prometheus). */
export const alertmanagerConfigStatusSchema = {
  type: 'object',
  required: ['configHash'],
  additionalProperties: false,
  description: 'The hash of the configuration promop wrote, the pods verified to run it and the pods that do not (yet).',
  properties: loadedConfigProperties,
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
    conditions: workloadConditionsSchema,
    shardStatuses: {
      type: 'array',
      items: shardStatusSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['shardID'],
      description: 'Replica counts per shard.',
    },
    configStatus: {
      type: 'array',
      items: shardConfigStatusSchema,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['shardID'],
      description: 'Per shard: the hash of the files promop wrote, the pods verified to run them and the pods that do not (yet).',
    },
    shards: count('Number of shards (the scale subresource reads it).'),
    selector: str('Label selector of the pods, as a string (the scale subresource reads it).'),
  },
} as const;
