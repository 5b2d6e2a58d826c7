/**
 * Sharding: each shard's Prometheus keeps only the targets whose address hashes to its number.
 * prometheus-operator writes the placeholder `$(SHARD)` and lets its config-reloader sidecar
 * substitute the pod's shard; promop has no sidecar, so it renders one config per shard with
 * the number already substituted.
 */

/** The placeholder prometheus-operator uses for the shard number (and scrape renderers may too). */
export const SHARD_PLACEHOLDER = '$(SHARD)';

/** Number of shards after defaulting (the CRD default is 1; 0 or less is treated as 1). */
export function shardCount(shards: number | null | undefined): number {
  return shards === null || shards === undefined || shards < 1 ? 1 : Math.floor(shards);
}

/**
 * The three relabel rules that keep only this shard's targets (upstream's
 * `generateAddressShardingRelabelingRules`): copy the address into `__tmp_hash` unless a
 * previous rule set it, hash it modulo the shard count, keep the matching shard — unless
 * `__tmp_disable_sharding` is set, which lets a job opt out.
 */
export function addressShardingRules(shards: number): Array<Record<string, unknown>> {
  return [
    { source_labels: ['__address__', '__tmp_hash'], target_label: '__tmp_hash', regex: '(.+);', replacement: '$1', action: 'replace' },
    { source_labels: ['__tmp_hash'], target_label: '__tmp_hash', modulus: shards, action: 'hashmod' },
    keepShardRule(),
  ];
}

/** The last sharding rule alone: for jobs that compute `__tmp_hash` themselves. */
export function keepShardRule(): Record<string, unknown> {
  return { source_labels: ['__tmp_hash', '__tmp_disable_sharding'], regex: `${SHARD_PLACEHOLDER};|.+;.+`, action: 'keep' };
}

/**
 * A copy of `value` with every `$(SHARD)` in its strings replaced by `shard`, as the upstream
 * reloader substitutes it in the whole file (so additionalScrapeConfigs may use it too).
 * Objects without the placeholder are shared, not copied.
 */
export function substituteShard<T>(value: T, shard: number): T {
  return substitute(value, String(shard)) as T;
}

function substitute(value: unknown, shard: string): unknown {
  if (typeof value === 'string') return value.includes(SHARD_PLACEHOLDER) ? value.replaceAll(SHARD_PLACEHOLDER, shard) : value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const replaced = substitute(item, shard);
      if (replaced !== item && copy === undefined) copy = value.slice(0, index);
      copy?.push(replaced);
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    let changed = false;
    const replacedEntries = entries.map(([key, item]) => {
      const replaced = substitute(item, shard);
      if (replaced !== item) changed = true;
      return [key, replaced] as const;
    });
    return changed ? Object.fromEntries(replacedEntries) : value;
  }
  return value;
}
