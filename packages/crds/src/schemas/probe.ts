/**
 * Probe: targets probed through a prober such as the blackbox exporter. Prometheus scrapes the prober, passing each
 * target as the `target` URL parameter; targets are a static list or discovered from Ingress objects.
 */
import { bool, duration, labelSelectorSchema, namespaceSelectorSchema, oneOf, secretKeySelectorSchema, str, stringList, stringMap } from './common.ts';
import { configResourceStatusSchema } from './config-resource-status.ts';
import { basicAuthSchema, oauth2Schema, proxyProperties, safeAuthorizationSchema } from './http-auth.ts';
import { relabelConfigList } from './relabel-config.ts';
import { nativeHistogramProperties, scrapeClassProperty, scrapeLimitProperties, scrapeProtocolProperties } from './scrape-endpoint.ts';
import { safeTlsConfigSchema } from './tls-config.ts';

/** The prober Prometheus scrapes: where it listens and how to reach it. */
export const proberSpecSchema = {
  type: 'object',
  description: 'The prober (for example a blackbox exporter) that probes the targets.',
  required: ['url'],
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, description: 'Address of the prober as host or host:port, without a scheme (set scheme for that).' },
    scheme: oneOf(['http', 'https', 'HTTP', 'HTTPS'], 'HTTP scheme to scrape the prober with (default http).'),
    path: { type: 'string', default: '/probe', description: 'HTTP path of the prober (default /probe).' },
    ...proxyProperties,
  },
} as const;

/** A fixed list of targets. */
export const probeTargetStaticConfigSchema = {
  type: 'object',
  description: 'A static list of targets to probe.',
  additionalProperties: false,
  properties: {
    static: stringList('Targets to probe (URLs or host:port, as the prober module expects).'),
    labels: stringMap('Labels added to every series of these targets (namespace is added when absent).'),
    relabelingConfigs: relabelConfigList('Relabeling applied to the targets before they are probed.'),
  },
} as const;

/** Targets discovered from Ingress objects: one per host and path. */
export const probeTargetIngressSchema = {
  type: 'object',
  description: 'Ingress objects whose hosts and paths are probed.',
  additionalProperties: false,
  properties: {
    selector: labelSelectorSchema,
    namespaceSelector: namespaceSelectorSchema,
    relabelingConfigs: relabelConfigList(
      'Relabeling applied to the targets before they are probed; __tmp_ingress_address holds the Ingress address.',
    ),
  },
} as const;

/** Probe spec. */
export const probeSpecSchema = {
  type: 'object',
  description: 'What to probe, with which prober, and how to scrape the prober.',
  additionalProperties: false,
  properties: {
    jobName: str('Value of the job label (default: the job name probe/<namespace>/<name>).'),
    prober: proberSpecSchema,
    module: str('Prober module to use (the blackbox exporter module name), sent as the module URL parameter.'),
    targets: {
      type: 'object',
      description: 'The targets: staticConfig or ingress (staticConfig wins when both are set).',
      additionalProperties: false,
      properties: {
        staticConfig: probeTargetStaticConfigSchema,
        ingress: probeTargetIngressSchema,
      },
    },
    interval: duration('How often to probe (default: the Prometheus scrapeInterval).'),
    scrapeTimeout: duration('Scrape timeout; must not exceed the interval.'),
    params: {
      type: 'array',
      minItems: 1,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      description: 'Extra URL parameters sent to the prober; spec.module wins over a module parameter.',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, description: 'Parameter name.' },
          values: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'Parameter values.' },
        },
      },
    },
    metricRelabelings: relabelConfigList('Relabeling applied to samples before they are stored.'),
    authorization: safeAuthorizationSchema,
    basicAuth: basicAuthSchema,
    oauth2: oauth2Schema,
    bearerTokenSecret: { ...secretKeySelectorSchema, description: 'Deprecated: use authorization. Secret holding a bearer token.' },
    followRedirects: bool('Follow HTTP 3xx redirects.'),
    enableHttp2: bool('Allow HTTP/2.'),
    tlsConfig: safeTlsConfigSchema,
    ...scrapeLimitProperties,
    ...scrapeProtocolProperties,
    ...scrapeClassProperty,
    ...nativeHistogramProperties,
  },
} as const;

/** Probe status. */
export const probeStatusSchema = configResourceStatusSchema;
