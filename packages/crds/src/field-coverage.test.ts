/**
 * Field coverage against prometheus-operator (reference: ../shared/reference/prometheus-operator-compat.md §1).
 * Every essential and common field the reference lists, and the advanced ones promop accepts, is looked up in the
 * source schema (what the validators and types use) and in the generated CRD (what the API server uses), with the
 * type, enum, pattern and default the reference states. A field dropped or retyped by a later change fails here.
 *
 * The patterns and enums are written out literally rather than imported from the schema modules, so a change to
 * a shared constant is caught too.
 */
import { crdManifests } from './crd-manifest.ts';
import { alertmanagerConfigSchema, alertmanagerSchema, podMonitorSchema, probeSchema, prometheusAgentSchema, prometheusRuleSchema, prometheusSchema, scrapeConfigSchema, serviceMonitorSchema, thanosRulerSchema } from './resource-schemas.ts';
import type { Kind } from './kinds.ts';

type Node = Record<string, unknown>;

const DURATION = '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$';
const BYTE_SIZE = '(^0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)$';
const URL = '^(http|https)://.+$';
const PROXY_URL = '^(http|https|socks5)://.+$';
const RELABEL_ACTIONS = [
  'replace', 'Replace', 'keep', 'Keep', 'drop', 'Drop', 'hashmod', 'HashMod', 'labelmap', 'LabelMap',
  'labeldrop', 'LabelDrop', 'labelkeep', 'LabelKeep', 'lowercase', 'Lowercase', 'uppercase', 'Uppercase',
  'keepequal', 'KeepEqual', 'dropequal', 'DropEqual',
];
const TLS_VERSIONS = ['TLS10', 'TLS11', 'TLS12', 'TLS13'];
const SCRAPE_PROTOCOLS = ['PrometheusProto', 'OpenMetricsText0.0.1', 'OpenMetricsText1.0.0', 'PrometheusText0.0.4', 'PrometheusText1.0.0'];

// Expected schema fragments, matched with toMatchObject (extra keywords such as descriptions are fine).
const string = { type: 'string' };
const boolean = { type: 'boolean' };
const integer = { type: 'integer' };
const duration = { type: 'string', pattern: DURATION };
const byteSize = { type: 'string', pattern: BYTE_SIZE };
const stringList = { type: 'array', items: { type: 'string' } };
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };
const intOrString = { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] };
const opaque = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
const opaqueList = { type: 'array', items: opaque };
const objectList = { type: 'array', items: { type: 'object' } };
const enumOf = (values: string[]) => ({ type: 'string', enum: values });
const attributeSet = { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, 'x-kubernetes-list-type': 'set' };
const AZURE_TENANT_ID = '^[0-9a-zA-Z-.]+$';
const secretKeySelector = { type: 'object', required: ['key'], properties: { name: string, key: string, optional: boolean } };
const secretOrConfigMap = { type: 'object', properties: { secret: secretKeySelector, configMap: { type: 'object', required: ['key'], properties: { name: string, key: string } } } };
const labelSelector = {
  type: 'object',
  properties: { matchLabels: stringMap, matchExpressions: { type: 'array', items: { type: 'object', required: ['key', 'operator'], properties: { key: string, operator: string, values: stringList } } } },
};

/** One expectation: the field at `path` (dots between fields, `[]` for list items) matches `expected`. */
type Row = [path: string, expected: object];

/** Properties of the shared types, as rows under a prefix (`endpoints[].tlsConfig`…). */
const SHARED = {
  relabelConfig: (at: string): Row[] => [
    [at, { type: 'object' }],
    [`${at}.sourceLabels`, stringList],
    [`${at}.separator`, string],
    [`${at}.targetLabel`, string],
    [`${at}.regex`, string],
    [`${at}.modulus`, integer],
    [`${at}.replacement`, string],
    [`${at}.action`, { type: 'string', enum: RELABEL_ACTIONS, default: 'replace' }],
  ],
  safeTlsConfig: (at: string): Row[] => [
    [at, { type: 'object' }],
    [`${at}.ca`, secretOrConfigMap],
    [`${at}.cert`, secretOrConfigMap],
    [`${at}.keySecret`, secretKeySelector],
    [`${at}.serverName`, string],
    [`${at}.insecureSkipVerify`, boolean],
    [`${at}.minVersion`, enumOf(TLS_VERSIONS)],
    [`${at}.maxVersion`, enumOf(TLS_VERSIONS)],
  ],
  tlsConfig: (at: string): Row[] => [
    ...SHARED.safeTlsConfig(at),
    [`${at}.caFile`, string],
    [`${at}.certFile`, string],
    [`${at}.keyFile`, string],
  ],
  safeAuthorization: (at: string): Row[] => [[`${at}.type`, string], [`${at}.credentials`, secretKeySelector]],
  authorization: (at: string): Row[] => [...SHARED.safeAuthorization(at), [`${at}.credentialsFile`, string]],
  basicAuth: (at: string): Row[] => [[`${at}.username`, secretKeySelector], [`${at}.password`, secretKeySelector]],
  proxy: (at: string): Row[] => [
    [`${at}proxyUrl`, { type: 'string', pattern: PROXY_URL }],
    [`${at}noProxy`, string],
    [`${at}proxyFromEnvironment`, boolean],
    [`${at}proxyConnectHeader`, { type: 'object', additionalProperties: { type: 'array', items: secretKeySelector } }],
  ],
  oauth2: (at: string): Row[] => [
    [at, { type: 'object', required: ['clientId', 'clientSecret', 'tokenUrl'] }],
    [`${at}.clientId`, secretOrConfigMap],
    [`${at}.clientSecret`, secretKeySelector],
    [`${at}.tokenUrl`, { type: 'string', pattern: URL }],
    [`${at}.scopes`, stringList],
    [`${at}.endpointParams`, stringMap],
    ...SHARED.safeTlsConfig(`${at}.tlsConfig`),
    ...SHARED.proxy(`${at}.`),
  ],
  namespaceSelector: (at: string): Row[] => [[`${at}.any`, boolean], [`${at}.matchNames`, stringList]],
};

/** Endpoint fields ServiceMonitor and PodMonitor endpoints share (reference §1.2 and §1.3). */
function scrapeEndpointRows(at: string): Row[] {
  return [
    [`${at}.targetPort`, intOrString],
    [`${at}.path`, string],
    [`${at}.scheme`, enumOf(['http', 'https', 'HTTP', 'HTTPS'])],
    [`${at}.params`, { type: 'object', additionalProperties: stringList }],
    [`${at}.interval`, duration],
    [`${at}.scrapeTimeout`, duration],
    [`${at}.honorLabels`, boolean],
    [`${at}.honorTimestamps`, boolean],
    [`${at}.trackTimestampsStaleness`, boolean],
    ...SHARED.relabelConfig(`${at}.metricRelabelings[]`),
    ...SHARED.relabelConfig(`${at}.relabelings[]`),
    [`${at}.filterRunning`, boolean],
    ...SHARED.safeAuthorization(`${at}.authorization`),
    ...SHARED.basicAuth(`${at}.basicAuth`),
    ...SHARED.oauth2(`${at}.oauth2`),
    [`${at}.bearerTokenSecret`, secretKeySelector],
    [`${at}.followRedirects`, boolean],
    [`${at}.enableHttp2`, boolean],
    ...SHARED.proxy(`${at}.`),
  ];
}

/** Spec fields ServiceMonitor and PodMonitor share (reference §1.2 and §1.3, (a) to (c)). */
const MONITOR_SPEC_ROWS: Row[] = [
  ['selector', labelSelector],
  ...SHARED.namespaceSelector('namespaceSelector'),
  ['jobLabel', string],
  ['podTargetLabels', stringList],
  ['sampleLimit', integer],
  ['scrapeClass', string],
  ['attachMetadata.node', boolean],
  ['selectorMechanism', enumOf(['RelabelConfig', 'RoleSelector'])],
  ['targetLimit', integer],
  ['labelLimit', integer],
  ['labelNameLengthLimit', integer],
  ['labelValueLengthLimit', integer],
  ['keepDroppedTargets', integer],
  ['bodySizeLimit', byteSize],
  ['scrapeProtocols', { type: 'array', items: enumOf(SCRAPE_PROTOCOLS) }],
  ['fallbackScrapeProtocol', enumOf(SCRAPE_PROTOCOLS)],
  ['scrapeNativeHistograms', boolean],
  ['scrapeClassicHistograms', boolean],
  ['nativeHistogramBucketLimit', integer],
  ['nativeHistogramMinBucketFactor', intOrString],
  ['convertClassicHistogramsToNHCB', boolean],
];

const selectors = ['serviceMonitor', 'podMonitor', 'rule', 'probe', 'scrapeConfig'].flatMap((what): Row[] => [
  [`${what}Selector`, labelSelector],
  [`${what}NamespaceSelector`, labelSelector],
]);

/** Reference §1.1: Prometheus, essential (a), common (b) and advanced (c) fields. */
const PROMETHEUS_ROWS: Row[] = [
  // (a) essential
  ['version', string],
  ['image', string],
  ['replicas', integer],
  ['serviceAccountName', string],
  ...selectors,
  ['scrapeInterval', { ...duration, default: '30s' }],
  ['evaluationInterval', { ...duration, default: '30s' }],
  ['retention', duration],
  ['storage.volumeClaimTemplate', opaque],
  ['storage.emptyDir', opaque],
  ['storage.ephemeral', opaque],
  ['resources', opaque],
  ['externalLabels', stringMap],
  ['alerting.alertmanagers[]', { type: 'object', required: ['name', 'port'] }],
  ['alerting.alertmanagers[].namespace', string],
  ['alerting.alertmanagers[].port', intOrString],
  ['alerting.alertmanagers[].scheme', enumOf(['http', 'https', 'HTTP', 'HTTPS'])],
  ['alerting.alertmanagers[].pathPrefix', string],
  ['alerting.alertmanagers[].apiVersion', enumOf(['v1', 'V1', 'v2', 'V2'])],
  ['alerting.alertmanagers[].timeout', duration],
  ['alerting.alertmanagers[].bearerTokenFile', string],
  ...SHARED.tlsConfig('alerting.alertmanagers[].tlsConfig'),
  ...SHARED.basicAuth('alerting.alertmanagers[].basicAuth'),
  ...SHARED.safeAuthorization('alerting.alertmanagers[].authorization'),
  ...SHARED.relabelConfig('alerting.alertmanagers[].relabelings[]'),
  ...SHARED.relabelConfig('alerting.alertmanagers[].alertRelabelings[]'),
  ...SHARED.proxy('alerting.alertmanagers[].'),
  ['remoteWrite[]', { type: 'object', required: ['url'] }],
  ['remoteWrite[].url', { type: 'string', pattern: URL }],
  ['remoteWrite[].name', string],
  ['remoteWrite[].remoteTimeout', duration],
  ['remoteWrite[].headers', stringMap],
  ['remoteWrite[].bearerTokenFile', string],
  ['remoteWrite[].queueConfig.maxSamplesPerSend', integer],
  ['remoteWrite[].queueConfig.batchSendDeadline', duration],
  ['remoteWrite[].metadataConfig.send', boolean],
  ['remoteWrite[].messageVersion', enumOf(['V1.0', 'V2.0'])],
  ...SHARED.relabelConfig('remoteWrite[].writeRelabelConfigs[]'),
  ...SHARED.tlsConfig('remoteWrite[].tlsConfig'),
  ...SHARED.authorization('remoteWrite[].authorization'),
  ...SHARED.basicAuth('remoteWrite[].basicAuth'),
  ...SHARED.oauth2('remoteWrite[].oauth2'),
  ...SHARED.proxy('remoteWrite[].'),
  ['remoteWrite[].azureAd.cloud', enumOf(['AzureChina', 'AzureGovernment', 'AzurePublic'])],
  ['remoteWrite[].azureAd.managedIdentity.clientId', { type: 'string', minLength: 1 }],
  ['remoteWrite[].azureAd.oauth', { type: 'object', required: ['clientId', 'clientSecret', 'tenantId'] }],
  ['remoteWrite[].azureAd.oauth.clientId', { type: 'string', minLength: 1 }],
  ['remoteWrite[].azureAd.oauth.clientSecret', secretKeySelector],
  ['remoteWrite[].azureAd.oauth.tenantId', { type: 'string', minLength: 1, pattern: AZURE_TENANT_ID }],
  ['remoteWrite[].azureAd.sdk.tenantId', { type: 'string', pattern: AZURE_TENANT_ID }],
  ['remoteWrite[].azureAd.workloadIdentity', { type: 'object', required: ['clientId', 'tenantId'] }],
  ['remoteWrite[].azureAd.workloadIdentity.clientId', { type: 'string', minLength: 1 }],
  ['remoteWrite[].azureAd.workloadIdentity.tenantId', { type: 'string', minLength: 1 }],
  ['remoteWrite[].azureAd.scope', { type: 'string', pattern: '^[\\w\\s:/.\\\\-]+$' }],
  // A promop addition (Prometheus' google_iam); prometheus-operator v0.93 has no such field.
  ['remoteWrite[].googleIam.credentialsFile', string],
  ['paused', boolean],
  ['podMetadata.labels', stringMap],
  ['podMetadata.annotations', stringMap],
  ['nodeSelector', stringMap],
  ['tolerations', opaqueList],
  ['affinity', opaque],
  ['securityContext', opaque],
  // (b) common
  ['scrapeTimeout', duration],
  ['retentionSize', byteSize],
  ['externalUrl', string],
  ['routePrefix', string],
  ['logLevel', enumOf(['', 'debug', 'info', 'warn', 'error'])],
  ['logFormat', enumOf(['', 'logfmt', 'json'])],
  ['additionalScrapeConfigs', secretKeySelector],
  ['additionalAlertRelabelConfigs', secretKeySelector],
  ['additionalAlertManagerConfigs', secretKeySelector],
  ['secrets', stringList],
  ['configMaps', stringList],
  ['volumes', opaqueList],
  ['volumeMounts', opaqueList],
  ['containers', opaqueList],
  ['initContainers', opaqueList],
  ['imagePullPolicy', enumOf(['', 'Always', 'Never', 'IfNotPresent'])],
  ['imagePullSecrets', objectList],
  ['priorityClassName', string],
  ['topologySpreadConstraints', objectList],
  ['enableAdminAPI', boolean],
  ['enableFeatures', stringList],
  ['enableRemoteWriteReceiver', boolean],
  ['walCompression', boolean],
  ['web.pageTitle', string],
  ['web.maxConnections', integer],
  ['web.tlsConfig.cert', secretOrConfigMap],
  ['web.tlsConfig.certFile', string],
  ['web.tlsConfig.keySecret', secretKeySelector],
  ['web.tlsConfig.keyFile', string],
  ['web.tlsConfig.client_ca', secretOrConfigMap],
  ['web.tlsConfig.clientCAFile', string],
  ['web.tlsConfig.clientAuthType', string],
  ['web.tlsConfig.minVersion', string],
  ['web.tlsConfig.maxVersion', string],
  ['web.tlsConfig.cipherSuites', stringList],
  ['web.tlsConfig.preferServerCipherSuites', boolean],
  ['web.tlsConfig.curvePreferences', stringList],
  ['web.httpConfig.http2', boolean],
  ['web.httpConfig.headers.contentSecurityPolicy', string],
  ['web.httpConfig.headers.xFrameOptions', enumOf(['', 'Deny', 'SameOrigin'])],
  ['web.httpConfig.headers.xContentTypeOptions', enumOf(['', 'NoSniff'])],
  ['web.httpConfig.headers.xXSSProtection', string],
  ['web.httpConfig.headers.strictTransportSecurity', string],
  ['thanos', { type: 'object' }],
  ['thanos.image', string],
  ['thanos.version', string],
  ['thanos.tag', string],
  ['thanos.sha', string],
  ['thanos.baseImage', string],
  ['thanos.resources', opaque],
  ['thanos.objectStorageConfig', secretKeySelector],
  ['thanos.objectStorageConfigFile', string],
  ['thanos.listenLocal', boolean],
  ['thanos.grpcListenLocal', boolean],
  ['thanos.httpListenLocal', boolean],
  ['thanos.tracingConfig', secretKeySelector],
  ['thanos.tracingConfigFile', string],
  ...SHARED.tlsConfig('thanos.grpcServerTlsConfig'),
  ['thanos.grpcServerTlsConfig.cipherSuites', { type: 'array', minItems: 1, items: string, 'x-kubernetes-list-type': 'set' }],
  ['thanos.grpcServerTlsConfig.curves', { type: 'array', minItems: 1, items: string, 'x-kubernetes-list-type': 'set' }],
  ['thanos.logLevel', enumOf(['', 'debug', 'info', 'warn', 'error'])],
  ['thanos.logFormat', enumOf(['', 'logfmt', 'json'])],
  ['thanos.minTime', string],
  ['thanos.blockSize', { ...duration, default: '2h' }],
  ['thanos.readyTimeout', duration],
  ['thanos.getConfigInterval', duration],
  ['thanos.getConfigTimeout', duration],
  ['thanos.volumeMounts', opaqueList],
  ['thanos.additionalArgs[]', { type: 'object', required: ['name'] }],
  ['thanos.additionalArgs[].name', { type: 'string', minLength: 1 }],
  ['thanos.additionalArgs[].value', string],
  ['shards', { type: 'integer', default: 1 }],
  ['replicaExternalLabelName', string],
  ['prometheusExternalLabelName', string],
  ['query.lookbackDelta', string],
  ['query.maxConcurrency', integer],
  ['query.maxSamples', integer],
  ['query.timeout', duration],
  ['remoteRead[]', { type: 'object', required: ['url'] }],
  ['remoteRead[].url', { type: 'string', pattern: URL }],
  ['remoteRead[].requiredMatchers', stringMap],
  ['remoteRead[].readRecent', boolean],
  ...SHARED.tlsConfig('remoteRead[].tlsConfig'),
  ...SHARED.oauth2('remoteRead[].oauth2'),
  ['enforcedNamespaceLabel', string],
  ['enforcedSampleLimit', integer],
  ['scrapeClasses', { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }],
  ['scrapeClasses[].name', string],
  ['scrapeClasses[].default', boolean],
  ...SHARED.tlsConfig('scrapeClasses[].tlsConfig'),
  ...SHARED.authorization('scrapeClasses[].authorization'),
  ...SHARED.relabelConfig('scrapeClasses[].relabelings[]'),
  ...SHARED.relabelConfig('scrapeClasses[].metricRelabelings[]'),
  ['serviceDiscoveryRole', enumOf(['Endpoints', 'EndpointSlice'])],
  ['listenLocal', boolean],
  ['portName', { type: 'string', default: 'web' }],
  ['minReadySeconds', integer],
  ['podTargetLabels', stringList],
  // (c) advanced
  ['arbitraryFSAccessThroughSMs.deny', boolean],
  ['overrideHonorLabels', boolean],
  ['overrideHonorTimestamps', boolean],
  ['ignoreNamespaceSelectors', boolean],
  ['excludedFromEnforcement[].group', { type: 'string', default: 'monitoring.coreos.com' }],
  ['excludedFromEnforcement[].resource', string],
  ['excludedFromEnforcement[].namespace', string],
  ['excludedFromEnforcement[].name', string],
  ['prometheusRulesExcludedFromEnforce[].ruleNamespace', string],
  ['prometheusRulesExcludedFromEnforce[].ruleName', string],
  ...['enforcedTargetLimit', 'enforcedLabelLimit', 'enforcedLabelNameLengthLimit', 'enforcedLabelValueLengthLimit', 'enforcedKeepDroppedTargets'].map((name): Row => [name, integer]),
  ['enforcedBodySizeLimit', byteSize],
  ...['sampleLimit', 'targetLimit', 'labelLimit', 'labelNameLengthLimit', 'labelValueLengthLimit', 'keepDroppedTargets'].map((name): Row => [name, integer]),
  ['bodySizeLimit', byteSize],
  ['scrapeProtocols', { type: 'array', items: enumOf(SCRAPE_PROTOCOLS) }],
  ['nameValidationScheme', enumOf(['UTF8', 'Legacy'])],
  ['nameEscapingScheme', string],
  ['convertClassicHistogramsToNHCB', boolean],
  ['scrapeNativeHistograms', boolean],
  ['scrapeClassicHistograms', boolean],
  ['tsdb', { type: 'object' }],
  ['tsdb.outOfOrderTimeWindow', duration],
  ['tsdb.staleSeriesCompactionThreshold', intOrString],
  ['tsdb.chunkEncoding', { type: 'object' }],
  ['tsdb.chunkEncoding.floats', enumOf(['Xor', 'Xor2'])],
  ['otlp', { type: 'object' }],
  ['otlp.promoteAllResourceAttributes', boolean],
  ['otlp.ignoreResourceAttributes', attributeSet],
  ['otlp.promoteResourceAttributes', attributeSet],
  ['otlp.translationStrategy', enumOf(['NoUTF8EscapingWithSuffixes', 'UnderscoreEscapingWithSuffixes', 'NoTranslation', 'UnderscoreEscapingWithoutSuffixes'])],
  ...['keepIdentifyingResourceAttributes', 'convertHistogramsToNHCB', 'promoteScopeMetadata', 'labelNameUnderscoreSanitization', 'labelNamePreserveMultipleUnderscores'].map((name): Row => [`otlp.${name}`, boolean]),
  ['enableOTLPReceiver', boolean],
  ['remoteWriteReceiverMessageVersions', stringList],
  ['tracingConfig', { type: 'object', required: ['endpoint'] }],
  ['tracingConfig.clientType', enumOf(['http', 'grpc', 'HTTP', 'GRPC'])],
  ['tracingConfig.endpoint', { type: 'string', minLength: 1 }],
  ['tracingConfig.samplingFraction', intOrString],
  ['tracingConfig.insecure', boolean],
  ['tracingConfig.headers', stringMap],
  ['tracingConfig.compression', enumOf(['gzip', 'Gzip'])],
  ['tracingConfig.timeout', duration],
  ...SHARED.tlsConfig('tracingConfig.tlsConfig'),
  ['runtime.goGC', integer],
  ['reloadStrategy', enumOf(['HTTP', 'ProcessSignal'])],
  ['maximumStartupDurationSeconds', { type: 'integer', minimum: 60 }],
  ['scrapeFailureLogFile', string],
  ['queryLogFile', string],
  ['serviceName', string],
  ['terminationGracePeriodSeconds', integer],
  ['hostNetwork', boolean],
  ['hostUsers', boolean],
  ['hostAliases', objectList],
  ['dnsPolicy', enumOf(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'])],
  ['dnsConfig', opaque],
  ['enableServiceLinks', boolean],
  ['automountServiceAccountToken', boolean],
  ['schedulerName', string],
  ['podManagementPolicy', enumOf(['OrderedReady', 'Parallel'])],
  ['updateStrategy', opaque],
  ['persistentVolumeClaimRetentionPolicy', opaque],
  ['shardingStrategy', { type: 'object' }],
  ['shardingStrategy.mode', enumOf(['Address', 'Topology'])],
  ['shardingStrategy.topology', { type: 'object' }],
  ['shardingStrategy.topology.externalLabelName', string],
  ['shardingStrategy.topology.values', { ...stringList, 'x-kubernetes-list-type': 'atomic' }],
  ['shardRetentionPolicy', { type: 'object' }],
  ['shardRetentionPolicy.whenScaled', enumOf(['Retain', 'Delete'])],
  ['shardRetentionPolicy.retain', { type: 'object', required: ['retentionPeriod'] }],
  ['shardRetentionPolicy.retain.retentionPeriod', duration],
  ['apiserverConfig.host', string],
  ...SHARED.basicAuth('apiserverConfig.basicAuth'),
  ['apiserverConfig.bearerToken', string],
  ['apiserverConfig.bearerTokenFile', string],
  ...SHARED.tlsConfig('apiserverConfig.tlsConfig'),
  ...SHARED.authorization('apiserverConfig.authorization'),
  ...SHARED.proxy('apiserverConfig.'),
  ['additionalArgs', objectList],
  ['rules.alert.forOutageTolerance', string],
  ['rules.alert.forGracePeriod', string],
  ['rules.alert.resendDelay', string],
  ['ruleQueryOffset', duration],
  ['exemplars.maxSize', integer],
  ['disableCompaction', boolean],
  ['baseImage', string],
  ['tag', string],
  ['sha', string],
  ['allowOverlappingBlocks', boolean],
];

/** Reference §1.2: ServiceMonitor. */
const SERVICE_MONITOR_ROWS: Row[] = [
  ...MONITOR_SPEC_ROWS,
  ['endpoints', { type: 'array', items: { type: 'object' } }],
  ['targetLabels', stringList],
  ['serviceDiscoveryRole', enumOf(['Endpoints', 'EndpointSlice'])],
  ['endpoints[].port', string],
  ...scrapeEndpointRows('endpoints[]'),
  ['endpoints[].bearerTokenFile', string],
  ...SHARED.tlsConfig('endpoints[].tlsConfig'),
];

/** Reference §1.3: PodMonitor. */
const POD_MONITOR_ROWS: Row[] = [
  ...MONITOR_SPEC_ROWS,
  ['podMetricsEndpoints', { type: 'array', items: { type: 'object' } }],
  ['podMetricsEndpoints[].port', string],
  ['podMetricsEndpoints[].portNumber', { type: 'integer', minimum: 1, maximum: 65535 }],
  ...scrapeEndpointRows('podMetricsEndpoints[]'),
  ...SHARED.safeTlsConfig('podMetricsEndpoints[].tlsConfig'),
];

/** Reference §1.4: PrometheusRule. */
const PROMETHEUS_RULE_ROWS: Row[] = [
  ['groups', { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }],
  ['groups[]', { type: 'object', required: ['name'] }],
  ['groups[].name', { type: 'string', minLength: 1 }],
  ['groups[].interval', duration],
  ['groups[].limit', integer],
  ['groups[].query_offset', duration],
  ['groups[].labels', stringMap],
  ['groups[].partial_response_strategy', string],
  ['groups[].rules[]', { type: 'object', required: ['expr'] }],
  ['groups[].rules[].record', string],
  ['groups[].rules[].alert', string],
  ['groups[].rules[].expr', intOrString],
  ['groups[].rules[].for', duration],
  ['groups[].rules[].keep_firing_for', duration],
  ['groups[].rules[].labels', stringMap],
  ['groups[].rules[].annotations', stringMap],
];

/** Probe (prometheus-operator's ProbeSpec, pkg/apis/monitoring/v1/probe_types.go). */
const PROBE_ROWS: Row[] = [
  ['jobName', string],
  ['prober', { type: 'object', required: ['url'] }],
  ['prober.url', { type: 'string', minLength: 1 }],
  ['prober.scheme', enumOf(['http', 'https', 'HTTP', 'HTTPS'])],
  ['prober.path', { type: 'string', default: '/probe' }],
  ['prober.proxyUrl', { type: 'string', pattern: PROXY_URL }],
  ['prober.noProxy', string],
  ['prober.proxyFromEnvironment', boolean],
  ['prober.proxyConnectHeader', { type: 'object', additionalProperties: { type: 'array', items: secretKeySelector } }],
  ['module', string],
  ['targets', { type: 'object' }],
  ['targets.staticConfig.static', stringList],
  ['targets.staticConfig.labels', stringMap],
  ...SHARED.relabelConfig('targets.staticConfig.relabelingConfigs[]'),
  ['targets.ingress.selector', labelSelector],
  ['targets.ingress.namespaceSelector', { type: 'object', properties: { any: boolean, matchNames: stringList } }],
  ...SHARED.relabelConfig('targets.ingress.relabelingConfigs[]'),
  ['interval', duration],
  ['scrapeTimeout', duration],
  ['params', { type: 'array', minItems: 1, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }],
  ['params[]', { type: 'object', required: ['name'] }],
  ['params[].name', { type: 'string', minLength: 1 }],
  ['params[].values', { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } }],
  ...SHARED.relabelConfig('metricRelabelings[]'),
  ...SHARED.safeAuthorization('authorization'),
  ['basicAuth.username', secretKeySelector],
  ['basicAuth.password', secretKeySelector],
  ['oauth2', { type: 'object', required: ['clientId', 'clientSecret', 'tokenUrl'] }],
  ['oauth2.tokenUrl', { type: 'string', pattern: URL }],
  ['bearerTokenSecret', secretKeySelector],
  ['followRedirects', boolean],
  ['enableHttp2', boolean],
  ...SHARED.safeTlsConfig('tlsConfig'),
  ['sampleLimit', { type: 'integer', minimum: 0 }],
  ['targetLimit', { type: 'integer', minimum: 0 }],
  ['labelLimit', { type: 'integer', minimum: 0 }],
  ['labelNameLengthLimit', { type: 'integer', minimum: 0 }],
  ['labelValueLengthLimit', { type: 'integer', minimum: 0 }],
  ['keepDroppedTargets', { type: 'integer', minimum: 0 }],
  ['scrapeProtocols', { type: 'array', items: enumOf(SCRAPE_PROTOCOLS) }],
  ['fallbackScrapeProtocol', enumOf(SCRAPE_PROTOCOLS)],
  ['scrapeClass', { type: 'string', minLength: 1 }],
  ['scrapeNativeHistograms', boolean],
  ['scrapeClassicHistograms', boolean],
  ['nativeHistogramBucketLimit', integer],
  ['nativeHistogramMinBucketFactor', intOrString],
  ['convertClassicHistogramsToNHCB', boolean],
];

/** ScrapeConfig v1alpha1 (prometheus-operator's ScrapeConfigSpec, pkg/apis/monitoring/v1alpha1/scrapeconfig_types.go). */
const SCRAPE_CONFIG_ROWS: Row[] = [
  ['jobName', { type: 'string', minLength: 1 }],
  ['staticConfigs[]', { type: 'object', required: ['targets'] }],
  ['staticConfigs[].targets', { type: 'array', minItems: 1, items: string }],
  ['staticConfigs[].labels', stringMap],
  ['fileSDConfigs[].files', { type: 'array', minItems: 1, items: string }],
  ['fileSDConfigs[].refreshInterval', duration],
  ['httpSDConfigs[].url', { type: 'string', pattern: URL }],
  ['httpSDConfigs[].enableHTTP2', boolean],
  ...SHARED.safeTlsConfig('httpSDConfigs[].tlsConfig'),
  ['kubernetesSDConfigs[].role', enumOf(['Pod', 'Endpoints', 'Ingress', 'Service', 'Node', 'EndpointSlice'])],
  ['kubernetesSDConfigs[].apiServer', string],
  ['kubernetesSDConfigs[].namespaces.ownNamespace', boolean],
  ['kubernetesSDConfigs[].namespaces.names', stringList],
  ['kubernetesSDConfigs[].attachMetadata.node', boolean],
  ['kubernetesSDConfigs[].selectors[]', { type: 'object', required: ['role'] }],
  ['consulSDConfigs[]', { type: 'object', required: ['server'] }],
  ['consulSDConfigs[].tokenRef', secretKeySelector],
  ['consulSDConfigs[].nodeMeta', stringMap],
  ['dnsSDConfigs[].names', { type: 'array', minItems: 1 }],
  ['dnsSDConfigs[].type', enumOf(['A', 'AAAA', 'MX', 'NS', 'SRV'])],
  ['dnsSDConfigs[].port', integer],
  ['ec2SDConfigs', opaqueList],
  ['ionosSDConfigs', opaqueList],
  ...SHARED.relabelConfig('relabelings[]'),
  ...SHARED.relabelConfig('metricRelabelings[]'),
  ['metricsPath', string],
  ['scrapeInterval', duration],
  ['scrapeTimeout', duration],
  ['honorLabels', boolean],
  ['params', { type: 'object', additionalProperties: stringList }],
  ['enableCompression', boolean],
  ['enableHTTP2', boolean],
  ...SHARED.safeTlsConfig('tlsConfig'),
  ['bodySizeLimit', byteSize],
  ['proxyUrl', { type: 'string', pattern: PROXY_URL }],
  ['scrapeClass', { type: 'string', minLength: 1 }],
];

/**
 * prometheus-operator's PrometheusSpec fields that are not CommonPrometheusFields (prometheus_types.go): a
 * PrometheusAgent has none of them.
 */
const SERVER_ONLY_FIELDS = [
  'baseImage', 'tag', 'sha', 'retention', 'retentionSize', 'shardRetentionPolicy', 'disableCompaction', 'rules',
  'prometheusRulesExcludedFromEnforce', 'ruleSelector', 'ruleNamespaceSelector', 'query', 'alerting',
  'additionalAlertRelabelConfigs', 'additionalAlertManagerConfigs', 'remoteRead', 'thanos', 'queryLogFile',
  'allowOverlappingBlocks', 'exemplars', 'evaluationInterval', 'ruleQueryOffset', 'enableAdminAPI',
];

/** The agent: every row of the Prometheus that is a common field, and its deployment mode. */
const PROMETHEUS_AGENT_ROWS: Row[] = [
  ['mode', enumOf(['StatefulSet', 'DaemonSet'])],
  ...PROMETHEUS_ROWS.filter(([path]) => !SERVER_ONLY_FIELDS.includes(path.split(/[.[]/)[0] ?? '')),
];

/** Go durations (alertmanager_types.go's GoDuration): no days or weeks. */
const GO_DURATION = { type: 'string', pattern: '^(0|(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$' };

/** prometheus-operator's AlertmanagerSpec (alertmanager_types.go). */
const ALERTMANAGER_ROWS: Row[] = [
  ['version', string], ['image', string], ['replicas', { type: 'integer', minimum: 0 }], ['configSecret', string],
  ['alertmanagerConfigSelector', { type: 'object' }], ['alertmanagerConfigNamespaceSelector', { type: 'object' }],
  ['alertmanagerConfigMatcherStrategy.type', { ...enumOf(['OnNamespace', 'OnNamespaceExceptForAlertmanagerNamespace', 'None']), default: 'OnNamespace' }],
  ['alertmanagerConfiguration.name', { type: 'string', minLength: 1 }], ['alertmanagerConfiguration.global', opaque],
  ['retention', { ...GO_DURATION, default: '120h' }], ['storage.volumeClaimTemplate', opaque], ['storage.emptyDir', opaque],
  ['serviceAccountName', string], ['resources', opaque], ['paused', boolean], ['podMetadata.labels', stringMap],
  ['nodeSelector', stringMap], ['tolerations', opaqueList], ['affinity', opaque], ['securityContext', opaque],
  ['externalUrl', string], ['routePrefix', string], ['listenLocal', boolean],
  ['logLevel', enumOf(['', 'debug', 'info', 'warn', 'error'])], ['logFormat', enumOf(['', 'logfmt', 'json'])],
  ['secrets', stringList], ['configMaps', stringList], ['volumes', opaqueList], ['volumeMounts', opaqueList],
  ['containers', opaqueList], ['initContainers', opaqueList], ['imagePullPolicy', enumOf(['', 'Always', 'Never', 'IfNotPresent'])],
  ['portName', { type: 'string', default: 'web' }], ['minReadySeconds', { type: 'integer', minimum: 0 }],
  ['additionalPeers', stringList], ['clusterAdvertiseAddress', string], ['clusterGossipInterval', GO_DURATION],
  ['clusterPushpullInterval', GO_DURATION], ['clusterPeerTimeout', GO_DURATION], ['clusterLabel', string],
  ['forceEnableClusterMode', boolean], ['web', opaque], ['limits.maxSilences', { type: 'integer', minimum: 0 }],
  ['limits.maxPerSilenceBytes', byteSize], ['enableFeatures', stringList], ['additionalArgs', opaqueList],
  ['terminationGracePeriodSeconds', { type: 'integer', minimum: 0 }],
];

const THANOS_RULER_ROWS: Row[] = [
  ['version', string], ['image', string], ['replicas', { type: 'integer', minimum: 0 }], ['paused', boolean],
  ['ruleSelector', labelSelector], ['ruleNamespaceSelector', labelSelector], ['enforcedNamespaceLabel', string],
  ['excludedFromEnforcement[].resource', string], ['excludedFromEnforcement[].group', { type: 'string', default: 'monitoring.coreos.com' }],
  ['prometheusRulesExcludedFromEnforce[]', { type: 'object', required: ['ruleNamespace', 'ruleName'] }],
  ['evaluationInterval', { ...duration, default: '15s' }], ['retention', { ...duration, default: '24h' }],
  ['resendDelay', duration], ['ruleOutageTolerance', duration], ['ruleQueryOffset', duration], ['ruleGracePeriod', duration],
  ['ruleConcurrentEval', { type: 'integer', minimum: 1 }], ['labels', stringMap], ['alertDropLabels', stringList],
  ['alertQueryUrl', string], ['alertRelabelConfigs', secretKeySelector], ['alertRelabelConfigFile', string],
  ['queryEndpoints', stringList], ['queryConfig', secretKeySelector], ['alertmanagersUrl', stringList], ['alertmanagersConfig', secretKeySelector],
  ['objectStorageConfig', secretKeySelector], ['objectStorageConfigFile', string], ['tracingConfig', secretKeySelector], ['tracingConfigFile', string],
  ['remoteWrite[].url', string], ['storage.volumeClaimTemplate', opaque], ['storage.emptyDir', opaque], ['storage.ephemeral', opaque],
  ['listenLocal', boolean], ['portName', { type: 'string', default: 'web' }], ['externalPrefix', string], ['routePrefix', string],
  ['grpcServerTlsConfig.certFile', string], ['grpcServerTlsConfig.keyFile', string], ['grpcServerTlsConfig.caFile', string],
  ['web.tlsConfig', { type: 'object' }], ['web.httpConfig', { type: 'object' }],
  ['logLevel', enumOf(['', 'debug', 'info', 'warn', 'error'])], ['logFormat', enumOf(['', 'logfmt', 'json'])],
  ['enableFeatures', { type: 'array', 'x-kubernetes-list-type': 'set' }], ['additionalArgs[]', { type: 'object', required: ['name'] }],
  ['podMetadata.labels', stringMap], ['imagePullPolicy', enumOf(['', 'Always', 'Never', 'IfNotPresent'])], ['imagePullSecrets', opaqueList],
  ['nodeSelector', stringMap], ['schedulerName', { type: 'string', minLength: 1 }], ['resources', opaque], ['affinity', opaque],
  ['tolerations', opaqueList], ['topologySpreadConstraints', opaqueList], ['securityContext', opaque],
  ['dnsPolicy', enumOf(['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'])], ['dnsConfig', opaque], ['enableServiceLinks', boolean],
  ['priorityClassName', string], ['serviceName', { type: 'string', minLength: 1 }], ['serviceAccountName', string],
  ['volumes', opaqueList], ['volumeMounts', opaqueList], ['containers', opaqueList], ['initContainers', opaqueList],
  ['podManagementPolicy', enumOf(['OrderedReady', 'Parallel'])], ['updateStrategy', opaque], ['minReadySeconds', { type: 'integer', minimum: 0 }],
  ['hostAliases', opaqueList], ['hostUsers', boolean], ['terminationGracePeriodSeconds', { type: 'integer', minimum: 0 }],
];

const alertmanagerMatchers = (at: string): Row[] => [
  [`${at}[]`, { type: 'object', required: ['name'] }],
  [`${at}[].name`, { type: 'string', minLength: 1 }],
  [`${at}[].value`, string],
  [`${at}[].matchType`, enumOf(['!=', '=', '=~', '!~'])],
  [`${at}[].regex`, boolean],
];

const ALERTMANAGER_CONFIG_ROWS: Row[] = [
  ['route', { type: 'object' }],
  ['route.receiver', string],
  ['route.groupBy', stringList],
  ['route.groupWait', { ...duration, minLength: 1 }],
  ['route.groupInterval', { ...duration, minLength: 1 }],
  ['route.repeatInterval', { ...duration, minLength: 1 }],
  ...alertmanagerMatchers('route.matchers'),
  ['route.continue', boolean],
  ['route.routes', opaqueList],
  ['route.muteTimeIntervals', stringList],
  ['route.activeTimeIntervals', stringList],
  ['receivers', { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }],
  ['receivers[]', { type: 'object', required: ['name'] }],
  ['receivers[].name', { type: 'string', minLength: 1 }],
  ['inhibitRules[]', { type: 'object' }],
  ...alertmanagerMatchers('inhibitRules[].targetMatch'),
  ...alertmanagerMatchers('inhibitRules[].sourceMatch'),
  ['inhibitRules[].equal', stringList],
  ['muteTimeIntervals[]', { type: 'object', required: ['name'] }],
  ['muteTimeIntervals[].name', string],
  ['muteTimeIntervals[].timeIntervals[].times[].startTime', { type: 'string', pattern: '^((([01][0-9])|(2[0-3])):[0-5][0-9])$|(^24:00$)' }],
  ['muteTimeIntervals[].timeIntervals[].times[].endTime', { type: 'string', pattern: '^((([01][0-9])|(2[0-3])):[0-5][0-9])$|(^24:00$)' }],
  ['muteTimeIntervals[].timeIntervals[].weekdays', stringList],
  ['muteTimeIntervals[].timeIntervals[].daysOfMonth[].start', { type: 'integer', minimum: -31, maximum: 31 }],
  ['muteTimeIntervals[].timeIntervals[].daysOfMonth[].end', { type: 'integer', minimum: -31, maximum: 31 }],
  ['muteTimeIntervals[].timeIntervals[].months', stringList],
  ['muteTimeIntervals[].timeIntervals[].years', { type: 'array', items: { type: 'string', pattern: '^2\\d{3}(?::2\\d{3}|$)' } }],
];

const ROWS: Record<Kind, Row[]> = {
  Prometheus: PROMETHEUS_ROWS,
  PrometheusAgent: PROMETHEUS_AGENT_ROWS,
  Alertmanager: ALERTMANAGER_ROWS,
  ThanosRuler: THANOS_RULER_ROWS,
  ServiceMonitor: SERVICE_MONITOR_ROWS,
  PodMonitor: POD_MONITOR_ROWS,
  Probe: PROBE_ROWS,
  ScrapeConfig: SCRAPE_CONFIG_ROWS,
  PrometheusRule: PROMETHEUS_RULE_ROWS,
  AlertmanagerConfig: ALERTMANAGER_CONFIG_ROWS,
};

/** The spec schema of each kind, from the source literal and from the generated CRD. */
const SPEC_SOURCES: [string, (kind: Kind) => Node][] = [
  ['the source schema', (kind) => ({ Prometheus: prometheusSchema, PrometheusAgent: prometheusAgentSchema, Alertmanager: alertmanagerSchema, ThanosRuler: thanosRulerSchema, ServiceMonitor: serviceMonitorSchema, PodMonitor: podMonitorSchema, Probe: probeSchema, ScrapeConfig: scrapeConfigSchema, PrometheusRule: prometheusRuleSchema, AlertmanagerConfig: alertmanagerConfigSchema })[kind].properties.spec as Node],
  ['the generated CRD', (kind) => {
    const crd = crdManifests().find((c) => c.spec.names.kind === kind);
    const root = crd?.spec.versions[0]?.schema.openAPIV3Schema as { properties: { spec: Node } } | undefined;
    return root?.properties.spec ?? {};
  }],
];

/** The schema node at `path` (`a.b[].c`), or undefined when a step is missing. */
function fieldSchema(spec: Node, path: string): Node | undefined {
  let node: Node | undefined = spec;
  for (const segment of path.split('.')) {
    const [, name = '', lists = ''] = /^([^[]*)((?:\[\])*)$/.exec(segment) ?? [];
    node = (node?.properties as Record<string, Node> | undefined)?.[name];
    for (let depth = 0; depth < lists.length / 2; depth++) node = node?.items as Node | undefined;
  }
  return node;
}

/** Every `default` in a schema, by field path, to prove no default exists that the reference does not state. */
function defaultsIn(node: Node, path = ''): Record<string, unknown> {
  const found: Record<string, unknown> = {};
  if ('default' in node) found[path] = node.default;
  for (const [name, child] of Object.entries((node.properties as Record<string, Node> | undefined) ?? {})) Object.assign(found, defaultsIn(child, path === '' ? name : `${path}.${name}`));
  if (node.items && typeof node.items === 'object') Object.assign(found, defaultsIn(node.items as Node, `${path}[]`));
  return found;
}

describe.each(SPEC_SOURCES)('in %s', (_source, specOf) => {
  describe.each(Object.keys(ROWS) as Kind[])('the %s spec', (kind) => {
    const spec = specOf(kind);

    it.each(ROWS[kind])('has %s as the reference describes it', (path, expected) => {
      expect(fieldSchema(spec, path)).toMatchObject(expected);
    });
  });

  it('requires what prometheus-operator requires', () => {
    expect([...(specOf('ServiceMonitor').required as string[])].sort()).toEqual(['endpoints', 'selector']);
    expect(specOf('PodMonitor').required).toEqual(['selector']);
    expect(specOf('Prometheus').required).toBeUndefined();
    expect(specOf('PrometheusAgent').required).toBeUndefined();
    expect(specOf('PrometheusRule').required).toBeUndefined();
    expect(specOf('Probe').required).toBeUndefined();
    expect(specOf('ScrapeConfig').required).toBeUndefined();
    expect(specOf('Alertmanager').required).toBeUndefined();
    expect(specOf('ThanosRuler').required).toBeUndefined();
    expect(specOf('AlertmanagerConfig').required).toBeUndefined();
  });

  it('has exactly the 25 fields of prometheus-operator\'s ServiceMonitor Endpoint', () => {
    expect(Object.keys(fieldSchema(specOf('ServiceMonitor'), 'endpoints[]')?.properties ?? {}).sort()).toEqual([
      'authorization', 'basicAuth', 'bearerTokenFile', 'bearerTokenSecret', 'enableHttp2', 'filterRunning', 'followRedirects',
      'honorLabels', 'honorTimestamps', 'interval', 'metricRelabelings', 'noProxy', 'oauth2', 'params', 'path', 'port',
      'proxyConnectHeader', 'proxyFromEnvironment', 'proxyUrl', 'relabelings', 'scheme', 'scrapeTimeout', 'targetPort',
      'tlsConfig', 'trackTimestampsStaleness',
    ]);
  });

  it('gives the PrometheusAgent every field of the Prometheus but the server-only ones, and mode', () => {
    const agentFields = Object.keys(specOf('PrometheusAgent').properties as Node).sort();
    const prometheusFields = Object.keys(specOf('Prometheus').properties as Node);
    expect(prometheusFields.filter((name) => SERVER_ONLY_FIELDS.includes(name)).sort()).toEqual([...SERVER_ONLY_FIELDS].sort());
    expect(agentFields).toEqual(['mode', ...prometheusFields.filter((name) => !SERVER_ONLY_FIELDS.includes(name))].sort());
  });

  it('gives PodMonitor endpoints no way to read files of the Prometheus container', () => {
    const endpoint = fieldSchema(specOf('PodMonitor'), 'podMetricsEndpoints[]')?.properties as Node;
    expect(Object.keys(endpoint).filter((name) => /File$/.test(name))).toEqual([]);
    expect(Object.keys((endpoint.tlsConfig as Node).properties as Node).sort()).toEqual(['ca', 'cert', 'insecureSkipVerify', 'keySecret', 'maxVersion', 'minVersion', 'serverName']);
  });

  it('has exactly the CRD defaults prometheus-operator has (replicas, retention… are defaulted when rendering, not stored)', () => {
    const relabelDefault = (at: string) => ({ [`${at}.action`]: 'replace' });
    expect(defaultsIn(specOf('Prometheus'))).toEqual({
      scrapeInterval: '30s',
      evaluationInterval: '30s',
      portName: 'web',
      shards: 1,
      'excludedFromEnforcement[].group': 'monitoring.coreos.com',
      'thanos.blockSize': '2h',
      ...relabelDefault('alerting.alertmanagers[].relabelings[]'),
      ...relabelDefault('alerting.alertmanagers[].alertRelabelings[]'),
      ...relabelDefault('remoteWrite[].writeRelabelConfigs[]'),
      ...relabelDefault('scrapeClasses[].relabelings[]'),
      ...relabelDefault('scrapeClasses[].metricRelabelings[]'),
    });
    expect(defaultsIn(specOf('PrometheusAgent'))).toEqual({
      scrapeInterval: '30s',
      portName: 'web',
      shards: 1,
      'excludedFromEnforcement[].group': 'monitoring.coreos.com',
      ...relabelDefault('remoteWrite[].writeRelabelConfigs[]'),
      ...relabelDefault('scrapeClasses[].relabelings[]'),
      ...relabelDefault('scrapeClasses[].metricRelabelings[]'),
    });
    expect(defaultsIn(specOf('ServiceMonitor'))).toEqual({ ...relabelDefault('endpoints[].relabelings[]'), ...relabelDefault('endpoints[].metricRelabelings[]') });
    expect(defaultsIn(specOf('PodMonitor'))).toEqual({ ...relabelDefault('podMetricsEndpoints[].relabelings[]'), ...relabelDefault('podMetricsEndpoints[].metricRelabelings[]') });
    expect(defaultsIn(specOf('PrometheusRule'))).toEqual({});
    expect(defaultsIn(specOf('Probe'))).toEqual({
      'prober.path': '/probe',
      ...relabelDefault('targets.staticConfig.relabelingConfigs[]'),
      ...relabelDefault('targets.ingress.relabelingConfigs[]'),
      ...relabelDefault('metricRelabelings[]'),
    });
    expect(defaultsIn(specOf('ScrapeConfig'))).toEqual({ ...relabelDefault('relabelings[]'), ...relabelDefault('metricRelabelings[]') });
    expect(defaultsIn(specOf('Alertmanager'))).toEqual({ retention: '120h', portName: 'web', 'alertmanagerConfigMatcherStrategy.type': 'OnNamespace' });
    expect(defaultsIn(specOf('ThanosRuler'))).toEqual({
      evaluationInterval: '15s',
      retention: '24h',
      portName: 'web',
      'excludedFromEnforcement[].group': 'monitoring.coreos.com',
      ...relabelDefault('remoteWrite[].writeRelabelConfigs[]'),
    });
  });
});

describe('the field lookup this suite relies on', () => {
  it('finds nothing for a field that does not exist, so a missing field fails its row', () => {
    const spec = SPEC_SOURCES[0]![1]('ServiceMonitor');
    expect(fieldSchema(spec, 'endpoints[].portNumber')).toBeUndefined();
    expect(fieldSchema(spec, 'endpoints[].interval')).toMatchObject(duration);
  });
});
