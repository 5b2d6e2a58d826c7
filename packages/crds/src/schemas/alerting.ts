/** Where a Prometheus sends alerts: Alertmanagers found through their Services' endpoints. */
import { bool, duration, intOrString, oneOf, sigv4Schema, str } from './common.ts';
import { basicAuthSchema, proxyProperties, safeAuthorizationSchema } from './http-auth.ts';
import { relabelConfigList } from './relabel-config.ts';
import { tlsConfigSchema } from './tls-config.ts';

/** One Alertmanager Service to send alerts to. */
export const alertmanagerEndpointsSchema = {
  type: 'object',
  description: 'An Alertmanager Service whose endpoints receive alerts.',
  required: ['name', 'port'],
  additionalProperties: false,
  properties: {
    namespace: str("Namespace of the Service (default: the Prometheus' namespace)."),
    name: str('Name of the Service.'),
    port: intOrString('Service port, by name or number.'),
    scheme: oneOf(['http', 'https', 'HTTP', 'HTTPS'], 'HTTP scheme (default http).'),
    pathPrefix: str('Path prefix of the Alertmanager API.'),
    apiVersion: oneOf(['v1', 'V1', 'v2', 'V2'], 'Alertmanager API version (Prometheus 3 supports only v2).'),
    timeout: duration('Timeout of requests to Alertmanager.'),
    enableHttp2: bool('Allow HTTP/2.'),
    tlsConfig: tlsConfigSchema,
    basicAuth: basicAuthSchema,
    bearerTokenFile: str('Deprecated: use authorization. File holding a bearer token.'),
    authorization: safeAuthorizationSchema,
    sigv4: sigv4Schema,
    relabelings: relabelConfigList('Relabeling applied to the discovered Alertmanager targets.'),
    alertRelabelings: relabelConfigList('Relabeling applied to alerts sent to this Alertmanager.'),
    ...proxyProperties,
  },
} as const;

/** The alerting section of a Prometheus spec. */
export const alertingSpecSchema = {
  type: 'object',
  description: 'Alertmanagers to send alerts to.',
  required: ['alertmanagers'],
  additionalProperties: false,
  properties: {
    alertmanagers: { type: 'array', items: alertmanagerEndpointsSchema, description: 'Alertmanager Services.' },
  },
} as const;
