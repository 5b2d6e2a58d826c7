/** PodMonitor: scrape pods selected by labels, without a Service. */
import { labelSelectorSchema, namespaceSelectorSchema, str } from './common.ts';
import { configResourceStatusSchema } from './config-resource-status.ts';
import { monitorSpecProperties, scrapeEndpointProperties, targetPortSchema } from './scrape-endpoint.ts';
import { safeTlsConfigSchema } from './tls-config.ts';

/**
 * One endpoint of a PodMonitor. Unlike ServiceMonitor endpoints, TLS material comes only from Secrets and
 * ConfigMaps and there is no bearerTokenFile: a PodMonitor may not make Prometheus read its own files.
 */
export const podMetricsEndpointSchema = {
  type: 'object',
  description: 'A pod port to scrape and how to scrape it.',
  additionalProperties: false,
  properties: {
    port: str('Name of the container port; takes precedence over portNumber and targetPort.'),
    portNumber: { type: 'integer', minimum: 1, maximum: 65535, description: 'Number of the container port.' },
    targetPort: { ...targetPortSchema, description: 'Deprecated: use port or portNumber.' },
    ...scrapeEndpointProperties,
    tlsConfig: safeTlsConfigSchema,
  },
} as const;

/** PodMonitor spec. */
export const podMonitorSpecSchema = {
  type: 'object',
  description: 'Which pods to scrape and how.',
  required: ['selector'],
  additionalProperties: false,
  properties: {
    selector: labelSelectorSchema,
    namespaceSelector: namespaceSelectorSchema,
    podMetricsEndpoints: { type: 'array', items: podMetricsEndpointSchema, description: 'Pod ports to scrape.' },
    ...monitorSpecProperties,
  },
} as const;

/** PodMonitor status. */
export const podMonitorStatusSchema = configResourceStatusSchema;
