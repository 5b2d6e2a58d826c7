/**
 * The authentication, TLS and proxy part shared by remote_write, remote_read and alertmanager
 * clients of the Prometheus object, built from the HTTP client renderers. Each caller places
 * the pieces in its own upstream key order, so this returns them separately.
 */
import type { ProxyConfig, RemoteWriteSpec } from '@promop/crds';
import {
  appendProxy,
  checkAuthExclusivity,
  renderAuthorization,
  renderBasicAuth,
  renderOAuth2,
  renderTlsConfig,
} from '../http-client/index.ts';
import type { PrometheusRenderContext } from './render-context.ts';

/**
 * The client fields as remote write has them all; remote read, Alertmanager endpoints and the API server
 * connection each have a subset (Alertmanagers take SafeAuthorization, without oauth2 or bearerToken).
 */
export type ClientSpec = Pick<RemoteWriteSpec, 'basicAuth' | 'oauth2' | 'authorization' | 'bearerToken' | 'bearerTokenFile' | 'tlsConfig' | keyof ProxyConfig>;

/** Rendered client pieces; absent keys were not set (or were dropped for the version). */
export interface ClientPieces {
  basic_auth?: Record<string, unknown>;
  bearer_token?: string;
  bearer_token_file?: string;
  oauth2?: Record<string, unknown>;
  tls_config?: Record<string, unknown>;
  authorization?: Record<string, unknown>;
  /** proxy_url, no_proxy, proxy_from_environment, proxy_connect_header, in that order. */
  proxy: Record<string, unknown>;
}

/** Renders a client's auth/TLS/proxy fields found at `path`, recording problems in the context. */
export function renderClientPieces(spec: ClientSpec, path: string, context: PrometheusRenderContext): ClientPieces {
  checkAuthExclusivity(
    {
      basicAuth: spec.basicAuth ?? undefined,
      oauth2: spec.oauth2 ?? undefined,
      authorization: spec.authorization ?? undefined,
      bearerTokenSecret: spec.bearerToken ?? undefined,
      bearerTokenFile: spec.bearerTokenFile ?? undefined,
    },
    path,
    context,
  );
  const pieces: ClientPieces = { proxy: {} };
  if (spec.basicAuth) pieces.basic_auth = renderBasicAuth(spec.basicAuth, `${path}.basicAuth`, context);
  if (spec.bearerToken) pieces.bearer_token = spec.bearerToken;
  if (spec.bearerTokenFile) pieces.bearer_token_file = spec.bearerTokenFile;
  if (spec.oauth2) {
    const oauth2 = renderOAuth2(spec.oauth2, `${path}.oauth2`, context);
    if (oauth2) pieces.oauth2 = oauth2;
  }
  if (spec.tlsConfig) {
    const tls = renderTlsConfig(spec.tlsConfig, `${path}.tlsConfig`, context);
    if (tls) pieces.tls_config = tls;
  }
  if (spec.authorization) {
    const authorization = renderAuthorization(spec.authorization, `${path}.authorization`, context);
    if (authorization) pieces.authorization = authorization;
  }
  appendProxy(pieces.proxy, spec, path, context);
  return pieces;
}

/**
 * Places the client pieces in the order remote_write and remote_read entries have upstream:
 * basic_auth, bearer_token, bearer_token_file, oauth2, tls_config, authorization, proxy settings.
 */
export function appendRemoteStorageClient(out: Record<string, unknown>, client: ClientPieces): void {
  if (client.basic_auth) out.basic_auth = client.basic_auth;
  if (client.bearer_token) out.bearer_token = client.bearer_token;
  if (client.bearer_token_file) out.bearer_token_file = client.bearer_token_file;
  if (client.oauth2) out.oauth2 = client.oauth2;
  if (client.tls_config) out.tls_config = client.tls_config;
  if (client.authorization) out.authorization = client.authorization;
  Object.assign(out, client.proxy);
}
