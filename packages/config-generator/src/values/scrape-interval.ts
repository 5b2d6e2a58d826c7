/** The scrape and evaluation interval Prometheus uses when the spec leaves it empty. */
import type { PrometheusSpec } from '@promop/crds';

/** The scrape interval and evaluation interval when the spec leaves them empty (the CRD default). */
export const DEFAULT_INTERVAL = '30s';

/**
 * The scrape interval Prometheus will use by default: `spec.scrapeInterval`, or 30s when it is
 * unset or empty (the CRD's duration pattern accepts "", and a CRD default only fills a missing
 * field). Everything that compares against the global interval must use this one answer.
 */
export function effectiveScrapeInterval(spec: Pick<PrometheusSpec, 'scrapeInterval'>): string {
  return spec.scrapeInterval || DEFAULT_INTERVAL;
}
