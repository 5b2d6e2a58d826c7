/**
 * Prometheus release numbers, and the one question the language checks ask of them: is the target at least the
 * release that added a function, an operator or a syntax? Which version a Prometheus object asks for (and the
 * default when it asks for none) is the operator's business, not this package's.
 */

/** A parsed semantic version. */
export interface PrometheusVersion {
  major: number;
  minor: number;
  patch: number;
  /** As written, e.g. `v3.16.0`; messages name the release this way. */
  text: string;
}

/** Reads `v3.5.0`, `3.5.0` or `v3.5` (a pre-release or build suffix is ignored); undefined for text that is not a version. */
export function readPrometheusVersion(text: string): PrometheusVersion | undefined {
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3] ?? 0), text };
}

/** True when `version` is at least `minimum` (`'2.45.0'` or `'v2.45.0'`). */
export function isAtLeast(version: PrometheusVersion, minimum: string): boolean {
  const min = readPrometheusVersion(minimum);
  if (!min) throw new Error(`bug: bad minimum version literal ${minimum}`);
  if (version.major !== min.major) return version.major > min.major;
  if (version.minor !== min.minor) return version.minor > min.minor;
  return version.patch >= min.patch;
}

/** `version` itself, or the version `text` names; a text that names none is the caller's bug. */
export function toPrometheusVersion(version: PrometheusVersion | string): PrometheusVersion {
  if (typeof version !== 'string') return version;
  const read = readPrometheusVersion(version);
  if (!read) throw new TypeError(`"${version}" is not a Prometheus version such as v3.16.0`);
  return read;
}
