/**
 * Prometheus versions: which one a Prometheus object asks for, and feature gating on it.
 * Fields a version does not support are dropped with a warning (never an error), as
 * prometheus-operator does. Reading a version and comparing releases is @promop/prometheus-lang's, whose
 * language checks gate on the same releases.
 */
import { readPrometheusVersion, type PrometheusVersion } from '@promop/prometheus-lang';

export { isAtLeast, type PrometheusVersion } from '@promop/prometheus-lang';

/** The Prometheus version promop deploys when `spec.version` is empty; the one our tests run. */
export const DEFAULT_PROMETHEUS_VERSION = 'v3.16.0';

/**
 * Parses `spec.version` (`v3.5.0`, `3.5.0`, `v3.5`); an empty value means the default.
 * Returns undefined for text that is not a version, so the caller can report it.
 */
export function parsePrometheusVersion(version: string | undefined): PrometheusVersion | undefined {
  return readPrometheusVersion(version === undefined || version === '' ? DEFAULT_PROMETHEUS_VERSION : version);
}

/** The problem reported for a `spec.version` that parsePrometheusVersion cannot read. */
export function invalidVersionProblem(version: string | null | undefined): { path: string; message: string } {
  return { path: 'spec.version', message: `"${version ?? ''}" is not a Prometheus version such as v3.5.0` };
}
