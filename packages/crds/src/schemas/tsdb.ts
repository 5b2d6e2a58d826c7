/**
 * `spec.tsdb` of a Prometheus or PrometheusAgent (prometheus-operator's TSDBSpec): the TSDB settings Prometheus
 * reloads from its configuration file (`storage.tsdb`).
 */
import { duration, intOrString, oneOf } from './common.ts';

/** The float chunk encodings prometheus-operator admits (written lower-cased, as Prometheus reads them). */
export const CHUNK_ENCODING_FLOATS = ['Xor', 'Xor2'] as const;

/** TSDB settings reloaded from the configuration file. */
export const tsdbSpecSchema = {
  type: 'object',
  description: 'TSDB settings written into storage.tsdb of the configuration (Prometheus 2.39+, agent 2.54+).',
  additionalProperties: false,
  properties: {
    outOfOrderTimeWindow: duration('How far behind the newest sample an out-of-order sample is still ingested (Prometheus 2.39+, agent 2.54+).'),
    // A Kubernetes quantity, as samplingFraction: the generator reads and bounds it (prometheus/storage-config.ts).
    staleSeriesCompactionThreshold: intOrString('Share of stale series in memory, from 0 to 1, above which they are compacted at once; 0 disables it (Prometheus 3.10+).'),
    chunkEncoding: {
      type: 'object',
      description: 'Encoding overrides per chunk type (Prometheus 3.13+).',
      additionalProperties: false,
      properties: {
        floats: oneOf(CHUNK_ENCODING_FLOATS, 'Encoding of float chunks; Xor2 also turns on the xor2-encoding feature, Xor cannot be combined with the st-storage feature.'),
      },
    },
  },
} as const;
