/** `oauth2` → `oauth2: {client_id, client_secret, token_url, scopes, endpoint_params, proxy…, tls_config}` (Prometheus >= 2.27). */
import type { OAuth2 } from '@promop/crds';
import { sortedByKey } from '../go-map-order.ts';
import type { HttpClientContext } from './render-context.ts';
import { supports } from './render-context.ts';
import { appendProxy, hasProxy } from './proxy.ts';
import { readSecretKey, readSecretOrConfigMap } from './secret-refs.ts';
import { renderTlsConfig } from './tls-config.ts';

/**
 * Renders the oauth2 block with the client id and secret inlined. Returns undefined when a
 * problem was recorded or the version does not support oauth2 (warned).
 */
export function renderOAuth2(oauth2: OAuth2, path: string, ctx: HttpClientContext): Record<string, unknown> | undefined {
  const before = ctx.findings.problems.length;
  if (!oauth2.tokenUrl) ctx.findings.problem(`${path}.tokenUrl`, 'tokenUrl is required');
  if (!oauth2.clientId || (!oauth2.clientId.secret && !oauth2.clientId.configMap)) {
    ctx.findings.problem(`${path}.clientId`, 'clientId must reference a Secret or ConfigMap key');
  }
  if (!oauth2.clientSecret) ctx.findings.problem(`${path}.clientSecret`, 'clientSecret is required');
  const clientId = oauth2.clientId ? readSecretOrConfigMap(oauth2.clientId, `${path}.clientId`, ctx) : undefined;
  const clientSecret = oauth2.clientSecret ? readSecretKey(oauth2.clientSecret, `${path}.clientSecret`, ctx) : undefined;

  const rendered: Record<string, unknown> = {
    client_id: clientId?.value ?? '',
    client_secret: clientSecret ?? '',
    token_url: oauth2.tokenUrl ?? '',
  };
  if (oauth2.scopes && oauth2.scopes.length > 0) rendered.scopes = [...oauth2.scopes];
  const params = oauth2.endpointParams ?? {};
  if (Object.keys(params).length > 0) rendered.endpoint_params = sortedByKey(params);
  if (hasProxy(oauth2) && supports(ctx, '2.43.0', path, 'oauth2 proxy settings')) appendProxy(rendered, oauth2, path, ctx);
  if (oauth2.tlsConfig && supports(ctx, '2.43.0', `${path}.tlsConfig`, 'oauth2 tls_config')) {
    const tls = renderTlsConfig(oauth2.tlsConfig, `${path}.tlsConfig`, ctx);
    if (tls) rendered.tls_config = tls;
  }
  if (ctx.findings.problems.length !== before) return undefined;
  if (!supports(ctx, '2.27.0', path, 'oauth2')) return undefined;
  return rendered;
}
