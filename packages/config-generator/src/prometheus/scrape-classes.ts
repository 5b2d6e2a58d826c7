/**
 * Checks of spec.scrapeClasses, which prometheus-operator makes before generating anything and
 * which fail the reconcile: what a class carries is copied into every job using it, so a bad
 * class would break the whole file rather than one monitor.
 */
import type { PrometheusSpec } from '@promop/crds';
import { renderAuthorization, renderTlsConfig } from '../http-client/index.ts';
import { validateRelabelConfigs } from '../values/relabeling.ts';
import type { PrometheusRenderContext } from './render-context.ts';

/**
 * Records problems with the scrape classes in `context`: relabelings the Prometheus would refuse,
 * TLS and authorization references missing from the Prometheus' namespace (where a class' Secrets
 * are read for every monitor using it), and a second class marked `default` (which one would apply?).
 */
export function checkScrapeClasses(classes: PrometheusSpec['scrapeClasses'], context: PrometheusRenderContext): void {
  let firstDefault: string | undefined;
  // Rendered only to check them: monitors render the class' TLS files themselves when they use it.
  const scratch = { ...context, tlsAssets: {} };
  (classes ?? []).forEach((scrapeClass, i) => {
    const path = `spec.scrapeClasses[${i}]`;
    for (const problem of validateRelabelConfigs(scrapeClass.relabelings, `${path}.relabelings`, context)) context.findings.add(problem);
    for (const problem of validateRelabelConfigs(scrapeClass.metricRelabelings, `${path}.metricRelabelings`, context)) context.findings.add(problem);
    if (scrapeClass.tlsConfig) renderTlsConfig(scrapeClass.tlsConfig, `${path}.tlsConfig`, scratch);
    if (scrapeClass.authorization) renderAuthorization(scrapeClass.authorization, `${path}.authorization`, scratch);
    if (scrapeClass.default !== true) return;
    if (firstDefault === undefined) firstDefault = scrapeClass.name ?? '';
    else context.findings.problem(`${path}.default`, `only one scrape class can be the default, and "${firstDefault}" already is`);
  });
}
