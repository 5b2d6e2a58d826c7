/**
 * Scrape protocols (`scrapeProtocols`, `fallbackScrapeProtocol`): the names the CRDs accept and the
 * Prometheus version each needs. Shared by monitor-level settings and the Prometheus' global block.
 */
import type { ServiceMonitorSpec } from '@promop/crds';
import type { Findings } from '../findings.ts';
import type { PrometheusVersion } from '../prometheus-version.ts';
import { isAtLeast } from '../prometheus-version.ts';

/** One protocol name, as the CRD schemas spell it. */
export type ScrapeProtocol = NonNullable<ServiceMonitorSpec['scrapeProtocols']>[number];

// Keyed by the CRD's enum, so a protocol added to or removed from the schema fails the type check here
// (a run-time import of @promop/crds would load ajv and the schemas into the generator).
const KNOWN: Record<ScrapeProtocol, true> = {
  PrometheusProto: true,
  'OpenMetricsText0.0.1': true,
  'OpenMetricsText1.0.0': true,
  'PrometheusText0.0.4': true,
  'PrometheusText1.0.0': true,
};

/** Every protocol name, in the order error messages list them. */
export const SCRAPE_PROTOCOLS: readonly string[] = Object.keys(KNOWN);

/**
 * Problems with a `scrapeProtocols` list, for monitors and the Prometheus' global one alike: an unknown name (the
 * CRD's enum normally stops it, but not under prometheus-operator's own CRDs of another release) or a name listed
 * twice — Prometheus refuses the whole config file for either.
 */
export function checkScrapeProtocols(protocols: readonly string[] | null | undefined, path: string, hc: { findings: Findings }): void {
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
export function protocolsForVersion(protocols: readonly string[] | null | undefined, path: string, hc: { version: PrometheusVersion; findings: Findings }): string[] {
  return (protocols ?? []).filter((protocol) => {
    if (protocol !== 'PrometheusText1.0.0' || isAtLeast(hc.version, '3.0.0')) return true;
    hc.findings.warn(`${path}: ignored PrometheusText1.0.0 because Prometheus ${hc.version.text} does not support it (needs v3.0.0 or later)`);
    return false;
  });
}

