/**
 * What every HTTP client renderer needs: where to look up Secrets, which Prometheus version the
 * output is for, and where to record problems, warnings and TLS files. The same context serves
 * scrape configs (monitor namespace) and Prometheus-level clients such as remote_write and
 * alertmanagers (Prometheus namespace).
 */
import type { SecretStore } from '../secret-store.ts';
import { isAtLeast, type PrometheusVersion } from '../prometheus-version.ts';
import { Findings } from '../findings.ts';

export { Findings };

/** Inputs shared by all HTTP client renderers. */
export interface HttpClientContext {
  /** Namespace of the resource holding the references; Secrets are read only from there. */
  namespace: string;
  secrets: SecretStore;
  version: PrometheusVersion;
  findings: Findings;
  /** TLS material collected while rendering: file name under CERTS_DIR → PEM text. */
  tlsAssets: Record<string, string>;
  /** Where the pod mounts those files, when not CERTS_DIR (a Thanos Ruler's pod mounts them elsewhere). */
  certsDir?: string;
}

/**
 * Version gate, as prometheus-operator's `WithMinimumVersion`: a field the configured Prometheus
 * does not know is dropped with a warning instead of breaking the whole config.
 * Returns whether the field may be emitted.
 */
export function supports(ctx: { version: PrometheusVersion; findings: Findings }, minimum: string, path: string, key: string): boolean {
  if (isAtLeast(ctx.version, minimum)) return true;
  ctx.findings.warn(`${path}: ignored because Prometheus ${ctx.version.text} does not support "${key}" (needs v${minimum.replace(/^v/, '')} or later)`);
  return false;
}
