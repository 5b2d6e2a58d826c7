/**
 * `remote_write` from `spec.remoteWrite`, in prometheus-operator's key order. Credentials are
 * read from Secrets in the Prometheus' namespace; a missing one is a Prometheus-level problem.
 */
import type { RemoteWriteSpec } from '@promop/crds';
import { sortedByKey } from '../go-map-order.ts';
import { supports } from '../http-client/index.ts';
import { appendRemoteStorageClient, renderClientPieces } from './client-auth.ts';
import { checkHttpUrl } from '../values/go-url.ts';
import { renderRelabelConfigs, validateRelabelConfigs } from '../values/relabeling.ts';
import { isPresent } from '../is-present.ts';
import { checkRemoteHeaders, checkUniqueNames } from './remote-endpoint-checks.ts';
import type { PrometheusRenderContext } from './render-context.ts';
import { renderSigv4 } from './sigv4.ts';

/** Remote write queue tuning. */
type QueueConfig = NonNullable<RemoteWriteSpec['queueConfig']>;

const PROTOBUF_MESSAGES: Record<string, string> = { 'V1.0': 'prometheus.WriteRequest', 'V2.0': 'io.prometheus.write.v2.Request' };

/** Renders every remote write endpoint. */
export function buildRemoteWriteConfigs(remoteWrites: readonly RemoteWriteSpec[], context: PrometheusRenderContext): Array<Record<string, unknown>> {
  checkUniqueNames(remoteWrites, 'spec.remoteWrite', context);
  return remoteWrites.map((spec, index) => renderRemoteWrite(spec, `spec.remoteWrite[${index}]`, context));
}

function renderRemoteWrite(spec: RemoteWriteSpec, path: string, context: PrometheusRenderContext): Record<string, unknown> {
  checkHttpUrl(spec.url, `${path}.url`, context);
  const out: Record<string, unknown> = { url: spec.url ?? '' };
  if (spec.remoteTimeout) out.remote_timeout = spec.remoteTimeout;
  checkRemoteHeaders(spec.headers, `${path}.headers`, context);
  if (spec.headers && Object.keys(spec.headers).length > 0 && supports(context, '2.15.0', `${path}.headers`, 'headers')) out.headers = sortedByKey(spec.headers);
  if (spec.name && supports(context, '2.15.0', `${path}.name`, 'name')) out.name = spec.name;
  if (spec.messageVersion) {
    const message = PROTOBUF_MESSAGES[spec.messageVersion];
    if (message === undefined) context.findings.problem(`${path}.messageVersion`, `messageVersion must be V1.0 or V2.0, got "${spec.messageVersion}"`);
    else if (supports(context, '2.54.0', `${path}.messageVersion`, 'protobuf_message')) out.protobuf_message = message;
  }
  if (isPresent(spec.sendExemplars) && supports(context, '2.27.0', `${path}.sendExemplars`, 'send_exemplars')) out.send_exemplars = spec.sendExemplars;
  if (isPresent(spec.sendNativeHistograms) && supports(context, '2.40.0', `${path}.sendNativeHistograms`, 'send_native_histograms')) {
    out.send_native_histograms = spec.sendNativeHistograms;
  }
  if (spec.writeRelabelConfigs && spec.writeRelabelConfigs.length > 0) {
    for (const problem of validateRelabelConfigs(spec.writeRelabelConfigs, `${path}.writeRelabelConfigs`, context)) context.findings.add(problem);
    out.write_relabel_configs = renderRelabelConfigs(spec.writeRelabelConfigs);
  }

  appendRemoteStorageClient(out, renderClientPieces(spec, path, context));
  if (spec.sigv4) {
    // Prometheus accepts one way of authenticating per endpoint and sigv4 is one of them.
    const others = (['basicAuth', 'authorization', 'oauth2', 'bearerToken', 'bearerTokenFile'] as const).filter((field) => spec[field]);
    if (others.length > 0) context.findings.problem(`${path}.sigv4`, `sigv4 cannot be combined with ${others.join(' or ')}: set only one authentication method`);
    else if (supports(context, '2.26.0', `${path}.sigv4`, 'sigv4')) out.sigv4 = renderSigv4(spec.sigv4, `${path}.sigv4`, context);
  }
  if (spec.azureAd) {
    // Azure AD has many variants; promop passes none of them yet, and says so rather than
    // silently sending unauthenticated writes.
    context.findings.problem(`${path}.azureAd`, 'azureAd is not supported by promop yet');
  }
  if (isPresent(spec.followRedirects) && supports(context, '2.26.0', `${path}.followRedirects`, 'follow_redirects')) out.follow_redirects = spec.followRedirects;
  if (isPresent(spec.enableHTTP2) && supports(context, '2.35.0', `${path}.enableHTTP2`, 'enable_http2')) out.enable_http2 = spec.enableHTTP2;
  if (spec.queueConfig) out.queue_config = renderQueueConfig(spec.queueConfig, `${path}.queueConfig`, context);
  if (spec.metadataConfig && supports(context, '2.23.0', `${path}.metadataConfig`, 'metadata_config')) {
    // Remote write 2.0 carries metadata inside the samples; the separate metadata stream must be off.
    const metadata: Record<string, unknown> = { send: spec.messageVersion === 'V2.0' ? false : spec.metadataConfig.send ?? false };
    if (spec.metadataConfig.sendInterval) metadata.send_interval = spec.metadataConfig.sendInterval;
    if (isPresent(spec.metadataConfig.maxSamplesPerSend) && supports(context, '2.29.0', `${path}.metadataConfig.maxSamplesPerSend`, 'max_samples_per_send')) {
      metadata.max_samples_per_send = spec.metadataConfig.maxSamplesPerSend;
    }
    out.metadata_config = metadata;
  }
  if (isPresent(spec.roundRobinDNS) && supports(context, '3.1.0', `${path}.roundRobinDNS`, 'round_robin_dns')) out.round_robin_dns = spec.roundRobinDNS;
  return out;
}

function renderQueueConfig(queue: QueueConfig, path: string, context: PrometheusRenderContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (queue.capacity) out.capacity = queue.capacity;
  if (queue.minShards && supports(context, '2.6.0', `${path}.minShards`, 'min_shards')) out.min_shards = queue.minShards;
  if (queue.maxShards) out.max_shards = queue.maxShards;
  if (queue.maxSamplesPerSend) out.max_samples_per_send = queue.maxSamplesPerSend;
  if (queue.batchSendDeadline) out.batch_send_deadline = queue.batchSendDeadline;
  if (queue.maxRetries) {
    // Prometheus 2.11 replaced retry counting with backoff and no longer reads the key.
    context.findings.warn(`${path}.maxRetries: ignored because Prometheus ${context.version.text} does not support "max_retries" (removed in v2.11.0)`);
  }
  if (queue.minBackoff) out.min_backoff = queue.minBackoff;
  if (queue.maxBackoff) out.max_backoff = queue.maxBackoff;
  if (queue.retryOnRateLimit && supports(context, '2.26.0', `${path}.retryOnRateLimit`, 'retry_on_http_429')) out.retry_on_http_429 = true;
  if (queue.sampleAgeLimit && supports(context, '2.50.0', `${path}.sampleAgeLimit`, 'sample_age_limit')) out.sample_age_limit = queue.sampleAgeLimit;
  return out;
}
