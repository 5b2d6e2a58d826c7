/**
 * The part of Go's `net/url.Parse` that refuses a URL for its host: Prometheus parses `proxy_url` with it when it
 * loads the file, so a host Go refuses would make Prometheus refuse the whole configuration ("invalid character
 * " " in host name"). Found by bench/compat-diff: a CRD-valid `proxyUrl: "http:// _"` was written by promop.
 */
import type { URL_PATTERN } from '@promop/crds';

// Characters Go's shouldEscape(c, encodeHost) lets through in a host, besides letters and digits (ASCII only:
// bytes from 0x80 up are always accepted).
const HOST_PUNCTUATION = new Set("-_.~!$&'()*+,;=:[]<>\"");

/** Go's error text for `url`'s host (or user info), or undefined when Go accepts it (or the URL has no `//` authority). */
export function goUrlHostError(url: string): string | undefined {
  const withoutFragment = url.split('#')[0] ?? '';
  const schemeEnd = withoutFragment.indexOf('://');
  if (schemeEnd < 0) return undefined;
  const rest = withoutFragment.slice(schemeEnd + 3).split('?')[0] ?? '';
  const authority = rest.split('/')[0] ?? '';
  const at = authority.lastIndexOf('@');
  if (at >= 0 && !/^[a-zA-Z0-9\-._:~!$&'()*+,;=%@]*$/.test(authority.slice(0, at))) return 'net/url: invalid userinfo';
  const host = authority.slice(at + 1);
  if (!host.startsWith('[')) {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !/^:\d*$/.test(host.slice(colon))) return `invalid port ${JSON.stringify(host.slice(colon))} after host`;
  }
  for (let i = 0; i < host.length; i++) {
    const code = host.charCodeAt(i);
    const char = host.charAt(i);
    if (code >= 0x80 || /[a-zA-Z0-9]/.test(char) || HOST_PUNCTUATION.has(char)) continue;
    // Percent-encoding in a host is only for bytes of non-ASCII characters, and %25 (a literal %).
    if (char === '%' && /^%(25|[89a-fA-F][0-9a-fA-F])/.test(host.slice(i))) {
      i += 2;
      continue;
    }
    return `invalid character ${JSON.stringify(char)} in host name`;
  }
  return undefined;
}

// The CRD's URL pattern, typed against it so the two cannot drift (a run-time import of
// @promop/crds would load ajv and the schemas into the generator).
const HTTP_URL_PATTERN: typeof URL_PATTERN = '^(http|https)://.+$';
const HTTP_URL = new RegExp(HTTP_URL_PATTERN);

/**
 * Records a problem unless `url` is an http(s) URL whose host Go's url.Parse accepts (Prometheus parses it when it
 * loads the file: "http://a b/" passes the CRD pattern and fails the reload); `path` is the field holding it.
 */
export function checkHttpUrl(url: string | null | undefined, path: string, context: { findings: { problem(path: string, message: string): void } }): void {
  const field = path.split('.').pop();
  if (!url || !HTTP_URL.test(url)) {
    context.findings.problem(path, `${field} must be an http:// or https:// URL, got "${url ?? ''}"`);
    return;
  }
  const hostError = goUrlHostError(url);
  if (hostError) context.findings.problem(path, `${field} "${url}" is not a URL Prometheus can read: ${hostError}`);
}
