/** `basicAuth` → `basic_auth` with the username and password inlined (as prometheus-operator does). */
import type { BasicAuth } from '@promop/crds';
import type { HttpClientContext } from './render-context.ts';
import { readSecretKey } from './secret-refs.ts';

/**
 * Renders `{username, password}` (both always present, as upstream) or records a problem for a
 * missing Secret/key, or for a missing `username` or `password` reference: prometheus-operator rejects that too,
 * rather than sending an empty password. Values are plaintext in the config; the config is stored
 * in a Secret.
 */
export function renderBasicAuth(basicAuth: BasicAuth, path: string, ctx: HttpClientContext): Record<string, unknown> {
  // prometheus-operator rejects a basicAuth without username too (bench/compat-diff found promop writing "").
  if (!basicAuth.username) ctx.findings.problem(`${path}.username`, 'basicAuth needs a username (a Secret name and key)');
  const username = basicAuth.username ? readSecretKey(basicAuth.username, `${path}.username`, ctx) : undefined;
  if (!basicAuth.password) ctx.findings.problem(`${path}.password`, 'basicAuth needs a password (a Secret name and key); without one the credentials would be sent with an empty password');
  const password = basicAuth.password ? readSecretKey(basicAuth.password, `${path}.password`, ctx) : undefined;
  return { username: username ?? '', password: password ?? '' };
}
