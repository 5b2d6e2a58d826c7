/**
 * The relabelings that split targets between Prometheus shards (appended to every job, even with
 * one shard, as prometheus-operator v0.83+ does): copy the address into `__tmp_hash` unless a
 * rule already set it, hash it modulo the shard count, keep the targets of this shard (or any
 * target with `__tmp_disable_sharding` set).
 *
 * prometheus-operator writes the placeholder `$(SHARD)` and its config-reloader substitutes each
 * pod's shard number. promop has no reloader: it renders one config per shard, so the caller
 * passes the shard number and it is written literally. Leaving it undefined keeps the upstream
 * placeholder (only useful to compare with prometheus-operator's output).
 *
 * The shard-retention rules (`__tmp_current_shard`) that v0.92+ adds are not emitted: they only
 * matter when the reloader substitutes `$(SHARD)` in pods of a retained shard, which promop does
 * not have.
 */

import { sharedRule } from './shared-rules.ts';

/** The placeholder prometheus-operator leaves for the config-reloader. */
export const SHARD_PLACEHOLDER = '$(SHARD)';

/**
 * The three sharding relabelings. `shards` is the total (spec.shards, at least 1); `shard` is
 * the shard this config is for (0-based), or undefined for the `$(SHARD)` placeholder.
 * `sourceLabel` is `__address__` for monitors (`__param_target` for probes upstream).
 */
export function shardingRelabelings(shards: number, shard: number | undefined, sourceLabel = '__address__'): Record<string, unknown>[] {
  const shardText = shard === undefined ? SHARD_PLACEHOLDER : String(shard);
  const modulus = Math.max(1, shards);
  return [
    sharedRule(`shard-hash\u0000${sourceLabel}`, () => ({ source_labels: [sourceLabel, '__tmp_hash'], target_label: '__tmp_hash', regex: '(.+);', replacement: '$1', action: 'replace' })),
    sharedRule(`shard-mod\u0000${modulus}`, () => ({ source_labels: ['__tmp_hash'], target_label: '__tmp_hash', modulus, action: 'hashmod' })),
    sharedRule(`shard-keep\u0000${shardText}`, () => ({ source_labels: ['__tmp_hash', '__tmp_disable_sharding'], regex: `${shardText};|.+;.+`, action: 'keep' })),
  ];
}
