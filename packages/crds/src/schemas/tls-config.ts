/** TLS settings for connections Prometheus makes (scrapes, remote write, Alertmanager). */
import { bool, oneOf, secretKeySelectorSchema, secretOrConfigMapSchema, str } from './common.ts';

const TLS_VERSIONS = ['TLS10', 'TLS11', 'TLS12', 'TLS13'] as const;

/** Properties both TLS variants share: everything comes from Secrets or ConfigMaps, never from files. */
const safeTlsProperties = {
  ca: secretOrConfigMapSchema,
  cert: secretOrConfigMapSchema,
  keySecret: secretKeySelectorSchema,
  serverName: str('Server name used to verify the certificate (SNI).'),
  insecureSkipVerify: bool('Skip verification of the server certificate.'),
  minVersion: oneOf(TLS_VERSIONS, 'Minimum TLS version.'),
  maxVersion: oneOf(TLS_VERSIONS, 'Maximum TLS version.'),
} as const;

/**
 * TLS settings that only reference Secrets and ConfigMaps. Used wherever a namespace tenant writes the object
 * (PodMonitor endpoints, OAuth2), so a tenant cannot make Prometheus read arbitrary files from its pod.
 */
export const safeTlsConfigSchema = {
  type: 'object',
  description: 'TLS settings from Secrets and ConfigMaps.',
  additionalProperties: false,
  properties: safeTlsProperties,
} as const;

/** TLS settings that may also name files in the Prometheus pod (ServiceMonitor endpoints, Prometheus fields). */
export const tlsConfigSchema = {
  type: 'object',
  description: 'TLS settings from Secrets, ConfigMaps or files in the Prometheus container.',
  additionalProperties: false,
  properties: {
    ...safeTlsProperties,
    caFile: str('Path of the CA certificate in the Prometheus container.'),
    certFile: str('Path of the client certificate in the Prometheus container.'),
    keyFile: str('Path of the client key in the Prometheus container.'),
  },
} as const;
