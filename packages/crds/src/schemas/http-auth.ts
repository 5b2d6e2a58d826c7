/** Authentication and proxy settings of the HTTP clients Prometheus uses (scrapes, remote write/read, Alertmanager). */
import { bool, PROXY_URL_PATTERN, secretKeySelectorSchema, secretOrConfigMapSchema, str, stringList, stringMap, URL_PATTERN } from './common.ts';
import { safeTlsConfigSchema } from './tls-config.ts';

/** Basic authentication with the username and password read from Secrets. */
export const basicAuthSchema = {
  type: 'object',
  description: 'HTTP basic authentication.',
  additionalProperties: false,
  properties: {
    username: secretKeySelectorSchema,
    password: secretKeySelectorSchema,
  },
} as const;

/** The Authorization header with credentials from a Secret; the type defaults to Bearer when promop renders it. */
export const safeAuthorizationSchema = {
  type: 'object',
  description: 'The HTTP Authorization header.',
  additionalProperties: false,
  properties: {
    type: str('Authentication type (default Bearer). "Basic" is not allowed: use basicAuth.'),
    credentials: secretKeySelectorSchema,
  },
} as const;

/** Like SafeAuthorization, but the credentials may also come from a file in the Prometheus container. */
export const authorizationSchema = {
  type: 'object',
  description: 'The HTTP Authorization header, with credentials from a Secret or a file.',
  additionalProperties: false,
  properties: {
    type: str('Authentication type (default Bearer). "Basic" is not allowed: use basicAuth.'),
    credentials: secretKeySelectorSchema,
    credentialsFile: str('File in the Prometheus container holding the credentials.'),
  },
} as const;

/** Proxy fields, inlined into every HTTP client configuration (prometheus-operator's ProxyConfig). */
export const proxyProperties = {
  proxyUrl: { type: 'string', pattern: PROXY_URL_PATTERN, description: 'URL of the proxy.' },
  noProxy: str('Comma-separated hosts, IPs and CIDRs that bypass the proxy.'),
  proxyFromEnvironment: bool('Use the proxy given by the HTTP_PROXY/HTTPS_PROXY/NO_PROXY environment variables.'),
  proxyConnectHeader: {
    type: 'object',
    description: 'Headers sent to the proxy in CONNECT requests, with values from Secrets.',
    additionalProperties: { type: 'array', items: secretKeySelectorSchema },
  },
} as const;

/** OAuth2 client credentials flow. */
export const oauth2Schema = {
  type: 'object',
  description: 'OAuth2 client credentials authentication.',
  required: ['clientId', 'clientSecret', 'tokenUrl'],
  additionalProperties: false,
  properties: {
    clientId: secretOrConfigMapSchema,
    clientSecret: secretKeySelectorSchema,
    tokenUrl: { type: 'string', minLength: 1, pattern: URL_PATTERN, description: 'URL to fetch the token from.' },
    scopes: stringList('OAuth2 scopes.'),
    endpointParams: stringMap('Extra parameters for the token URL.'),
    tlsConfig: safeTlsConfigSchema,
    ...proxyProperties,
  },
} as const;
