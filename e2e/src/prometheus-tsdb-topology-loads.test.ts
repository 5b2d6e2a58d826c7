/**
 * What promop renders for `spec.tsdb` and `spec.shardingStrategy.mode: Topology` runs in a real Prometheus 3.16:
 * the storage.tsdb settings (the out-of-order window, the stale series compaction threshold and Xor2 float chunks,
 * with the xor2-encoding feature the controller adds for them: workload/prometheus-args.test.ts) load and are what
 * Prometheus reports back, in a server and in an agent; and a topology-sharded shard's configuration, with its zone
 * written in the external labels and the keep rules, loads with every job. Loopback only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, type GeneratorInput } from '@promop/config-generator';
import type { Prometheus, PrometheusAgent, ServiceMonitor } from '@promop/crds';
import { startPrometheus, type PrometheusProcess } from '@promop/testkit';

const TSDB = { outOfOrderTimeWindow: '30m', staleSeriesCompactionThreshold: '500m', chunkEncoding: { floats: 'Xor2' } };

function input(workload: Prometheus | PrometheusAgent, serviceMonitors: ServiceMonitor[] = []): GeneratorInput {
  return { prometheus: workload, serviceMonitors, podMonitors: [], prometheusRules: [], namespaces: [{ name: 'monitoring', labels: {} }], secrets: [], configMaps: [] };
}

/** Writes `config` into `dir` and runs a real Prometheus (an agent with `agent`) with the xor2-encoding feature. */
async function run(dir: string, name: string, config: string, agent = false): Promise<PrometheusProcess> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, config);
  return startPrometheus(file, { POD_NAME: `${name}-0` }, { agent, args: ['--enable-feature=xor2-encoding'] });
}

describe('spec.tsdb and topology sharding rendered by promop, loaded by a real Prometheus', () => {
  let dir: string;
  const running: PrometheusProcess[] = [];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'promop-tsdb-topology-'));
  });

  afterAll(async () => {
    await Promise.all(running.map((prometheus) => prometheus.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a server loads every storage.tsdb setting and reports them back', async () => {
    const output = generate(input({ apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec: { version: 'v3.16.0', tsdb: TSDB } } as Prometheus));
    expect(output.prometheusProblems).toEqual([]);
    const prometheus = await run(dir, 'server', output.configs[0] ?? '');
    running.push(prometheus);
    const loaded = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    const storage = loaded.yaml.slice(loaded.yaml.indexOf('\nstorage:\n'));
    expect(storage).toContain('    out_of_order_time_window: 30m\n');
    expect(storage).toContain('    stale_series_compaction_threshold: 0.5\n');
    expect(storage).toContain('    chunk_encoding:\n      floats: xor2\n');
    // The retention of 3.11+ beside them, in the same section.
    expect(storage).toContain('      time: 1d\n');
  });

  it('an agent loads them too', async () => {
    const output = generate(input({ apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', metadata: { namespace: 'monitoring', name: 'agent' }, spec: { version: 'v3.16.0', tsdb: TSDB } } as PrometheusAgent));
    expect(output.prometheusProblems).toEqual([]);
    const prometheus = await run(dir, 'agent', output.configs[0] ?? '', true);
    running.push(prometheus);
    const loaded = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(loaded.yaml).toContain('out_of_order_time_window: 30m');
    expect(loaded.yaml).toContain('stale_series_compaction_threshold: 0.5');
  });

  it('a topology-sharded shard loads with its zone in the external labels and its jobs', async () => {
    const serviceMonitor = {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { namespace: 'monitoring', name: 'api', labels: {} },
      spec: { selector: { matchLabels: { app: 'api' } }, endpoints: [{ port: 'web' }] },
    } as ServiceMonitor;
    const output = generate(input({
      apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' },
      spec: { version: 'v3.16.0', shards: 4, serviceMonitorSelector: {}, shardingStrategy: { mode: 'Topology', topology: { values: ['zone-a', 'zone-b'] } } },
    } as Prometheus, [serviceMonitor]));
    expect(output.prometheusProblems).toEqual([]);
    expect(output.shardZones).toEqual(['zone-a', 'zone-b', 'zone-a', 'zone-b']);
    const prometheus = await run(dir, 'shard-3', output.configs[3] ?? '');
    running.push(prometheus);
    const loaded = await prometheus.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(loaded.yaml).toContain('    zone: zone-b\n');
    expect(loaded.yaml).toContain('- job_name: serviceMonitor/monitoring/api/0\n');
    expect(loaded.yaml).toContain('regex: zone-b;|.+;.+');
    expect(loaded.yaml).toContain('regex: 1;|.+;.+');
  });
});
