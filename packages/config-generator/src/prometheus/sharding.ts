/**
 * Sharding at Prometheus level: how many shards there are, the sharding rules for hand-written
 * additional scrape configs, and turning the one rendered configuration into one per shard.
 * prometheus-operator leaves a `$(SHARD)` placeholder for its config-reloader sidecar to
 * substitute in each pod; promop has no sidecar, so each shard gets its own file with the number
 * already written.
 */
import { SHARD_PLACEHOLDER, shardingRelabelings } from '../scrape/sharding.ts';

/** Number of shards after defaulting (the CRD default is 1; 0 or less is treated as 1). */
export function shardCount(shards: number | null | undefined): number {
  return shards === null || shards === undefined || shards < 1 ? 1 : Math.floor(shards);
}

/** The three sharding rules with the `$(SHARD)` placeholder, substituted later per shard. */
export function addressShardingRules(shards: number): Array<Record<string, unknown>> {
  return shardingRelabelings(shards, undefined);
}

/** The last sharding rule alone, for jobs that compute `__tmp_hash` themselves. */
export function keepShardRule(): Record<string, unknown> {
  const rules = shardingRelabelings(1, undefined);
  return rules[rules.length - 1] ?? {};
}

/**
 * A copy of `value` with every `$(SHARD)` in its strings replaced by `shard`, as the upstream
 * reloader substitutes it in the whole file (so additionalScrapeConfigs may use it too).
 * Sub-objects without the placeholder are shared, not copied.
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
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const replaced = substitute(item, shard);
      if (replaced !== item) copy ??= { ...value };
      if (copy) copy[key] = replaced;
    }
    return copy ?? value;
  }
  return value;
}
