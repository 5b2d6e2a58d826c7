/** How Prometheus reaches the Kubernetes API server for service discovery, when not in-cluster. */
import { str } from './common.ts';
import { authorizationSchema, basicAuthSchema, proxyProperties } from './http-auth.ts';
import { tlsConfigSchema } from './tls-config.ts';

/**
 * prometheus-operator's APIServerConfig. `host` is not required here: promop reports a missing or non-http(s)
 * host on the Prometheus (with its path) rather than refusing the object.
 */
export const apiServerConfigSchema = {
  type: 'object',
  description: 'How to reach the Kubernetes API server for service discovery (default: in-cluster).',
  additionalProperties: false,
  properties: {
    host: str('URL of the API server (http:// or https://).'),
    basicAuth: basicAuthSchema,
    bearerToken: str('Deprecated: use authorization. Bearer token in plain text.'),
    bearerTokenFile: str('Deprecated: use authorization. File holding a bearer token.'),
    tlsConfig: tlsConfigSchema,
    authorization: authorizationSchema,
    ...proxyProperties,
  },
} as const;
