/**
 * Checks of the Prometheus object that make its whole configuration unusable: a version that is
 * not a version, intervals that are not durations, a scrape timeout longer than the interval,
 * selectors Kubernetes would not accept. These are reported on the Prometheus and the previous
 * configuration stays in place.
 */
import type { PrometheusSpec } from '@promop/crds';
import type { FieldProblem } from '../model.ts';
import { parseDuration } from '@promop/prometheus-lang';
import { effectiveScrapeInterval } from '../values/scrape-interval.ts';
import { validateLabelSelector } from '../selection/label-selector.ts';

/** The spec fields checked here. */
export type ValidatedFields = Pick<PrometheusSpec, 'scrapeInterval' | 'scrapeTimeout' | 'evaluationInterval' | (typeof SELECTOR_FIELDS)[number]>;

/** The selector fields, in the order their problems are reported. */
export const SELECTOR_FIELDS = [
  'serviceMonitorSelector',
  'serviceMonitorNamespaceSelector',
  'podMonitorSelector',
  'podMonitorNamespaceSelector',
  'probeSelector',
  'probeNamespaceSelector',
  'scrapeConfigSelector',
  'scrapeConfigNamespaceSelector',
  'ruleSelector',
  'ruleNamespaceSelector',
] as const;

/** Problems with the intervals: unparseable, or a timeout longer than the interval. */
export function validateIntervals(spec: ValidatedFields): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const parsed: Record<string, number | undefined> = {};
  for (const field of ['scrapeInterval', 'scrapeTimeout', 'evaluationInterval'] as const) {
    const value = spec[field];
    if (value === undefined || value === '') continue;
    parsed[field] = parseDuration(value);
    if (parsed[field] === undefined) problems.push({ path: `spec.${field}`, message: `"${value}" is not a duration like 30s or 1m` });
  }
  const interval = spec.scrapeInterval ? parsed.scrapeInterval : parseDuration(effectiveScrapeInterval(spec));
  const timeout = parsed.scrapeTimeout;
  if (interval !== undefined && timeout !== undefined && timeout > interval) {
    problems.push({
      path: 'spec.scrapeTimeout',
      message: `scrapeTimeout "${spec.scrapeTimeout}" is greater than scrapeInterval "${effectiveScrapeInterval(spec)}"; Prometheus would refuse the configuration`,
    });
  }
  return problems;
}

/** Problems with the resource and namespace selectors. */
export function validateSelectors(spec: ValidatedFields): FieldProblem[] {
  return SELECTOR_FIELDS.flatMap((field) => {
    const selector = spec[field];
    return selector ? validateLabelSelector(selector, `spec.${field}`) : [];
  });
}
