/**
 * `remote_write` from `spec.remoteWrite`, in prometheus-operator's key order. Credentials are
 * read from Secrets in the Prometheus' namespace; a missing one is a Prometheus-level problem.
 * Authentication is one of the HTTP client's methods, sigv4, Azure AD (azure-ad.ts) or Google IAM.
 */
import type { RemoteWriteSpec } from '@promop/crds';
import { sortedByKey } from '../go-map-order.ts';
import { supports } from '../http-client/index.ts';
import { appendRemoteStorageClient, renderClientPieces } from './client-auth.ts';
import { checkHttpUrl } from '../values/go-url.ts';
import { renderRelabelConfigs, validateRelabelConfigs } from '../values/relabeling.ts';
import { isPresent } from '../is-present.ts';
import { isAtLeast } from '../prometheus-version.ts';
import { checkRemoteHeaders, checkUniqueNames } from './remote-endpoint-checks.ts';
import type { PrometheusRenderContext } from './render-context.ts';
import { renderAzureAd } from './azure-ad.ts';
import { renderSigv4 } from './sigv4.ts';

/** Remote write queue tuning. */
type QueueConfig = NonNullable<RemoteWriteSpec['queueConfig']>;

/** The protobuf message of each remote write protocol version (`messageVersion`, `remoteWriteReceiverMessageVersions`). */
export const REMOTE_WRITE_PROTOBUF_MESSAGES: Readonly<Record<string, string>> = { 'V1.0': 'prometheus.WriteRequest', 'V2.0': 'io.prometheus.write.v2.Request' };

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
    const message = REMOTE_WRITE_PROTOBUF_MESSAGES[spec.messageVersion];
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
  appendTokenAuth(out, spec, path, context);
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

/** The first Prometheus with `google_iam` in remote write. */
const GOOGLE_IAM_SINCE = '2.55.0';

/** The authentication methods of the HTTP client (client-auth.ts), each of which excludes sigv4, azureAd and googleIam. */
const CLIENT_AUTH_FIELDS = ['basicAuth', 'authorization', 'oauth2', 'bearerToken', 'bearerTokenFile'] as const;

/**
 * `sigv4`, `azuread` and `google_iam`, after the client's own fields as upstream orders them. Prometheus accepts one
 * way of authenticating per endpoint (config.go, validateAuthConfigs; bearer_token counts as authorization), so
 * each of the three set beside another method is a problem at its path, naming the others.
 */
function appendTokenAuth(out: Record<string, unknown>, spec: RemoteWriteSpec, path: string, context: PrometheusRenderContext): void {
  const others: string[] = CLIENT_AUTH_FIELDS.filter((field) => spec[field]);
  const conflicts = (field: 'sigv4' | 'azureAd' | 'googleIam'): boolean => {
    const conflicting = others.length > 0;
    if (conflicting) context.findings.problem(`${path}.${field}`, `${field} cannot be combined with ${others.join(' or ')}: set only one authentication method`);
    others.push(field);
    return conflicting;
  };
  if (spec.sigv4 && !conflicts('sigv4') && supports(context, '2.26.0', `${path}.sigv4`, 'sigv4')) out.sigv4 = renderSigv4(spec.sigv4, `${path}.sigv4`, context);
  if (spec.azureAd && !conflicts('azureAd')) {
    const azureAd = renderAzureAd(spec.azureAd, path, context);
    if (azureAd) out.azuread = azureAd;
  }
  if (spec.googleIam && !conflicts('googleIam')) {
    // Not a prometheus-operator field, so no upstream to follow: refused rather than dropped for an older
    // Prometheus, since dropping it would send the samples without credentials.
    if (!isAtLeast(context.version, GOOGLE_IAM_SINCE)) {
      context.findings.problem(`${path}.googleIam`, `needs Prometheus ${GOOGLE_IAM_SINCE} or later (this Prometheus is ${context.version.text})`);
    } else {
      out.google_iam = spec.googleIam.credentialsFile ? { credentials_file: spec.googleIam.credentialsFile } : {};
    }
  }
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
