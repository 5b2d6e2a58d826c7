/**
 * Error texts that Prometheus reports (a target's last scrape error, a rule's last evaluation error) go into the
 * status of a team's object, which every reader of that object sees. Go's HTTP client puts the scrape URL into its
 * errors (`Get "http://user:pass@10.0.0.5:8080/metrics?token=...": ...`; it masks the password but keeps the user),
 * and a scrape URL carries whatever `params` the monitor set, API keys included. So before an error is written,
 * URL user info is removed, every query value is replaced, and anything that looks like a credential header value
 * is replaced. Pure.
 */

/** What replaces a removed value. */
export const REDACTED = '<redacted>';

/** At most this much of an error is written: enough for Prometheus' reason, never a page of HTML. */
export const ERROR_TEXT_LIMIT = 500;

/** `scheme://` followed by user info up to `@` (no `/`, space or quote inside). */
const URL_USER_INFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"'`<>]*@/gi;
/** A query string: from `?` up to the end of the URL (space, quote or `#`). Only after something URL-like. */
const QUERY_STRING = /([a-z0-9\]._~%/-]\?)((?:<redacted>|[^\s"'`<>#])*)/gi;
/** `Authorization: Bearer x`, `X-Api-Key=x`, `password: x`, `token=x` and the like. */
const CREDENTIAL_FIELD = /\b((?:proxy-)?authorization|x-[a-z0-9-]*(?:token|key|secret|auth)[a-z0-9-]*|api[-_]?key|access[-_]?token|token|password|passwd|secret|cookie|set-cookie)(\s*[:=]\s*)("[^"]*"|(?:bearer|basic|token)\s+\S+|[^\s,;&"']+)/gi;
/** A credential scheme followed by its value, wherever it appears. */
const CREDENTIAL_SCHEME = /\b(bearer|basic)\s+[a-z0-9+/=._~-]{8,}/gi;

/**
 * `text` without URL user info, query values and credential-like values, on one line and at most
 * ERROR_TEXT_LIMIT characters. Idempotent: redacting a redacted text changes nothing.
 */
export function redactError(text: string): string {
  let result = text.replace(/\s+/g, ' ').trim();
  result = result.replace(URL_USER_INFO, '$1');
  result = result.replace(QUERY_STRING, (_match, before: string, query: string) => `${before}${redactQuery(query)}`);
  result = result.replace(CREDENTIAL_FIELD, (_match, name: string, separator: string) => `${name}${separator}${REDACTED}`);
  result = result.replace(CREDENTIAL_SCHEME, (_match, scheme: string) => `${scheme} ${REDACTED}`);
  return result.length <= ERROR_TEXT_LIMIT ? result : `${result.slice(0, ERROR_TEXT_LIMIT - 1)}…`;
}

/** `a=1&b&c=3` → `a=<redacted>&b&c=<redacted>`: the names stay (they say which parameter), the values go. */
function redactQuery(query: string): string {
  if (query === '') return query;
  return query.split('&').map((pair) => {
    const equals = pair.indexOf('=');
    return equals < 0 ? pair : `${pair.slice(0, equals)}=${REDACTED}`;
  }).join('&');
}

/**
 * The kind of an error, for counting errors of many targets together: a redacted text with addresses, ports, URLs
 * and numbers replaced, so `dial tcp 10.0.0.5:8080: connect: connection refused` and the same of 10.0.0.6 count as
 * one error. Pure.
 */
export function errorKind(redacted: string): string {
  return redacted
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>]*/gi, '<url>')
    .replace(/\[[0-9a-f:.]+\](?::\d+)?/gi, '<address>')
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b/g, '<address>')
    .replace(/\b\d+(?:\.\d+)?(?:e[+-]?\d+)?\b/gi, '<n>');
}
