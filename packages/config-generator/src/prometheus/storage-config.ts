/**
 * The `storage` block: exemplar storage, TSDB out-of-order window and, for Prometheus >= 3.11,
 * retention (which older versions take as command-line flags instead; the StatefulSet builder
 * handles those).
 */
import type { PrometheusSpec } from '@promop/crds';
import { isAtLeast, type PrometheusVersion } from '../prometheus-version.ts';
import { supports } from '../http-client/index.ts';
import { parseByteSize } from '../values/byte-size.ts';
import { parseDuration } from '@promop/prometheus-lang';
import type { PrometheusRenderContext } from './render-context.ts';

/** Retention when neither `retention` nor `retentionSize` is set, as prometheus-operator. */
export const DEFAULT_RETENTION = '24h';
/** First Prometheus version that reads retention from the config file. */
export const RETENTION_IN_CONFIG_SINCE = '3.11.0';

/** The fields of the Prometheus spec that the storage block reads. */
export type StorageFields = Pick<PrometheusSpec, 'retention' | 'retentionSize' | 'exemplars' | 'tsdb'>;

/** True when this Prometheus version takes retention from the config file rather than flags. */
export function retentionInConfigFile(version: PrometheusVersion): boolean {
  return isAtLeast(version, RETENTION_IN_CONFIG_SINCE);
}

/**
 * Builds the `storage` block, or undefined when there is nothing to put in it. `retention: false` (an agent, whose
 * WAL is truncated once remote-written, not by a retention) leaves the retention out.
 */
export function buildStorageConfig(spec: StorageFields, context: PrometheusRenderContext, options: { retention: boolean } = { retention: true }): Record<string, unknown> | undefined {
  const storage: Record<string, unknown> = {};
  const maxExemplars = spec.exemplars?.maxSize;
  if (maxExemplars !== null && maxExemplars !== undefined && supports(context, '2.29.0', 'spec.exemplars.maxSize', 'max_exemplars')) {
    storage.exemplars = { max_exemplars: maxExemplars };
  }
  const tsdb: Record<string, unknown> = {};
  const window = spec.tsdb?.outOfOrderTimeWindow;
  // tsdb is opaque in the CRD, so nothing but this check stands between the value and Prometheus' duration parser.
  if (window !== undefined && window !== null && window !== '' && (typeof window !== 'string' || parseDuration(window) === undefined)) {
    context.findings.problem('spec.tsdb.outOfOrderTimeWindow', `${JSON.stringify(window)} is not a duration like 30m or 1h`);
  }
  // The CRD pattern's ^ anchors only its first alternative: "x1KB" passes the API server, and Prometheus refuses it
  // (in the config file from 3.11, as a flag before).
  if (options.retention && spec.retentionSize && parseByteSize(spec.retentionSize) === undefined) {
    context.findings.problem('spec.retentionSize', `"${spec.retentionSize}" is not a size like 512MB or 1GiB`);
  }
  if (window && supports(context, '2.39.0', 'spec.tsdb.outOfOrderTimeWindow', 'out_of_order_time_window')) {
    tsdb.out_of_order_time_window = window;
  }
  if (options.retention && retentionInConfigFile(context.version)) {
    const retention: Record<string, unknown> = {};
    if (spec.retention) retention.time = spec.retention;
    if (spec.retentionSize) retention.size = spec.retentionSize;
    if (!spec.retention && !spec.retentionSize) retention.time = DEFAULT_RETENTION;
    tsdb.retention = retention;
  }
  if (Object.keys(tsdb).length > 0) storage.tsdb = tsdb;
  return Object.keys(storage).length > 0 ? storage : undefined;
}
