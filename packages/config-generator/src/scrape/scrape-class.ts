/**
 * Scrape classes: named settings defined on the Prometheus (spec.scrapeClasses) that a monitor
 * picks with `scrapeClass`, or gets when one class is marked `default`. Validity of the classes
 * themselves (one default at most, valid relabelings) is a Prometheus-level check
 * (prometheus/scrape-classes.ts).
 */
import type { Prometheus, PrometheusAgent, TLSConfig } from '@promop/crds';
import type { HttpClientContext } from '../http-client/index.ts';

/** One entry of spec.scrapeClasses. */
export type ScrapeClass = NonNullable<NonNullable<Prometheus['spec']>['scrapeClasses']>[number];

/**
 * The class that applies to a monitor: the named one (a problem at `spec.scrapeClass` if it does
 * not exist), else the default class, else none.
 */
export function resolveScrapeClass(name: string | undefined, prometheus: Prometheus | PrometheusAgent, hc: HttpClientContext): ScrapeClass | undefined {
  const classes = prometheus.spec?.scrapeClasses ?? [];
  if (name !== undefined) {
    const found = classes.find((c) => c.name === name);
    if (!found) {
      hc.findings.problem('spec.scrapeClass', `scrape class "${name}" is not defined in ${prometheus.kind} ${prometheus.metadata.namespace}/${prometheus.metadata.name}`);
    }
    return found;
  }
  return classes.find((c) => c.default === true);
}

/**
 * The endpoint's TLS config completed by the scrape class' (upstream mergeTLSConfigWithScrapeClass):
 * no endpoint TLS → the class'; else CA/cert/key files the endpoint leaves unset come from the class.
 * `safe` (PodMonitor's SafeTLSConfig): an empty `tlsConfig: {}` counts as none, as upstream.
 */
export function mergeTlsWithScrapeClass(tls: TLSConfig | undefined, scrapeClass: ScrapeClass | undefined, safe: boolean): TLSConfig | undefined {
  const classTls = scrapeClass?.tlsConfig;
  if (!tls || (safe && Object.keys(tls).length === 0)) return classTls;
  if (!classTls) return tls;
  const merged: TLSConfig = { ...tls };
  if (!tls.caFile && !tls.ca?.secret && !tls.ca?.configMap && classTls.caFile) merged.caFile = classTls.caFile;
  if (!tls.certFile && !tls.cert?.secret && !tls.cert?.configMap && classTls.certFile) merged.certFile = classTls.certFile;
  if (!tls.keyFile && !tls.keySecret && classTls.keyFile) merged.keyFile = classTls.keyFile;
  return merged;
}
