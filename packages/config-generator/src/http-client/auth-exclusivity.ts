/**
 * Prometheus accepts at most one authentication method per HTTP client; two of them make the
 * whole configuration fail to load. Checking it here rejects only the resource that has it.
 */
import type { Endpoint } from '@promop/crds';
import type { HttpClientContext } from './render-context.ts';

/**
 * Which authentication fields a client config sets (presence only), named as a ServiceMonitor endpoint names
 * them (the names appear in the message); Prometheus-level clients pass their `bearerToken` as `bearerTokenSecret`.
 */
export type AuthMethods = { [K in keyof Pick<Endpoint, 'basicAuth' | 'oauth2' | 'authorization' | 'bearerTokenSecret' | 'bearerTokenFile'>]?: unknown };

/** Records a problem at `path` when more than one method is set. Returns whether it is fine. */
export function checkAuthExclusivity(methods: AuthMethods, path: string, ctx: Pick<HttpClientContext, 'findings'>): boolean {
  const set = (Object.keys(methods) as Array<keyof AuthMethods>).filter((k) => methods[k] !== undefined && methods[k] !== null && methods[k] !== '' && !(k === 'authorization' && isEmptyObject(methods[k])));
  if (set.length <= 1) return true;
  ctx.findings.problem(path, `only one authentication method can be set, found ${set.join(' and ')}`);
  return false;
}

/** `authorization: {}` (nothing set in it) is no method: prometheus-operator treats it as absent. */
function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.values(value).every((item) => item === undefined || item === null || item === '');
}
