/**
 * The whole-file generator, feature by feature. Each case renders a small, realistic input and
 * compares prometheus.yaml with a reviewed golden file under test/golden/prometheus/
 * (`UPDATE_GOLDEN=1` rewrites them); the last test runs the real promtool over every golden.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PodMonitor, Prometheus, PrometheusRule, ServiceMonitor } from '@promop/crds';
import { checkConfigsWithEachPromtool, promtoolFailures, PROMTOOLS } from '@promop/testkit';
import { generate } from './generate.ts';
import type { GeneratorInput, GeneratorOutput, KeyValueSource, NamespaceInfo, Verdict } from './model.ts';
import { expectGoldenFile, goldenRelease } from './test-support/golden-file.ts';
import { DEFAULT_PROMETHEUS_VERSION } from './prometheus-version.ts';

const GOLDEN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'golden', 'prometheus');
const CA_PEM = readFileSync(join(GOLDEN_DIR, 'ca.crt.pem'), 'utf8');

const expectGolden = (name: string, text: string): void => expectGoldenFile(GOLDEN_DIR, name, text);

/** The last 2.x release, whose promtool tools/build.sh builds as promtool-v2. */
const V2_RELEASE = 'v2.55.1';

function prometheus(spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): Prometheus {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main', ...metadata }, spec } as Prometheus;
}

function serviceMonitor(namespace: string, name: string, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}): ServiceMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { namespace, name, labels },
    spec: { selector: { matchLabels: { app: name } }, endpoints: [{ port: 'web' }], ...spec },
  } as ServiceMonitor;
}

function podMonitor(namespace: string, name: string, labels: Record<string, string> = {}): PodMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PodMonitor',
    metadata: { namespace, name, labels },
    spec: { selector: { matchLabels: { app: name } }, podMetricsEndpoints: [{ port: 'metrics' }] },
  } as PodMonitor;
}

function prometheusRule(namespace: string, name: string, labels: Record<string, string> = {}): PrometheusRule {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { namespace, name, labels, uid: `uid-${name}` },
    spec: { groups: [{ name: 'g', rules: [{ alert: 'Down', expr: 'up == 0' }] }] },
  } as PrometheusRule;
}

function input(partial: Partial<GeneratorInput> & { prometheus: Prometheus }): GeneratorInput {
  return {
    serviceMonitors: [],
    podMonitors: [],
    prometheusRules: [],
    namespaces: [{ name: 'monitoring', labels: {} }],
    secrets: [],
    configMaps: [],
    ...partial,
  };
}

function secret(name: string, data: Record<string, string>, namespace = 'monitoring'): KeyValueSource {
  return { namespace, name, data };
}

function reasonOf(output: GeneratorOutput, kind: string, name: string): string | undefined {
  const verdict = output.verdicts.find((v) => v.resource.kind === kind && v.resource.name === name);
  return verdict && 'reason' in verdict ? verdict.reason : undefined;
}

/** The inputs {@link render} rendered for the default release (no spec.version), rendered again for 2.55.1 at the end. */
const defaultReleaseInputs: GeneratorInput[] = [];

/** Renders and checks the invariants every valid case shares. */
function render(generatorInput: GeneratorInput): GeneratorOutput {
  if (generatorInput.prometheus.spec.version === undefined) defaultReleaseInputs.push(generatorInput);
  const output = generate(generatorInput);
  expect(output.prometheusProblems).toEqual([]);
  expect(output.ok).toBe(true);
  return output;
}

describe('the global block', () => {
  it('carries intervals, limits, external labels with the replica label expanded by Prometheus, and rule settings', () => {
    const output = render(
      input({
        prometheus: prometheus({
          scrapeInterval: '15s',
          scrapeTimeout: '10s',
          evaluationInterval: '1m',
          scrapeProtocols: ['PrometheusProto', 'OpenMetricsText1.0.0'],
          externalLabels: { cluster: 'prod', region: 'eu-1', replica: 'ignored' },
          replicaExternalLabelName: 'replica',
          sampleLimit: 5000,
          keepDroppedTargets: 10,
          scrapeNativeHistograms: true,
          ruleQueryOffset: '30s',
          queryLogFile: 'query.log',
          runtime: { goGC: 75 },
        }),
      }),
    );
    expectGolden('global-external-labels.yaml', output.configs[0] ?? '');
    expect(output.prometheusWarnings).toEqual(['spec.externalLabels.replica: ignored because "replica" is a label promop sets itself']);
  });

  it('leaves runtime.goGC out of the file of a Prometheus older than 2.53 without a warning (its pod gets GOGC)', () => {
    const output = render(input({ prometheus: prometheus({ version: 'v2.50.1', runtime: { goGC: 75 } }) }));
    expect(output.configs[0]).not.toContain('gogc');
    expect(output.prometheusWarnings.filter((warning) => warning.startsWith('spec.runtime'))).toEqual([]);
    expect(render(input({ prometheus: prometheus({ version: 'v2.53.0', runtime: { goGC: 75 } }) })).configs[0]).toContain('gogc: 75');
  });

  it('leaves out the prometheus and replica labels when their names are empty', () => {
    const output = render(input({ prometheus: prometheus({ prometheusExternalLabelName: '', replicaExternalLabelName: '', alerting: { alertmanagers: [] } }) }));
    expectGolden('external-labels-disabled.yaml', output.configs[0] ?? '');
  });
});

describe('alerting', () => {
  it('discovers each Alertmanager through its Service endpoints, with auth, TLS and relabelings', () => {
    const output = render(
      input({
        prometheus: prometheus({
          alerting: {
            alertmanagers: [
              {
                namespace: 'alerts',
                name: 'alertmanager-main',
                port: 'web',
                scheme: 'HTTPS',
                pathPrefix: '/am',
                timeout: '10s',
                apiVersion: 'V2',
                enableHttp2: false,
                tlsConfig: { ca: { secret: { name: 'am-tls', key: 'ca.crt' } }, serverName: 'alertmanager.alerts.svc' },
                authorization: { credentials: { name: 'am-auth', key: 'token' } },
                relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_label_shard'], regex: '(a|b)', action: 'Keep' }],
                alertRelabelings: [{ targetLabel: 'source', replacement: 'main' }],
              },
              { name: 'alertmanager-backup', port: 9093, basicAuth: { username: { name: 'am-auth', key: 'user' }, password: { name: 'am-auth', key: 'password' } } },
            ],
          },
          additionalAlertRelabelConfigs: { name: 'additional', key: 'alert-relabel.yaml' },
          additionalAlertManagerConfigs: { name: 'additional', key: 'alertmanagers.yaml' },
        }),
        secrets: [
          secret('am-tls', { 'ca.crt': CA_PEM }),
          secret('am-auth', { token: 's3cret', user: 'alice', password: 'pw' }),
          secret('additional', {
            'alert-relabel.yaml': '- action: labeldrop\n  regex: tmp_.*\n',
            'alertmanagers.yaml': '- static_configs:\n  - targets: ["am.example.com:9093"]\n',
          }),
        ],
      }),
    );
    expectGolden('alerting.yaml', output.configs[0] ?? '');
    expect(Object.keys(output.tlsAssets)).toEqual(['0_monitoring_am-tls_ca.crt']);
  });
});

describe('remote write', () => {
  it('renders every field in upstream order with credentials from the Prometheus namespace', () => {
    const output = render(
      input({
        prometheus: prometheus({
          remoteWrite: [
            {
              url: 'https://metrics.example.com/api/v1/write',
              name: 'central',
              remoteTimeout: '20s',
              headers: { 'X-Tenant': 'team-a', 'X-Env': 'prod' },
              messageVersion: 'V2.0',
              sendExemplars: true,
              sendNativeHistograms: true,
              writeRelabelConfigs: [{ sourceLabels: ['__name__'], regex: 'go_.*', action: 'drop' }],
              oauth2: {
                clientId: { secret: { name: 'rw-oauth', key: 'id' } },
                clientSecret: { name: 'rw-oauth', key: 'secret' },
                tokenUrl: 'https://auth.example.com/token',
                scopes: ['write'],
              },
              tlsConfig: { insecureSkipVerify: false, minVersion: 'TLS12' },
              followRedirects: false,
              enableHTTP2: true,
              queueConfig: { capacity: 10000, maxShards: 50, batchSendDeadline: '5s', retryOnRateLimit: true },
              metadataConfig: { send: true, sendInterval: '1m' },
            },
            {
              url: 'http://mimir.example.com/api/v1/push',
              basicAuth: { username: { name: 'rw-basic', key: 'user' }, password: { name: 'rw-basic', key: 'password' } },
              proxyUrl: 'http://proxy.example.com:3128',
              roundRobinDNS: true,
            },
            { url: 'https://aps-workspaces.eu-west-1.amazonaws.com/workspaces/ws-1/api/v1/remote_write', sigv4: { region: 'eu-west-1', roleArn: 'arn:aws:iam::1:role/prom' } },
          ],
        }),
        secrets: [secret('rw-oauth', { id: 'client', secret: 'client-secret' }), secret('rw-basic', { user: 'writer', password: 'pw' })],
      }),
    );
    expectGolden('remote-write.yaml', output.configs[0] ?? '');
  });
});

describe('remote read', () => {
  it('renders required matchers, read_recent and auth', () => {
    const output = render(
      input({
        prometheus: prometheus({
          remoteRead: [
            {
              url: 'https://longterm.example.com/api/v1/read',
              name: 'longterm',
              requiredMatchers: { team: 'a', env: 'prod' },
              readRecent: true,
              authorization: { type: 'Bearer', credentials: { name: 'rr', key: 'token' } },
              filterExternalLabels: false,
            },
          ],
        }),
        secrets: [secret('rr', { token: 'read-token' })],
      }),
    );
    expectGolden('remote-read.yaml', output.configs[0] ?? '');
  });
});

describe('storage', () => {
  it('writes retention time and size, exemplars and the out-of-order window for Prometheus >= 3.11', () => {
    const output = render(
      input({ prometheus: prometheus({ version: 'v3.11.0', retention: '15d', retentionSize: '50GB', exemplars: { maxSize: 100000 }, tsdb: { outOfOrderTimeWindow: '10m' } }) }),
    );
    expectGolden('storage-retention.yaml', output.configs[0] ?? '');
  });

  it('defaults retention to 24h when neither retention nor retentionSize is set', () => {
    expect(render(input({ prometheus: prometheus({}) })).configs[0]).toContain('storage:\n  tsdb:\n    retention:\n      time: 24h\n');
  });

  it('leaves retention to command-line flags before Prometheus 3.11', () => {
    expect(render(input({ prometheus: prometheus({ version: 'v3.10.0', retention: '15d' }) })).configs[0]).not.toContain('storage:');
  });
});

describe('additionalScrapeConfigs', () => {
  it('appends the hand-written jobs after the generated ones, keeping their key order', () => {
    const output = render(
      input({
        prometheus: prometheus({ serviceMonitorSelector: {}, additionalScrapeConfigs: { name: 'extra', key: 'scrape.yaml' } }),
        serviceMonitors: [serviceMonitor('monitoring', 'api')],
        secrets: [
          secret('extra', {
            'scrape.yaml': '- job_name: node\n  static_configs:\n  - targets: ["node-1:9100", "node-2:9100"]\n  scrape_interval: 1m\n',
          }),
        ],
      }),
    );
    expectGolden('additional-scrape-configs.yaml', output.configs[0] ?? '');
  });
});

describe('a Prometheus with two shards', () => {
  it('renders one config per shard with the shard number written in, and shards additional jobs too', () => {
    const output = render(
      input({
        prometheus: prometheus({ shards: 2, serviceMonitorSelector: {}, additionalScrapeConfigs: { name: 'extra', key: 'scrape.yaml' } }),
        serviceMonitors: [serviceMonitor('monitoring', 'api')],
        secrets: [
          secret('extra', {
            'scrape.yaml': [
              '- job_name: node',
              '  static_configs:',
              '  - targets: ["node-1:9100"]',
              '- job_name: custom-hash',
              '  static_configs:',
              '  - targets: ["x:1"]',
              '  relabel_configs:',
              '  - source_labels: [__address__]',
              '    target_label: __tmp_hash',
              '    modulus: 7',
              '    action: hashmod',
              '',
            ].join('\n'),
          }),
        ],
      }),
    );
    expect(output.configs).toHaveLength(2);
    expectGolden('sharding-shard-0.yaml', output.configs[0] ?? '');
    expectGolden('sharding-shard-1.yaml', output.configs[1] ?? '');
    for (const config of output.configs) expect(config).not.toContain('$(SHARD)');
  });
});

describe('enforced limits and overrides', () => {
  it('cap the global and per-job limits, add the namespace label and override honor_labels', () => {
    const output = render(
      input({
        prometheus: prometheus({
          serviceMonitorSelector: {},
          serviceMonitorNamespaceSelector: {},
          sampleLimit: 100000,
          enforcedSampleLimit: 20000,
          bodySizeLimit: '100MB',
          enforcedTargetLimit: 100,
          enforcedLabelLimit: 50,
          enforcedBodySizeLimit: '10MB',
          enforcedNamespaceLabel: 'tenant',
          overrideHonorLabels: true,
          ignoreNamespaceSelectors: true,
        }),
        namespaces: [
          { name: 'monitoring', labels: {} },
          { name: 'team-a', labels: {} },
        ],
        serviceMonitors: [serviceMonitor('team-a', 'api', { sampleLimit: 50000, namespaceSelector: { any: true }, endpoints: [{ port: 'web', honorLabels: true }] })],
      }),
    );
    expectGolden('enforced-limits.yaml', output.configs[0] ?? '');
  });
});

describe('an explicit API server connection (apiserverConfig)', () => {
  it('is added to the service discovery of every monitor and Alertmanager', () => {
    const output = render(
      input({
        prometheus: prometheus({
          serviceMonitorSelector: {},
          apiserverConfig: {
            host: 'https://kubernetes.example.com:6443',
            authorization: { credentials: { name: 'kube-token', key: 'token' } },
            tlsConfig: { caFile: '/etc/prometheus/secrets/kube/ca.crt' },
          },
          alerting: { alertmanagers: [{ name: 'alertmanager-main', port: 'web' }] },
        }),
        serviceMonitors: [serviceMonitor('monitoring', 'api')],
        secrets: [secret('kube-token', { token: 'kube-secret' })],
      }),
    );
    expectGolden('api-server-config.yaml', output.configs[0] ?? '');
  });
});

describe('a Prometheus version older than some fields', () => {
  it('drops those fields with a warning each and still renders', () => {
    const output = render(
      input({
        prometheus: prometheus({
          version: 'v2.40.0',
          scrapeProtocols: ['PrometheusProto'],
          keepDroppedTargets: 5,
          scrapeNativeHistograms: true,
          ruleQueryOffset: '1m',
          retention: '7d',
          remoteWrite: [{ url: 'http://rw.example.com/push', messageVersion: 'V2.0', sendNativeHistograms: true, roundRobinDNS: true }],
        }),
      }),
    );
    expectGolden('version-gating-v2.40.yaml', output.configs[0] ?? '');
    expect(output.prometheusWarnings).toEqual([
      'spec.scrapeProtocols: ignored because Prometheus v2.40.0 does not support "scrape_protocols" (needs v2.49.0 or later)',
      'spec.keepDroppedTargets: ignored because Prometheus v2.40.0 does not support "keep_dropped_targets" (needs v2.47.0 or later)',
      'spec.scrapeNativeHistograms: ignored because Prometheus v2.40.0 does not support "scrape_native_histograms" (needs v3.8.0 or later)',
      'spec.ruleQueryOffset: ignored because Prometheus v2.40.0 does not support "rule_query_offset" (needs v2.53.0 or later)',
      'spec.remoteWrite[0].messageVersion: ignored because Prometheus v2.40.0 does not support "protobuf_message" (needs v2.54.0 or later)',
      'spec.remoteWrite[0].roundRobinDNS: ignored because Prometheus v2.40.0 does not support "round_robin_dns" (needs v3.1.0 or later)',
    ]);
    const own = output.verdicts[0];
    expect(own?.selected && own.accepted && own.warnings).toEqual(output.prometheusWarnings);
  });
});

describe('global scrape_protocols and the Prometheus version', () => {
  it('drops PrometheusText1.0.0 for a 2.x Prometheus with a warning naming it, as monitor-level protocols', () => {
    const output = render(input({ prometheus: prometheus({ version: 'v2.55.1', scrapeProtocols: ['PrometheusText1.0.0', 'PrometheusProto', 'OpenMetricsText1.0.0'] }) }));
    expectGolden('global-scrape-protocols-v2.55.yaml', output.configs[0] ?? '');
    expect(output.configs[0]).toContain('  scrape_protocols:\n  - PrometheusProto\n  - OpenMetricsText1.0.0\n');
    expect(output.prometheusWarnings).toEqual([
      'spec.scrapeProtocols: ignored PrometheusText1.0.0 because Prometheus v2.55.1 does not support it (needs v3.0.0 or later)',
    ]);
  });

  it('omits the key when the filter leaves nothing (Prometheus refuses an empty list too)', () => {
    const output = render(input({ prometheus: prometheus({ version: 'v2.55.1', scrapeProtocols: ['PrometheusText1.0.0'] }) }));
    expect(output.configs[0]).not.toContain('scrape_protocols');
    expect(output.prometheusWarnings).toEqual([
      'spec.scrapeProtocols: ignored PrometheusText1.0.0 because Prometheus v2.55.1 does not support it (needs v3.0.0 or later)',
    ]);
  });

  it('refuses the Prometheus for a protocol listed twice or an unknown one, with the path (Prometheus refuses the file)', () => {
    const output = generate(input({ prometheus: prometheus({ version: 'v3.5.0', scrapeProtocols: ['PrometheusProto', 'Nope', 'PrometheusProto'] }) }));
    expect(output.ok).toBe(false);
    expect(output.prometheusProblems).toEqual([
      { path: 'spec.scrapeProtocols[1]', message: expect.stringContaining('unknown scrape protocol "Nope"') },
      { path: 'spec.scrapeProtocols[2]', message: 'scrape protocol "PrometheusProto" is listed twice' },
    ]);
  });

  it('keeps PrometheusText1.0.0 for Prometheus 3', () => {
    const output = render(input({ prometheus: prometheus({ version: 'v3.5.0', scrapeProtocols: ['PrometheusText1.0.0', 'PrometheusProto'] }) }));
    expect(output.configs[0]).toContain('  scrape_protocols:\n  - PrometheusText1.0.0\n  - PrometheusProto\n');
    expect(output.prometheusWarnings).toEqual([]);
  });
});

describe('global body_size_limit (as prometheus-operator)', () => {
  const globalBlock = (config: string | undefined): string => (config ?? '').split('\nscrape_configs:')[0] ?? '';
  it('is spec.bodySizeLimit when set, even above enforcedBodySizeLimit', () => {
    const output = render(input({ prometheus: prometheus({ bodySizeLimit: '100MB', enforcedBodySizeLimit: '10MB' }) }));
    expect(globalBlock(output.configs[0])).toContain('  body_size_limit: 100MB\n');
  });

  it('is enforcedBodySizeLimit when spec.bodySizeLimit is unset', () => {
    const output = render(input({ prometheus: prometheus({ enforcedBodySizeLimit: '10MB' }) }));
    expect(globalBlock(output.configs[0])).toContain('  body_size_limit: 10MB\n');
  });

  it('is spec.bodySizeLimit when it is the lower one', () => {
    const output = render(input({ prometheus: prometheus({ bodySizeLimit: '5MB', enforcedBodySizeLimit: '10MB' }) }));
    expect(globalBlock(output.configs[0])).toContain('  body_size_limit: 5MB\n');
  });
});

describe('selection verdicts', () => {
  const namespaces: NamespaceInfo[] = [
    { name: 'monitoring', labels: { team: 'platform' } },
    { name: 'team-a', labels: { team: 'a', monitored: 'true' } },
    { name: 'team-b', labels: { team: 'b' } },
  ];
  const generatorInput = input({
    prometheus: prometheus({
      serviceMonitorSelector: { matchLabels: { release: 'main' } },
      serviceMonitorNamespaceSelector: { matchLabels: { monitored: 'true' } },
      podMonitorSelector: { matchExpressions: [{ key: 'release', operator: 'In', values: ['main', 'canary'] }] },
      ruleSelector: {},
    }),
    namespaces,
    serviceMonitors: [
      serviceMonitor('team-a', 'api', {}, { release: 'main' }),
      serviceMonitor('team-a', 'worker', {}, { release: 'other' }),
      serviceMonitor('team-b', 'web', {}, { release: 'main' }),
    ],
    podMonitors: [podMonitor('monitoring', 'node', { release: 'canary' }), podMonitor('team-a', 'jobs', { release: 'main' })],
    prometheusRules: [prometheusRule('monitoring', 'alerts'), prometheusRule('team-a', 'team-alerts')],
  });

  it('renders only the selected monitors and rules, monitors sorted by namespace/name', () => {
    const output = render(generatorInput);
    expectGolden('selection.yaml', output.configs[0] ?? '');
    expect(Object.keys(output.ruleConfigMaps[0]?.files ?? {})).toEqual(['monitoring-alerts-uid-alerts.yaml']);
  });

  it('gives every candidate a verdict that names the selector that excluded it', () => {
    const output = render(generatorInput);
    const summary = output.verdicts.map((v: Verdict) => `${v.resource.kind} ${v.resource.namespace}/${v.resource.name}: ${v.selected ? 'selected' : v.reason}`);
    expect(summary).toEqual([
      'Prometheus monitoring/main: selected',
      'ServiceMonitor team-a/api: selected',
      'ServiceMonitor team-a/worker: Prometheus monitoring/main\'s serviceMonitorSelector (matchLabels release=main) does not match the ServiceMonitor\'s labels (labels: release=other): label release is "other", not "main"',
      'ServiceMonitor team-b/web: Prometheus monitoring/main\'s serviceMonitorNamespaceSelector (matchLabels monitored=true) does not match namespace "team-b" (labels: team=b): label monitored is missing',
      'PodMonitor monitoring/node: selected',
      'PodMonitor team-a/jobs: Prometheus monitoring/main\'s podMonitorNamespaceSelector is not set, so only PodMonitors in its own namespace "monitoring" are selected, not namespace "team-a"',
      'PrometheusRule monitoring/alerts: selected',
      'PrometheusRule team-a/team-alerts: Prometheus monitoring/main\'s ruleNamespaceSelector is not set, so only PrometheusRules in its own namespace "monitoring" are selected, not namespace "team-a"',
    ]);
  });

  it('says so when a selector is not set at all', () => {
    const output = render(input({ prometheus: prometheus({}), serviceMonitors: [serviceMonitor('monitoring', 'api')] }));
    expect(reasonOf(output, 'ServiceMonitor', 'api')).toBe("Prometheus monitoring/main's serviceMonitorSelector is not set, so no ServiceMonitor is selected");
    expect(output.configs[0]).toContain('scrape_configs: []\n');
    expect(output.configs[0]).not.toContain('rule_files');
  });
});

describe('a rejected monitor', () => {
  it('is left out alone with its reason, and the other monitors are still rendered', () => {
    const output = render(
      input({
        prometheus: prometheus({ serviceMonitorSelector: {} }),
        serviceMonitors: [
          serviceMonitor('monitoring', 'good'),
          serviceMonitor('monitoring', 'bad', { endpoints: [{ port: 'web', interval: '10s', scrapeTimeout: '1m' }] }),
        ],
      }),
    );
    const bad = output.verdicts.find((v) => v.resource.name === 'bad');
    expect(bad?.selected && !bad.accepted && bad.reason).toMatch(/^spec\.endpoints\[0\]\.scrapeTimeout: /);
    expect(output.configs[0]).toContain('job_name: serviceMonitor/monitoring/good/0');
    expect(output.configs[0]).not.toContain('serviceMonitor/monitoring/bad/');
  });
});

describe('determinism', () => {
  function shuffled<T>(items: readonly T[], seed: number): T[] {
    // A fixed permutation (not Math.random) so a failure can be reproduced.
    return items
      .map((item, index) => ({ item, key: (index * 7919 + seed * 104729) % 1009 }))
      .sort((a, b) => a.key - b.key)
      .map((entry) => entry.item);
  }

  it('gives byte-identical output for equal input, whatever the order of the candidates', () => {
    const monitors = Array.from({ length: 30 }, (_, i) => serviceMonitor(`ns-${i % 4}`, `sm-${i}`, { endpoints: [{ port: 'web' }, { port: 'metrics', path: '/m' }] }));
    const pods = Array.from({ length: 10 }, (_, i) => podMonitor(`ns-${i % 3}`, `pm-${i}`));
    const rules = Array.from({ length: 5 }, (_, i) => prometheusRule(`ns-${i % 2}`, `rule-${i}`));
    const spec = { shards: 3, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, podMonitorSelector: {}, podMonitorNamespaceSelector: {}, ruleSelector: {}, ruleNamespaceSelector: {} };
    const namespaces = ['ns-0', 'ns-1', 'ns-2', 'ns-3'].map((name) => ({ name, labels: {} }));
    const first = JSON.stringify(generate(input({ prometheus: prometheus(spec), serviceMonitors: monitors, podMonitors: pods, prometheusRules: rules, namespaces })));
    const again = JSON.stringify(generate(input({ prometheus: prometheus(spec), serviceMonitors: monitors, podMonitors: pods, prometheusRules: rules, namespaces })));
    const reordered = JSON.stringify(
      generate(
        input({
          prometheus: prometheus(spec),
          serviceMonitors: shuffled(monitors, 3),
          podMonitors: shuffled(pods, 5),
          prometheusRules: shuffled(rules, 7),
          namespaces: shuffled(namespaces, 11),
        }),
      ),
    );
    expect(again).toBe(first);
    expect(reordered).toBe(first);
  });
});

describe('every golden prometheus.yaml', () => {
  it('passes the real promtool check config --syntax-only of each built release as new as the one it is rendered for', async () => {
    const files = readdirSync(GOLDEN_DIR)
      .filter((file) => file.endsWith('.yaml'))
      .sort()
      .map((file) => ({ file: join(GOLDEN_DIR, file), version: goldenRelease('prometheus', file, DEFAULT_PROMETHEUS_VERSION) }));
    expect(files.length).toBeGreaterThanOrEqual(12);
    const verdicts = await checkConfigsWithEachPromtool(files);
    // The goldens of older releases reach every built promtool, the default release's only its own.
    expect(verdicts.map((verdict) => verdict.tool)).toEqual([...PROMTOOLS]);
    expect(promtoolFailures(verdicts)).toEqual({});
  });

  it('of the default release, rendered for the last 2.x release (2.55.1) instead, passes that release\'s promtool', async () => {
    // promop renders for Prometheus 2.x too, gating fields by version: what it writes for 2.55.1 must load there.
    expect(defaultReleaseInputs.length).toBeGreaterThanOrEqual(12);
    const dir = mkdtempSync(join(tmpdir(), 'promop-generate-v2-'));
    try {
      const files = defaultReleaseInputs.flatMap((generatorInput, i) => {
        const output = render({ ...generatorInput, prometheus: prometheus({ ...generatorInput.prometheus.spec, version: V2_RELEASE }, generatorInput.prometheus.metadata) });
        return output.configs.map((config, shard) => {
          const file = join(dir, `input-${i}-shard-${shard}.yaml`);
          writeFileSync(file, config);
          return { file, version: V2_RELEASE };
        });
      });
      const verdicts = await checkConfigsWithEachPromtool(files);
      expect(verdicts.map((verdict) => verdict.tool)).toEqual(['promtool-v2']);
      expect(promtoolFailures(verdicts)).toEqual({});
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
