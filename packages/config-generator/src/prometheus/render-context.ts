/**
 * The state shared by the modules that render the Prometheus-level parts of prometheus.yaml.
 * It is the HTTP client context (Secrets are read from the Prometheus' own namespace) plus the
 * Prometheus' name; its findings hold Prometheus-level problems, any one of which makes the
 * generator keep the previous config, and warnings such as fields dropped for the version.
 */
import { Findings, type HttpClientContext } from '../http-client/render-context.ts';
import type { NameValidationScheme } from '../values/prometheus-names.ts';
import type { PrometheusVersion } from '../prometheus-version.ts';
import type { SecretStore } from '../secret-store.ts';

/** Context for rendering one Prometheus object's own settings. */
export interface PrometheusRenderContext extends HttpClientContext {
  name: string;
  /** Label names the Prometheus accepts in its relabelings (write, alert and Alertmanager ones). */
  nameValidationScheme: NameValidationScheme;
}

/** Creates a context with empty findings and TLS assets. */
export function createRenderContext(
  prometheus: { namespace: string; name: string },
  version: PrometheusVersion,
  nameValidationScheme: NameValidationScheme,
  secrets: SecretStore,
): PrometheusRenderContext {
  return { namespace: prometheus.namespace, name: prometheus.name, version, nameValidationScheme, secrets, findings: new Findings(), tlsAssets: {} };
}
