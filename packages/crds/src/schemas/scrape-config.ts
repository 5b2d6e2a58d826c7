/**
 * ScrapeConfig (monitoring.coreos.com/v1alpha1): one Prometheus scrape job written almost as Prometheus' own
 * scrape_config, with targets from static lists or service discovery. Static, file, HTTP, Kubernetes, DNS and
 * Consul discovery have full schemas; the other seventeen discovery kinds prometheus-operator accepts are kept as
 * opaque lists here (so existing manifests apply) and promop's generator checks their entries when it renders.
 */
import { bool, byteSize, duration, embeddedList, oneOf, secretKeySelectorSchema, str, stringList, stringMap, URL_PATTERN } from './common.ts';
import { configResourceStatusSchema } from './config-resource-status.ts';
import { basicAuthSchema, oauth2Schema, proxyProperties, safeAuthorizationSchema } from './http-auth.ts';
import { relabelConfigList } from './relabel-config.ts';
import { nativeHistogramProperties, scrapeClassProperty, scrapeLimitProperties, scrapeProtocolProperties } from './scrape-endpoint.ts';
import { safeTlsConfigSchema } from './tls-config.ts';

/** Discovery kinds of prometheus-operator's ScrapeConfig kept as opaque lists (checked by the generator, not the schema). */
export const UNRENDERED_SD_FIELDS = [
  'ec2SDConfigs', 'azureSDConfigs', 'gceSDConfigs', 'openstackSDConfigs', 'digitalOceanSDConfigs', 'kumaSDConfigs',
  'eurekaSDConfigs', 'dockerSDConfigs', 'linodeSDConfigs', 'hetznerSDConfigs', 'nomadSDConfigs', 'dockerSwarmSDConfigs',
  'puppetDBSDConfigs', 'lightSailSDConfigs', 'ovhcloudSDConfigs', 'scalewaySDConfigs', 'ionosSDConfigs',
] as const;

const KUBERNETES_ROLES = ['Pod', 'Endpoints', 'Ingress', 'Service', 'Node', 'EndpointSlice'] as const;

/** The HTTP client settings each remote discovery mechanism has. */
const sdHttpClientProperties = {
  basicAuth: basicAuthSchema,
  authorization: safeAuthorizationSchema,
  oauth2: oauth2Schema,
  tlsConfig: safeTlsConfigSchema,
  followRedirects: bool('Follow HTTP 3xx redirects.'),
  enableHTTP2: bool('Allow HTTP/2.'),
  ...proxyProperties,
} as const;

const staticConfigSchema = {
  type: 'object',
  required: ['targets'],
  additionalProperties: false,
  properties: {
    targets: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'Targets (host:port).' },
    labels: stringMap('Labels added to every series of these targets.'),
  },
} as const;

const fileSdConfigSchema = {
  type: 'object',
  required: ['files'],
  additionalProperties: false,
  properties: {
    files: { type: 'array', minItems: 1, items: { type: 'string' }, description: 'Files (paths in the Prometheus container, globs allowed) listing targets.' },
    refreshInterval: duration('How often the files are re-read.'),
  },
} as const;

const httpSdConfigSchema = {
  type: 'object',
  required: ['url'],
  additionalProperties: false,
  properties: {
    url: { type: 'string', minLength: 1, pattern: URL_PATTERN, description: 'URL returning the targets.' },
    refreshInterval: duration('How often the URL is queried.'),
    ...sdHttpClientProperties,
  },
} as const;

const kubernetesSdConfigSchema = {
  type: 'object',
  required: ['role'],
  additionalProperties: false,
  properties: {
    apiServer: str('API server URL (default: in-cluster).'),
    role: oneOf(KUBERNETES_ROLES, 'Kind of object to discover.'),
    namespaces: {
      type: 'object',
      additionalProperties: false,
      description: 'Namespaces to discover in (default: all).',
      properties: {
        ownNamespace: bool("Include the Prometheus' own namespace."),
        names: stringList('Namespace names.'),
      },
    },
    attachMetadata: {
      type: 'object',
      additionalProperties: false,
      description: 'Metadata attached to the targets.',
      properties: { node: bool('Attach node labels (roles Pod, Endpoints, EndpointSlice).') },
    },
    selectors: {
      type: 'array',
      description: 'Label and field selectors passed to the API server.',
      items: {
        type: 'object',
        required: ['role'],
        additionalProperties: false,
        properties: {
          role: oneOf(KUBERNETES_ROLES, 'Kind of object the selector applies to.'),
          label: str('Label selector.'),
          field: str('Field selector.'),
        },
      },
    },
    ...sdHttpClientProperties,
  },
} as const;

const consulSdConfigSchema = {
  type: 'object',
  required: ['server'],
  additionalProperties: false,
  properties: {
    server: { type: 'string', minLength: 1, description: 'Consul server address (host:port).' },
    pathPrefix: str('Prefix of the Consul API path.'),
    tokenRef: { ...secretKeySelectorSchema, description: 'Secret key holding the Consul ACL token.' },
    datacenter: str('Datacenter to query.'),
    namespace: str('Consul namespace (Consul Enterprise).'),
    partition: str('Admin partition (Consul Enterprise).'),
    scheme: oneOf(['http', 'https', 'HTTP', 'HTTPS'], 'Scheme of the Consul API.'),
    services: stringList('Services to discover (default: all).'),
    tags: stringList('Only services with all these tags.'),
    tagSeparator: str('Separator of the tags in the __meta_consul_tags label.'),
    nodeMeta: stringMap('Only nodes with this metadata.'),
    filter: str('Consul filter expression.'),
    healthFilter: str('Consul filter expression for health checks.'),
    allowStale: bool('Allow stale Consul results.'),
    refreshInterval: duration('How often the catalog is queried.'),
    ...sdHttpClientProperties,
  },
} as const;

const dnsSdConfigSchema = {
  type: 'object',
  required: ['names'],
  additionalProperties: false,
  properties: {
    names: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, description: 'DNS names to query.' },
    refreshInterval: duration('How often the names are resolved.'),
    type: oneOf(['A', 'AAAA', 'MX', 'NS', 'SRV'], 'Record type (default SRV).'),
    port: { type: 'integer', minimum: 0, maximum: 65535, description: 'Port of the targets (not for SRV).' },
  },
} as const;

/** ScrapeConfig spec. */
export const scrapeConfigSpecSchema = {
  type: 'object',
  description: 'One scrape job and where its targets come from.',
  additionalProperties: false,
  properties: {
    jobName: { type: 'string', minLength: 1, description: 'Value of the job label (the job name stays scrapeConfig/<namespace>/<name>).' },
    staticConfigs: { type: 'array', items: staticConfigSchema, description: 'Fixed lists of targets.' },
    fileSDConfigs: { type: 'array', items: fileSdConfigSchema, description: 'File-based discovery.' },
    httpSDConfigs: { type: 'array', items: httpSdConfigSchema, description: 'HTTP-based discovery.' },
    kubernetesSDConfigs: { type: 'array', items: kubernetesSdConfigSchema, description: 'Kubernetes discovery.' },
    consulSDConfigs: { type: 'array', items: consulSdConfigSchema, description: 'Consul discovery.' },
    dnsSDConfigs: { type: 'array', items: dnsSdConfigSchema, description: 'DNS discovery.' },
    ec2SDConfigs: embeddedList('AWS EC2 discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    azureSDConfigs: embeddedList('Azure discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    gceSDConfigs: embeddedList('GCE discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    openstackSDConfigs: embeddedList('OpenStack discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    digitalOceanSDConfigs: embeddedList('DigitalOcean discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    kumaSDConfigs: embeddedList('Kuma discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    eurekaSDConfigs: embeddedList('Eureka discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    dockerSDConfigs: embeddedList('Docker discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    linodeSDConfigs: embeddedList('Linode discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    hetznerSDConfigs: embeddedList('Hetzner discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    nomadSDConfigs: embeddedList('Nomad discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    dockerSwarmSDConfigs: embeddedList('Docker Swarm discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    puppetDBSDConfigs: embeddedList('PuppetDB discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    lightSailSDConfigs: embeddedList('AWS Lightsail discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    ovhcloudSDConfigs: embeddedList('OVHcloud discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    scalewaySDConfigs: embeddedList('Scaleway discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    ionosSDConfigs: embeddedList('IONOS discovery (stored as written; promop checks each entry when it renders the ScrapeConfig and rejects the object, naming the field, when one is wrong).'),
    relabelings: relabelConfigList('Relabeling applied to targets before they are scraped.'),
    metricRelabelings: relabelConfigList('Relabeling applied to samples before they are stored.'),
    metricsPath: str('HTTP path to scrape (default /metrics).'),
    scrapeInterval: duration('How often to scrape (default: the Prometheus scrapeInterval).'),
    scrapeTimeout: duration('Scrape timeout; must not exceed the interval.'),
    ...scrapeProtocolProperties,
    honorTimestamps: bool('Keep the timestamps the target exposes.'),
    trackTimestampsStaleness: bool('Track staleness of series with explicit timestamps.'),
    honorLabels: bool('Keep the labels of scraped series when they clash with target labels.'),
    params: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } }, description: 'URL query parameters added to each scrape.' },
    scheme: oneOf(['http', 'https', 'HTTP', 'HTTPS'], 'HTTP scheme to scrape with (default http).'),
    enableCompression: bool('Ask targets for compressed responses (default true).'),
    enableHTTP2: bool('Allow HTTP/2.'),
    basicAuth: basicAuthSchema,
    authorization: safeAuthorizationSchema,
    oauth2: oauth2Schema,
    tlsConfig: safeTlsConfigSchema,
    ...scrapeLimitProperties,
    bodySizeLimit: byteSize('Limit of the uncompressed response body size.'),
    ...nativeHistogramProperties,
    nameValidationScheme: oneOf(['UTF8', 'Legacy'], 'Metric and label names this job accepts (metric_name_validation_scheme, Prometheus 3.0 and later).'),
    nameEscapingScheme: oneOf(['AllowUTF8', 'Underscores', 'Dots', 'Values'], 'How names are escaped (metric_name_escaping_scheme, Prometheus 3.4 and later).'),
    ...scrapeClassProperty,
    ...proxyProperties,
  },
} as const;

/** ScrapeConfig status. */
export const scrapeConfigStatusSchema = configResourceStatusSchema;
