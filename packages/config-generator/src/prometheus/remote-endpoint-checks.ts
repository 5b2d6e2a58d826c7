/**
 * What Prometheus refuses in remote write and remote read endpoints beyond their fields' own formats (config.go,
 * RemoteWriteConfig and RemoteReadConfig): a header it sets itself, and two endpoints of one list with the same
 * name. Either makes Prometheus refuse the whole file, so each is a problem of the Prometheus object.
 */
import type { PrometheusRenderContext } from './render-context.ts';

/** Headers Prometheus sets itself and refuses from the configuration (lower case; Authorization has its own message). */
const RESERVED_HEADERS: ReadonlySet<string> = new Set([
  'host', 'content-encoding', 'content-length', 'content-type', 'user-agent', 'connection', 'keep-alive', 'proxy-authenticate',
  'proxy-authorization', 'www-authenticate', 'accept-encoding', 'x-prometheus-remote-write-version', 'x-prometheus-remote-read-version',
  'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256',
]);

/**
 * Records a problem for each header of `headers` (at `path`, e.g. `spec.remoteWrite[0].headers`) Prometheus refuses.
 * The tracing exporter refuses the same headers (config.go, validateHeadersForTracing); `authorization` says what
 * to use instead of an Authorization header.
 */
export function checkRemoteHeaders(
  headers: Readonly<Record<string, string>> | null | undefined,
  path: string,
  context: PrometheusRenderContext,
  authorization = 'the Authorization header is set with basicAuth, authorization, oauth2 or sigv4, not headers',
): void {
  for (const name of Object.keys(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') context.findings.problem(`${path}.${name}`, authorization);
    else if (RESERVED_HEADERS.has(lower)) context.findings.problem(`${path}.${name}`, `${name} is a header Prometheus sets itself and cannot be changed`);
  }
}

/** Records a problem for each endpoint of `endpoints` (the list at `path`) named like an earlier one; unnamed ones never clash. */
export function checkUniqueNames(endpoints: readonly { name?: string | null }[], path: string, context: PrometheusRenderContext): void {
  const seen = new Map<string, number>();
  endpoints.forEach((endpoint, index) => {
    if (!endpoint.name) return;
    const first = seen.get(endpoint.name);
    if (first === undefined) seen.set(endpoint.name, index);
    else context.findings.problem(`${path}[${index}].name`, `"${endpoint.name}" is already the name of ${path.split('.').pop()}[${first}]; Prometheus needs the names to differ`);
  });
}
