/** Fields ServiceMonitor endpoints and PodMonitor endpoints share, and the scrape limits both monitor kinds share. */
import { bool, byteSize, count, duration, intOrString, oneOf, secretKeySelectorSchema, str } from './common.ts';
import { basicAuthSchema, oauth2Schema, proxyProperties, safeAuthorizationSchema } from './http-auth.ts';
import { relabelConfigList } from './relabel-config.ts';

/** Scrape protocols Prometheus can negotiate, in prometheus-operator's spelling. */
export const SCRAPE_PROTOCOLS = [
  'PrometheusProto',
  'OpenMetricsText0.0.1',
  'OpenMetricsText1.0.0',
  'PrometheusText0.0.4',
  'PrometheusText1.0.0',
] as const;

/** How one endpoint is scraped; everything except the port and the TLS variant. */
export const scrapeEndpointProperties = {
  path: str('HTTP path to scrape (default /metrics).'),
  scheme: oneOf(['http', 'https', 'HTTP', 'HTTPS'], 'HTTP scheme to scrape with (default http).'),
  params: {
    type: 'object',
    description: 'URL query parameters added to each scrape.',
    additionalProperties: { type: 'array', items: { type: 'string' } },
  },
  interval: duration('How often to scrape (default: the Prometheus scrapeInterval).'),
  scrapeTimeout: duration('Scrape timeout; must not exceed the interval.'),
  honorLabels: bool('Keep the labels of scraped series when they clash with target labels.'),
  honorTimestamps: bool('Keep the timestamps the target exposes.'),
  trackTimestampsStaleness: bool('Track staleness of series with explicit timestamps.'),
  metricRelabelings: relabelConfigList('Relabeling applied to samples before they are stored.'),
  relabelings: relabelConfigList('Relabeling applied to targets before they are scraped.'),
  filterRunning: bool('Drop targets whose pod is not Running (default true).'),
  authorization: safeAuthorizationSchema,
  basicAuth: basicAuthSchema,
  oauth2: oauth2Schema,
  bearerTokenSecret: { ...secretKeySelectorSchema, description: 'Deprecated: use authorization. Secret holding a bearer token.' },
  followRedirects: bool('Follow HTTP 3xx redirects.'),
  enableHttp2: bool('Allow HTTP/2.'),
  ...proxyProperties,
} as const;

/** The port given as a number or name of the container; deprecated by prometheus-operator but still accepted. */
export const targetPortSchema = intOrString('Container port, by number or by name.');

/** Per-scrape limits every scraping kind (monitors, Probe, ScrapeConfig) carries. */
export const scrapeLimitProperties = {
  sampleLimit: count('Per-scrape limit of accepted samples.'),
  targetLimit: count('Limit of scraped targets.'),
  labelLimit: count('Per-scrape limit of labels per sample.'),
  labelNameLengthLimit: count('Per-scrape limit of label name length.'),
  labelValueLengthLimit: count('Per-scrape limit of label value length.'),
  keepDroppedTargets: count('How many dropped targets Prometheus keeps in memory.'),
} as const;

/** The scrape protocols to negotiate and the fallback, as every scraping kind spells them. */
export const scrapeProtocolProperties = {
  scrapeProtocols: {
    type: 'array',
    items: { type: 'string', enum: SCRAPE_PROTOCOLS },
    description: 'Protocols to negotiate, in order of preference.',
  },
  fallbackScrapeProtocol: oneOf(SCRAPE_PROTOCOLS, 'Protocol used when the target returns a missing or unknown Content-Type.'),
} as const;

/** The scrape class a scraping kind picks by name. */
export const scrapeClassProperty = {
  scrapeClass: { type: 'string', minLength: 1, description: 'Name of the Prometheus scrape class to apply.' },
} as const;

/** Native histogram settings (prometheus-operator's inlined NativeHistogramConfig). */
export const nativeHistogramProperties = {
  scrapeNativeHistograms: bool('Scrape native histograms.'),
  scrapeClassicHistograms: bool('Also scrape the classic series of histograms exposed as native histograms.'),
  nativeHistogramBucketLimit: count('Limit of buckets per native histogram.'),
  nativeHistogramMinBucketFactor: intOrString('Lower bound of the native histogram bucket growth factor (a quantity).'),
  convertClassicHistogramsToNHCB: bool('Convert classic histograms to native histograms with custom buckets.'),
} as const;

/** Scrape limits and protocol choices both ServiceMonitor and PodMonitor specs carry. */
export const monitorSpecProperties = {
  jobLabel: str('Label of the Service/Pod whose value becomes the job label.'),
  podTargetLabels: { type: 'array', items: { type: 'string' }, description: 'Pod labels copied onto the targets.' },
  ...scrapeLimitProperties,
  bodySizeLimit: byteSize('Limit of the uncompressed response body size.'),
  ...scrapeProtocolProperties,
  ...scrapeClassProperty,
  selectorMechanism: oneOf(['RelabelConfig', 'RoleSelector'], 'How the selector is applied (default RelabelConfig).'),
  attachMetadata: {
    type: 'object',
    description: 'Metadata attached to the discovered targets.',
    additionalProperties: false,
    properties: { node: bool('Attach node labels (needs get/list/watch on nodes).') },
  },
  ...nativeHistogramProperties,
} as const;
