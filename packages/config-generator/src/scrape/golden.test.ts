/**
 * Golden scrape configs, one small file per feature under test/golden/scrape/, each a minimal
 * prometheus.yaml that the real promtool must accept. `UPDATE_GOLDEN=1` rewrites the files;
 * review the diff like code.
 */
import type { PodMonitor, ServiceMonitor } from '@promop/crds';
import { renderPodMonitor, renderServiceMonitor } from './index.ts';
import {
  describeGoldens,
  testPodMonitor as pm,
  testPrometheus,
  testServiceMonitor as sm,
  type GoldenCaseBase,
} from '../test-support/scrape-harness.ts';

interface GoldenCase extends GoldenCaseBase {
  monitor: ServiceMonitor | PodMonitor;
}

const upstreamSelector = { matchLabels: { foo: 'bar' }, matchExpressions: [{ key: 'alpha', operator: 'In', values: ['beta', 'gamma'] }] };

const cases: GoldenCase[] = [
  // compat reference §2.4, byte for byte (placeholder $(SHARD) kept to compare with upstream).
  { name: 'sm-plain', monitor: sm({ selector: upstreamSelector, endpoints: [{ port: 'web', interval: '30s' }] }), ctx: { shard: undefined } },
  {
    name: 'sm-endpointslice',
    monitor: sm({ selector: upstreamSelector, endpoints: [{ port: 'web', interval: '30s' }] }),
    ctx: { shard: undefined, serviceDiscoveryRole: 'endpointslice' },
  },
  // compat reference §2.5.
  {
    name: 'pm-plain',
    monitor: pm({ podTargetLabels: ['example', 'env'], podMetricsEndpoints: [{ port: 'web', interval: '30s' }] }, 'testpodmonitor1'),
    ctx: { shard: undefined },
  },
  {
    name: 'sm-target-labels',
    monitor: sm({
      selector: { matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['a', 'b'] }, { key: 'app.kubernetes.io/name', operator: 'Exists' }, { key: 'legacy', operator: 'DoesNotExist' }] },
      jobLabel: 'app.kubernetes.io/name',
      targetLabels: ['tier', 'app.kubernetes.io/part-of'],
      podTargetLabels: ['version'],
      endpoints: [{ targetPort: 8080 }, { targetPort: 'metrics' }],
    }),
    ctx: { prometheus: testPrometheus({ podTargetLabels: ['zone'] }) },
  },
  {
    name: 'sm-http-options',
    monitor: sm({
      endpoints: [
        {
          port: 'https-metrics',
          path: '/custom/metrics',
          scheme: 'HTTPS',
          params: { module: ['http_2xx'], collect: ['cpu', 'mem'] },
          interval: '15s',
          scrapeTimeout: '10s',
          honorLabels: true,
          honorTimestamps: false,
          trackTimestampsStaleness: true,
          followRedirects: false,
          enableHttp2: true,
          filterRunning: false,
        },
      ],
    }),
  },
  {
    name: 'sm-override-honor',
    monitor: sm({ endpoints: [{ port: 'web', honorLabels: true }] }),
    ctx: { overrideHonorLabels: true, overrideHonorTimestamps: true },
  },
  {
    name: 'sm-relabelings',
    monitor: sm({
      endpoints: [
        {
          port: 'web',
          relabelings: [
            { sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'instance', action: 'replace' },
            { sourceLabels: ['__meta_kubernetes_pod_label_app'], separator: '-', regex: '(.+)-canary', replacement: '$1', targetLabel: 'app', action: 'Replace' },
            { sourceLabels: ['__address__'], modulus: 4, targetLabel: '__tmp_bucket', action: 'HashMod' },
            { regex: '__meta_kubernetes_service_label_(.+)', action: 'labelmap' },
            { regex: 'tmp_.*', action: 'LabelDrop' },
            { sourceLabels: ['team'], targetLabel: 'team', action: 'lowercase' },
            { sourceLabels: ['a'], targetLabel: 'b', action: 'keepequal' },
          ],
          metricRelabelings: [
            { sourceLabels: ['__name__'], regex: 'go_gc_.*', action: 'drop' },
            { regex: 'pod_template_hash', action: 'labeldrop' },
          ],
        },
      ],
    }),
  },
  {
    name: 'sm-enforced-namespace-label',
    monitor: sm({ endpoints: [{ port: 'web', metricRelabelings: [{ sourceLabels: ['pod_name'], targetLabel: 'ns_key', regex: 'my-job-pod-.+', action: 'drop' }] }] }),
    ctx: { enforcedNamespaceLabel: 'ns_key' },
  },
  {
    name: 'sm-basic-auth',
    monitor: sm({ endpoints: [{ port: 'web', basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } } }] }),
  },
  {
    name: 'sm-bearer-token',
    monitor: sm({
      endpoints: [
        { port: 'web', bearerTokenSecret: { name: 'creds', key: 'token' } },
        { port: 'kubelet', bearerTokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token' },
      ],
    }),
  },
  {
    name: 'sm-authorization',
    monitor: sm({
      endpoints: [
        { port: 'web', authorization: { credentials: { name: 'creds', key: 'token' } } },
        { port: 'web2', authorization: { type: 'Token', credentials: { name: 'creds', key: 'token' } } },
      ],
    }),
  },
  {
    name: 'sm-oauth2',
    monitor: sm({
      endpoints: [
        {
          port: 'web',
          oauth2: {
            clientId: { secret: { name: 'creds', key: 'client-id' } },
            clientSecret: { name: 'creds', key: 'client-secret' },
            tokenUrl: 'https://auth.example.com/token',
            scopes: ['metrics:read'],
            endpointParams: { audience: 'prometheus', another: 'x' },
            proxyUrl: 'http://proxy.example.com:3128',
            tlsConfig: { ca: { configMap: { name: 'ca', key: 'ca.crt' } } },
          },
        },
      ],
    }),
    tlsAssets: ['1_default_ca_ca.crt'],
  },
  {
    name: 'sm-tls',
    monitor: sm({
      endpoints: [
        {
          port: 'https',
          scheme: 'https',
          tlsConfig: {
            insecureSkipVerify: false,
            ca: { secret: { name: 'tls', key: 'ca.crt' } },
            cert: { secret: { name: 'tls', key: 'tls.crt' } },
            keySecret: { name: 'tls', key: 'tls.key' },
            serverName: 'app.default.svc',
            minVersion: 'TLS12',
            maxVersion: 'TLS13',
          },
        },
        { port: 'https2', scheme: 'https', tlsConfig: { ca: { configMap: { name: 'ca', key: 'ca.crt' } } } },
        { port: 'https3', scheme: 'https', tlsConfig: { caFile: '/etc/ssl/ca.crt', certFile: '/etc/ssl/tls.crt', keyFile: '/etc/ssl/tls.key', insecureSkipVerify: true } },
      ],
    }),
    tlsAssets: ['0_default_tls_ca.crt', '0_default_tls_tls.crt', '0_default_tls_tls.key', '1_default_ca_ca.crt'],
  },
  {
    name: 'sm-proxy',
    monitor: sm({
      endpoints: [
        { port: 'web', proxyUrl: 'http://proxy.example.com:3128', noProxy: 'localhost,10.0.0.0/8', proxyConnectHeader: { 'Proxy-Authorization': [{ name: 'creds', key: 'header' }] } },
        { port: 'web2', proxyFromEnvironment: true },
      ],
    }),
  },
  {
    name: 'sm-namespaces',
    monitor: sm({ namespaceSelector: { matchNames: ['team-a', 'team-b'] }, endpoints: [{ port: 'web' }] }),
  },
  {
    name: 'sm-namespace-any',
    monitor: sm({ namespaceSelector: { any: true }, endpoints: [{ port: 'web' }] }),
  },
  {
    name: 'sm-ignore-namespace-selectors',
    monitor: sm({ namespaceSelector: { any: true }, endpoints: [{ port: 'web' }] }),
    ctx: { ignoreNamespaceSelectors: true },
  },
  {
    name: 'sm-role-selector',
    monitor: sm({ selector: upstreamSelector, selectorMechanism: 'RoleSelector', attachMetadata: { node: true }, endpoints: [{ port: 'web' }] }),
  },
  {
    // An empty selector still goes to the API server (label ""), as prometheus-operator writes it.
    name: 'sm-role-selector-empty',
    monitor: sm({ selector: {}, selectorMechanism: 'RoleSelector', endpoints: [{ port: 'web' }] }),
  },
  {
    name: 'sm-limits',
    monitor: sm({
      sampleLimit: 5000,
      targetLimit: 100,
      labelLimit: 60,
      labelNameLengthLimit: 200,
      labelValueLengthLimit: 300,
      keepDroppedTargets: 10,
      bodySizeLimit: '20MB',
      scrapeProtocols: ['OpenMetricsText1.0.0', 'PrometheusText0.0.4'],
      fallbackScrapeProtocol: 'PrometheusText0.0.4',
      endpoints: [{ port: 'web' }],
    }),
    ctx: { enforcedSampleLimit: 1000, enforcedTargetLimit: 500, enforcedBodySizeLimit: '10MB', enforcedKeepDroppedTargets: 5 },
  },
  {
    name: 'sm-limits-enforced-only-v2.40',
    monitor: sm({ endpoints: [{ port: 'web' }] }),
    ctx: { enforcedSampleLimit: 1000, enforcedLabelLimit: 50 },
    version: 'v2.40.0',
  },
  {
    name: 'sm-native-histograms',
    monitor: sm({
      scrapeNativeHistograms: true,
      nativeHistogramBucketLimit: 160,
      nativeHistogramMinBucketFactor: '1.1',
      scrapeClassicHistograms: true,
      convertClassicHistogramsToNHCB: true,
      endpoints: [{ port: 'web' }],
    }),
  },
  {
    name: 'sm-old-version-drops-fields',
    monitor: sm({
      keepDroppedTargets: 3,
      scrapeProtocols: ['PrometheusText1.0.0', 'PrometheusProto'],
      endpoints: [{ port: 'web', enableHttp2: false, trackTimestampsStaleness: true, tlsConfig: { maxVersion: 'TLS13' } }],
    }),
    version: 'v2.40.0',
    warnings: [
      'spec.endpoints[0].trackTimestampsStaleness: ignored because Prometheus v2.40.0 does not support "track_timestamps_staleness" (needs v2.48.0 or later)',
      'spec.endpoints[0].tlsConfig.maxVersion: ignored because Prometheus v2.40.0 does not support "max_version" (needs v2.41.0 or later)',
      'spec.keepDroppedTargets: ignored because Prometheus v2.40.0 does not support "keep_dropped_targets" (needs v2.47.0 or later)',
      'spec.scrapeProtocols: ignored PrometheusText1.0.0 because Prometheus v2.40.0 does not support it (needs v3.0.0 or later)',
      'spec.scrapeProtocols: ignored because Prometheus v2.40.0 does not support "scrape_protocols" (needs v2.49.0 or later)',
    ],
  },
  {
    name: 'sm-sharded',
    monitor: sm({ endpoints: [{ port: 'web' }] }),
    ctx: { shards: 3, shard: 2 },
  },
  {
    name: 'sm-scrape-class',
    monitor: sm({ scrapeClass: 'secure', endpoints: [{ port: 'web', tlsConfig: { serverName: 'app' }, metricRelabelings: [{ regex: 'tmp', action: 'labeldrop' }] }] }),
    ctx: {
      prometheus: testPrometheus({
        scrapeClasses: [
          {
            name: 'secure',
            tlsConfig: { caFile: '/etc/prometheus/secrets/ca.crt' },
            authorization: { credentialsFile: '/etc/prometheus/secrets/token' },
            relabelings: [{ targetLabel: 'cluster', replacement: 'east', action: 'replace' }],
            metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'debug_.*', action: 'drop' }],
            fallbackScrapeProtocol: 'PrometheusText0.0.4',
          },
        ],
      }),
    },
  },
  {
    name: 'pm-role-selector',
    monitor: pm({
      selector: { matchLabels: { app: 'api' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db', 'cache'] }] },
      selectorMechanism: 'RoleSelector',
      namespaceSelector: { any: true },
      podMetricsEndpoints: [{ portNumber: 8080, params: { 'match[]': ['{job="x"}'] } }],
    }),
  },
  {
    name: 'pm-role-selector-empty',
    monitor: pm({ selector: { matchExpressions: [] }, selectorMechanism: 'RoleSelector', podMetricsEndpoints: [{ port: 'web' }] }),
  },
  {
    name: 'sm-api-server',
    monitor: sm({ attachMetadata: { node: false }, endpoints: [{ port: 'web' }] }),
    ctx: { kubernetesSdApiServer: { api_server: 'https://kubernetes.example.com:6443', authorization: { type: 'Bearer', credentials_file: '/var/run/token' } } },
  },
  {
    name: 'pm-full',
    monitor: pm({
      selector: { matchLabels: { app: 'api' }, matchExpressions: [{ key: 'stage', operator: 'In', values: ['prod'] }] },
      jobLabel: 'app',
      namespaceSelector: { matchNames: ['default', 'api'] },
      attachMetadata: { node: true },
      sampleLimit: 100,
      podMetricsEndpoints: [
        {
          portNumber: 9090,
          path: '/metrics',
          scheme: 'https',
          interval: '1m',
          scrapeTimeout: '20s',
          tlsConfig: { ca: { secret: { name: 'tls', key: 'ca.crt' } }, serverName: 'api' },
          basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } },
          proxyUrl: 'socks5://proxy:1080',
          relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node', action: 'replace' }],
        },
        { port: 'admin', authorization: { credentials: { name: 'creds', key: 'token' } }, filterRunning: false },
        { targetPort: 'legacy', bearerTokenSecret: { name: 'creds', key: 'token' }, oauth2: undefined },
      ],
    }),
    ctx: { enforcedNamespaceLabel: 'namespace', shards: 2, shard: 1 },
    tlsAssets: ['0_default_tls_ca.crt'],
  },
];

describeGoldens('scrape config goldens', cases, (c, ctx) => (c.monitor.kind === 'ServiceMonitor' ? renderServiceMonitor(c.monitor, ctx) : renderPodMonitor(c.monitor as PodMonitor, ctx)));
