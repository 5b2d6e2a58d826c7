/**
 * How each string field that reaches prometheus.yaml, a scrape file or a rule file is checked before Prometheus
 * reads it: one table for every kind the generator renders. field-checks.test.ts puts a sentinel in every string
 * field of every CRD schema, renders it, and fails when a field whose sentinel reaches the output has no entry
 * here, when an entry matches no such field any more, or when an entry's `rejects` value is accepted.
 *
 * Paths are `Kind.path` relative to the spec: dots between fields, `[]` for a list item, `{}` for a map value,
 * `{key}` for a map key. In `paths`, `*` stands for any part of one name (a kind, a field), `**.` for any number of fields
 * (none included) and `**` for any run of characters.
 * A path must match exactly one entry.
 */

/** What stands between a user's string and Prometheus' parser. */
export type CheckKind =
  /** Compiled as Go's RE2 does, anchored as Prometheus anchors it. */
  | 'regex'
  /** A label name under the Prometheus' name validation scheme. */
  | 'label-name'
  /** A metric name under the Prometheus' name validation scheme. */
  | 'metric-name'
  /** A Prometheus duration (the schema's pattern; compared or parsed where a relation between two matters). */
  | 'duration'
  /** A byte size such as 512MB (the schema's pattern, parsed by the generator). */
  | 'byte-size'
  /** An http(s) URL: the schema's pattern, and the generator's Go url.Parse rules where a host is required. */
  | 'url'
  /** A PromQL expression, parsed and type-checked for the Prometheus version. */
  | 'promql'
  /** A Go text/template with Prometheus' template functions. */
  | 'go-template'
  /** A Kubernetes label selector (qualified names and label values). */
  | 'k8s-selector'
  /** A Secret or ConfigMap name or key: it must resolve, so Kubernetes validated it; only a file name derived from it is written. */
  | 'k8s-reference'
  /** One of the schema's values (the API server refuses others). */
  | 'enum (schema)'
  /** A value the generator accepts from a closed list or form of its own. */
  | 'closed form'
  /** Prometheus reads it as an opaque string: written as an exact YAML string by yaml-output.ts, read back exactly by Go's yaml (yaml-output.go-readers.test.ts). */
  | 'free text'
  /** Prometheus parses it with a grammar of its own and promop does not check it yet: a bad value fails the reload. */
  | 'unchecked';

/** One row of the table. */
export interface FieldCheck {
  paths: readonly string[];
  check: CheckKind;
  /** Where the check lives (module and function), or why none is needed. */
  where: string;
  /** A value the generator must refuse at every one of these paths (proves the check is where `where` says). */
  rejects?: string;
  /** For an `unchecked` entry: a value the generator still accepts and Prometheus refuses to load (promtool proves it). */
  refusedByPrometheus?: string;
}

const RELABEL_LISTS = ['relabelings', 'metricRelabelings', 'writeRelabelConfigs', 'relabelingConfigs', 'alertRelabelings'];
const relabel = (field: string) => RELABEL_LISTS.map((list) => `*.**.${list}[].${field}`);
/** Every place a shared block (TLS, OAuth2, proxy, authorization) may sit: the spec itself or any field of it. */
const anywhere = (suffix: string) => [`*.**.${suffix}`];

const FREE_TEXT = 'Prometheus keeps it as an opaque string';

/** The table. */
export const FIELD_CHECKS: readonly FieldCheck[] = [
  // Relabelings, wherever they are.
  { paths: relabel('regex'), check: 'regex', where: 'values/relabeling.ts validateRelabelConfig → @promop/prometheus-lang checkRegex', rejects: 'a(' },
  { paths: relabel('sourceLabels[]'), check: 'label-name', where: 'values/relabeling.ts validateRelabelConfig (isValidLabelName)', rejects: '' },
  { paths: relabel('targetLabel'), check: 'label-name', where: 'values/relabeling.ts validateRelabelConfig (a label name, or a $-template for replace under the legacy scheme)', rejects: '' },
  { paths: relabel('separator'), check: 'free text', where: `${FREE_TEXT} (joined between source label values)` },
  { paths: relabel('replacement'), check: 'free text', where: `${FREE_TEXT} ($1 and \${name} expanded at relabel time; labelmap's is checked as a target in values/relabeling.ts)` },

  // Secret and ConfigMap references whose name and key end up in a TLS asset's file name.
  {
    paths: [...anywhere('ca.secret.name'), ...anywhere('ca.secret.key'), ...anywhere('ca.configMap.name'), ...anywhere('ca.configMap.key'),
      ...anywhere('cert.secret.name'), ...anywhere('cert.secret.key'), ...anywhere('cert.configMap.name'), ...anywhere('cert.configMap.key'),
      ...anywhere('keySecret.name'), ...anywhere('keySecret.key')],
    check: 'k8s-reference',
    where: 'http-client/secret-refs.ts readSecretOrConfigMap / readSecretKey: the object must exist, so its name is a DNS subdomain and its key matches [-._a-zA-Z0-9]+',
  },

  // TLS.
  { paths: anywhere('tlsConfig.serverName'), check: 'free text', where: `${FREE_TEXT} (compared with the server certificate's names)` },
  { paths: [...anywhere('tlsConfig.caFile'), ...anywhere('tlsConfig.certFile'), ...anywhere('tlsConfig.keyFile')], check: 'free text', where: `${FREE_TEXT}: a path in the Prometheus container (http-client/tls-config.ts refuses them when arbitraryFSAccessThroughSMs.deny)` },

  // Authorization and bearer tokens.
  { paths: anywhere('authorization.type'), check: 'closed form', where: 'http-client/authorization.ts renderAuthorization refuses "basic" as Prometheus does; any other word is the scheme sent', rejects: 'Basic' },
  { paths: [...anywhere('authorization.credentialsFile'), ...anywhere('bearerTokenFile')], check: 'free text', where: `${FREE_TEXT}: a path in the Prometheus container` },
  { paths: anywhere('bearerToken'), check: 'free text', where: `${FREE_TEXT}: the token sent` },

  // OAuth2.
  { paths: anywhere('oauth2.tokenUrl'), check: 'url', where: 'schema URL pattern; http-client/oauth2.ts renderOAuth2 (Prometheus only requires it non-empty when loading; a bad host fails each token request)' },
  { paths: [...anywhere('oauth2.scopes[]'), ...anywhere('oauth2.endpointParams{key}'), ...anywhere('oauth2.endpointParams{}')], check: 'free text', where: `${FREE_TEXT} (sent to the token endpoint)` },

  // Proxies.
  { paths: anywhere('proxyUrl'), check: 'url', where: 'schema proxy URL pattern; http-client/proxy.ts appendProxy → values/go-url.ts goUrlHostError', rejects: 'http://a b/' },
  { paths: anywhere('noProxy'), check: 'free text', where: `${FREE_TEXT} (comma-separated hosts, IPs and CIDRs; http-client/proxy.ts requires proxyUrl beside it)` },
  { paths: anywhere('proxyConnectHeader{key}'), check: 'free text', where: `${FREE_TEXT}: a header name sent to the proxy` },

  // Durations, byte sizes, URLs with a schema pattern.
  {
    paths: [
      '*.scrapeInterval', '*.evaluationInterval', '*.retention', '*.ruleQueryOffset', '*.**.interval', '*.**.scrapeTimeout',
      '*.**.remoteTimeout', '*.**.timeout', '*.**.refreshInterval', '*.**.batchSendDeadline', '*.**.minBackoff', '*.**.maxBackoff', '*.**.sampleAgeLimit',
      '*.**.sendInterval', '*.**.for', '*.**.keep_firing_for', '*.**.query_offset', '*.tsdb.outOfOrderTimeWindow',
    ],
    check: 'duration',
    where: 'schema duration pattern (the API server); @promop/prometheus-lang parseDuration where two are compared (timeout ≤ interval)',
  },
  { paths: ['ServiceMonitor.bodySizeLimit', 'PodMonitor.bodySizeLimit', 'ScrapeConfig.bodySizeLimit'], check: 'byte-size', where: 'schema byte size pattern (its ^ anchors only the first alternative); scrape/limits.ts → values/byte-size.ts parseByteSize', rejects: 'x1KB' },
  { paths: ['Prometheus*.bodySizeLimit', 'Prometheus*.enforcedBodySizeLimit'], check: 'byte-size', where: 'schema byte size pattern; prometheus/global-config.ts buildGlobalConfig → values/byte-size.ts parseByteSize', rejects: 'x1KB' },
  { paths: ['Prometheus.retentionSize'], check: 'byte-size', where: 'schema byte size pattern; prometheus/storage-config.ts buildStorageConfig → values/byte-size.ts parseByteSize', rejects: 'x1KB' },
  { paths: ['*.remoteWrite[].url', '*.remoteRead[].url'], check: 'url', where: 'schema URL pattern; values/go-url.ts checkHttpUrl → goUrlHostError', rejects: 'http://a b/' },
  { paths: ['*.apiserverConfig.host'], check: 'url', where: 'prometheus/api-server-config.ts buildApiServerSdKeys → values/go-url.ts checkHttpUrl (an http or https URL whose host Go accepts)', rejects: 'http://a b' },
  { paths: ['*.httpSDConfigs[].url'], check: 'url', where: 'schema URL pattern; scrape/service-discovery.ts checkDiscoveryUrl → values/go-url.ts checkHttpUrl', rejects: 'http://a b/sd' },

  // Label names and values the Prometheus writes on everything.
  { paths: ['*.externalLabels{key}'], check: 'label-name', where: 'prometheus/external-labels.ts buildExternalLabels', rejects: '' },
  { paths: ['*.replicaExternalLabelName', '*.prometheusExternalLabelName'], check: 'label-name', where: 'prometheus/external-labels.ts buildExternalLabels ("" leaves the label out)' },
  { paths: ['*.externalLabels{}'], check: 'free text', where: `${FREE_TEXT} (a label value; $(VAR) is expanded from the environment)` },
  { paths: ['*.enforcedNamespaceLabel'], check: 'label-name', where: 'prometheus/validate-prometheus.ts and rules/inject-label-matcher.ts (quoted when not a legacy name)' },
  { paths: ['*.podTargetLabels[]', 'ServiceMonitor.targetLabels[]', '*.jobLabel'], check: 'label-name', where: 'values/label-names.ts sanitizeLabelName (the meta label name) and validateCopiedLabels (the copied label)' },

  // Selectors turned into relabelings or SD namespaces.
  {
    paths: ['*Monitor.selector.matchLabels{key}', '*Monitor.selector.matchLabels{}', '*Monitor.selector.matchExpressions[].key', '*Monitor.selector.matchExpressions[].values[]'],
    check: 'k8s-selector',
    where: 'selection/label-selector.ts validateLabelSelector (qualified names, label values); values are regex-safe in selector-relabelings.ts',
    rejects: 'a(',
  },
  {
    paths: [
      'Probe.targets.ingress.selector.matchLabels{key}', 'Probe.targets.ingress.selector.matchLabels{}',
      'Probe.targets.ingress.selector.matchExpressions[].key', 'Probe.targets.ingress.selector.matchExpressions[].values[]',
    ],
    check: 'closed form',
    where: 'scrape/probe.ts: as upstream, a key or value no label can have is accepted (with a warning); a key is written sanitised into a meta label name (values/label-names.ts sanitizeLabelName), and selection/label-selector.ts literalSelector quotes a value in the keep/drop regex, so it matches only itself',
  },
  { paths: ['*.**.namespaceSelector.matchNames[]', '*.kubernetesSDConfigs[].namespaces.names[]', '*.alerting.alertmanagers[].namespace'], check: 'free text', where: `${FREE_TEXT}: a namespace name sent to the API server` },

  // Scrape endpoints.
  { paths: ['*.endpoints[].port', '*.podMetricsEndpoints[].port', '*.endpoints[].targetPort', '*.podMetricsEndpoints[].targetPort'], check: 'regex', where: 'scrape/endpoint-options.ts: a port name becomes a keep relabeling\'s regex and must compile', rejects: 'a(' },
  { paths: ['*.alerting.alertmanagers[].port', '*.alerting.alertmanagers[].name'], check: 'regex', where: 'prometheus/alerting-config.ts renderAlertmanager: it becomes a keep relabeling\'s regex and must compile', rejects: 'a(' },
  { paths: ['*.endpoints[].path', '*.podMetricsEndpoints[].path', '*.prober.path', '*.metricsPath', '*.alerting.alertmanagers[].pathPrefix'], check: 'free text', where: `${FREE_TEXT}: the HTTP path requested` },
  { paths: ['*.**.params{key}', '*.**.params{}[]', 'Probe.params[].name', 'Probe.params[].values[]', 'Probe.module'], check: 'free text', where: `${FREE_TEXT}: URL query parameters` },
  { paths: ['*.nativeHistogramMinBucketFactor'], check: 'closed form', where: 'scrape/monitor-steps.ts: a number', rejects: 'x' },

  // Probes and ScrapeConfigs.
  { paths: ['Probe.prober.url'], check: 'closed form', where: 'scrape/prober-address.ts proberAddressError (host or host:port)', rejects: 'http://a b/' },
  { paths: ['Probe.jobName', 'ScrapeConfig.jobName'], check: 'free text', where: `${FREE_TEXT}: the job label's value (the job name itself is promop's)` },
  { paths: ['Probe.targets.staticConfig.static[]', 'ScrapeConfig.staticConfigs[].targets[]'], check: 'free text', where: `${FREE_TEXT}: relabelings always follow, so Prometheus' URL-in-target check does not apply` },
  { paths: ['*.targets.staticConfig.labels{key}', '*.staticConfigs[].labels{key}'], check: 'label-name', where: 'scrape/probe.ts and scrape/scrape-config.ts', rejects: '' },
  { paths: ['*.targets.staticConfig.labels{}', '*.staticConfigs[].labels{}'], check: 'free text', where: `${FREE_TEXT}: label values` },
  { paths: ['ScrapeConfig.fileSDConfigs[].files[]'], check: 'closed form', where: 'scrape/service-discovery.ts FILE_SD_NAME: the names Prometheus\' file discovery accepts (.json/.yml/.yaml, a glob only in the last element)', rejects: '/etc/prometheus/targets.txt' },
  { paths: ['ScrapeConfig.kubernetesSDConfigs[].apiServer'], check: 'url', where: 'scrape/service-discovery.ts kubernetesSd → values/go-url.ts goUrlHostError (Go\'s url.Parse, as Prometheus reads it)', rejects: 'https://kube .example' },
  { paths: ['ScrapeConfig.kubernetesSDConfigs[].selectors[].label', 'ScrapeConfig.kubernetesSDConfigs[].selectors[].field'], check: 'k8s-selector', where: 'scrape/kubernetes-sd-selectors.ts (apimachinery\'s label and field selector parsers)', rejects: 'a in (' },
  {
    paths: ['ScrapeConfig.consulSDConfigs[].pathPrefix', 'ScrapeConfig.consulSDConfigs[].datacenter', 'ScrapeConfig.consulSDConfigs[].namespace',
      'ScrapeConfig.consulSDConfigs[].partition', 'ScrapeConfig.consulSDConfigs[].services[]', 'ScrapeConfig.consulSDConfigs[].tags[]', 'ScrapeConfig.consulSDConfigs[].tagSeparator',
      'ScrapeConfig.consulSDConfigs[].nodeMeta{key}', 'ScrapeConfig.consulSDConfigs[].nodeMeta{}', 'ScrapeConfig.consulSDConfigs[].filter', 'ScrapeConfig.consulSDConfigs[].healthFilter'],
    check: 'free text',
    where: `${FREE_TEXT}: passed to the Consul API (filters are evaluated by Consul)`,
  },
  { paths: ['ScrapeConfig.consulSDConfigs[].server'], check: 'closed form', where: 'scrape/service-discovery.ts consulSd: not blank once trimmed, as Prometheus checks it (free text otherwise)', rejects: ' ' },
  { paths: ['ScrapeConfig.dnsSDConfigs[].names[]'], check: 'free text', where: `${FREE_TEXT}: DNS names resolved at discovery time` },

  // Remote storage and alerting.
  { paths: ['*.remoteWrite[].name', '*.remoteRead[].name'], check: 'free text', where: `${FREE_TEXT}; prometheus/remote-endpoint-checks.ts checkUniqueNames refuses two endpoints of one list with the same name, as Prometheus does` },
  { paths: ['*.remoteWrite[].headers{key}', '*.remoteRead[].headers{key}', '*.tracingConfig.headers{key}'], check: 'closed form', where: 'prometheus/remote-endpoint-checks.ts checkRemoteHeaders: not Authorization nor a header Prometheus sets itself (Content-Type, User-Agent…)', rejects: 'Content-Type' },
  { paths: ['*.remoteWrite[].headers{}', '*.remoteRead[].headers{}', '*.tracingConfig.headers{}'], check: 'free text', where: `${FREE_TEXT}: header values` },
  { paths: ['*.remoteRead[].requiredMatchers{key}'], check: 'label-name', where: 'prometheus/remote-read-config.ts renderRemoteRead', rejects: '' },
  { paths: ['*.remoteRead[].requiredMatchers{}'], check: 'free text', where: `${FREE_TEXT}: label values` },
  { paths: ['*.**.sigv4.region', '*.**.sigv4.profile', '*.**.sigv4.roleArn'], check: 'free text', where: `${FREE_TEXT}: passed to the AWS SDK` },
  {
    paths: ['*.remoteWrite[].azureAd.managedIdentity.clientId', '*.remoteWrite[].azureAd.oauth.clientId', '*.remoteWrite[].azureAd.workloadIdentity.clientId', '*.remoteWrite[].azureAd.workloadIdentity.tenantId'],
    check: 'closed form',
    where: 'prometheus/azure-ad.ts checkUuid: a UUID as Go\'s uuid.Parse reads one, which Prometheus requires when it loads the file',
    rejects: 'prometheus',
  },
  { paths: ['*.remoteWrite[].googleIam.credentialsFile'], check: 'free text', where: `${FREE_TEXT}: a path in the Prometheus container (the Prometheus owner's field)` },
  { paths: ['*.otlp.promoteResourceAttributes[]', '*.otlp.ignoreResourceAttributes[]'], check: 'closed form', where: 'prometheus/otlp-config.ts checkAttributes: not blank and not listed twice once trimmed, as Prometheus checks them; otherwise an opaque attribute name', rejects: ' ' },
  { paths: ['*.tracingConfig.endpoint'], check: 'free text', where: `${FREE_TEXT}: the host:port handed to the OpenTelemetry exporter (prometheus/tracing-config.ts requires it non-empty)` },
  { paths: ['*.scrapeFailureLogFile', '*.queryLogFile'], check: 'free text', where: `${FREE_TEXT}: a file path (prometheus/global-config.ts puts a bare name under the log directory)` },

  // Rules.
  { paths: ['PrometheusRule.groups[].name'], check: 'free text', where: `${FREE_TEXT}: unique within the object (rules/validate-rule-spec.ts)` },
  { paths: ['PrometheusRule.groups[].rules[].record'], check: 'metric-name', where: 'rules/validate-rule-spec.ts (any UTF-8 name from Prometheus 3 on)' },
  { paths: ['PrometheusRule.groups[].rules[].alert'], check: 'free text', where: `${FREE_TEXT}: the alertname label's value (rules/validate-rule-spec.ts requires it non-empty)` },
  { paths: ['PrometheusRule.groups[].rules[].expr'], check: 'promql', where: 'rules/validate-rule-spec.ts → @promop/prometheus-lang checkExpression', rejects: 'sum(' },
  { paths: ['PrometheusRule.groups[].labels{key}', 'PrometheusRule.groups[].rules[].labels{key}', 'PrometheusRule.groups[].rules[].annotations{key}'], check: 'label-name', where: 'rules/validate-rule-spec.ts', rejects: '' },
  { paths: ['PrometheusRule.groups[].labels{}'], check: 'free text', where: `${FREE_TEXT}: label values` },
  { paths: ['PrometheusRule.groups[].rules[].annotations{}'], check: 'go-template', where: 'rules/validate-rule-spec.ts → @promop/prometheus-lang checkTemplate', rejects: '{{' },
  { paths: ['PrometheusRule.groups[].rules[].labels{}'], check: 'go-template', where: 'rules/validate-rule-spec.ts → @promop/prometheus-lang checkTemplate for alerting rules; a recording rule\'s label values are plain text' },
];

/** The glob of a `paths` item as a regular expression. */
export function pathPattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*\*\\\.|\*\*|\*/g, (token) => (token === '**' ? '.*' : token === '*' ? '[^.]*' : '(?:.*\\.)?'));
  return new RegExp(`^${escaped}$`);
}
