/**
 * The scrape settings ServiceMonitor and PodMonitor endpoints share (honor flags, interval,
 * timeout, path, params, scheme, redirects, HTTP/2), validated and rendered in upstream order.
 */
import type { Endpoint, PodMetricsEndpoint } from '@promop/crds';
import { sortedByKey } from '../go-map-order.ts';
import { supports, type HttpClientContext } from '../http-client/index.ts';
import { effectiveScrapeInterval } from '../values/scrape-interval.ts';
import { checkRegex, parseDuration } from '@promop/prometheus-lang';
import type { ScrapeContext } from './scrape-context.ts';

/** Either kind of endpoint. */
export type AnyEndpoint = Endpoint | PodMetricsEndpoint;

/**
 * `honor_labels` (always; forced false by overrideHonorLabels), `honor_timestamps` (only when set
 * or overridden, Prometheus >= 2.9), `track_timestamps_staleness` (when set, >= 2.48).
 */
export function appendHonorFields(cfg: Record<string, unknown>, ep: AnyEndpoint, path: string, ctx: ScrapeContext, hc: HttpClientContext): void {
  cfg.honor_labels = (ep.honorLabels ?? false) && !ctx.overrideHonorLabels;
  if (ep.honorTimestamps !== undefined || ctx.overrideHonorTimestamps) {
    if (supports(hc, '2.9.0', `${path}.honorTimestamps`, 'honor_timestamps')) {
      cfg.honor_timestamps = (ep.honorTimestamps ?? false) && !ctx.overrideHonorTimestamps;
    }
  }
  if (ep.trackTimestampsStaleness !== undefined && supports(hc, '2.48.0', `${path}.trackTimestampsStaleness`, 'track_timestamps_staleness')) {
    cfg.track_timestamps_staleness = ep.trackTimestampsStaleness;
  }
}

/**
 * Checks interval and scrapeTimeout: valid durations, and a timeout no longer than the interval
 * that applies (the endpoint's, else the Prometheus scrapeInterval), which Prometheus requires.
 */
export function validateIntervals(ep: AnyEndpoint, path: string, ctx: ScrapeContext, hc: HttpClientContext): void {
  // An empty string is no interval (prometheus-operator writes none for it), not a bad one.
  if (ep.interval === '' || ep.scrapeTimeout === '') ep = { ...ep, ...(ep.interval === '' ? { interval: undefined } : {}), ...(ep.scrapeTimeout === '' ? { scrapeTimeout: undefined } : {}) };
  const interval = ep.interval === undefined ? undefined : parseDuration(ep.interval);
  const timeout = ep.scrapeTimeout === undefined ? undefined : parseDuration(ep.scrapeTimeout);
  if (ep.interval !== undefined && interval === undefined) {
    hc.findings.problem(`${path}.interval`, `"${ep.interval}" is not a valid duration (examples: 30s, 1m, 1h30m)`);
  }
  if (ep.scrapeTimeout !== undefined && timeout === undefined) {
    hc.findings.problem(`${path}.scrapeTimeout`, `"${ep.scrapeTimeout}" is not a valid duration (examples: 10s, 1m)`);
  }
  if (timeout === undefined || timeout === 0 || (ep.interval !== undefined && interval === undefined)) return;
  // Prometheus treats a zero interval as unset and falls back to the global one.
  const ownInterval = interval !== undefined && interval > 0;
  const globalText = effectiveScrapeInterval(ctx.prometheus.spec ?? {});
  const effective = ownInterval ? interval : parseDuration(globalText);
  if (effective !== undefined && timeout > effective) {
    const source = ownInterval ? `interval ${ep.interval}` : `the Prometheus scrapeInterval ${globalText}`;
    hc.findings.problem(`${path}.scrapeTimeout`, `scrapeTimeout ${ep.scrapeTimeout} is longer than ${source}`);
  }
}

/** `scrape_interval`, `scrape_timeout`, `metrics_path`, `params` (keys sorted), `scheme` (lowercased). */
export function appendScrapeBasics(cfg: Record<string, unknown>, ep: AnyEndpoint, path: string, hc: HttpClientContext): void {
  if (ep.interval) cfg.scrape_interval = ep.interval;
  if (ep.scrapeTimeout) cfg.scrape_timeout = ep.scrapeTimeout;
  if (ep.path) cfg.metrics_path = ep.path;
  if (ep.params !== undefined) cfg.params = sortedByKey(ep.params as Record<string, string[]>);
  if (ep.scheme) {
    const scheme = ep.scheme.toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') hc.findings.problem(`${path}.scheme`, `scheme must be http or https, not "${ep.scheme}"`);
    cfg.scheme = scheme;
  }
}

/** `follow_redirects` (>= 2.26) and `enable_http2` (>= 2.35), when set. */
export function appendHttpFlags(cfg: Record<string, unknown>, ep: AnyEndpoint, path: string, hc: HttpClientContext): void {
  if (ep.followRedirects !== undefined && supports(hc, '2.26.0', `${path}.followRedirects`, 'follow_redirects')) cfg.follow_redirects = ep.followRedirects;
  if (ep.enableHttp2 !== undefined && supports(hc, '2.35.0', `${path}.enableHttp2`, 'enable_http2')) cfg.enable_http2 = ep.enableHttp2;
}

/**
 * A port name is matched as a regex against the discovered port names, so it must be one; a
 * Kubernetes port name always is, but manifests given to `promop render` are not API-validated.
 */
export function validatePortName(value: string | undefined, path: string, hc: HttpClientContext): void {
  if (value === undefined || value === '') return;
  if (checkRegex(value, 'relabeling') !== undefined) hc.findings.problem(path, `"${value}" is not a valid port name`);
}
