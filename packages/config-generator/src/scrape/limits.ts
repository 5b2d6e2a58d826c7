/**
 * Per-monitor limits and scrape protocol choices, combined with the Prometheus' enforced limits
 * as prometheus-operator does (the lower value wins), each gated on the Prometheus version.
 */
import type { PodMonitor, ServiceMonitor } from '@promop/crds';
import { isAtLeast } from '../prometheus-version.ts';
import { supports, type HttpClientContext } from '../http-client/index.ts';
import { parseByteSize } from './byte-size.ts';
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

const SCRAPE_PROTOCOLS = ['PrometheusProto', 'OpenMetricsText0.0.1', 'OpenMetricsText1.0.0', 'PrometheusText0.0.4', 'PrometheusText1.0.0'];

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

/**
 * Problems with a `scrapeProtocols` list, for monitors and the Prometheus' global one alike: an unknown name (the
 * CRD's enum normally stops it, but not under prometheus-operator's own CRDs of another release) or a name listed
 * twice — Prometheus refuses the whole config file for either.
 */
export function checkScrapeProtocols(protocols: readonly string[] | null | undefined, path: string, hc: Pick<HttpClientContext, 'findings'>): void {
  const seen = new Set<string>();
  (protocols ?? []).forEach((protocol, i) => {
    if (!SCRAPE_PROTOCOLS.includes(protocol)) hc.findings.problem(`${path}[${i}]`, `unknown scrape protocol "${protocol}"; expected one of ${SCRAPE_PROTOCOLS.join(', ')}`);
    else if (seen.has(protocol)) hc.findings.problem(`${path}[${i}]`, `scrape protocol "${protocol}" is listed twice`);
    seen.add(protocol);
  });
}

/**
 * The scrape protocols the Prometheus version knows, in the user's order; any other is dropped with
 * a warning naming it (PrometheusText1.0.0 needs 3.0, and 2.x refuses the whole file for it). The one
 * filter for monitor-level and global `scrape_protocols`; when nothing is left the caller omits the key
 * (Prometheus refuses an empty list too).
 */
export function protocolsForVersion(protocols: readonly string[] | null | undefined, path: string, hc: Pick<HttpClientContext, 'version' | 'findings'>): string[] {
  return (protocols ?? []).filter((protocol) => {
    if (protocol !== 'PrometheusText1.0.0' || isAtLeast(hc.version, '3.0.0')) return true;
    hc.findings.warn(`${path}: ignored PrometheusText1.0.0 because Prometheus ${hc.version.text} does not support it (needs v3.0.0 or later)`);
    return false;
  });
}

/** The lower of two byte sizes (either may be absent), as text. */
export function lowerByteSize(user: string | undefined, enforced: string | undefined): string | undefined {
  if (!enforced) return user || undefined;
  if (!user) return enforced;
  const u = parseByteSize(user);
  const e = parseByteSize(enforced);
  if (u === undefined || e === undefined) return user;
  return e < u ? enforced : user;
}
