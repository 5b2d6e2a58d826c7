/**
 * Proxy settings → `proxy_url`, `no_proxy`, `proxy_from_environment`, `proxy_connect_header`.
 * They are flat keys of the enclosing client config, so this module appends to a target object.
 */
import type { PROXY_URL_PATTERN, ProxyConfig } from '@promop/crds';
import { compareCodePoints } from '../go-map-order.ts';
import { keyPath } from '../values/field-path.ts';
import { goUrlHostError } from '../values/go-url.ts';
import type { HttpClientContext } from './render-context.ts';
import { supports } from './render-context.ts';
import { readSecretKey } from './secret-refs.ts';

// The CRD's pattern for proxyUrl (typed against it, so the two cannot drift), checked again here
// because manifests given to `promop render` skip the API server; Prometheus needs a URL it can dial.
const PROXY_URL_PATTERN_TEXT: typeof PROXY_URL_PATTERN = '^(http|https|socks5)://.+$';
const PROXY_URL = new RegExp(PROXY_URL_PATTERN_TEXT);

/** True when any proxy field is set. */
export function hasProxy(spec: ProxyConfig): boolean {
  return spec.proxyUrl !== undefined || spec.noProxy !== undefined || spec.proxyFromEnvironment !== undefined || spec.proxyConnectHeader !== undefined;
}

/**
 * Validates the combination the way Prometheus does at load time (so promtool would agree) and
 * appends the keys in upstream order. `path` is the object holding the proxy fields.
 */
export function appendProxy(target: Record<string, unknown>, spec: ProxyConfig, path: string, ctx: HttpClientContext): void {
  if (!hasProxy(spec)) return;
  const proxyUrl = spec.proxyUrl === '' ? undefined : spec.proxyUrl;
  const fromEnvironment = spec.proxyFromEnvironment === true;
  const headerCount = Object.keys(spec.proxyConnectHeader ?? {}).length;
  let valid = true;
  if (proxyUrl !== undefined && !PROXY_URL.test(proxyUrl)) {
    ctx.findings.problem(`${path}.proxyUrl`, 'proxyUrl must be an http://, https:// or socks5:// URL');
    valid = false;
  }
  const hostError = proxyUrl === undefined ? undefined : goUrlHostError(proxyUrl);
  if (hostError) {
    ctx.findings.problem(`${path}.proxyUrl`, `Prometheus cannot parse this URL: ${hostError}`);
    valid = false;
  }
  if (fromEnvironment && proxyUrl !== undefined) {
    ctx.findings.problem(path, 'proxyUrl and proxyFromEnvironment are mutually exclusive');
    valid = false;
  }
  if (fromEnvironment && spec.noProxy) {
    ctx.findings.problem(path, 'noProxy cannot be used with proxyFromEnvironment (the environment decides)');
    valid = false;
  }
  if (spec.noProxy && proxyUrl === undefined && !fromEnvironment) {
    ctx.findings.problem(`${path}.noProxy`, 'noProxy needs proxyUrl');
    valid = false;
  }
  if (headerCount > 0 && proxyUrl === undefined && !fromEnvironment) {
    ctx.findings.problem(`${path}.proxyConnectHeader`, 'proxyConnectHeader needs proxyUrl or proxyFromEnvironment');
    valid = false;
  }
  const headers: Record<string, string[]> = {};
  for (const name of Object.keys(spec.proxyConnectHeader ?? {}).sort(compareCodePoints)) {
    const refs = spec.proxyConnectHeader?.[name] ?? [];
    if (refs.length === 0) {
      // prometheus-operator rejects the object; a header without a value says nothing.
      ctx.findings.problem(keyPath(`${path}.proxyConnectHeader`, name), 'a proxy connect header needs at least one Secret key for its value');
      valid = false;
    }
    headers[name] = refs.map((ref, i) => readSecretKey(ref, `${keyPath(`${path}.proxyConnectHeader`, name)}[${i}]`, ctx) ?? '');
  }
  if (!valid) return;

  if (proxyUrl !== undefined) target.proxy_url = proxyUrl;
  if (spec.noProxy !== undefined && spec.noProxy !== '' && supports(ctx, '2.43.0', `${path}.noProxy`, 'no_proxy')) target.no_proxy = spec.noProxy;
  if (spec.proxyFromEnvironment !== undefined && supports(ctx, '2.43.0', `${path}.proxyFromEnvironment`, 'proxy_from_environment')) {
    target.proxy_from_environment = spec.proxyFromEnvironment;
  }
  // Written even when empty (`proxyConnectHeader: {}`), as prometheus-operator does; Prometheus accepts both.
  if (spec.proxyConnectHeader !== undefined && supports(ctx, '2.43.0', `${path}.proxyConnectHeader`, 'proxy_connect_header')) target.proxy_connect_header = headers;
}
