/**
 * `spec.apiserverConfig`: how Prometheus reaches the Kubernetes API for service discovery when
 * not in-cluster. Rendered once as the keys every `kubernetes_sd_configs` entry gets (monitors'
 * and Alertmanagers'), in upstream order: api_server, basic_auth, bearer_token,
 * bearer_token_file, authorization, tls_config, proxy settings.
 */
import type { ApiServerConfig } from '@promop/crds';
import { renderClientPieces } from './client-auth.ts';
import { checkHttpUrl } from '../values/go-url.ts';
import type { PrometheusRenderContext } from './render-context.ts';

const PATH = 'spec.apiserverConfig';

/** The keys to add to each kubernetes_sd_configs entry, or undefined for in-cluster discovery. */
export function buildApiServerSdKeys(spec: ApiServerConfig | undefined, context: PrometheusRenderContext): Record<string, unknown> | undefined {
  if (!spec) return undefined;
  checkHttpUrl(spec.host, `${PATH}.host`, context);
  const client = renderClientPieces(spec, PATH, context);
  if (client.oauth2) context.findings.problem(`${PATH}.oauth2`, 'oauth2 is not available for the API server connection');
  const keys: Record<string, unknown> = { api_server: spec.host ?? '' };
  if (client.basic_auth) keys.basic_auth = client.basic_auth;
  if (client.bearer_token) keys.bearer_token = client.bearer_token;
  if (client.bearer_token_file) keys.bearer_token_file = client.bearer_token_file;
  if (client.authorization) keys.authorization = client.authorization;
  if (client.tls_config) keys.tls_config = client.tls_config;
  Object.assign(keys, client.proxy);
  return keys;
}
