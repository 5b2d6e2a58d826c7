/**
 * Sharding at Prometheus level: how many shards there are, the sharding rules for hand-written
 * additional scrape configs, and turning the one rendered configuration into one per shard.
 * prometheus-operator leaves a `$(SHARD)` placeholder for its config-reloader sidecar to
 * substitute in each pod; promop has no sidecar, so each shard gets its own file with the number
 * already written.
 */
import type { PrometheusSpec } from '@promop/crds';
import type { FieldProblem } from '../model.ts';
import { isLabelValue } from '../selection/label-selector.ts';
import {
  INZONE_SHARD_PLACEHOLDER, SHARD_PLACEHOLDER, TOPOLOGY_ZONE_PLACEHOLDER, shardingRelabelings, topologyShard, type TopologySharding,
} from '../scrape/sharding.ts';
import { isValidLabelName, labelNameRule } from '../values/prometheus-names.ts';
import type { PrometheusRenderContext } from './render-context.ts';

/** The external label carrying a shard's zone when `topology.externalLabelName` is unset. */
export const DEFAULT_ZONE_LABEL_NAME = 'zone';

/** The zones of `spec.shardingStrategy` when it is in effect: mode Topology with at least one zone. */
export function topologyZones(spec: Pick<PrometheusSpec, 'shardingStrategy'>): readonly string[] | undefined {
  const strategy = spec.shardingStrategy;
  const zones = strategy?.topology?.values ?? [];
  return strategy?.mode === 'Topology' && zones.length > 0 ? zones : undefined;
}

/** The name of the external label carrying the shard's zone, or undefined when there is none. */
export function zoneLabelName(spec: Pick<PrometheusSpec, 'shardingStrategy'>): string | undefined {
  if (!topologyZones(spec)) return undefined;
  const name = spec.shardingStrategy?.topology?.externalLabelName ?? DEFAULT_ZONE_LABEL_NAME;
  return name === '' ? undefined : name;
}

/**
 * Topology sharding of this Prometheus, or undefined when targets are sharded by address alone; reports what
 * prometheus-operator's CRD refuses (`topology` without mode Topology, fewer shards than zones) as problems, a zone
 * that is no label value (it becomes the pods' node selector and a keep regex) as a problem at its path, and mode
 * Topology without zones as a warning (sharded by address, as upstream).
 * `podZoneLabels`: the cluster labels pods with their zone (Kubernetes 1.35+).
 */
export function topologySharding(spec: Pick<PrometheusSpec, 'shardingStrategy' | 'shards'>, podZoneLabels: boolean, context: PrometheusRenderContext): TopologySharding | undefined {
  const strategy = spec.shardingStrategy;
  if (!strategy) return undefined;
  const path = 'spec.shardingStrategy';
  if (strategy.topology && strategy.mode !== 'Topology') {
    context.findings.problem(`${path}.topology`, `is only valid with mode Topology, not ${strategy.mode === undefined ? 'without a mode (Address)' : `mode ${strategy.mode}`}`);
    return undefined;
  }
  if (strategy.mode !== 'Topology') return undefined;
  const zones = topologyZones(spec);
  if (!zones) {
    context.findings.warn(`${path}.topology.values: empty, so mode Topology has no zone to assign and targets are sharded by address`);
    return undefined;
  }
  const seen = new Set<string>();
  for (const [index, zone] of zones.entries()) {
    if (zone === '' || !isLabelValue(zone)) {
      context.findings.problem(`${path}.topology.values[${index}]`, `${JSON.stringify(zone)} is not a zone name (a label value: up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit)`);
    } else if (seen.has(zone)) {
      context.findings.warn(`${path}.topology.values[${index}]: "${zone}" is listed twice, so two sets of shards scrape its targets`);
    }
    seen.add(zone);
  }
  const shards = typeof spec.shards === 'number' ? spec.shards : 1;
  if (shards < zones.length) {
    context.findings.problem('spec.shards', `${shards} is fewer than the ${zones.length} zones of ${path}.topology.values: mode Topology needs at least one shard per zone`);
  }
  const labelName = strategy.topology?.externalLabelName;
  if (labelName && !isValidLabelName(labelName, context.nameValidationScheme)) {
    context.findings.problem(`${path}.topology.externalLabelName`, `"${labelName}" is not a label name this Prometheus accepts (${labelNameRule(context.nameValidationScheme)})`);
  }
  return { zones, podZoneLabels };
}

/** The zone of each shard (index = shard number), for the pods' node selector; undefined without topology sharding. */
export function shardZones(topology: TopologySharding | undefined, shards: number): string[] | undefined {
  if (!topology) return undefined;
  return Array.from({ length: shards }, (_unused, shard) => topologyShard(topology, shards, shard).zone);
}

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

/** The sharding rules with the placeholders, substituted later per shard. */
export function addressShardingRules(shards: number, topology?: TopologySharding): Array<Record<string, unknown>> {
  return shardingRelabelings(shards, undefined, '__address__', topology);
}

/** The last sharding rule alone, for jobs that compute `__tmp_hash` themselves. */
export function keepShardRule(): Record<string, unknown> {
  const rules = shardingRelabelings(1, undefined);
  return rules[rules.length - 1] ?? {};
}

/**
 * A copy of `value` with every `$(SHARD)` in its strings replaced by `shard`, as the upstream
 * reloader substitutes it in the whole file (so additionalScrapeConfigs may use it too); with topology sharding
 * also `$(TOPOLOGY_ZONE)` and `$(INZONE_SHARD)`, the other variables upstream's reloader then has.
 * Sub-objects without a placeholder are shared, not copied.
 */
export function substituteShard<T>(value: T, shard: number, shards = 1, topology?: TopologySharding): T {
  const values: Array<[string, string]> = [[SHARD_PLACEHOLDER, String(shard)]];
  if (topology) {
    const { zone, inZoneShard } = topologyShard(topology, shards, shard);
    values.push([TOPOLOGY_ZONE_PLACEHOLDER, zone], [INZONE_SHARD_PLACEHOLDER, String(inZoneShard)]);
  }
  return substitute(value, values) as T;
}

function substitute(value: unknown, values: ReadonlyArray<[string, string]>): unknown {
  if (typeof value === 'string') {
    if (!value.includes('$(')) return value;
    let replaced = value;
    for (const [placeholder, text] of values) replaced = replaced.replaceAll(placeholder, text);
    return replaced;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const replaced = substitute(item, values);
      if (replaced !== item && copy === undefined) copy = value.slice(0, index);
      copy?.push(replaced);
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const replaced = substitute(item, values);
      if (replaced !== item) copy ??= { ...value };
      if (copy) copy[key] = replaced;
    }
    return copy ?? value;
  }
  return value;
}
