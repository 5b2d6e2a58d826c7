/**
 * `spec.tracingConfig` of a Prometheus or PrometheusAgent (prometheus-operator's TracingConfig): where Prometheus
 * sends the traces of its own work (the `tracing` section of prometheus.yaml).
 */
import { bool, duration, intOrString, oneOf, stringMap } from './common.ts';
import { tlsConfigSchema } from './tls-config.ts';

/** Tracing of Prometheus itself. */
export const tracingConfigSchema = {
  type: 'object',
  description: 'Where Prometheus sends traces of its own work (experimental in prometheus-operator).',
  required: ['endpoint'],
  additionalProperties: false,
  properties: {
    clientType: oneOf(['http', 'grpc', 'HTTP', 'GRPC'], 'Protocol of the exporter (default grpc).'),
    endpoint: { type: 'string', minLength: 1, description: 'Where traces are sent, as host:port.' },
    // A Kubernetes quantity. Upstream's CRD also has the quantity pattern, which ajv's strict mode refuses beside
    // an int-or-string; the generator checks the value instead (prometheus/tracing-config.ts).
    samplingFraction: intOrString('Probability that a trace is sampled, from 0 to 1 (a quantity such as 0.1 or 100m).'),
    insecure: bool('Send without TLS.'),
    headers: stringMap('Headers sent with every export request.'),
    compression: oneOf(['gzip', 'Gzip'], 'Compress export requests.'),
    timeout: duration('How long one export may take.'),
    tlsConfig: tlsConfigSchema,
  },
} as const;
