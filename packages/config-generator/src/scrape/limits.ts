/**
 * Per-monitor limits and scrape protocol choices, combined with the Prometheus' enforced limits
 * as prometheus-operator does (the lower value wins), each gated on the Prometheus version.
 */
import type { PodMonitor, ServiceMonitor } from '@promop/crds';
import { isAtLeast } from '../prometheus-version.ts';
import { supports, type HttpClientContext } from '../http-client/index.ts';
import { lowerByteSize, parseByteSize } from '../values/byte-size.ts';
import { SCRAPE_PROTOCOLS, checkScrapeProtocols, protocolsForVersion } from '../values/scrape-protocols.ts';
import type { ScrapeContext } from './scrape-context.ts';

/** The spec of either monitor kind (the limit fields are the same). */
export type MonitorSpec = ServiceMonitor['spec'] | PodMonitor['spec'];

/**
 * The limit, histogram and protocol fields, as every scraping kind spells them (a Probe has all but
 * bodySizeLimit, which only the enforced limit sets for it).
 */
export type LimitFields = Pick<
  ServiceMonitor['spec'],
  | 'sampleLimit' | 'targetLimit' | 'labelLimit' | 'labelNameLengthLimit' | 'labelValueLengthLimit' | 'keepDroppedTargets' | 'bodySizeLimit'
  | 'scrapeProtocols' | 'fallbackScrapeProtocol' | 'scrapeNativeHistograms' | 'scrapeClassicHistograms' | 'nativeHistogramBucketLimit'
  | 'nativeHistogramMinBucketFactor' | 'convertClassicHistogramsToNHCB'
>;

/**
 * prometheus-operator's getLimit: no enforced limit → the monitor's; no monitor limit → the
 * enforced one, except from Prometheus 2.45 where the global section already carries it (so the
 * key is omitted); both → the lower.
 */
export function effectiveLimit(user: number | undefined, enforced: number | undefined, ctx: ScrapeContext): number | undefined {
  if (!enforced) return user;
  if (!user) return isAtLeast(ctx.version, '2.45.0') ? undefined : enforced;
  return Math.min(user, enforced);
}

/** Validates the monitor-level byte size and protocol fields. */
export function validateMonitorLimits(spec: LimitFields, hc: HttpClientContext): void {
  if (spec.bodySizeLimit !== undefined && parseByteSize(spec.bodySizeLimit) === undefined) {
    hc.findings.problem('spec.bodySizeLimit', `"${spec.bodySizeLimit}" is not a valid size (examples: 10MB, 1GiB)`);
  }
  checkScrapeProtocols(spec.scrapeProtocols, 'spec.scrapeProtocols', hc);
  if (spec.fallbackScrapeProtocol !== undefined && !SCRAPE_PROTOCOLS.includes(spec.fallbackScrapeProtocol)) {
    hc.findings.problem('spec.fallbackScrapeProtocol', `unknown scrape protocol "${spec.fallbackScrapeProtocol}"; expected one of ${SCRAPE_PROTOCOLS.join(', ')}`);
  }
  const factor = spec.nativeHistogramMinBucketFactor;
  if (factor !== undefined && !Number.isFinite(Number(factor))) {
    hc.findings.problem('spec.nativeHistogramMinBucketFactor', `"${factor}" is not a number`);
  }
}

/**
 * Appends limits, native histogram settings, scrape protocols and body_size_limit in upstream
 * order (after relabel_configs, before metric_relabel_configs).
 */
export function appendMonitorLimits(cfg: Record<string, unknown>, spec: LimitFields, fallbackScrapeProtocol: string | undefined, ctx: ScrapeContext, hc: HttpClientContext): void {
  const limits: Array<[keyof LimitFields & string, string, number | undefined, string | undefined]> = [
    ['sampleLimit', 'sample_limit', ctx.enforcedSampleLimit, undefined],
    ['targetLimit', 'target_limit', ctx.enforcedTargetLimit, '2.21.0'],
    ['labelLimit', 'label_limit', ctx.enforcedLabelLimit, '2.27.0'],
    ['labelNameLengthLimit', 'label_name_length_limit', ctx.enforcedLabelNameLengthLimit, '2.27.0'],
    ['labelValueLengthLimit', 'label_value_length_limit', ctx.enforcedLabelValueLengthLimit, '2.27.0'],
    ['keepDroppedTargets', 'keep_dropped_targets', ctx.enforcedKeepDroppedTargets, '2.47.0'],
  ];
  for (const [field, key, enforced, minimum] of limits) {
    const value = effectiveLimit(spec[field] as number | undefined, enforced, ctx);
    if (value === undefined) continue;
    if (minimum && !supports(hc, minimum, `spec.${field}`, key)) continue;
    cfg[key] = value;
  }

  if (spec.scrapeNativeHistograms !== undefined && supports(hc, '3.8.0', 'spec.scrapeNativeHistograms', 'scrape_native_histograms')) {
    cfg.scrape_native_histograms = spec.scrapeNativeHistograms;
  }
  if (spec.nativeHistogramBucketLimit !== undefined && supports(hc, '2.45.0', 'spec.nativeHistogramBucketLimit', 'native_histogram_bucket_limit')) {
    cfg.native_histogram_bucket_limit = spec.nativeHistogramBucketLimit;
  }
  if (spec.nativeHistogramMinBucketFactor !== undefined && supports(hc, '2.50.0', 'spec.nativeHistogramMinBucketFactor', 'native_histogram_min_bucket_factor')) {
    cfg.native_histogram_min_bucket_factor = Number(spec.nativeHistogramMinBucketFactor);
  }
  if (spec.scrapeClassicHistograms !== undefined) {
    // Prometheus 3 renamed the option.
    if (isAtLeast(ctx.version, '3.0.0')) cfg.always_scrape_classic_histograms = spec.scrapeClassicHistograms;
    else if (supports(hc, '2.45.0', 'spec.scrapeClassicHistograms', 'scrape_classic_histograms')) cfg.scrape_classic_histograms = spec.scrapeClassicHistograms;
  }
  if (spec.convertClassicHistogramsToNHCB !== undefined && supports(hc, '3.0.0', 'spec.convertClassicHistogramsToNHCB', 'convert_classic_histograms_to_nhcb')) {
    cfg.convert_classic_histograms_to_nhcb = spec.convertClassicHistogramsToNHCB;
  }

  const protocols = protocolsForVersion(spec.scrapeProtocols, 'spec.scrapeProtocols', hc);
  if (protocols.length > 0 && supports(hc, '2.49.0', 'spec.scrapeProtocols', 'scrape_protocols')) cfg.scrape_protocols = protocols;
  if (fallbackScrapeProtocol !== undefined && supports(hc, '3.0.0', 'spec.fallbackScrapeProtocol', 'fallback_scrape_protocol')) {
    cfg.fallback_scrape_protocol = fallbackScrapeProtocol;
  }

  const bodySizeLimit = lowerByteSize(spec.bodySizeLimit, ctx.enforcedBodySizeLimit);
  if (bodySizeLimit !== undefined && supports(hc, '2.28.0', 'spec.bodySizeLimit', 'body_size_limit')) cfg.body_size_limit = bodySizeLimit;
}
