/**
 * Per-monitor scrape configs: ServiceMonitor, PodMonitor, Probe and ScrapeConfig rendering. The value
 * helpers they share with Prometheus-level code (durations, byte sizes, RE2 regexes, relabelings, label
 * names, scrape protocols) are in ../values/.
 *
 * Usage by the whole-file assembly (generate.ts), once per Prometheus whatever its shard count:
 * ```ts
 * const ctx: ScrapeContext = { prometheus, version, secrets, serviceDiscoveryRole, ..., shards, shard };
 * const r = renderServiceMonitor(sm, ctx);
 * if (r.ok) scrapeConfigs.push(...r.scrapeConfigs); else reject(sm, r.problems[0]);
 * ```
 * One shard is rendered with `shard: 0`. Several are rendered once with `shard: undefined` (the
 * `$(SHARD)` placeholder), which prometheus/sharding.ts substituteShard replaces in each shard's
 * copy: nothing but the sharding keep rule depends on the shard, so verdicts and TLS assets are
 * the same for every shard.
 */
export type { ScrapeContext, MonitorRendering, MonitorKind } from './scrape-context.ts';
export { renderServiceMonitor } from './service-monitor.ts';
export { renderPodMonitor } from './pod-monitor.ts';
export { renderProbe } from './probe.ts';
export { renderScrapeConfig } from './scrape-config.ts';
export { shardingRelabelings, SHARD_PLACEHOLDER, type TopologySharding } from './sharding.ts';
export { selectorRelabelings, labelSelectorString } from './selector-relabelings.ts';
export { effectiveLimit } from './limits.ts';
