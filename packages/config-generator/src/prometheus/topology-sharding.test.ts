/**
 * `spec.shardingStrategy.mode: Topology`: each shard scrapes the targets of one zone (`values[shard % zones]`),
 * split by hash between that zone's shards, as prometheus-operator v0.93 writes it — the three zone rules before the
 * hash rules in the jobs of every kind (ServiceMonitor, PodMonitor, Probe, ScrapeConfig, additionalScrapeConfigs),
 * node metadata for ServiceMonitors and PodMonitors unless the cluster labels pods with their zone, the zone as an
 * external label, and each shard's zone in its pods' node selector (GeneratorOutput.shardZones). promop writes each
 * shard's values where upstream's reloader substitutes `$(TOPOLOGY_ZONE)` and `$(INZONE_SHARD)`. Goldens under
 * test/golden/prometheus/ (`UPDATE_GOLDEN=1` rewrites them); every configuration rendered here passes the real
 * promtool.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PodMonitor, Probe, Prometheus, ScrapeConfig, ServiceMonitor } from '@promop/crds';
import { refusedProblems } from '../test-support/config-sections.ts';
import { generate } from '../generate.ts';
import type { GeneratorInput, GeneratorOutput } from '../model.ts';
import { expectGoldenFile } from '../test-support/golden-file.ts';
import { promtoolCheckConfigs } from '../test-support/scrape-harness.ts';

const GOLDEN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'golden', 'prometheus');

const TOPOLOGY = { mode: 'Topology', topology: { values: ['europe-west1-b', 'europe-west1-c'] } };
const SELECT_ALL = { serviceMonitorSelector: {}, podMonitorSelector: {}, probeSelector: {}, scrapeConfigSelector: {} };

const meta = (name: string) => ({ namespace: 'team-a', name, labels: {} });
const serviceMonitor = { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: meta('api'), spec: { selector: { matchLabels: { app: 'api' } }, endpoints: [{ port: 'web' }] } } as ServiceMonitor;
const podMonitor = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: meta('workers'), spec: { selector: { matchLabels: { app: 'worker' } }, podMetricsEndpoints: [{ port: 'metrics' }] } } as PodMonitor;
const probe = { apiVersion: 'monitoring.coreos.com/v1', kind: 'Probe', metadata: meta('homepage'), spec: { prober: { url: 'blackbox:9115' }, targets: { staticConfig: { static: ['https://example.com'] } } } } as Probe;
const scrapeConfig = { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: meta('nodes'), spec: { staticConfigs: [{ targets: ['10.0.0.1:9100'] }] } } as ScrapeConfig;

function input(spec: Record<string, unknown>, options: Partial<GeneratorInput> = {}): GeneratorInput {
  return {
    prometheus: { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main', uid: 'uid-main' }, spec } as Prometheus,
    serviceMonitors: [serviceMonitor],
    podMonitors: [podMonitor],
    probes: [probe],
    scrapeConfigs: [scrapeConfig],
    prometheusRules: [],
    namespaces: [{ name: 'monitoring', labels: {} }, { name: 'team-a', labels: {} }],
    secrets: [{ namespace: 'monitoring', name: 'extra', data: { 'jobs.yaml': '- job_name: node\n  static_configs:\n  - targets: ["node-1:9100"]\n' } }],
    configMaps: [],
    ...options,
  };
}

const rendered: string[] = [];

function render(spec: Record<string, unknown>, options: Partial<GeneratorInput> = {}): GeneratorOutput {
  const output = generate(input({ ...SELECT_ALL, serviceMonitorNamespaceSelector: {}, podMonitorNamespaceSelector: {}, probeNamespaceSelector: {}, scrapeConfigNamespaceSelector: {}, ...spec }, options));
  expect(output.prometheusProblems).toEqual([]);
  rendered.push(...output.configs);
  return output;
}

function problems(spec: Record<string, unknown>): string[] {
  return refusedProblems(generate(input(spec)));
}

/** The relabel_configs of the job named `job` in `config`, as text. */
function relabelingsOf(config: string, job: string): string {
  const start = config.indexOf(`- job_name: ${job}\n`);
  const end = config.indexOf('\n- job_name: ', start + 1);
  const text = config.slice(start, end < 0 ? undefined : end);
  return text.slice(text.indexOf('  relabel_configs:\n'));
}

describe('topology sharding with zones read from node labels (Kubernetes before 1.35)', () => {
  const output = render({ shards: 4, shardingStrategy: TOPOLOGY, additionalScrapeConfigs: { name: 'extra', key: 'jobs.yaml' } });

  it('renders one config per shard: shard n scrapes zone values[n % 2], its position in the zone n / 2', () => {
    expect(output.configs).toHaveLength(4);
    expectGoldenFile(GOLDEN_DIR, 'topology-sharding-shard-0.yaml', output.configs[0] ?? '');
    expectGoldenFile(GOLDEN_DIR, 'topology-sharding-shard-3.yaml', output.configs[3] ?? '');
    expect(output.shardZones).toEqual(['europe-west1-b', 'europe-west1-c', 'europe-west1-b', 'europe-west1-c']);
    for (const config of output.configs) expect(config).not.toMatch(/\$\((SHARD|TOPOLOGY_ZONE|INZONE_SHARD)\)/);
  });

  it('writes the zone rules before the hash rules, hashing modulo the shards per zone', () => {
    const shard3 = output.configs[3] ?? '';
    const zoneRules = [
      '  - source_labels:\n    - __meta_kubernetes_endpointslice_endpoint_zone\n    - __tmp_topology\n    target_label: __tmp_topology\n    regex: (.+);\n    replacement: $1\n    action: replace\n',
      '  - source_labels:\n    - __meta_kubernetes_node_label_topology_kubernetes_io_zone\n    - __meta_kubernetes_node_labelpresent_topology_kubernetes_io_zone\n    - __tmp_topology\n    target_label: __tmp_topology\n    regex: (.+);true;\n    replacement: $1\n    action: replace\n',
      '  - source_labels:\n    - __tmp_topology\n    - __tmp_disable_sharding\n    regex: europe-west1-c;|.+;.+\n    action: keep\n',
      '  - source_labels:\n    - __address__\n    - __tmp_hash\n    target_label: __tmp_hash\n    regex: (.+);\n    replacement: $1\n    action: replace\n',
      '  - source_labels:\n    - __tmp_hash\n    target_label: __tmp_hash\n    modulus: 2\n    action: hashmod\n',
      '  - source_labels:\n    - __tmp_hash\n    - __tmp_disable_sharding\n    regex: 1;|.+;.+\n    action: keep\n',
    ].join('').trimEnd();
    for (const job of ['serviceMonitor/team-a/api/0', 'podMonitor/team-a/workers/0', 'scrapeConfig/team-a/nodes', 'node']) {
      expect({ job, rules: relabelingsOf(shard3, job) }).toEqual({ job, rules: expect.stringContaining(zoneRules) });
    }
    // A Probe hashes its target's URL, after the same zone rules.
    expect(relabelingsOf(shard3, 'probe/team-a/homepage')).toContain('regex: europe-west1-c;|.+;.+');
    expect(relabelingsOf(shard3, 'probe/team-a/homepage')).toContain('  - source_labels:\n    - __param_target\n    - __tmp_hash\n');
  });

  it('turns on node metadata for ServiceMonitor and PodMonitor jobs, and adds the zone external label', () => {
    const shard0 = output.configs[0] ?? '';
    expect(shard0.match(/attach_metadata:\n {6}node: true\n/g)).toHaveLength(2);
    expect(shard0).toContain('  external_labels:\n    prometheus: monitoring/main\n    prometheus_replica: ${POD_NAME}\n    zone: europe-west1-b\n');
  });
});

describe('topology sharding on a cluster that labels pods with their zone (Kubernetes 1.35+)', () => {
  it('reads the zone from the pod label and leaves node metadata as the monitors set it', () => {
    const output = render({ shards: 2, shardingStrategy: { mode: 'Topology', topology: { values: ['a', 'b'], externalLabelName: 'topology_zone' } } }, { podTopologyLabels: true });
    const shard1 = output.configs[1] ?? '';
    expect(shard1).not.toContain('attach_metadata');
    expect(shard1).toContain('    - __meta_kubernetes_pod_label_topology_kubernetes_io_zone\n    - __meta_kubernetes_pod_labelpresent_topology_kubernetes_io_zone\n    - __tmp_topology\n');
    expect(shard1).not.toContain('__meta_kubernetes_node_label');
    expect(shard1).toContain('    topology_zone: b\n');
    expect(shard1).toContain('    modulus: 1\n');
    expect(shard1).toContain('    regex: 0;|.+;.+\n');
  });

  it('with one shard and one zone writes the zone rules but no additional-job sharding (as upstream, one shard)', () => {
    const output = render({ shards: 1, shardingStrategy: { mode: 'Topology', topology: { values: ['a'], externalLabelName: '' } }, additionalScrapeConfigs: { name: 'extra', key: 'jobs.yaml' } }, { podTopologyLabels: true });
    const config = output.configs[0] ?? '';
    expect(relabelingsOf(config, 'serviceMonitor/team-a/api/0')).toContain('regex: a;|.+;.+');
    expect(relabelingsOf(config, 'scrapeConfig/team-a/nodes')).not.toContain('__tmp_topology');
    expect(config).not.toContain('- job_name: node\n  static_configs:\n  - targets:\n    - node-1:9100\n  relabel_configs:');
    expect(config).not.toMatch(/^ {4}zone:/m);
    expect(output.shardZones).toEqual(['a']);
  });
});

describe('the Address mode and an unset strategy', () => {
  it('shard by address alone, without zone label or node selector', () => {
    const address = render({ shards: 2, shardingStrategy: { mode: 'Address' } });
    const unset = render({ shards: 2 });
    expect(address.configs).toEqual(unset.configs);
    expect(address.configs[0]).not.toContain('__tmp_topology');
    expect(address.shardZones).toBeUndefined();
  });

  it('mode Topology without zones shards by address, with a warning (upstream adds a zone label its reloader cannot fill)', () => {
    const output = render({ shards: 2, shardingStrategy: { mode: 'Topology', topology: {} } });
    expect(output.configs[0]).not.toContain('__tmp_topology');
    expect(output.configs[0]).not.toMatch(/^ {4}zone:/m);
    expect(output.prometheusWarnings).toEqual(['spec.shardingStrategy.topology.values: empty, so mode Topology has no zone to assign and targets are sharded by address']);
  });
});

describe('what prometheus-operator\'s CRD refuses, and zones no node can have', () => {
  it('is a problem at its path, and the running configuration stays', () => {
    expect(problems({ shards: 2, shardingStrategy: { mode: 'Topology', topology: { values: ['a', 'b', 'c'] } } })).toEqual([
      'spec.shards: 2 is fewer than the 3 zones of spec.shardingStrategy.topology.values: mode Topology needs at least one shard per zone',
    ]);
    expect(problems({ shardingStrategy: { mode: 'Topology', topology: { values: ['a', 'b'] } } })).toEqual([
      'spec.shards: 1 is fewer than the 2 zones of spec.shardingStrategy.topology.values: mode Topology needs at least one shard per zone',
    ]);
    expect(problems({ shards: 2, shardingStrategy: { topology: { values: ['a'] } } })).toEqual([
      'spec.shardingStrategy.topology: is only valid with mode Topology, not without a mode (Address)',
    ]);
    expect(problems({ shards: 2, shardingStrategy: { mode: 'Address', topology: { values: ['a'] } } })).toEqual([
      'spec.shardingStrategy.topology: is only valid with mode Topology, not mode Address',
    ]);
    expect(problems({ version: 'v2.55.1', shards: 3, shardingStrategy: { mode: 'Topology', topology: { values: ['a', 'zone (b)', ''], externalLabelName: 'my-zone' } } })).toEqual([
      'spec.shardingStrategy.topology.values[1]: "zone (b)" is not a zone name (a label value: up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit)',
      'spec.shardingStrategy.topology.values[2]: "" is not a zone name (a label value: up to 63 letters, digits, "-", "_" or ".", starting and ending with a letter or digit)',
      'spec.shardingStrategy.topology.externalLabelName: "my-zone" is not a label name this Prometheus accepts (must match [a-zA-Z_][a-zA-Z0-9_]*)',
    ]);
  });

  it('warns about a zone listed twice (two sets of shards then scrape the same targets)', () => {
    const output = render({ shards: 2, shardingStrategy: { mode: 'Topology', topology: { values: ['a', 'a'] } } });
    expect(output.prometheusWarnings).toEqual(['spec.shardingStrategy.topology.values[1]: "a" is listed twice, so two sets of shards scrape its targets']);
  });
});

describe('every configuration rendered above', () => {
  it('passes the real promtool check config', async () => {
    expect(rendered.length).toBeGreaterThanOrEqual(10);
    const result = await promtoolCheckConfigs(rendered);
    expect({ code: result.code, output: result.code === 0 ? '' : result.stdout + result.stderr }).toEqual({ code: 0, output: '' });
  });
});
