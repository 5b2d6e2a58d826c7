/**
 * Per-monitor scrape configs: ServiceMonitor and PodMonitor rendering, and the relabeling
 * validation Prometheus-level code reuses (remote write, alerting).
 *
 * Usage by the whole-file assembly, once per shard `s` of `shards`:
 * ```ts
 * const ctx: ScrapeContext = { prometheus, version, secrets, serviceDiscoveryRole, ..., shards, shard: s };
 * const r = renderServiceMonitor(sm, ctx);
 * if (r.ok) scrapeConfigs.push(...r.scrapeConfigs); else reject(sm, r.problems[0]);
 * ```
 * Results other than the sharding keep rule do not depend on `shard`, so verdicts and TLS
 * assets can be taken from any one shard's rendering. Alternatively render once with
 * `shard: undefined` (the `$(SHARD)` placeholder) and substitute the number per shard.
 */
export type { ScrapeContext, MonitorRendering, MonitorKind } from './scrape-context.ts';
export { renderServiceMonitor } from './service-monitor.ts';
export { renderPodMonitor } from './pod-monitor.ts';
export { validateRelabelConfigs, validateRelabelConfig, renderRelabelConfigs, renderRelabelConfig, type RelabelConfigSpec } from './relabeling.ts';
export { shardingRelabelings, SHARD_PLACEHOLDER } from './sharding.ts';
export { parseDuration } from './duration.ts';
export { parseByteSize } from './byte-size.ts';
export { re2RegexError } from './re2-regex.ts';
export { sanitizeLabelName } from './label-names.ts';
export { selectorRelabelings, labelSelectorString, validateLabelSelector, type LabelSelectorSpec } from './selector-relabelings.ts';
export { effectiveLimit, lowerByteSize } from './limits.ts';
