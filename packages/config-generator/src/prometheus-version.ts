/**
 * Prometheus versions: which one a Prometheus object asks for, and feature gating on it.
 * Fields a version does not support are dropped with a warning (never an error), as
 * prometheus-operator does.
 */

/** The Prometheus version promop deploys when `spec.version` is empty; the one our tests run. */
export const DEFAULT_PROMETHEUS_VERSION = 'v3.16.0';

/** A parsed semantic version. */
export interface PrometheusVersion {
  major: number;
  minor: number;
  patch: number;
  /** As the user wrote it (or the default), e.g. `v3.16.0`. */
  text: string;
}

/**
 * Parses `spec.version` (`v3.5.0`, `3.5.0`, `v3.5`); an empty value means the default.
 * Returns undefined for text that is not a version, so the caller can report it.
 */
export function parsePrometheusVersion(version: string | undefined): PrometheusVersion | undefined {
  const text = version === undefined || version === '' ? DEFAULT_PROMETHEUS_VERSION : version;
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3] ?? 0), text };
}

/** True when `version` is at least `minimum` (`'2.45.0'` or `'v2.45.0'`). */
export function isAtLeast(version: PrometheusVersion, minimum: string): boolean {
  const min = parsePrometheusVersion(minimum);
  if (!min) throw new Error(`bug: bad minimum version literal ${minimum}`);
  if (version.major !== min.major) return version.major > min.major;
  if (version.minor !== min.minor) return version.minor > min.minor;
  return version.patch >= min.patch;
}

/** The problem reported for a `spec.version` that parsePrometheusVersion cannot read. */
export function invalidVersionProblem(version: string | null | undefined): { path: string; message: string } {
  return { path: 'spec.version', message: `"${version ?? ''}" is not a Prometheus version such as v3.5.0` };
}
