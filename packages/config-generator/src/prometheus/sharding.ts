/**
 * Sharding at Prometheus level: how many shards there are, the sharding rules for hand-written
 * additional scrape configs, and turning the one rendered configuration into one per shard.
 * prometheus-operator leaves a `$(SHARD)` placeholder for its config-reloader sidecar to
 * substitute in each pod; promop has no sidecar, so each shard gets its own file with the number
 * already written.
 */
import type { FieldProblem } from '../model.ts';
import { SHARD_PLACEHOLDER, shardingRelabelings } from '../scrape/sharding.ts';

/**
 * The most shards promop renders. Each shard is a StatefulSet with a configuration of its own, rendered in one
 * synchronous pass: the int32 range the CRD allows (`shards: 2000000000`) would render for hours and exhaust
 * memory, stalling every other Prometheus of the operator.
 */
export const MAX_SHARDS = 1000;

/** Number of shards after defaulting (the CRD default is 1; 0 or less is treated as 1), at most MAX_SHARDS. */
export function shardCount(shards: number | null | undefined): number {
  return shards === null || shards === undefined || shards < 1 ? 1 : Math.min(MAX_SHARDS, Math.floor(shards));
}

/** The problem with `spec.shards` above MAX_SHARDS (the Prometheus is then not rendered), or undefined. */
export function tooManyShardsProblem(shards: number | null | undefined): FieldProblem | undefined {
  if (typeof shards !== 'number' || shards <= MAX_SHARDS) return undefined;
  return { path: 'spec.shards', message: `${shards} shards is more than promop renders (at most ${MAX_SHARDS}, each a StatefulSet with its own configuration)` };
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
