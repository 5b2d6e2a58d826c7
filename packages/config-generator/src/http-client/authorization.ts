/** `authorization` → `authorization: {type, credentials[, credentials_file]}` (Prometheus >= 2.26). */
import type { Authorization } from '@promop/crds';
import type { HttpClientContext } from './render-context.ts';
import { supports } from './render-context.ts';
import { readSecretKey } from './secret-refs.ts';

/**
 * Renders the authorization block (`Authorization`, or `SafeAuthorization`, which lacks `credentialsFile`), or undefined when the version does not support it (warned)
 * or the input is invalid (problem recorded). The type defaults to `Bearer`; `Basic` is refused
 * because Prometheus refuses it (basic_auth exists for that).
 */
export function renderAuthorization(auth: Authorization, path: string, ctx: HttpClientContext): Record<string, unknown> | undefined {
  const type = (auth.type ?? '').trim() || 'Bearer';
  if (type.toLowerCase() === 'basic') {
    ctx.findings.problem(`${path}.type`, 'authorization type "Basic" is not allowed; use basicAuth instead');
    return undefined;
  }
  const rendered: Record<string, unknown> = { type };
  if (auth.credentials) {
    const credentials = readSecretKey(auth.credentials, `${path}.credentials`, ctx);
    if (credentials !== undefined) rendered.credentials = credentials;
  }
  if (auth.credentialsFile) {
    if (auth.credentials) {
      ctx.findings.problem(path, 'credentials and credentialsFile are mutually exclusive');
      return undefined;
    }
    rendered.credentials_file = auth.credentialsFile;
  }
  if (!supports(ctx, '2.26.0', path, 'authorization')) return undefined;
  return rendered;
}
