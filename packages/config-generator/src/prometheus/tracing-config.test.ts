/**
 * `spec.tracingConfig` → the `tracing` section, in prometheus-operator's key order, with TLS material from
 * Secrets and ConfigMaps of the Prometheus' namespace written as TLS asset files (as for remote write), and what
 * upstream or Prometheus refuses refused at its path. Goldens under test/golden/prometheus/ (`UPDATE_GOLDEN=1`
 * rewrites them); every configuration rendered here also passes the real promtool.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Prometheus, PrometheusAgent } from '@promop/crds';
import { refusedProblems, topLevelSection } from '../test-support/config-sections.ts';
import { generate } from '../generate.ts';
import type { GeneratorInput, GeneratorOutput, KeyValueSource } from '../model.ts';
import { expectGoldenFile } from '../test-support/golden-file.ts';
import { promtoolCheckConfigs, TEST_CERT, TEST_KEY } from '../test-support/scrape-harness.ts';

const GOLDEN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'golden', 'prometheus');

const SECRETS: KeyValueSource[] = [
  { namespace: 'monitoring', name: 'tracing-tls', data: { 'tls.crt': TEST_CERT, 'tls.key': TEST_KEY } },
  { namespace: 'team-a', name: 'team-tls', data: { 'tls.crt': TEST_CERT, 'tls.key': TEST_KEY } },
];
const CONFIG_MAPS: KeyValueSource[] = [{ namespace: 'monitoring', name: 'tracing-ca', data: { 'ca.crt': TEST_CERT } }];

function input(workload: Prometheus | PrometheusAgent): GeneratorInput {
  return {
    prometheus: workload,
    serviceMonitors: [],
    podMonitors: [],
    prometheusRules: [],
    namespaces: [{ name: 'monitoring', labels: {} }],
    secrets: SECRETS,
    configMaps: CONFIG_MAPS,
  };
}

function prometheus(spec: Record<string, unknown>): Prometheus {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec } as Prometheus;
}

const rendered: string[] = [];

function render(spec: Record<string, unknown>): GeneratorOutput {
  const output = generate(input(prometheus(spec)));
  expect(output.prometheusProblems).toEqual([]);
  rendered.push(output.configs[0] ?? '');
  return output;
}

function problems(spec: Record<string, unknown>): string[] {
  return refusedProblems(generate(input(prometheus(spec))));
}

/** The `tracing` section of a configuration, as text. */
function tracingSection(config: string): string {
  return topLevelSection(config, 'tracing');
}

describe('spec.tracingConfig', () => {
  it('becomes the tracing section in upstream key order, last, with its TLS material as TLS asset files', () => {
    const output = render({
      otlp: { promoteResourceAttributes: ['service.name'] },
      tracingConfig: {
        endpoint: 'otel-collector.monitoring:4317',
        clientType: 'GRPC',
        samplingFraction: '100m',
        insecure: false,
        headers: { 'X-Tenant': 'platform', 'X-Cluster': 'eu-1' },
        compression: 'Gzip',
        timeout: '5s',
        tlsConfig: { ca: { configMap: { name: 'tracing-ca', key: 'ca.crt' } }, cert: { secret: { name: 'tracing-tls', key: 'tls.crt' } }, keySecret: { name: 'tracing-tls', key: 'tls.key' }, serverName: 'otel-collector' },
      },
    });
    expectGoldenFile(GOLDEN_DIR, 'tracing.yaml', output.configs[0] ?? '');
    expect(Object.keys(output.tlsAssets)).toEqual(['0_monitoring_tracing-tls_tls.crt', '0_monitoring_tracing-tls_tls.key', '1_monitoring_tracing-ca_ca.crt']);
    expect(output.tlsAssets['0_monitoring_tracing-tls_tls.key']).toBe(TEST_KEY);
  });

  it('writes only the endpoint when nothing else is set, and the sampling fraction as the number it stands for', () => {
    expect(tracingSection(render({ tracingConfig: { endpoint: '127.0.0.1:4317' } }).configs[0] ?? '')).toBe('tracing:\n  endpoint: 127.0.0.1:4317\n');
    expect(tracingSection(render({ tracingConfig: { endpoint: 'collector:4318', clientType: 'http', samplingFraction: 1, insecure: true, tlsConfig: { caFile: '/etc/ssl/ca.pem' } } }).configs[0] ?? '')).toBe(
      'tracing:\n  endpoint: collector:4318\n  client_type: http\n  sampling_fraction: 1\n  insecure: true\n  tls_config:\n    ca_file: /etc/ssl/ca.pem\n',
    );
    expect(tracingSection(render({ tracingConfig: { endpoint: 'collector:4317', samplingFraction: '0.25' } }).configs[0] ?? '')).toContain('sampling_fraction: 0.25\n');
  });

  it('is rendered for a PrometheusAgent too', async () => {
    const agent = { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', metadata: { namespace: 'monitoring', name: 'agent' }, spec: { tracingConfig: { endpoint: 'collector:4317', samplingFraction: '1e-2' } } } as PrometheusAgent;
    const output = generate(input(agent));
    expect(output.prometheusProblems).toEqual([]);
    expect(tracingSection(output.configs[0] ?? '')).toBe('tracing:\n  endpoint: collector:4317\n  sampling_fraction: 0.01\n');
    rendered.push(output.configs[0] ?? '');
  });

  it('is dropped with a warning for a Prometheus older than 2.34, which has no tracing section (upstream writes it)', () => {
    const output = render({ version: 'v2.33.5', tracingConfig: { endpoint: 'collector:4317' } });
    expect(tracingSection(output.configs[0] ?? '')).toBe('');
    expect(output.prometheusWarnings).toEqual(['spec.tracingConfig: ignored because Prometheus v2.33.5 does not support "tracing" (needs v2.34.0 or later)']);
  });

  it('refuses a sampling fraction outside [0, 1] (as upstream) or that is no quantity', () => {
    expect(problems({ tracingConfig: { endpoint: 'c:4317', samplingFraction: '1.5' } })).toEqual(['spec.tracingConfig.samplingFraction: must be from 0 through 1, not 1.5']);
    expect(problems({ tracingConfig: { endpoint: 'c:4317', samplingFraction: 2 } })).toEqual(['spec.tracingConfig.samplingFraction: must be from 0 through 1, not 2']);
    expect(problems({ tracingConfig: { endpoint: 'c:4317', samplingFraction: 'half' } })).toEqual(['spec.tracingConfig.samplingFraction: "half" is not a number (a quantity such as 0.1 or 100m)']);
  });

  it('refuses what Prometheus refuses when it loads the file', () => {
    expect(problems({ tracingConfig: { endpoint: '' } })).toEqual(['spec.tracingConfig.endpoint: is required: the host:port traces are sent to']);
    expect(problems({ tracingConfig: { endpoint: 'c:4317', clientType: 'thrift', compression: 'zstd' } })).toEqual([
      'spec.tracingConfig.clientType: must be grpc or http, not "thrift"',
      'spec.tracingConfig.compression: must be gzip, not "zstd"',
    ]);
    expect(problems({ tracingConfig: { endpoint: 'c:4317', headers: { Authorization: 'Bearer x', 'User-Agent': 'me' } } })).toEqual([
      'spec.tracingConfig.headers.Authorization: Prometheus does not send a configured Authorization header with traces',
      'spec.tracingConfig.headers.User-Agent: User-Agent is a header Prometheus sets itself and cannot be changed',
    ]);
  });

  it('refuses TLS material that is missing, from another namespace, or a key without its certificate', () => {
    expect(problems({ tracingConfig: { endpoint: 'c:4317', tlsConfig: { keySecret: { name: 'tracing-tls', key: 'tls.key' } } } })).toEqual([
      'spec.tracingConfig.tlsConfig: a client key (keySecret or keyFile) needs a client certificate (cert or certFile)',
    ]);
    expect(problems({ tracingConfig: { endpoint: 'c:4317', tlsConfig: { ca: { secret: { name: 'team-tls', key: 'tls.crt' } } } } })).toEqual([
      'spec.tracingConfig.tlsConfig.ca.secret: Secret "team-tls" not found in namespace "monitoring"',
    ]);
  });

  it('what promop refuses here, Prometheus refuses too (promtool)', async () => {
    const refusedByPrometheus = [
      'tracing:\n  client_type: grpc\n',
      'tracing:\n  endpoint: c:4317\n  client_type: thrift\n',
      'tracing:\n  endpoint: c:4317\n  compression: zstd\n',
      'tracing:\n  endpoint: c:4317\n  headers:\n    Authorization: Bearer x\n',
      'tracing:\n  endpoint: c:4317\n  headers:\n    User-Agent: me\n',
    ];
    for (const config of refusedByPrometheus) expect({ config, code: (await promtoolCheckConfigs([config])).code }).toEqual({ config, code: 1 });
  });
});

describe('every configuration rendered above', () => {
  it('passes the real promtool check config', async () => {
    expect(rendered.length).toBeGreaterThanOrEqual(5);
    const result = await promtoolCheckConfigs(rendered);
    expect({ code: result.code, output: result.code === 0 ? '' : result.stdout + result.stderr }).toEqual({ code: 0, output: '' });
  });
});
