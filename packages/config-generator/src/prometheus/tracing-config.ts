/**
 * The `tracing` section of prometheus.yaml from `spec.tracingConfig`, in prometheus-operator's key order:
 * endpoint, client_type, sampling_fraction, insecure, headers, compression, timeout, tls_config. TLS material from
 * Secrets and ConfigMaps becomes TLS asset files, as for remote write (http-client/tls-config.ts). What Prometheus
 * refuses when it loads the file (an unknown client type or compression, an Authorization or reserved header) and
 * what upstream refuses (a sampling fraction outside [0, 1]) is a problem at its path.
 */
import type { PrometheusSpec } from '@promop/crds';
import { sortedByKey } from '../go-map-order.ts';
import { renderTlsConfig, supports } from '../http-client/index.ts';
import { isPresent } from '../is-present.ts';
import { quantityValue } from '../values/quantity.ts';
import { checkRemoteHeaders } from './remote-endpoint-checks.ts';
import type { PrometheusRenderContext } from './render-context.ts';

type TracingSpec = NonNullable<PrometheusSpec['tracingConfig']>;

const PATH = 'spec.tracingConfig';

/** The first Prometheus with the `tracing` section (OpenTelemetry tracing replaced the Jaeger environment variables). */
const TRACING_SINCE = '2.34.0';

/**
 * Builds the `tracing` section, or undefined when `spec.tracingConfig` is absent or the Prometheus predates the
 * section (then with a warning: prometheus-operator writes it anyway, and that Prometheus refuses the whole file).
 */
export function buildTracingConfig(tracing: TracingSpec | null | undefined, context: PrometheusRenderContext): Record<string, unknown> | undefined {
  if (!isPresent(tracing) || !supports(context, TRACING_SINCE, PATH, 'tracing')) return undefined;
  const out: Record<string, unknown> = {};
  if (!tracing.endpoint) context.findings.problem(`${PATH}.endpoint`, 'is required: the host:port traces are sent to');
  out.endpoint = tracing.endpoint ?? '';
  if (isPresent(tracing.clientType)) {
    const clientType = String(tracing.clientType).toLowerCase();
    if (clientType !== 'grpc' && clientType !== 'http') context.findings.problem(`${PATH}.clientType`, `must be grpc or http, not "${tracing.clientType}"`);
    out.client_type = clientType;
  }
  if (isPresent(tracing.samplingFraction)) {
    const fraction = quantityValue(tracing.samplingFraction);
    if (fraction === undefined) context.findings.problem(`${PATH}.samplingFraction`, `"${tracing.samplingFraction}" is not a number (a quantity such as 0.1 or 100m)`);
    else if (fraction < 0 || fraction > 1) context.findings.problem(`${PATH}.samplingFraction`, `must be from 0 through 1, not ${tracing.samplingFraction}`);
    else out.sampling_fraction = fraction;
  }
  if (isPresent(tracing.insecure)) out.insecure = tracing.insecure;
  if (tracing.headers && Object.keys(tracing.headers).length > 0) {
    checkRemoteHeaders(tracing.headers, `${PATH}.headers`, context, 'Prometheus does not send a configured Authorization header with traces');
    out.headers = sortedByKey(tracing.headers);
  }
  if (isPresent(tracing.compression)) {
    const compression = String(tracing.compression).toLowerCase();
    if (compression !== 'gzip') context.findings.problem(`${PATH}.compression`, `must be gzip, not "${tracing.compression}"`);
    out.compression = compression;
  }
  if (tracing.timeout) out.timeout = tracing.timeout;
  if (tracing.tlsConfig) {
    const tls = renderTlsConfig(tracing.tlsConfig, `${PATH}.tlsConfig`, context);
    if (tls) out.tls_config = tls;
  }
  return out;
}
