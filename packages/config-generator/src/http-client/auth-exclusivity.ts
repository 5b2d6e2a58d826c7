/**
 * Prometheus accepts at most one authentication method per HTTP client; two of them make the
 * whole configuration fail to load. Checking it here rejects only the resource that has it.
 */
import type { HttpClientContext } from './render-context.ts';

/** Which authentication fields a client config sets (presence only). */
export interface AuthMethods {
  basicAuth?: unknown;
  oauth2?: unknown;
  authorization?: unknown;
  bearerTokenSecret?: unknown;
  bearerTokenFile?: unknown;
}

/** Records a problem at `path` when more than one method is set. Returns whether it is fine. */
export function checkAuthExclusivity(methods: AuthMethods, path: string, ctx: Pick<HttpClientContext, 'findings'>): boolean {
  const set = (Object.keys(methods) as Array<keyof AuthMethods>).filter((k) => methods[k] !== undefined && methods[k] !== null && methods[k] !== '');
  if (set.length <= 1) return true;
  ctx.findings.problem(path, `only one authentication method can be set, found ${set.join(' and ')}`);
  return false;
}
