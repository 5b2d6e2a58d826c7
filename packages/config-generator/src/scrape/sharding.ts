/**
 * The relabelings that split targets between Prometheus shards (appended to every job, even with
 * one shard, as prometheus-operator v0.83+ does): copy the address into `__tmp_hash` unless a
 * rule already set it, hash it modulo the shard count, keep the targets of this shard (or any
 * target with `__tmp_disable_sharding` set).
 *
 * With topology sharding (`spec.shardingStrategy.mode: Topology`, see TopologySharding) three rules come first,
 * as prometheus-operator v0.93 writes them: the target's zone goes into `__tmp_topology` (unless a rule already set
 * it) from its EndpointSlice endpoint, else from its pod's or node's `topology.kubernetes.io/zone` label, and only
 * the targets of this shard's zone are kept (or any with `__tmp_disable_sharding`); the hash then splits a zone's
 * targets between the zone's shards (`modulus` = shards per zone, keep = the shard's position in its zone). A
 * target whose zone is unknown (a Probe, a static target) is scraped by no shard unless a rule sets one of the two
 * labels, as upstream.
 *
 * prometheus-operator writes the placeholders `$(SHARD)` (`$(TOPOLOGY_ZONE)`, `$(INZONE_SHARD)`) and its
 * config-reloader substitutes each pod's values. promop has no reloader: it renders one config per shard, so the
 * caller passes the shard number and the values are written literally. Leaving it undefined keeps the upstream
 * placeholders, replaced later in each shard's copy (prometheus/sharding.ts substituteShard).
 *
 * The shard-retention rules (`__tmp_current_shard`) that v0.92+ adds are not emitted: they only
 * matter when the reloader substitutes `$(SHARD)` in pods of a retained shard, which promop does
 * not have.
 */

import { sharedRule } from './shared-rules.ts';

/** The placeholder prometheus-operator leaves for the config-reloader. */
export const SHARD_PLACEHOLDER = '$(SHARD)';
/** The placeholder of the shard's zone (topology sharding). */
export const TOPOLOGY_ZONE_PLACEHOLDER = '$(TOPOLOGY_ZONE)';
/** The placeholder of the shard's position within its zone (topology sharding). */
export const INZONE_SHARD_PLACEHOLDER = '$(INZONE_SHARD)';

/** The node (and, from Kubernetes 1.35, pod) label holding a zone. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/**
 * Zone-aware sharding (`spec.shardingStrategy.mode: Topology` with zones): shard n scrapes the targets of zone
 * `zones[n % zones.length]`, shared with the other shards of that zone by hash.
 */
export interface TopologySharding {
  /** `spec.shardingStrategy.topology.values`, at least one, each a valid label value. */
  zones: readonly string[];
  /**
   * The cluster labels pods with their zone (Kubernetes 1.35+, PodTopologyLabelsAdmission): the zone is read from
   * the pod's label. Otherwise from the node's, which needs `attach_metadata: {node: true}` on ServiceMonitor and
   * PodMonitor jobs (prometheus-operator decides by the same Kubernetes version).
   */
  podZoneLabels: boolean;
}

/** The zone, position in the zone and number of shards per zone of `shard` (prometheus-operator's arithmetic). */
export function topologyShard(topology: TopologySharding, shards: number, shard: number): { zone: string; inZoneShard: number; shardsPerZone: number } {
  const zones = topology.zones.length;
  return { zone: topology.zones[shard % zones] ?? '', inZoneShard: Math.floor(shard / zones), shardsPerZone: Math.max(1, Math.floor(shards / zones)) };
}

/**
 * The sharding relabelings. `shards` is the total (spec.shards, at least 1); `shard` is the shard this config is
 * for (0-based), or undefined for the placeholders. `sourceLabel` is `__address__` for monitors (`__param_target`
 * for probes upstream). `topology`: zone-aware sharding, when active.
 */
export function shardingRelabelings(shards: number, shard: number | undefined, sourceLabel = '__address__', topology?: TopologySharding): Record<string, unknown>[] {
  if (!topology) return hashRelabelings(Math.max(1, shards), shard === undefined ? SHARD_PLACEHOLDER : String(shard), sourceLabel);
  const known = shard === undefined ? undefined : topologyShard(topology, shards, shard);
  const zone = known?.zone ?? TOPOLOGY_ZONE_PLACEHOLDER;
  const modulus = Math.max(1, Math.floor(Math.max(1, shards) / topology.zones.length));
  const source = topology.podZoneLabels ? 'pod' : 'node';
  return [
    sharedRule('zone-endpointslice', () => ({
      source_labels: ['__meta_kubernetes_endpointslice_endpoint_zone', '__tmp_topology'], target_label: '__tmp_topology', regex: '(.+);', replacement: '$1', action: 'replace',
    })),
    sharedRule(`zone-${source}`, () => ({
      source_labels: [`__meta_kubernetes_${source}_label_topology_kubernetes_io_zone`, `__meta_kubernetes_${source}_labelpresent_topology_kubernetes_io_zone`, '__tmp_topology'],
      target_label: '__tmp_topology', regex: '(.+);true;', replacement: '$1', action: 'replace',
    })),
    sharedRule(`zone-keep\u0000${zone}`, () => ({ source_labels: ['__tmp_topology', '__tmp_disable_sharding'], regex: `${zone};|.+;.+`, action: 'keep' })),
    ...hashRelabelings(modulus, known ? String(known.inZoneShard) : INZONE_SHARD_PLACEHOLDER, sourceLabel),
  ];
}

/** Copy `sourceLabel` into `__tmp_hash` unless set, hash it modulo `modulus`, keep the hash `keep`. */
function hashRelabelings(modulus: number, keep: string, sourceLabel: string): Record<string, unknown>[] {
  return [
    sharedRule(`shard-hash\u0000${sourceLabel}`, () => ({ source_labels: [sourceLabel, '__tmp_hash'], target_label: '__tmp_hash', regex: '(.+);', replacement: '$1', action: 'replace' })),
    sharedRule(`shard-mod\u0000${modulus}`, () => ({ source_labels: ['__tmp_hash'], target_label: '__tmp_hash', modulus, action: 'hashmod' })),
    sharedRule(`shard-keep\u0000${keep}`, () => ({ source_labels: ['__tmp_hash', '__tmp_disable_sharding'], regex: `${keep};|.+;.+`, action: 'keep' })),
  ];
}
