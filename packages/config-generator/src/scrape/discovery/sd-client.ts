/**
 * The HTTP client of a discovery kind whose list the CRD keeps opaque: checked against the CRD's own schema for
 * discovery clients (the one HTTP discovery's entries are validated with), then written piece by piece, because
 * prometheus-operator places basic auth, authorization, OAuth2, proxy, TLS and the two flags differently for each
 * kind. Credentials are read only from the ScrapeConfig's namespace through the http-client helpers.
 */
import type { BasicAuth, OAuth2, ProxyConfig, SafeAuthorization, SafeTLSConfig } from '@promop/crds';
import { validateScrapeConfig } from '@promop/crds';
import { appendProxy, checkAuthExclusivity, renderAuthorization, renderBasicAuth, renderOAuth2, renderTlsConfig, type HttpClientContext } from '../../http-client/index.ts';

type Entry = Record<string, unknown>;

/** Every client field a discovery kind may have (a kind lists the ones its CRD type has). */
export const PROXY_FIELDS = ['proxyUrl', 'noProxy', 'proxyFromEnvironment', 'proxyConnectHeader'] as const;
export type ClientField = 'basicAuth' | 'authorization' | 'oauth2' | 'tlsConfig' | 'followRedirects' | 'enableHTTP2' | (typeof PROXY_FIELDS)[number];

/** The client fields of one entry, after the schema check. */
export type SdClientFields = ProxyConfig & {
  basicAuth?: BasicAuth;
  authorization?: SafeAuthorization;
  oauth2?: OAuth2;
  tlsConfig?: SafeTLSConfig;
  followRedirects?: boolean;
  enableHTTP2?: boolean;
};

// The carrier entry's path and URL: an HTTP discovery entry holding the client fields under test.
const CARRIER_PATH = 'spec.httpSDConfigs[0]';
const CARRIER_URL = 'http://client-check.invalid';

/**
 * Checks `client` (the client fields of the entry at `path`) with the CRD schema of a discovery client, each
 * problem moved to `path`. Returns the typed fields, or undefined when a problem was found.
 */
export function checkSdClient(client: Record<string, unknown>, path: string, hc: HttpClientContext): SdClientFields | undefined {
  if (Object.keys(client).length === 0) return {};
  const carrier = {
    apiVersion: 'monitoring.coreos.com/v1alpha1',
    kind: 'ScrapeConfig',
    metadata: { name: 'client-check', namespace: hc.namespace },
    spec: { httpSDConfigs: [{ ...client, url: CARRIER_URL }] },
  };
  const result = validateScrapeConfig(carrier);
  if (result.ok) return client as SdClientFields;
  for (const error of result.errors) {
    const moved = error.path.startsWith(CARRIER_PATH) ? `${path}${error.path.slice(CARRIER_PATH.length)}` : path;
    const sentence = error.message.startsWith(`${error.path}: `) ? error.message.slice(error.path.length + 2) : error.message;
    hc.findings.problem(moved, withoutValues(sentence));
  }
  return undefined;
}

/**
 * The schema's sentence without the value it quotes: a credential typed inline where a Secret reference belongs,
 * or a URL with a password in it, must not reach the object's status.
 */
function withoutValues(sentence: string): string {
  return sentence.replace(/, not .*$/, '').replace(/"(?:[^"\\]|\\.)*"/g, 'the value');
}

/**
 * Writers for the pieces of one checked client, each a no-op when its field is unset; `path` is the entry's.
 * The authentication methods are checked for exclusivity once, as Prometheus refuses two in one client.
 */
export function sdClientWriter(sd: SdClientFields, path: string, hc: HttpClientContext) {
  checkAuthExclusivity({ basicAuth: sd.basicAuth, authorization: sd.authorization, oauth2: sd.oauth2 }, path, hc);
  return {
    /** Whether the entry sets `field`. */
    has(field: ClientField): boolean {
      return sd[field] !== undefined;
    },
    basicAuth(entry: Entry): void {
      if (sd.basicAuth) entry.basic_auth = renderBasicAuth(sd.basicAuth, `${path}.basicAuth`, hc);
    },
    authorization(entry: Entry): void {
      if (!sd.authorization) return;
      const rendered = renderAuthorization(sd.authorization, `${path}.authorization`, hc);
      if (rendered) entry.authorization = rendered;
    },
    oauth2(entry: Entry): void {
      if (!sd.oauth2) return;
      const rendered = renderOAuth2(sd.oauth2, `${path}.oauth2`, hc);
      if (rendered) entry.oauth2 = rendered;
    },
    proxy(entry: Entry): void {
      appendProxy(entry, sd, path, hc);
    },
    tls(entry: Entry): void {
      if (!sd.tlsConfig) return;
      const rendered = renderTlsConfig(sd.tlsConfig, `${path}.tlsConfig`, hc);
      if (rendered) entry.tls_config = rendered;
    },
    followRedirects(entry: Entry): void {
      if (sd.followRedirects !== undefined) entry.follow_redirects = sd.followRedirects;
    },
    enableHttp2(entry: Entry): void {
      if (sd.enableHTTP2 !== undefined) entry.enable_http2 = sd.enableHTTP2;
    },
  };
}

/** The writers of sdClientWriter. */
export type SdClientWriter = ReturnType<typeof sdClientWriter>;

/** The client fields of kinds that have every one (Kuma, Eureka, Docker, Hetzner, Nomad, Azure). */
export const ALL_CLIENT_FIELDS: readonly ClientField[] = ['basicAuth', 'authorization', 'oauth2', 'tlsConfig', 'followRedirects', 'enableHTTP2', ...PROXY_FIELDS];
/** The client fields of kinds whose API takes a token, not a password (DigitalOcean, Linode). */
export const TOKEN_CLIENT_FIELDS: readonly ClientField[] = ['authorization', 'oauth2', 'tlsConfig', 'followRedirects', 'enableHTTP2', ...PROXY_FIELDS];
