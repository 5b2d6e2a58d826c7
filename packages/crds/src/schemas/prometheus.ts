/**
 * Prometheus: a Prometheus server (a StatefulSet per shard) and the selectors that pick its monitors and rules.
 * Fields promop acts on are typed; fields it only accepts for compatibility are typed when they are scalars and
 * kept opaque when they are objects (see docs/compatibility.md for what promop does with each).
 */
import {
  bool, byteSize, count, duration, durationWithDefault, embedded, embeddedList, embeddedObjectMetadataSchema,
  labelSelectorSchema, oneOf, secretKeySelectorSchema, secretOrConfigMapSchema, str, stringList, stringMap,
} from './common.ts';
import { alertingSpecSchema } from './alerting.ts';
import { apiServerConfigSchema } from './api-server-config.ts';
import { authorizationSchema } from './http-auth.ts';
import { otlpConfigSchema } from './otlp-config.ts';
import { relabelConfigList } from './relabel-config.ts';
import { remoteReadSpecSchema, remoteWriteSpecSchema } from './remote-storage.ts';
import { SCRAPE_PROTOCOLS } from './scrape-endpoint.ts';
import { shardRetentionPolicySchema, shardingStrategySchema } from './sharding-strategy.ts';
import { thanosSpecSchema } from './thanos-spec.ts';
import { tlsConfigSchema } from './tls-config.ts';
import { tracingConfigSchema } from './tracing-config.ts';
import { tsdbSpecSchema } from './tsdb.ts';

/** A selector field of the Prometheus spec, with the meaning of "absent" spelled out. */
function selector<const D extends string>(description: D) {
  return { ...labelSelectorSchema, description } as const;
}

/** A named group of scrape settings that monitors opt into with `scrapeClass`. */
const scrapeClassSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 1, description: 'Name monitors refer to.' },
    default: bool('Apply to monitors that name no scrape class (at most one class may be the default).'),
    fallbackScrapeProtocol: oneOf(SCRAPE_PROTOCOLS, 'Protocol used when the target sends no usable Content-Type.'),
    tlsConfig: tlsConfigSchema,
    authorization: authorizationSchema,
    relabelings: relabelConfigList('Relabeling prepended to the monitors\' relabelings.'),
    metricRelabelings: relabelConfigList('Relabeling prepended to the monitors\' metricRelabelings.'),
    attachMetadata: {
      type: 'object',
      additionalProperties: false,
      properties: { node: bool('Attach node labels.') },
    },
  },
} as const;

/** Where a workload keeps its data (the TSDB, or Alertmanager's silences and notification log). */
export function storageSpecSchema<const D extends string>(description: D) {
  return {
    type: 'object',
    description,
    additionalProperties: false,
    properties: {
      disableMountSubPath: bool('Deprecated: mount the volume without a sub path.'),
      emptyDir: embedded('An emptyDir volume (Kubernetes EmptyDirVolumeSource).'),
      ephemeral: embedded('A generic ephemeral volume (Kubernetes EphemeralVolumeSource).'),
      volumeClaimTemplate: embedded('A PersistentVolumeClaim template for the StatefulSet.'),
    },
  } as const;
}

/** Query engine settings. */
const querySpecSchema = {
  type: 'object',
  description: 'Query engine settings.',
  additionalProperties: false,
  properties: {
    lookbackDelta: str('How far back to look for the last sample of a series (a duration).'),
    maxConcurrency: { type: 'integer', minimum: 1, description: 'Maximum concurrent queries.' },
    maxSamples: { type: 'integer', description: 'Maximum samples one query may load.' },
    timeout: duration('Maximum time a query may take.'),
  },
} as const;

/**
 * HTTPS of the Prometheus web server (prometheus-operator's WebTLSConfig), written into the web config file that
 * Prometheus' exporter-toolkit reads. The string fields are free text as upstream's; promop checks their values
 * when it reconciles (workload/web-config.ts), since a value exporter-toolkit refuses stops Prometheus from starting.
 */
const webTlsConfigSchema = {
  type: 'object',
  description: 'Serve HTTPS: certificate and key from a Secret/ConfigMap or from files in the container.',
  additionalProperties: false,
  properties: {
    cert: secretOrConfigMapSchema,
    certFile: str('Path of the serving certificate in the Prometheus container (instead of cert).'),
    keySecret: secretKeySelectorSchema,
    keyFile: str('Path of the private key in the Prometheus container (instead of keySecret).'),
    client_ca: secretOrConfigMapSchema,
    clientCAFile: str('Path of the CA that verifies client certificates, in the Prometheus container (instead of client_ca).'),
    clientAuthType: str('Client certificate policy: NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven or RequireAndVerifyClientCert.'),
    minVersion: str('Oldest TLS version accepted (TLS10, TLS11, TLS12, TLS13).'),
    maxVersion: str('Newest TLS version accepted (TLS10, TLS11, TLS12, TLS13).'),
    cipherSuites: stringList('Cipher suites for TLS 1.2 and older, by Go name (default: Go\'s).'),
    preferServerCipherSuites: bool('Prefer the server\'s cipher suite order.'),
    curvePreferences: stringList('Elliptic curves for ECDHE, in order of preference (CurveP256, CurveP384, CurveP521, X25519).'),
  },
} as const;

/** HTTP settings of the Prometheus web server (prometheus-operator's WebHTTPConfig). */
const webHttpConfigSchema = {
  type: 'object',
  description: 'HTTP/2 and response headers of the web server.',
  additionalProperties: false,
  properties: {
    http2: bool('Serve HTTP/2 (only over TLS; Prometheus\' default is on).'),
    headers: {
      type: 'object',
      description: 'Headers added to every response.',
      additionalProperties: false,
      properties: {
        contentSecurityPolicy: str('Content-Security-Policy header.'),
        xFrameOptions: oneOf(['', 'Deny', 'SameOrigin'], 'X-Frame-Options header.'),
        xContentTypeOptions: oneOf(['', 'NoSniff'], 'X-Content-Type-Options header.'),
        xXSSProtection: str('X-XSS-Protection header.'),
        strictTransportSecurity: str('Strict-Transport-Security header.'),
      },
    },
  },
} as const;

/** The web server of Prometheus. */
const webSpecSchema = {
  type: 'object',
  description: 'Settings of the Prometheus web server.',
  additionalProperties: false,
  properties: {
    pageTitle: str('Title of the web UI pages.'),
    maxConnections: { type: 'integer', minimum: 0, description: 'Maximum simultaneous connections.' },
    tlsConfig: webTlsConfigSchema,
    httpConfig: webHttpConfigSchema,
  },
} as const;

/**
 * The fields a Prometheus server and a Prometheus agent share (prometheus-operator's CommonPrometheusFields): the
 * workload, the selectors of monitors, scraping, remote write. PrometheusAgent's spec is these and its `mode`; the
 * Prometheus spec adds the server-only fields below.
 */
export const commonPrometheusProperties = {
  // Essential.
  version: str('Prometheus version, e.g. 3.13.2 (default: the newest version promop supports).'),
  image: str('Container image; overrides version for the image but version still drives the configuration.'),
  replicas: { type: 'integer', minimum: 0, description: 'Pods per shard (default 1).' },
  shards: { type: 'integer', minimum: 0, default: 1, description: 'Number of shards; targets are split between them.' },
  serviceAccountName: str('ServiceAccount the pods run as.'),
  serviceMonitorSelector: selector('ServiceMonitors to use. Absent selects none; {} selects all.'),
  serviceMonitorNamespaceSelector: selector("Namespaces to take ServiceMonitors from. Absent means the Prometheus' own namespace; {} means all."),
  podMonitorSelector: selector('PodMonitors to use. Absent selects none; {} selects all.'),
  podMonitorNamespaceSelector: selector("Namespaces to take PodMonitors from. Absent means the Prometheus' own namespace; {} means all."),
  probeSelector: selector('Probes to use. Absent selects none; {} selects all.'),
  probeNamespaceSelector: selector("Namespaces to take Probes from. Absent means the Prometheus' own namespace; {} means all."),
  scrapeConfigSelector: selector('ScrapeConfigs to use. Absent selects none; {} selects all.'),
  scrapeConfigNamespaceSelector: selector("Namespaces to take ScrapeConfigs from. Absent means the Prometheus' own namespace; {} means all."),
  scrapeInterval: durationWithDefault('Default interval between scrapes.', '30s'),
  scrapeTimeout: duration('Default scrape timeout; must not exceed scrapeInterval.'),
  storage: storageSpecSchema('Storage of the TSDB. Absent means an emptyDir.'),
  resources: embedded('Compute resources of the Prometheus container (Kubernetes ResourceRequirements).'),
  externalLabels: stringMap('Labels added to every series and alert sent outside.'),
  remoteWrite: { type: 'array', items: remoteWriteSpecSchema, description: 'Remote write endpoints.' },
  paused: bool('Stop reconciling this object (the running pods are left alone).'),
  podMetadata: embeddedObjectMetadataSchema,
  nodeSelector: stringMap('Node labels the pods must run on.'),
  tolerations: embeddedList('Tolerations of the pods (Kubernetes Toleration).'),
  affinity: embedded('Affinity of the pods (Kubernetes Affinity).'),
  securityContext: embedded('Pod security context (Kubernetes PodSecurityContext).'),
  // Common.
  externalUrl: str('URL under which Prometheus is reachable from outside, used in links.'),
  routePrefix: str('Path prefix of the HTTP endpoints (default /).'),
  logLevel: oneOf(['', 'debug', 'info', 'warn', 'error'], 'Log level of Prometheus.'),
  logFormat: oneOf(['', 'logfmt', 'json'], 'Log format of Prometheus.'),
  additionalScrapeConfigs: { ...secretKeySelectorSchema, description: 'Secret key holding extra scrape_configs (YAML list) appended as they are.' },
  secrets: stringList('Secrets mounted at /etc/prometheus/secrets/<name>.'),
  configMaps: stringList('ConfigMaps mounted at /etc/prometheus/configmaps/<name>.'),
  volumes: embeddedList('Extra volumes of the pods (Kubernetes Volume).'),
  volumeMounts: embeddedList('Extra volume mounts of the Prometheus container (Kubernetes VolumeMount).'),
  containers: embeddedList('Extra containers, or patches of promop\'s containers merged by name (Kubernetes Container).'),
  initContainers: embeddedList('Extra init containers (Kubernetes Container).'),
  imagePullPolicy: oneOf(['', 'Always', 'Never', 'IfNotPresent'], 'Image pull policy of the containers.'),
  imagePullSecrets: embeddedList('Secrets for pulling images (Kubernetes LocalObjectReference).'),
  priorityClassName: str('Priority class of the pods.'),
  topologySpreadConstraints: embeddedList('Topology spread constraints of the pods.'),
  enableFeatures: { type: 'array', items: { type: 'string', minLength: 1 }, description: 'Prometheus feature flags (--enable-feature).' },
  enableRemoteWriteReceiver: bool('Accept remote write requests.'),
  walCompression: bool('Compress the write-ahead log.'),
  web: webSpecSchema,
  replicaExternalLabelName: str('Name of the external label carrying the replica (default prometheus_replica; "" disables).'),
  prometheusExternalLabelName: str('Name of the external label carrying <namespace>/<name> (default prometheus; "" disables).'),
  enforcedNamespaceLabel: str('Label set to the namespace of each monitor and rule on all their series and alerts.'),
  enforcedSampleLimit: count('Upper bound of every monitor\'s sampleLimit.'),
  scrapeClasses: {
    type: 'array',
    items: scrapeClassSchema,
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    description: 'Named scrape settings monitors can refer to.',
  },
  serviceDiscoveryRole: oneOf(['Endpoints', 'EndpointSlice'], 'Kubernetes role used to discover ServiceMonitor targets (default Endpoints).'),
  listenLocal: bool('Listen on 127.0.0.1 only.'),
  portName: { type: 'string', default: 'web', description: 'Name of the Prometheus container port.' },
  minReadySeconds: count('Seconds a new pod must be ready before it counts as available.'),
  podTargetLabels: stringList('Pod labels copied onto the targets of every monitor.'),
  // Advanced: accepted so real manifests apply.
  arbitraryFSAccessThroughSMs: {
    type: 'object',
    description: 'Whether team objects may make Prometheus read files of its container.',
    additionalProperties: false,
    properties: { deny: bool('Reject ServiceMonitors, PodMonitors, Probes and ScrapeConfigs that name a file of the Prometheus container (bearer token, TLS, credentials files, file discovery).') },
  },
  overrideHonorLabels: bool('Force honorLabels off for all monitors.'),
  overrideHonorTimestamps: bool('Force honorTimestamps off for all monitors.'),
  ignoreNamespaceSelectors: bool('Ignore the namespaceSelector of monitors (only their own namespace).'),
  excludedFromEnforcement: {
    type: 'array',
    description: 'Objects the enforced namespace label does not apply to.',
    items: {
      type: 'object',
      required: ['namespace', 'resource'],
      additionalProperties: false,
      properties: {
        group: { type: 'string', enum: ['monitoring.coreos.com'], default: 'monitoring.coreos.com', description: 'API group.' },
        resource: oneOf(['prometheusrules', 'servicemonitors', 'podmonitors', 'probes', 'scrapeconfigs'], 'Resource (plural).'),
        namespace: { type: 'string', minLength: 1, description: 'Namespace of the objects.' },
        name: str('Name of the object; empty means every object of the resource in the namespace.'),
      },
    },
  },
  enforcedTargetLimit: count('Upper bound of every monitor\'s targetLimit.'),
  enforcedLabelLimit: count('Upper bound of every monitor\'s labelLimit.'),
  enforcedLabelNameLengthLimit: count('Upper bound of every monitor\'s labelNameLengthLimit.'),
  enforcedLabelValueLengthLimit: count('Upper bound of every monitor\'s labelValueLengthLimit.'),
  enforcedKeepDroppedTargets: count('Upper bound of every monitor\'s keepDroppedTargets.'),
  enforcedBodySizeLimit: byteSize('Upper bound of every monitor\'s bodySizeLimit.'),
  sampleLimit: count('Global sample limit per scrape.'),
  targetLimit: count('Global target limit per scrape config.'),
  labelLimit: count('Global limit of labels per sample.'),
  labelNameLengthLimit: count('Global limit of label name length.'),
  labelValueLengthLimit: count('Global limit of label value length.'),
  keepDroppedTargets: count('Global number of dropped targets kept in memory.'),
  bodySizeLimit: byteSize('Global limit of the uncompressed response body size.'),
  scrapeProtocols: { type: 'array', items: { type: 'string', enum: SCRAPE_PROTOCOLS }, description: 'Scrape protocols, in order of preference.' },
  nameValidationScheme: oneOf(['UTF8', 'Legacy'], 'Which metric and label names are valid.'),
  nameEscapingScheme: str('How names are escaped for scrapers that cannot use UTF-8 names.'),
  convertClassicHistogramsToNHCB: bool('Convert classic histograms to native histograms with custom buckets.'),
  scrapeNativeHistograms: bool('Scrape native histograms.'),
  scrapeClassicHistograms: bool('Also scrape classic histograms exposed as native histograms.'),
  tsdb: tsdbSpecSchema,
  otlp: otlpConfigSchema,
  enableOTLPReceiver: bool('Accept OTLP metrics (default: on when otlp is set).'),
  remoteWriteReceiverMessageVersions: stringList('Remote write protocol versions the receiver accepts.'),
  tracingConfig: tracingConfigSchema,
  runtime: {
    type: 'object',
    description: 'Go runtime settings of Prometheus.',
    additionalProperties: false,
    properties: { goGC: { type: 'integer', minimum: -1, description: 'GOGC percentage; -1 disables the garbage collector.' } },
  },
  reloadStrategy: oneOf(['HTTP', 'ProcessSignal'], 'How Prometheus is told to reload.'),
  maximumStartupDurationSeconds: { type: 'integer', minimum: 60, description: 'Maximum time the startup probe waits.' },
  scrapeFailureLogFile: str('File scrape failures are logged to.'),
  serviceName: str('Name of an existing governing Service for the StatefulSet.'),
  terminationGracePeriodSeconds: count('Seconds a pod gets to stop (default 600).'),
  hostNetwork: bool('Use the host network.'),
  hostUsers: bool('Use the host user namespace.'),
  hostAliases: embeddedList('Extra /etc/hosts entries (Kubernetes HostAlias).'),
  // Kubernetes accepts only these four values; the enum makes `kubectl apply` say so instead of the StatefulSet write.
  dnsPolicy: oneOf(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'], 'DNS policy of the pods.'),
  dnsConfig: embedded('DNS settings of the pods.'),
  enableServiceLinks: bool('Inject Service environment variables.'),
  automountServiceAccountToken: bool('Mount the ServiceAccount token (default true).'),
  schedulerName: str('Scheduler of the pods.'),
  podManagementPolicy: oneOf(['OrderedReady', 'Parallel'], 'StatefulSet pod management policy (default Parallel).'),
  updateStrategy: embedded('StatefulSet update strategy.'),
  persistentVolumeClaimRetentionPolicy: embedded('StatefulSet PVC retention policy.'),
  shardingStrategy: shardingStrategySchema,
  apiserverConfig: apiServerConfigSchema,
  additionalArgs: embeddedList('Extra Prometheus command-line arguments ({name, value}).'),
} as const;

/** Fields only a Prometheus server has: rules, alerting, retention, queries, remote read, Thanos. */
const serverOnlyProperties = {
  ruleSelector: selector('PrometheusRules to load. Absent selects none; {} selects all.'),
  ruleNamespaceSelector: selector("Namespaces to take PrometheusRules from. Absent means the Prometheus' own namespace; {} means all."),
  evaluationInterval: durationWithDefault('Default interval between rule evaluations.', '30s'),
  retention: duration('How long to keep data (default 24h when retentionSize is also empty).'),
  retentionSize: byteSize('Maximum size of the TSDB blocks.'),
  alerting: alertingSpecSchema,
  remoteRead: { type: 'array', items: remoteReadSpecSchema, description: 'Remote read endpoints.' },
  additionalAlertRelabelConfigs: { ...secretKeySelectorSchema, description: 'Secret key holding extra alert_relabel_configs.' },
  additionalAlertManagerConfigs: { ...secretKeySelectorSchema, description: 'Secret key holding extra alertmanager configs.' },
  enableAdminAPI: bool('Enable the TSDB admin API.'),
  thanos: thanosSpecSchema,
  query: querySpecSchema,
  prometheusRulesExcludedFromEnforce: {
    type: 'array',
    description: 'Deprecated: use excludedFromEnforcement.',
    items: {
      type: 'object',
      required: ['ruleNamespace', 'ruleName'],
      additionalProperties: false,
      properties: { ruleNamespace: str('Namespace of the PrometheusRule.'), ruleName: str('Name of the PrometheusRule.') },
    },
  },
  queryLogFile: str('File queries are logged to.'),
  shardRetentionPolicy: shardRetentionPolicySchema,
  rules: {
    type: 'object',
    description: 'Rule evaluation settings.',
    additionalProperties: false,
    properties: {
      alert: {
        type: 'object',
        additionalProperties: false,
        properties: {
          forOutageTolerance: str('How long Prometheus may have been down and still restore the for state of alerts.'),
          forGracePeriod: str('Minimum for duration restored after an outage.'),
          resendDelay: str('Minimum wait before an alert is sent to Alertmanager again.'),
        },
      },
    },
  },
  ruleQueryOffset: duration('How far in the past rules are evaluated.'),
  exemplars: {
    type: 'object',
    description: 'Exemplar storage (needs the exemplar-storage feature).',
    additionalProperties: false,
    properties: { maxSize: { type: 'integer', minimum: 0, description: 'Maximum number of exemplars kept in memory.' } },
  },
  disableCompaction: bool('Disable TSDB compaction.'),
  allowOverlappingBlocks: bool('Deprecated and ignored.'),
  baseImage: str('Deprecated: use image.'),
  tag: str('Deprecated: use version or image.'),
  sha: str('Deprecated: use image.'),
} as const;

/** Prometheus spec. */
export const prometheusSpecSchema = {
  type: 'object',
  description: 'Desired state of a Prometheus server.',
  additionalProperties: false,
  properties: { ...commonPrometheusProperties, ...serverOnlyProperties },
} as const;
