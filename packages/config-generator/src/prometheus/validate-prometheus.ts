/**
 * Checks of the Prometheus object that make its whole configuration unusable: a version that is
 * not a version, intervals that are not durations, a scrape timeout longer than the interval,
 * selectors Kubernetes would not accept. These are reported on the Prometheus and the previous
 * configuration stays in place.
 */
import type { FieldProblem } from '../model.ts';
import type { NameCheckContext } from '../prometheus-names.ts';
import { parseDuration } from '../scrape/duration.ts';
import { validateRelabelConfigs, type RelabelConfigSpec } from '../scrape/relabeling.ts';
import { validateLabelSelector, type LabelSelectorSpec } from '../scrape/selector-relabelings.ts';

/** The spec fields checked here. */
export interface ValidatedFields {
  scrapeInterval?: string;
  scrapeTimeout?: string;
  evaluationInterval?: string;
  serviceMonitorSelector?: LabelSelectorSpec;
  serviceMonitorNamespaceSelector?: LabelSelectorSpec;
  podMonitorSelector?: LabelSelectorSpec;
  podMonitorNamespaceSelector?: LabelSelectorSpec;
  ruleSelector?: LabelSelectorSpec;
  ruleNamespaceSelector?: LabelSelectorSpec;
}

/** The selector fields, in the order their problems are reported. */
export const SELECTOR_FIELDS = [
  'serviceMonitorSelector',
  'serviceMonitorNamespaceSelector',
  'podMonitorSelector',
  'podMonitorNamespaceSelector',
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
  const interval = spec.scrapeInterval ? parsed.scrapeInterval : 30_000;
  const timeout = parsed.scrapeTimeout;
  if (interval !== undefined && timeout !== undefined && timeout > interval) {
    problems.push({
      path: 'spec.scrapeTimeout',
      message: `scrapeTimeout "${spec.scrapeTimeout}" is greater than scrapeInterval "${spec.scrapeInterval || '30s'}"; Prometheus would refuse the configuration`,
    });
  }
  return problems;
}

/** The parts of a scrape class checked here. */
export interface ScrapeClassFields {
  name?: string;
  default?: boolean;
  relabelings?: RelabelConfigSpec[];
  metricRelabelings?: RelabelConfigSpec[];
}

/**
 * Problems with spec.scrapeClasses, as prometheus-operator fails the reconcile on them: a second
 * class marked `default` (which one would apply?), and relabelings the Prometheus would refuse
 * (they are copied into every job using the class, so they would break the whole file).
 */
export function validateScrapeClasses(classes: readonly ScrapeClassFields[] | undefined, target: NameCheckContext): FieldProblem[] {
  const problems: FieldProblem[] = [];
  let firstDefault: string | undefined;
  (classes ?? []).forEach((scrapeClass, i) => {
    const path = `spec.scrapeClasses[${i}]`;
    problems.push(...validateRelabelConfigs(scrapeClass.relabelings, `${path}.relabelings`, target));
    problems.push(...validateRelabelConfigs(scrapeClass.metricRelabelings, `${path}.metricRelabelings`, target));
    if (scrapeClass.default !== true) return;
    if (firstDefault === undefined) firstDefault = scrapeClass.name ?? '';
    else problems.push({ path: `${path}.default`, message: `only one scrape class can be the default, and "${firstDefault}" already is` });
  });
  return problems;
}

/** Problems with the six resource and namespace selectors. */
export function validateSelectors(spec: ValidatedFields): FieldProblem[] {
  return SELECTOR_FIELDS.flatMap((field) => {
    const selector = spec[field];
    return selector ? validateLabelSelector(selector, `spec.${field}`) : [];
  });
}
