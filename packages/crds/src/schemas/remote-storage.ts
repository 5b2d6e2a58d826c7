/** remoteWrite and remoteRead entries of a Prometheus. */
import { bool, count, duration, oneOf, secretKeySelectorSchema, sigv4Schema, str, stringMap, URL_PATTERN } from './common.ts';
import { authorizationSchema, basicAuthSchema, oauth2Schema, proxyProperties } from './http-auth.ts';
import { relabelConfigList } from './relabel-config.ts';
import { tlsConfigSchema } from './tls-config.ts';

/** HTTP client fields remote write and remote read share. */
const remoteClientProperties = {
  url: { type: 'string', minLength: 1, pattern: URL_PATTERN, description: 'URL of the endpoint.' },
  name: str('Name of the queue, unique among the entries; shown in metrics and logs.'),
  remoteTimeout: duration('Timeout of requests to the endpoint.'),
  headers: stringMap('Custom HTTP headers sent with every request.'),
  basicAuth: basicAuthSchema,
  oauth2: oauth2Schema,
  authorization: authorizationSchema,
  bearerToken: str('Deprecated: use authorization. Bearer token in plain text.'),
  bearerTokenFile: str('Deprecated: use authorization. File holding a bearer token.'),
  tlsConfig: tlsConfigSchema,
  followRedirects: bool('Follow HTTP 3xx redirects.'),
  ...proxyProperties,
} as const;

/** An Azure AD tenant ID as the CRD admits it. */
const AZURE_TENANT_ID_PATTERN = '^[0-9a-zA-Z-.]+$';

/** Azure AD authentication of remote write (Prometheus' `azuread`): one of four ways to get a token. */
const azureAdSchema = {
  type: 'object',
  description: 'Azure AD authentication: set exactly one of managedIdentity, oauth, sdk and workloadIdentity.',
  additionalProperties: false,
  properties: {
    cloud: oneOf(['AzureChina', 'AzureGovernment', 'AzurePublic'], 'Azure cloud (default AzurePublic).'),
    managedIdentity: {
      type: 'object',
      description: 'A managed identity.',
      additionalProperties: false,
      properties: {
        clientId: { type: 'string', minLength: 1, description: 'Client ID (a UUID) of a user-assigned identity; leave it out for the system-assigned one (Prometheus >= 3.5).' },
      },
    },
    oauth: {
      type: 'object',
      description: 'An application\'s client credentials (Prometheus >= 2.48).',
      required: ['clientId', 'clientSecret', 'tenantId'],
      additionalProperties: false,
      properties: {
        clientId: { type: 'string', minLength: 1, description: 'Client ID (a UUID) of the application.' },
        clientSecret: { ...secretKeySelectorSchema, description: 'Secret key, in the same namespace, holding the client secret.' },
        tenantId: { type: 'string', minLength: 1, pattern: AZURE_TENANT_ID_PATTERN, description: 'Tenant of the application.' },
      },
    },
    sdk: {
      type: 'object',
      description: 'Credentials the Azure SDK finds in the environment (Prometheus >= 2.52).',
      additionalProperties: false,
      properties: { tenantId: { type: 'string', pattern: AZURE_TENANT_ID_PATTERN, description: 'Tenant to authenticate in.' } },
    },
    workloadIdentity: {
      type: 'object',
      description: 'Azure Workload Identity (Prometheus >= 3.7).',
      required: ['clientId', 'tenantId'],
      additionalProperties: false,
      properties: {
        clientId: { type: 'string', minLength: 1, description: 'Client ID (a UUID) of the application or identity.' },
        tenantId: { type: 'string', minLength: 1, description: 'Tenant ID (a UUID) of the application or identity.' },
      },
    },
    scope: { type: 'string', pattern: '^[\\w\\s:/.\\\\-]+$', description: 'OAuth 2.0 scope requested for tokens (Prometheus >= 3.9).' },
  },
} as const;

/**
 * Google Cloud authentication of remote write (Prometheus' `google_iam`, Prometheus >= 2.55). Not a
 * prometheus-operator field: promop accepts and renders it (docs/compatibility.md).
 */
const googleIamSchema = {
  type: 'object',
  description: 'Google Cloud authentication; without credentialsFile, the default credentials of the environment.',
  additionalProperties: false,
  properties: { credentialsFile: str('Path of a service account key file in the Prometheus container.') },
} as const;

/** One remote write endpoint. */
export const remoteWriteSpecSchema = {
  type: 'object',
  description: 'A remote write endpoint.',
  required: ['url'],
  additionalProperties: false,
  properties: {
    ...remoteClientProperties,
    messageVersion: oneOf(['V1.0', 'V2.0'], 'Remote write protocol version (V2.0 needs Prometheus >= 2.54).'),
    sendExemplars: bool('Send exemplars (needs the exemplar-storage feature).'),
    sendNativeHistograms: bool('Send native histograms.'),
    writeRelabelConfigs: relabelConfigList('Relabeling applied to samples before they are sent.'),
    enableHTTP2: bool('Allow HTTP/2.'),
    roundRobinDNS: bool('Spread requests over all the IPs the host name resolves to.'),
    sigv4: sigv4Schema,
    azureAd: azureAdSchema,
    googleIam: googleIamSchema,
    queueConfig: {
      type: 'object',
      description: 'Tuning of the sending queue.',
      additionalProperties: false,
      properties: {
        capacity: count('Samples buffered per shard.'),
        minShards: count('Minimum number of shards.'),
        maxShards: count('Maximum number of shards.'),
        maxSamplesPerSend: count('Maximum samples per request.'),
        batchSendDeadline: duration('Maximum wait before sending a partial batch.'),
        maxRetries: count('Deprecated and ignored by Prometheus.'),
        minBackoff: duration('Initial retry delay.'),
        maxBackoff: duration('Maximum retry delay.'),
        retryOnRateLimit: bool('Retry on HTTP 429.'),
        sampleAgeLimit: duration('Drop samples older than this instead of sending them.'),
      },
    },
    metadataConfig: {
      type: 'object',
      description: 'Sending of metric metadata.',
      additionalProperties: false,
      properties: {
        send: bool('Send metric metadata.'),
        sendInterval: duration('How often metadata is sent.'),
        maxSamplesPerSend: { type: 'integer', minimum: -1, description: 'Maximum metadata entries per request.' },
      },
    },
  },
} as const;

/** One remote read endpoint. */
export const remoteReadSpecSchema = {
  type: 'object',
  description: 'A remote read endpoint.',
  required: ['url'],
  additionalProperties: false,
  properties: {
    ...remoteClientProperties,
    requiredMatchers: stringMap('Equality matchers a query must have to be sent to this endpoint.'),
    readRecent: bool('Also read recent data that local storage has.'),
    filterExternalLabels: bool('Add the external labels as matchers (default true).'),
  },
} as const;

