/**
 * Per-monitor scrape configs: ServiceMonitor, PodMonitor and Probe rendering, and the relabeling
 * validation Prometheus-level code reuses (remote write, alerting).
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
export { validateRelabelConfigs, validateRelabelConfig, renderRelabelConfigs, renderRelabelConfig, type RelabelConfigSpec } from './relabeling.ts';
export { shardingRelabelings, SHARD_PLACEHOLDER } from './sharding.ts';
export { parseDuration } from './duration.ts';
export { parseByteSize } from './byte-size.ts';
export { re2RegexError } from './re2-regex.ts';
export { sanitizeLabelName } from './label-names.ts';
export { selectorRelabelings, labelSelectorString, validateLabelSelector, type LabelSelectorSpec } from './selector-relabelings.ts';
export { effectiveLimit, lowerByteSize } from './limits.ts';
