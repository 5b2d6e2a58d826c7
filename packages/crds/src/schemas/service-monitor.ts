/** ServiceMonitor: scrape the endpoints behind Services selected by labels. */
import { labelSelectorSchema, namespaceSelectorSchema, oneOf, str, stringList } from './common.ts';
import { configResourceStatusSchema } from './config-resource-status.ts';
import { monitorSpecProperties, scrapeEndpointProperties, targetPortSchema } from './scrape-endpoint.ts';
import { tlsConfigSchema } from './tls-config.ts';

/** One endpoint of a ServiceMonitor: which Service port to scrape and how. */
export const endpointSchema = {
  type: 'object',
  description: 'A Service port to scrape and how to scrape it.',
  additionalProperties: false,
  properties: {
    port: str('Name of the Service port; takes precedence over targetPort.'),
    targetPort: targetPortSchema,
    ...scrapeEndpointProperties,
    bearerTokenFile: str('Deprecated: use authorization. File in the Prometheus container holding a bearer token.'),
    tlsConfig: tlsConfigSchema,
  },
} as const;

/** ServiceMonitor spec. */
export const serviceMonitorSpecSchema = {
  type: 'object',
  description: 'Which Services to scrape and how.',
  required: ['selector', 'endpoints'],
  additionalProperties: false,
  properties: {
    selector: labelSelectorSchema,
    namespaceSelector: namespaceSelectorSchema,
    endpoints: { type: 'array', items: endpointSchema, description: 'Service ports to scrape.' },
    targetLabels: stringList('Service labels copied onto the targets.'),
    serviceDiscoveryRole: oneOf(['Endpoints', 'EndpointSlice'], 'Overrides the Prometheus serviceDiscoveryRole.'),
    ...monitorSpecProperties,
  },
} as const;

/** ServiceMonitor status. */
export const serviceMonitorStatusSchema = configResourceStatusSchema;
