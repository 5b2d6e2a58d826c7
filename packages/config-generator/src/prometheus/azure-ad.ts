/**
 * Azure AD authentication of a remote write endpoint: `azuread: {managed_identity, oauth, sdk, workload_identity,
 * cloud, scope}` in prometheus-operator's key order, the OAuth client secret inlined from a Secret of the
 * Prometheus' namespace. Exactly one way of getting a token must be set. As upstream, a way the Prometheus does
 * not have yet is refused (dropping it would leave the others, or none), while `scope` is dropped with a warning;
 * what Prometheus checks when it loads the file (client and tenant IDs that are no UUID, a scope with other
 * characters, an empty client secret) is refused here too.
 */
import type { RemoteWriteSpec } from '@promop/crds';
import { readSecretKey, supports } from '../http-client/index.ts';
import { isAtLeast } from '../prometheus-version.ts';
import type { PrometheusRenderContext } from './render-context.ts';

type AzureAd = NonNullable<RemoteWriteSpec['azureAd']>;

/** The first Prometheus with `azuread` in remote write. */
const AZUREAD_SINCE = '2.45.0';

/**
 * The ways of getting a token, in upstream's key order, and the first Prometheus that has each (a managed identity
 * came with `azuread` itself, which is dropped for an older Prometheus).
 */
const METHODS = [
  { field: 'managedIdentity', since: AZUREAD_SINCE },
  { field: 'oauth', since: '2.48.0' },
  { field: 'sdk', since: '2.52.0' },
  { field: 'workloadIdentity', since: '3.7.0' },
] as const;

const CLOUDS = ['AzureChina', 'AzureGovernment', 'AzurePublic'];

/** Prometheus' own pattern for `scope` (the CRD's also admits a backslash, which Prometheus refuses). */
const SCOPE = /^[A-Za-z0-9_\t\n\f\r :/.-]+$/;

/** Renders `azuread` for the endpoint at `path` (`spec.remoteWrite[i]`); undefined when dropped for the version. */
export function renderAzureAd(azureAd: AzureAd, path: string, context: PrometheusRenderContext): Record<string, unknown> | undefined {
  const at = `${path}.azureAd`;
  const set = METHODS.filter(({ field }) => azureAd[field] !== undefined && azureAd[field] !== null);
  if (set.length === 0) context.findings.problem(at, `set one of ${METHODS.map(({ field }) => field).join(', ')}`);
  if (set.length > 1) context.findings.problem(at, `${set.map(({ field }) => field).join(' and ')} cannot be set together: set only one`);
  for (const { field, since } of set) {
    if (since !== AZUREAD_SINCE && !isAtLeast(context.version, since)) context.findings.problem(`${at}.${field}`, `needs Prometheus ${since} or later (this Prometheus is ${context.version.text})`);
  }

  const out: Record<string, unknown> = {};
  if (azureAd.managedIdentity) {
    const clientId = azureAd.managedIdentity.clientId;
    if (clientId) {
      checkUuid(clientId, `${at}.managedIdentity.clientId`, context);
      out.managed_identity = { client_id: clientId };
    } else {
      // Without a client ID Prometheus uses the system-assigned identity, which it accepts from 3.5 on.
      if (!isAtLeast(context.version, '3.5.0')) context.findings.problem(`${at}.managedIdentity.clientId`, `is required with Prometheus older than 3.5.0 (this Prometheus is ${context.version.text})`);
      out.managed_identity = {};
    }
  }
  if (azureAd.oauth) {
    const { clientId, tenantId, clientSecret } = azureAd.oauth;
    if (!clientId) context.findings.problem(`${at}.oauth.clientId`, 'is required');
    else checkUuid(clientId, `${at}.oauth.clientId`, context);
    if (!tenantId) context.findings.problem(`${at}.oauth.tenantId`, 'is required');
    let secret: string | undefined;
    if (!clientSecret) context.findings.problem(`${at}.oauth.clientSecret`, 'is required: a Secret key holding the client secret');
    else secret = readSecretKey(clientSecret, `${at}.oauth.clientSecret`, context);
    if (secret === '') context.findings.problem(`${at}.oauth.clientSecret`, `key "${clientSecret?.key ?? ''}" of Secret "${clientSecret?.name ?? ''}" is empty; Prometheus needs a client secret`);
    out.oauth = { client_id: clientId ?? '', client_secret: secret ?? '', tenant_id: tenantId ?? '' };
  }
  // As upstream: an sdk without tenantId still names the key, empty, and Prometheus reads the tenant from the environment.
  if (azureAd.sdk) out.sdk = { tenant_id: azureAd.sdk.tenantId ?? '' };
  if (azureAd.workloadIdentity) {
    const { clientId, tenantId } = azureAd.workloadIdentity;
    checkUuid(clientId ?? '', `${at}.workloadIdentity.clientId`, context);
    checkUuid(tenantId ?? '', `${at}.workloadIdentity.tenantId`, context);
    out.workload_identity = { client_id: clientId ?? '', tenant_id: tenantId ?? '' };
  }
  if (azureAd.cloud !== undefined && azureAd.cloud !== null) {
    if (!CLOUDS.includes(azureAd.cloud)) context.findings.problem(`${at}.cloud`, `must be one of ${CLOUDS.join(', ')}, not "${azureAd.cloud}"`);
    out.cloud = azureAd.cloud;
  }
  if (azureAd.scope) {
    if (!SCOPE.test(azureAd.scope)) context.findings.problem(`${at}.scope`, 'may hold only letters, digits, _, spaces, :, /, . and - (Prometheus refuses other characters)');
    else if (supports(context, '3.9.0', `${at}.scope`, 'scope')) out.scope = azureAd.scope;
  }
  return supports(context, AZUREAD_SINCE, at, 'azuread') ? out : undefined;
}

/**
 * Records a problem unless `value` is a UUID as Go's github.com/google/uuid Parse reads one: 32 hex digits, in
 * the dashed 8-4-4-4-12 form, optionally after `urn:uuid:` or between two more characters (`{…}`), or without dashes.
 */
function checkUuid(value: unknown, path: string, context: PrometheusRenderContext): void {
  // Only the API server guarantees a string; `promop render` reads objects as they are written.
  if (typeof value !== 'string' || !isGoUuid(value)) context.findings.problem(path, `${JSON.stringify(value)} is not a UUID such as 00000000-0000-0000-0000-000000000000`);
}

const DASHED = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function isGoUuid(value: string): boolean {
  // Go measures and indexes the string in bytes.
  const bytes = Buffer.from(value, 'utf8').toString('latin1');
  if (bytes.length === 32) return /^[0-9a-fA-F]{32}$/.test(bytes);
  if (bytes.length === 36) return DASHED.test(bytes);
  // Go skips the first character and never looks at the last one.
  if (bytes.length === 38) return DASHED.test(bytes.slice(1, 37));
  if (bytes.length === 45) return bytes.slice(0, 9).toLowerCase() === 'urn:uuid:' && DASHED.test(bytes.slice(9));
  return false;
}
