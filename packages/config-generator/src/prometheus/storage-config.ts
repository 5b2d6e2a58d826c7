/**
 * The `storage` block: exemplar storage, the TSDB settings of `spec.tsdb` (out-of-order window, stale series
 * compaction threshold, float chunk encoding) and, for Prometheus >= 3.11, retention (which older versions take as
 * command-line flags instead; the StatefulSet builder handles those).
 */
import type { PrometheusSpec } from '@promop/crds';
import { isAtLeast, type PrometheusVersion } from '../prometheus-version.ts';
import { supports } from '../http-client/index.ts';
import { parseByteSize } from '../values/byte-size.ts';
import { parseDuration } from '@promop/prometheus-lang';
import { quantityValue } from '../values/quantity.ts';
import type { PrometheusRenderContext } from './render-context.ts';

/** Retention when neither `retention` nor `retentionSize` is set, as prometheus-operator. */
export const DEFAULT_RETENTION = '24h';
/** First Prometheus version that reads retention from the config file. */
export const RETENTION_IN_CONFIG_SINCE = '3.11.0';

/** The fields of the Prometheus spec that the storage block reads. */
export type StorageFields = Pick<PrometheusSpec, 'retention' | 'retentionSize' | 'exemplars' | 'tsdb' | 'enableFeatures'>;

/** The Prometheus feature flag that makes float chunks store start timestamps, which XOR chunks cannot hold. */
export const ST_STORAGE_FEATURE = 'st-storage';
/** The feature flag prometheus-operator adds for `chunkEncoding.floats: Xor2` (3.13+), unless already listed. */
export const XOR2_ENCODING_FEATURE = 'xor2-encoding';
/** First Prometheus with `storage.tsdb.chunk_encoding` (and the xor2-encoding feature). */
export const CHUNK_ENCODING_SINCE = '3.13.0';

/** True when `spec.tsdb.chunkEncoding.floats: Xor2` calls for the xor2-encoding feature flag on this version. */
export function needsXor2EncodingFeature(spec: Pick<PrometheusSpec, 'tsdb' | 'enableFeatures'>, version: PrometheusVersion): boolean {
  return spec.tsdb?.chunkEncoding?.floats === 'Xor2' && isAtLeast(version, CHUNK_ENCODING_SINCE) && !(spec.enableFeatures ?? []).includes(XOR2_ENCODING_FEATURE);
}

/** True when this Prometheus version takes retention from the config file rather than flags. */
export function retentionInConfigFile(version: PrometheusVersion): boolean {
  return isAtLeast(version, RETENTION_IN_CONFIG_SINCE);
}

/**
 * Builds the `storage` block, or undefined when there is nothing to put in it. `agent` (a PrometheusAgent, whose
 * WAL is truncated once remote-written, not by a retention) leaves the retention out, and its Prometheus reads the
 * out-of-order window from 2.54 only, as prometheus-operator gates it.
 */
export function buildStorageConfig(spec: StorageFields, context: PrometheusRenderContext, options: { agent: boolean } = { agent: false }): Record<string, unknown> | undefined {
  const storage: Record<string, unknown> = {};
  const maxExemplars = spec.exemplars?.maxSize;
  if (maxExemplars !== null && maxExemplars !== undefined && supports(context, '2.29.0', 'spec.exemplars.maxSize', 'max_exemplars')) {
    storage.exemplars = { max_exemplars: maxExemplars };
  }
  // The CRD pattern's ^ anchors only its first alternative: "x1KB" passes the API server, and Prometheus refuses it
  // (in the config file from 3.11, as a flag before).
  if (!options.agent && spec.retentionSize && parseByteSize(spec.retentionSize) === undefined) {
    context.findings.problem('spec.retentionSize', `"${spec.retentionSize}" is not a size like 512MB or 1GiB`);
  }
  const tsdb = buildTsdbSettings(spec, context, options.agent);
  if (!options.agent && retentionInConfigFile(context.version)) {
    const retention: Record<string, unknown> = {};
    if (spec.retention) retention.time = spec.retention;
    if (spec.retentionSize) retention.size = spec.retentionSize;
    if (!spec.retention && !spec.retentionSize) retention.time = DEFAULT_RETENTION;
    tsdb.retention = retention;
  }
  if (Object.keys(tsdb).length > 0) storage.tsdb = tsdb;
  return Object.keys(storage).length > 0 ? storage : undefined;
}

/**
 * `spec.tsdb` as the keys of `storage.tsdb`, in prometheus-operator's order, each dropped with a warning for a
 * Prometheus that predates it. Upstream refuses a threshold outside [0, 1] and Xor chunks beside the st-storage
 * feature for every version; so does promop, at the field's path.
 */
function buildTsdbSettings(spec: StorageFields, context: PrometheusRenderContext, agent: boolean): Record<string, unknown> {
  const tsdb: Record<string, unknown> = {};
  const settings = spec.tsdb;
  if (settings === undefined || settings === null) return tsdb;
  const window = settings.outOfOrderTimeWindow;
  // Beyond the schema's pattern (an object stored before the field was typed, or `promop render` of a file).
  if (window !== undefined && window !== null && window !== '' && (typeof window !== 'string' || parseDuration(window) === undefined)) {
    context.findings.problem('spec.tsdb.outOfOrderTimeWindow', `${JSON.stringify(window)} is not a duration like 30m or 1h`);
  }
  if (window && supports(context, agent ? '2.54.0' : '2.39.0', 'spec.tsdb.outOfOrderTimeWindow', 'out_of_order_time_window')) {
    tsdb.out_of_order_time_window = window;
  }
  const threshold = settings.staleSeriesCompactionThreshold;
  if (threshold !== undefined && threshold !== null) {
    const path = 'spec.tsdb.staleSeriesCompactionThreshold';
    const value = typeof threshold === 'string' || typeof threshold === 'number' ? quantityValue(threshold) : undefined;
    if (value === undefined) context.findings.problem(path, `${JSON.stringify(threshold)} is not a number (a quantity such as 0.5 or 500m)`);
    else if (value < 0 || value > 1) context.findings.problem(path, `must be from 0 through 1 (a share of the series in memory), not ${threshold}`);
    else if (supports(context, '3.10.0', path, 'stale_series_compaction_threshold')) tsdb.stale_series_compaction_threshold = value;
  }
  const floats = settings.chunkEncoding?.floats;
  if (floats !== undefined && floats !== null) {
    const path = 'spec.tsdb.chunkEncoding.floats';
    if (floats !== 'Xor' && floats !== 'Xor2') context.findings.problem(path, `must be Xor or Xor2, not ${JSON.stringify(floats)}`);
    else if (floats === 'Xor' && (spec.enableFeatures ?? []).includes(ST_STORAGE_FEATURE)) {
      context.findings.problem(path, `Xor cannot be combined with the ${ST_STORAGE_FEATURE} feature in spec.enableFeatures: XOR chunks do not store start timestamps`);
    } else if (supports(context, CHUNK_ENCODING_SINCE, path, 'chunk_encoding')) tsdb.chunk_encoding = { floats: floats.toLowerCase() };
  }
  return tsdb;
}
