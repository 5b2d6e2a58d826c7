/**
 * Which label and metric names a Prometheus accepts, in rule files and in its configuration
 * (relabelings, target labels). Prometheus 3 validates names as UTF-8 by default (any non-empty
 * UTF-8 text); Prometheus 2, or a Prometheus 3 configured with `nameValidationScheme: Legacy`,
 * only accepts the classic identifier syntax. promop checks names the way the Prometheus that
 * will load the file does, so a file it writes is never refused there. The one place for this
 * rule: scrape, Prometheus-level and rule checks all ask here.
 */
import type { PrometheusVersion } from '../prometheus-version.ts';

/** How names are validated: `legacy` = `[a-zA-Z_][a-zA-Z0-9_]*`, `utf8` = any non-empty UTF-8 text. */
export type NameValidationScheme = 'legacy' | 'utf8';

const LEGACY_LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const LEGACY_METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

/**
 * The scheme the given Prometheus applies when it loads its config and rule files:
 * `spec.nameValidationScheme` (Prometheus 3 only; `Legacy` or `UTF8`), else the version's default.
 */
export function nameValidationSchemeFor(version: PrometheusVersion, configuredScheme: unknown): NameValidationScheme {
  if (version.major < 3) return 'legacy';
  return typeof configuredScheme === 'string' && configuredScheme.toLowerCase() === 'legacy' ? 'legacy' : 'utf8';
}

/** True for names PromQL can write without quotes (`job`, `__name__`, not `app.kubernetes.io/name`). */
export function isLegacyLabelName(name: string): boolean {
  return LEGACY_LABEL_NAME.test(name);
}

/** True when `name` is a label name under `scheme`. */
export function isValidLabelName(name: string, scheme: NameValidationScheme): boolean {
  return scheme === 'legacy' ? LEGACY_LABEL_NAME.test(name) : name.length > 0 && name.isWellFormed();
}

/** True when `name` is a metric name under `scheme`. */
export function isValidMetricName(name: string, scheme: NameValidationScheme): boolean {
  return scheme === 'legacy' ? LEGACY_METRIC_NAME.test(name) : name.length > 0 && name.isWellFormed();
}

/** The sentence explaining what a valid label name looks like under `scheme`. */
export function labelNameRule(scheme: NameValidationScheme): string {
  return scheme === 'legacy' ? 'must match [a-zA-Z_][a-zA-Z0-9_]*' : 'must be non-empty UTF-8 text';
}

/** The sentence explaining what a valid metric name looks like under `scheme`. */
export function metricNameRule(scheme: NameValidationScheme): string {
  return scheme === 'legacy' ? 'must match [a-zA-Z_:][a-zA-Z0-9_:]*' : 'must be non-empty UTF-8 text';
}

/** What name checks need to know about the Prometheus that will load the output. */
export interface NameCheckContext {
  version: PrometheusVersion;
  nameValidationScheme: NameValidationScheme;
}
