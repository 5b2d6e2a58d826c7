/**
 * Objects that must be rejected, each with the field path the rejection must name. The same cases run against
 * the ajv validators (validation.test.ts) and the real API server (crds.apiserver.test.ts), which proves the
 * generated CRDs and the validators agree.
 */
import { GROUP } from '../group.ts';
import { API_VERSIONS, type Kind } from '../kinds.ts';

/** One object that must be rejected. */
export interface NegativeCase {
  /** What is wrong, in the words of the test name. */
  title: string;
  kind: Kind;
  object: Record<string, unknown>;
  /** The field path the error must name, e.g. `spec.endpoints[0].interval`. */
  path: string;
  /**
   * A field the schema does not declare. ajv reports it; the API server reports it only under strict field
   * validation (what `kubectl apply` asks for), with 400 instead of 422.
   */
  unknownField?: true;
}


function base(kind: Kind, name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, metadata: { name, namespace: 'crd-negative' }, spec };
}

function serviceMonitor(name: string, endpoint: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return base('ServiceMonitor', name, { selector: { matchLabels: { app: 'web' } }, endpoints: [{ port: 'web', ...endpoint }], ...extra });
}

function podMonitor(name: string, endpoint: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return base('PodMonitor', name, { selector: { matchLabels: { app: 'web' } }, podMetricsEndpoints: [{ port: 'web', ...endpoint }], ...extra });
}

function prometheus(name: string, spec: Record<string, unknown>): Record<string, unknown> {
  return base('Prometheus', name, { serviceMonitorSelector: {}, ...spec });
}

function rules(name: string, group: Record<string, unknown>): Record<string, unknown> {
  return base('PrometheusRule', name, { groups: [group] });
}

/** The negative cases: names are unique and valid object names, so every case can be dry-run created. */
export const NEGATIVE_CASES: readonly NegativeCase[] = [
  // ServiceMonitor
  { title: 'an endpoint interval in words', kind: 'ServiceMonitor', object: serviceMonitor('interval-words', { interval: '5 minutes' }), path: 'spec.endpoints[0].interval' },
  { title: 'a scrape timeout without a unit', kind: 'ServiceMonitor', object: serviceMonitor('timeout-no-unit', { scrapeTimeout: '10' }), path: 'spec.endpoints[0].scrapeTimeout' },
  { title: 'an unknown relabel action', kind: 'ServiceMonitor', object: serviceMonitor('relabel-action', { relabelings: [{ action: 'explode', sourceLabels: ['a'] }] }), path: 'spec.endpoints[0].relabelings[0].action' },
  { title: 'a misspelt metric relabel action', kind: 'ServiceMonitor', object: serviceMonitor('metric-relabel-action', { metricRelabelings: [{ action: 'drop' }, { action: 'Keeps' }] }), path: 'spec.endpoints[0].metricRelabelings[1].action' },
  { title: 'a ServiceMonitor without selector', kind: 'ServiceMonitor', object: base('ServiceMonitor', 'no-selector', { endpoints: [{ port: 'web' }] }), path: 'spec.selector' },
  { title: 'a ServiceMonitor without endpoints', kind: 'ServiceMonitor', object: base('ServiceMonitor', 'no-endpoints', { selector: {} }), path: 'spec.endpoints' },
  { title: 'an ftp scheme', kind: 'ServiceMonitor', object: serviceMonitor('scheme-ftp', { scheme: 'ftp' }), path: 'spec.endpoints[0].scheme' },
  { title: 'a boolean targetPort', kind: 'ServiceMonitor', object: serviceMonitor('target-port-bool', { targetPort: true }), path: 'spec.endpoints[0].targetPort' },
  { title: 'honorLabels as a word', kind: 'ServiceMonitor', object: serviceMonitor('honor-labels-word', { honorLabels: 'yes' }), path: 'spec.endpoints[0].honorLabels' },
  { title: 'an unknown TLS version', kind: 'ServiceMonitor', object: serviceMonitor('tls-version', { tlsConfig: { minVersion: 'TLS9' } }), path: 'spec.endpoints[0].tlsConfig.minVersion' },
  { title: 'an ftp proxy URL', kind: 'ServiceMonitor', object: serviceMonitor('proxy-ftp', { proxyUrl: 'ftp://proxy:21' }), path: 'spec.endpoints[0].proxyUrl' },
  { title: 'OAuth2 without a token URL', kind: 'ServiceMonitor', object: serviceMonitor('oauth2-no-token-url', { oauth2: { clientId: { secret: { name: 's', key: 'id' } }, clientSecret: { name: 's', key: 'secret' } } }), path: 'spec.endpoints[0].oauth2.tokenUrl' },
  { title: 'a Secret reference without key', kind: 'ServiceMonitor', object: serviceMonitor('basic-auth-no-key', { basicAuth: { username: { name: 's' } } }), path: 'spec.endpoints[0].basicAuth.username.key' },
  { title: 'a body size limit in words', kind: 'ServiceMonitor', object: serviceMonitor('body-size-words', {}, { bodySizeLimit: '10 megabytes' }), path: 'spec.bodySizeLimit' },
  { title: 'a negative sample limit', kind: 'ServiceMonitor', object: serviceMonitor('sample-limit-negative', {}, { sampleLimit: -1 }), path: 'spec.sampleLimit' },
  { title: 'a selector expression without operator', kind: 'ServiceMonitor', object: base('ServiceMonitor', 'selector-no-operator', { selector: { matchExpressions: [{ key: 'app', values: ['web'] }] }, endpoints: [{ port: 'web' }] }), path: 'spec.selector.matchExpressions[0].operator' },
  { title: 'namespace names as a string', kind: 'ServiceMonitor', object: serviceMonitor('match-names-string', {}, { namespaceSelector: { matchNames: 'default' } }), path: 'spec.namespaceSelector.matchNames' },
  // Upstream's Endpoint.port is the Service port *name* (a string); a number belongs in targetPort.
  { title: 'a ServiceMonitor port given as a number', kind: 'ServiceMonitor', object: serviceMonitor('port-number', { port: 8080 }), path: 'spec.endpoints[0].port' },
  { title: 'an unknown endpoint field', kind: 'ServiceMonitor', object: serviceMonitor('unknown-field', { intervall: '30s' }), path: 'spec.endpoints[0].intervall', unknownField: true },
  // PodMonitor
  { title: 'a ScrapeConfig static config without targets', kind: 'ScrapeConfig', object: base('ScrapeConfig', 'no-targets', { staticConfigs: [{ labels: { a: 'b' } }] }), path: 'spec.staticConfigs[0].targets' },
  { title: 'a ScrapeConfig Kubernetes role that does not exist', kind: 'ScrapeConfig', object: base('ScrapeConfig', 'bad-role', { kubernetesSDConfigs: [{ role: 'Deployment' }] }), path: 'spec.kubernetesSDConfigs[0].role' },
  { title: 'a Probe prober without url', kind: 'Probe', object: base('Probe', 'prober-no-url', { prober: { path: '/probe' }, targets: { staticConfig: { static: ['a'] } } }), path: 'spec.prober.url' },
  { title: 'a Probe interval that is not a duration', kind: 'Probe', object: base('Probe', 'bad-interval', { interval: '5 minutes', prober: { url: 'b:9115' } }), path: 'spec.interval' },
  { title: 'a port number above 65535', kind: 'PodMonitor', object: podMonitor('port-too-high', { portNumber: 70000 }), path: 'spec.podMetricsEndpoints[0].portNumber' },
  { title: 'port number 0', kind: 'PodMonitor', object: podMonitor('port-zero', { portNumber: 0 }), path: 'spec.podMetricsEndpoints[0].portNumber' },
  { title: 'a PodMonitor port given as a number (portNumber takes numbers)', kind: 'PodMonitor', object: podMonitor('port-number', { port: 8080 }), path: 'spec.podMetricsEndpoints[0].port' },
  { title: 'a PodMonitor without selector', kind: 'PodMonitor', object: base('PodMonitor', 'no-selector', { podMetricsEndpoints: [{ port: 'web' }] }), path: 'spec.selector' },
  { title: 'a PodMonitor endpoint interval without unit', kind: 'PodMonitor', object: podMonitor('interval-no-unit', { interval: '30' }), path: 'spec.podMetricsEndpoints[0].interval' },
  { title: 'a CA file in a PodMonitor (only Secrets and ConfigMaps are allowed)', kind: 'PodMonitor', object: podMonitor('ca-file', { tlsConfig: { caFile: '/etc/ca.pem' } }), path: 'spec.podMetricsEndpoints[0].tlsConfig.caFile', unknownField: true },
  // PrometheusAgent: a Prometheus' server-only fields are not fields of the agent.
  { title: 'a PrometheusAgent with a rule selector', kind: 'PrometheusAgent', object: base('PrometheusAgent', 'rule-selector', { ruleSelector: {} }), path: 'spec.ruleSelector', unknownField: true },
  { title: 'a PrometheusAgent with alerting', kind: 'PrometheusAgent', object: base('PrometheusAgent', 'alerting', { alerting: { alertmanagers: [] } }), path: 'spec.alerting', unknownField: true },
  { title: 'a PrometheusAgent mode that does not exist', kind: 'PrometheusAgent', object: base('PrometheusAgent', 'bad-mode', { mode: 'Deployment' }), path: 'spec.mode' },
  { title: 'a PrometheusAgent remote write with an ftp scheme', kind: 'PrometheusAgent', object: base('PrometheusAgent', 'remote-write-ftp', { remoteWrite: [{ url: 'ftp://example.com/write' }] }), path: 'spec.remoteWrite[0].url' },
  // Prometheus
  { title: 'a scrape interval in words', kind: 'Prometheus', object: prometheus('scrape-interval-words', { scrapeInterval: '30 seconds' }), path: 'spec.scrapeInterval' },
  { title: 'an evaluation interval with a bad unit', kind: 'Prometheus', object: prometheus('evaluation-interval-unit', { evaluationInterval: '1x' }), path: 'spec.evaluationInterval' },
  { title: 'a retention size in words', kind: 'Prometheus', object: prometheus('retention-size-words', { retentionSize: '10 gigabytes' }), path: 'spec.retentionSize' },
  { title: 'a retention without unit', kind: 'Prometheus', object: prometheus('retention-no-unit', { retention: '15' }), path: 'spec.retention' },
  { title: 'replicas as a word', kind: 'Prometheus', object: prometheus('replicas-word', { replicas: 'two' }), path: 'spec.replicas' },
  { title: 'negative shards', kind: 'Prometheus', object: prometheus('shards-negative', { shards: -1 }), path: 'spec.shards' },
  { title: 'a remote write URL with an ftp scheme', kind: 'Prometheus', object: prometheus('remote-write-ftp', { remoteWrite: [{ url: 'ftp://example.com/write' }] }), path: 'spec.remoteWrite[0].url' },
  { title: 'a remote write without URL', kind: 'Prometheus', object: prometheus('remote-write-no-url', { remoteWrite: [{ name: 'a' }] }), path: 'spec.remoteWrite[0].url' },
  { title: 'an unknown log level', kind: 'Prometheus', object: prometheus('log-level', { logLevel: 'verbose' }), path: 'spec.logLevel' },
  { title: 'an Alertmanager without name', kind: 'Prometheus', object: prometheus('alertmanager-no-name', { alerting: { alertmanagers: [{ namespace: 'monitoring', port: 'web' }] } }), path: 'spec.alerting.alertmanagers[0].name' },
  { title: 'an unknown service discovery role', kind: 'Prometheus', object: prometheus('discovery-role', { serviceDiscoveryRole: 'Pods' }), path: 'spec.serviceDiscoveryRole' },
  { title: 'a numeric external label value', kind: 'Prometheus', object: prometheus('external-label-number', { externalLabels: { cluster: 1 } }), path: 'spec.externalLabels.cluster' },
  { title: 'tolerations as a string', kind: 'Prometheus', object: prometheus('tolerations-string', { tolerations: 'none' }), path: 'spec.tolerations' },
  { title: 'zero query concurrency', kind: 'Prometheus', object: prometheus('query-concurrency', { query: { maxConcurrency: 0 } }), path: 'spec.query.maxConcurrency' },
  { title: 'an enforcement exclusion without namespace', kind: 'Prometheus', object: prometheus('exclusion-no-namespace', { excludedFromEnforcement: [{ resource: 'servicemonitors' }] }), path: 'spec.excludedFromEnforcement[0].namespace' },
  { title: 'an unknown excluded resource', kind: 'Prometheus', object: prometheus('exclusion-resource', { excludedFromEnforcement: [{ resource: 'pods', namespace: 'a' }] }), path: 'spec.excludedFromEnforcement[0].resource' },
  // PrometheusRule
  { title: 'a rule group without name', kind: 'PrometheusRule', object: rules('group-no-name', { rules: [{ alert: 'A', expr: 'up == 0' }] }), path: 'spec.groups[0].name' },
  { title: 'a rule group with an empty name', kind: 'PrometheusRule', object: rules('group-empty-name', { name: '', rules: [{ alert: 'A', expr: 'up == 0' }] }), path: 'spec.groups[0].name' },
  { title: 'a rule without expr', kind: 'PrometheusRule', object: rules('rule-no-expr', { name: 'g', rules: [{ alert: 'A' }] }), path: 'spec.groups[0].rules[0].expr' },
  { title: 'an alert for in words', kind: 'PrometheusRule', object: rules('for-words', { name: 'g', rules: [{ alert: 'A', expr: 'up == 0', for: '5 min' }] }), path: 'spec.groups[0].rules[0].for' },
  { title: 'a group interval in words', kind: 'PrometheusRule', object: rules('interval-words', { name: 'g', interval: '1 hour', rules: [] }), path: 'spec.groups[0].interval' },
  { title: 'a rule with a list of labels', kind: 'PrometheusRule', object: rules('labels-list', { name: 'g', rules: [{ alert: 'A', expr: 'up == 0', labels: ['severity'] }] }), path: 'spec.groups[0].rules[0].labels' },
];
