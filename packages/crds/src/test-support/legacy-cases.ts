/**
 * Manifests written for older prometheus-operator releases that must still be accepted (operator rule 4:
 * existing manifests apply unchanged): deprecated fields, the CamelCase relabel actions, numeric ports where
 * upstream takes int-or-string, empty specs. The same cases run against the ajv validators
 * (backward-compat.test.ts) and the real API server (crds.apiserver.test.ts).
 */
import { GROUP } from '../group.ts';
import { API_VERSIONS, type Kind } from '../kinds.ts';

/** One object that must be accepted. */
export interface LegacyCase {
  /** What is old about it, in the words of the test name. */
  title: string;
  kind: Kind;
  object: Record<string, unknown>;
}


function object(kind: Kind, name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, metadata: { name, namespace: 'crd-legacy', ...metadata }, spec };
}

function serviceMonitor(name: string, endpoint: Record<string, unknown>): Record<string, unknown> {
  return object('ServiceMonitor', name, { selector: { matchLabels: { app: 'web' } }, endpoints: [endpoint] });
}

function podMonitor(name: string, endpoint: Record<string, unknown>): Record<string, unknown> {
  return object('PodMonitor', name, { selector: { matchLabels: { app: 'web' } }, podMetricsEndpoints: [endpoint] });
}

const secretKey = { name: 'scrape-credentials', key: 'token' };

/** The legacy cases: names are unique and valid object names, so every case can be dry-run created. */
export const LEGACY_CASES: readonly LegacyCase[] = [
  // ServiceMonitor
  {
    title: 'the kubelet ServiceMonitor of old kube-prometheus (bearerTokenFile, TLS from files, uppercase scheme)',
    kind: 'ServiceMonitor',
    object: serviceMonitor('kubelet-files', {
      port: 'https-metrics',
      scheme: 'HTTPS',
      bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token',
      tlsConfig: { caFile: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt', certFile: '/etc/tls/cert.pem', keyFile: '/etc/tls/key.pem', insecureSkipVerify: true },
    }),
  },
  { title: 'a ServiceMonitor endpoint with a numeric targetPort and no port', kind: 'ServiceMonitor', object: serviceMonitor('target-port-number', { targetPort: 8080 }) },
  { title: 'a ServiceMonitor endpoint with a named targetPort', kind: 'ServiceMonitor', object: serviceMonitor('target-port-name', { targetPort: 'metrics' }) },
  { title: 'a ServiceMonitor endpoint with bearerTokenSecret', kind: 'ServiceMonitor', object: serviceMonitor('bearer-token-secret', { port: 'web', bearerTokenSecret: secretKey }) },
  {
    title: 'relabelings with the CamelCase actions (Replace, HashMod, LabelMap, LabelDrop, LabelKeep, Keep, Drop)',
    kind: 'ServiceMonitor',
    object: serviceMonitor('camel-case-actions', {
      port: 'web',
      relabelings: [
        { action: 'Replace', sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node' },
        { action: 'HashMod', sourceLabels: ['__address__'], modulus: 4, targetLabel: '__tmp_hash' },
        { action: 'Keep', sourceLabels: ['__tmp_hash'], regex: '0' },
        { action: 'LabelMap', regex: '__meta_kubernetes_service_label_(.+)' },
      ],
      metricRelabelings: [
        { action: 'Drop', sourceLabels: ['__name__'], regex: 'go_.*' },
        { action: 'LabelDrop', regex: 'id' },
        { action: 'LabelKeep', regex: '__name__|job|instance' },
        { action: 'Lowercase', sourceLabels: ['pod'], targetLabel: 'pod' },
        { action: 'KeepEqual', sourceLabels: ['a'], targetLabel: 'b' },
      ],
    }),
  },
  {
    title: 'a ServiceMonitor selecting any namespace, with targetLabels and params',
    kind: 'ServiceMonitor',
    object: object('ServiceMonitor', 'any-namespace', {
      selector: { matchExpressions: [{ key: 'app', operator: 'Exists' }] },
      namespaceSelector: { any: true },
      targetLabels: ['team'],
      endpoints: [{ port: 'web', params: { module: ['http_2xx'] }, interval: '1m', honorLabels: true }],
    }),
  },
  { title: 'a ServiceMonitor with an empty endpoint list', kind: 'ServiceMonitor', object: object('ServiceMonitor', 'no-endpoints', { selector: {}, endpoints: [] }) },
  {
    title: 'a ServiceMonitor as `kubectl create --dry-run -o yaml` writes it (creationTimestamp: null)',
    kind: 'ServiceMonitor',
    object: object('ServiceMonitor', 'creation-timestamp-null', { selector: {}, endpoints: [{ port: 'web' }] }, { creationTimestamp: null }),
  },
  // PodMonitor
  { title: 'a PodMonitor endpoint with a numeric targetPort (deprecated)', kind: 'PodMonitor', object: podMonitor('target-port-number', { targetPort: 8080 }) },
  { title: 'a PodMonitor endpoint with a named targetPort (deprecated)', kind: 'PodMonitor', object: podMonitor('target-port-name', { targetPort: 'metrics' }) },
  { title: 'a PodMonitor endpoint with bearerTokenSecret (deprecated)', kind: 'PodMonitor', object: podMonitor('bearer-token-secret', { port: 'web', bearerTokenSecret: secretKey }) },
  { title: 'a PodMonitor without podMetricsEndpoints', kind: 'PodMonitor', object: object('PodMonitor', 'no-endpoints', { selector: {} }) },
  // Prometheus
  // Probe
  {
    title: 'a blackbox Probe as kube-prometheus users write it (static targets, uppercase scheme, bearerTokenSecret)',
    kind: 'Probe',
    object: object('Probe', 'blackbox-static', {
      jobName: 'blackbox',
      prober: { url: 'blackbox-exporter.monitoring.svc:19115', scheme: 'HTTP' },
      module: 'http_2xx',
      bearerTokenSecret: secretKey,
      targets: { staticConfig: { static: ['https://example.com'], labels: { env: 'prod' }, relabelingConfigs: [{ action: 'Replace', targetLabel: 'team', replacement: 'web' }] } },
    }),
  },
  // ScrapeConfig (v1alpha1)
  {
    title: 'a ScrapeConfig with static targets and Consul discovery, the shape kube-prometheus-stack users write',
    kind: 'ScrapeConfig',
    object: object('ScrapeConfig', 'static-and-consul', {
      staticConfigs: [{ targets: ['node-1:9100'], labels: { env: 'prod' } }],
      consulSDConfigs: [{ server: 'consul:8500', tokenRef: secretKey, services: ['web'] }],
      scheme: 'HTTPS',
      relabelings: [{ action: 'Replace', sourceLabels: ['__meta_consul_service'], targetLabel: 'service' }],
    }),
  },
  { title: 'a ScrapeConfig with EC2 discovery (kept as written; promop rejects it when rendering)', kind: 'ScrapeConfig', object: object('ScrapeConfig', 'ec2', { ec2SDConfigs: [{ region: 'eu-west-1', port: 9100 }] }) },
  { title: 'a Probe with an empty spec', kind: 'Probe', object: object('Probe', 'empty-spec', {}) },
  { title: 'a Prometheus with an empty spec', kind: 'Prometheus', object: object('Prometheus', 'empty-spec', {}) },
  {
    title: 'a Prometheus of the prometheus-operator 0.2x era (baseImage, tag, sha, allowOverlappingBlocks, ruleSelector)',
    kind: 'Prometheus',
    object: object('Prometheus', 'old-image-fields', {
      baseImage: 'quay.io/prometheus/prometheus',
      tag: 'v2.22.1',
      sha: '7a0f7d1f0d6d2b1f4f0a6e4d1c5c5c5e5b5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a',
      allowOverlappingBlocks: true,
      ruleSelector: { matchLabels: { prometheus: 'k8s', role: 'alert-rules' } },
      serviceMonitorSelector: { matchLabels: { team: 'frontend' } },
      storage: { disableMountSubPath: true, volumeClaimTemplate: { spec: { resources: { requests: { storage: '40Gi' } } } } },
      retention: '15d',
    }),
  },
  {
    title: 'a Prometheus with a Thanos sidecar (objectStorageConfig, baseImage, version)',
    kind: 'Prometheus',
    object: object('Prometheus', 'thanos-sidecar', {
      thanos: { baseImage: 'quay.io/thanos/thanos', version: 'v0.17.2', objectStorageConfig: { name: 'thanos-objstore', key: 'thanos.yaml' } },
    }),
  },
  {
    title: 'an Alertmanager by port number, API v1, with bearerTokenFile',
    kind: 'Prometheus',
    object: object('Prometheus', 'alertmanager-v1', {
      alerting: { alertmanagers: [{ namespace: 'monitoring', name: 'alertmanager-main', port: 9093, apiVersion: 'v1', bearerTokenFile: '/var/run/secrets/token', scheme: 'HTTP' }] },
    }),
  },
  {
    title: 'remote write with a plain bearerToken and remote read with bearerTokenFile',
    kind: 'Prometheus',
    object: object('Prometheus', 'remote-bearer-token', {
      remoteWrite: [{ url: 'https://metrics.example.com/api/v1/write', bearerToken: 'not-a-real-token', writeRelabelConfigs: [{ action: 'Drop', sourceLabels: ['__name__'], regex: 'go_.*' }] }],
      remoteRead: [{ url: 'https://metrics.example.com/api/v1/read', bearerTokenFile: '/etc/token', readRecent: true }],
    }),
  },
  {
    title: 'prometheusRulesExcludedFromEnforce (deprecated)',
    kind: 'Prometheus',
    object: object('Prometheus', 'rules-excluded', { enforcedNamespaceLabel: 'namespace', prometheusRulesExcludedFromEnforce: [{ ruleNamespace: 'monitoring', ruleName: 'cluster-rules' }] }),
  },
  // PrometheusAgent
  { title: 'a PrometheusAgent with an empty spec', kind: 'PrometheusAgent', object: object('PrometheusAgent', 'empty-spec', {}) },
  {
    title: 'a PrometheusAgent as prometheus-operator 0.64 documented it (selectors, remote write, replicas)',
    kind: 'PrometheusAgent',
    object: object('PrometheusAgent', 'agent-guide', {
      replicas: 2,
      serviceAccountName: 'prometheus-agent',
      serviceMonitorSelector: { matchLabels: { team: 'frontend' } },
      remoteWrite: [{ url: 'https://metrics.example.com/api/v1/write' }],
    }),
  },
  // Accepted as written so the manifest applies; promop then reports in the status that it does not implement it.
  { title: 'a PrometheusAgent in DaemonSet mode', kind: 'PrometheusAgent', object: object('PrometheusAgent', 'daemonset-mode', { mode: 'DaemonSet', podMonitorSelector: {} }) },
  // Alertmanager
  { title: 'an Alertmanager with an empty spec', kind: 'Alertmanager', object: object('Alertmanager', 'empty-spec', {}) },
  {
    title: 'an Alertmanager with the deprecated image fields, a v-prefixed version and a claim template',
    kind: 'Alertmanager',
    object: object('Alertmanager', 'old-image-fields', {
      baseImage: 'quay.io/prometheus/alertmanager',
      tag: 'v0.21.0',
      version: 'v0.21.0',
      replicas: 3,
      retention: '120h',
      storage: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1Gi' } } } } },
      alertmanagerConfigSelector: { matchLabels: { alertmanagerConfig: 'example' } },
    }),
  },
  // ThanosRuler
  {
    title: 'a ThanosRuler of the kube-thanos era: query endpoints, Alertmanager URLs, object storage and a v-less version',
    kind: 'ThanosRuler',
    object: object('ThanosRuler', 'kube-thanos', {
      image: 'quay.io/thanos/thanos:v0.28.1',
      version: '0.28.1',
      replicas: 2,
      queryEndpoints: ['dnssrv+_http._tcp.thanos-query.monitoring.svc.cluster.local'],
      alertmanagersUrl: ['dnssrv+http://alertmanager-operated.monitoring.svc:9093'],
      objectStorageConfig: { name: 'thanos-objstore', key: 'objstore.yaml' },
      ruleSelector: { matchLabels: { role: 'thanos-rules' } },
      prometheusRulesExcludedFromEnforce: [{ ruleNamespace: 'monitoring', ruleName: 'platform' }],
      enforcedNamespaceLabel: 'namespace',
      labels: { region: 'eu' },
    }),
  },
  // AlertmanagerConfig
  { title: 'an AlertmanagerConfig with an empty spec', kind: 'AlertmanagerConfig', object: object('AlertmanagerConfig', 'empty-spec', {}) },
  {
    title: 'an AlertmanagerConfig with the deprecated regex matcher flag, no matchType and a webhook by URL',
    kind: 'AlertmanagerConfig',
    object: object('AlertmanagerConfig', 'regex-matchers', {
      route: {
        receiver: 'webhook', groupBy: ['job'], groupWait: '30s', repeatInterval: '12h',
        matchers: [{ name: 'severity', value: 'critical|warning', regex: true }, { name: 'team', value: 'a' }],
        routes: [{ receiver: 'webhook', matchers: [{ name: 'alertname', value: 'Watchdog' }] }],
      },
      receivers: [{ name: 'webhook', webhookConfigs: [{ url: 'http://receiver.example:8080/alerts' }] }],
      inhibitRules: [{ sourceMatch: [{ name: 'severity', value: 'critical' }], targetMatch: [{ name: 'severity', value: 'warning' }], equal: ['job'] }],
    }),
  },
  // PrometheusRule
  { title: 'a PrometheusRule with an empty spec', kind: 'PrometheusRule', object: object('PrometheusRule', 'empty-spec', {}) },
  {
    title: 'a PrometheusRule with a numeric expr, a group without rules and a Thanos partial_response_strategy',
    kind: 'PrometheusRule',
    object: object('PrometheusRule', 'old-fields', { groups: [{ name: 'numbers', rules: [{ record: 'one', expr: 1 }] }, { name: 'empty' }, { name: 'thanos', partial_response_strategy: 'warn', rules: [] }] }),
  },
];
