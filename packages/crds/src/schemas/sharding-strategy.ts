/**
 * `spec.shardingStrategy` of a Prometheus or PrometheusAgent (prometheus-operator's ShardingStrategy): how targets
 * are split between shards — by a hash of their address (`Address`, the default) or, with `Topology`, each shard
 * scraping the targets of one zone (`topology.values[shard % len(values)]`) and hashing within it.
 */
import { duration, oneOf, str } from './common.ts';

/** The sharding modes prometheus-operator admits. */
export const SHARDING_STRATEGY_MODES = ['Address', 'Topology'] as const;

/** How targets are split between shards. */
export const shardingStrategySchema = {
  type: 'object',
  description: 'How targets are split between shards (default: by a hash of their address).',
  additionalProperties: false,
  properties: {
    mode: oneOf(SHARDING_STRATEGY_MODES, 'Address (hash of the target address) or Topology (one zone per shard).'),
    topology: {
      type: 'object',
      description: 'Zone-aware sharding; only with mode Topology.',
      additionalProperties: false,
      properties: {
        externalLabelName: str('External label carrying the shard\'s zone (default "zone"; "" adds none).'),
        values: {
          type: 'array',
          items: { type: 'string' },
          'x-kubernetes-list-type': 'atomic',
          description: 'The zones (topology.kubernetes.io/zone values); shard n scrapes zone values[n % len(values)], so shards must be at least len(values).',
        },
      },
    },
  },
} as const;

/** What happens to the StatefulSets of shards that `spec.shards` no longer has (prometheus-operator's ShardRetentionPolicy). */
export const shardRetentionPolicySchema = {
  type: 'object',
  description: 'What happens to the pods and data of shards removed by lowering spec.shards (default: deleted).',
  additionalProperties: false,
  properties: {
    whenScaled: oneOf(['Retain', 'Delete'], 'Delete removes a removed shard at once; Retain keeps it (and its data) for retain.retentionPeriod.'),
    retain: {
      type: 'object',
      description: 'How long a removed shard is kept with whenScaled Retain (default: spec.retention).',
      required: ['retentionPeriod'],
      additionalProperties: false,
      properties: {
        retentionPeriod: duration('How long a removed shard is kept before it is deleted.'),
      },
    },
  },
} as const;
