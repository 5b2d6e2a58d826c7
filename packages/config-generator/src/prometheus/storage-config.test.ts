/**
 * `spec.tsdb` → `storage.tsdb`, as prometheus-operator v0.93 writes it: the out-of-order window (Prometheus 2.39+,
 * agent 2.54+), the stale series compaction threshold (3.10+, a quantity written as the number it stands for) and
 * the float chunk encoding (3.13+, lower-cased), each dropped with a warning for an older Prometheus, before the
 * retention of 3.11+. Goldens under test/golden/prometheus/ (`UPDATE_GOLDEN=1` rewrites them) for each version
 * boundary; every configuration rendered here passes the real promtool (agents with `--agent`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Prometheus, PrometheusAgent } from '@promop/crds';
import { runPromtool } from '@promop/testkit';
import { refusedProblems, topLevelSection } from '../test-support/config-sections.ts';
import { generate } from '../generate.ts';
import type { GeneratorInput, GeneratorOutput } from '../model.ts';
import { expectGoldenFile } from '../test-support/golden-file.ts';
import { promtoolCheckConfigs } from '../test-support/scrape-harness.ts';

const GOLDEN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'golden', 'prometheus');

const ALL_SETTINGS = { outOfOrderTimeWindow: '30m', staleSeriesCompactionThreshold: '500m', chunkEncoding: { floats: 'Xor2' } };

function input(workload: Prometheus | PrometheusAgent): GeneratorInput {
  return { prometheus: workload, serviceMonitors: [], podMonitors: [], prometheusRules: [], namespaces: [{ name: 'monitoring', labels: {} }], secrets: [], configMaps: [] };
}

function prometheus(spec: Record<string, unknown>): Prometheus {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec } as Prometheus;
}

function agent(spec: Record<string, unknown>): PrometheusAgent {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', metadata: { namespace: 'monitoring', name: 'agent' }, spec } as PrometheusAgent;
}

const renderedServers: string[] = [];
const renderedAgents: string[] = [];

function render(workload: Prometheus | PrometheusAgent): GeneratorOutput {
  const output = generate(input(workload));
  expect(output.prometheusProblems).toEqual([]);
  (workload.kind === 'PrometheusAgent' ? renderedAgents : renderedServers).push(output.configs[0] ?? '');
  return output;
}

function problems(spec: Record<string, unknown>): string[] {
  return refusedProblems(generate(input(prometheus(spec))));
}

/** The `storage` section of a configuration, as text. */
function storageSection(config: string): string {
  return topLevelSection(config, 'storage');
}

describe('spec.tsdb of a Prometheus', () => {
  it('writes every setting into storage.tsdb in upstream order, before the retention (Prometheus 3.13+)', () => {
    const output = render(prometheus({ version: 'v3.16.0', retention: '15d', tsdb: ALL_SETTINGS }));
    expectGoldenFile(GOLDEN_DIR, 'tsdb-v3.16.yaml', output.configs[0] ?? '');
    expect(storageSection(output.configs[0] ?? '')).toBe(
      'storage:\n  tsdb:\n    out_of_order_time_window: 30m\n    stale_series_compaction_threshold: 0.5\n    chunk_encoding:\n      floats: xor2\n    retention:\n      time: 15d\n',
    );
    expect(output.prometheusWarnings).toEqual([]);
  });

  it('drops the chunk encoding with a warning before 3.13, and the threshold before 3.10, as upstream gates them', () => {
    const v310 = render(prometheus({ version: 'v3.10.0', tsdb: ALL_SETTINGS }));
    expectGoldenFile(GOLDEN_DIR, 'tsdb-v3.10.yaml', v310.configs[0] ?? '');
    expect(v310.prometheusWarnings).toEqual(['spec.tsdb.chunkEncoding.floats: ignored because Prometheus v3.10.0 does not support "chunk_encoding" (needs v3.13.0 or later)']);
    const v239 = render(prometheus({ version: 'v2.39.0', tsdb: ALL_SETTINGS }));
    expectGoldenFile(GOLDEN_DIR, 'tsdb-v2.39.yaml', v239.configs[0] ?? '');
    expect(storageSection(v239.configs[0] ?? '')).toBe('storage:\n  tsdb:\n    out_of_order_time_window: 30m\n');
    expect(v239.prometheusWarnings).toEqual([
      'spec.tsdb.staleSeriesCompactionThreshold: ignored because Prometheus v2.39.0 does not support "stale_series_compaction_threshold" (needs v3.10.0 or later)',
      'spec.tsdb.chunkEncoding.floats: ignored because Prometheus v2.39.0 does not support "chunk_encoding" (needs v3.13.0 or later)',
    ]);
    const v238 = render(prometheus({ version: 'v2.38.0', tsdb: { outOfOrderTimeWindow: '30m' } }));
    expect(storageSection(v238.configs[0] ?? '')).toBe('');
    expect(v238.prometheusWarnings).toEqual(['spec.tsdb.outOfOrderTimeWindow: ignored because Prometheus v2.38.0 does not support "out_of_order_time_window" (needs v2.39.0 or later)']);
  });

  it('writes the threshold as the number the quantity stands for, as yaml.v2 writes a float', () => {
    const threshold = (value: unknown) => /stale_series_compaction_threshold: (.*)\n/.exec(render(prometheus({ tsdb: { staleSeriesCompactionThreshold: value } })).configs[0] ?? '')?.[1];
    expect(threshold(0)).toBe('0');
    expect(threshold(1)).toBe('1');
    expect(threshold('0.25')).toBe('0.25');
    expect(threshold('750m')).toBe('0.75');
    expect(threshold('10u')).toBe('1e-05');
    expect(render(prometheus({ tsdb: { chunkEncoding: { floats: 'Xor' } } })).configs[0]).toContain('    chunk_encoding:\n      floats: xor\n');
  });

  it('refuses what upstream refuses, at the field\'s path, and keeps the running configuration', () => {
    expect(problems({ tsdb: { staleSeriesCompactionThreshold: '1.5' } })).toEqual(['spec.tsdb.staleSeriesCompactionThreshold: must be from 0 through 1 (a share of the series in memory), not 1.5']);
    expect(problems({ tsdb: { staleSeriesCompactionThreshold: -1 } })).toEqual(['spec.tsdb.staleSeriesCompactionThreshold: must be from 0 through 1 (a share of the series in memory), not -1']);
    expect(problems({ tsdb: { staleSeriesCompactionThreshold: 'half' } })).toEqual(['spec.tsdb.staleSeriesCompactionThreshold: "half" is not a number (a quantity such as 0.5 or 500m)']);
    expect(problems({ enableFeatures: ['st-storage'], tsdb: { chunkEncoding: { floats: 'Xor' } } })).toEqual([
      'spec.tsdb.chunkEncoding.floats: Xor cannot be combined with the st-storage feature in spec.enableFeatures: XOR chunks do not store start timestamps',
    ]);
    // Only through `promop render` or an object stored before the field was typed: the CRD refuses these.
    expect(problems({ tsdb: { chunkEncoding: { floats: 'xor3' }, outOfOrderTimeWindow: '5 minutes' } })).toEqual([
      'spec.tsdb.outOfOrderTimeWindow: "5 minutes" is not a duration like 30m or 1h',
      'spec.tsdb.chunkEncoding.floats: must be Xor or Xor2, not "xor3"',
    ]);
  });

  it('accepts Xor2 beside st-storage (upstream refuses only Xor there)', () => {
    render(prometheus({ enableFeatures: ['st-storage'], tsdb: { chunkEncoding: { floats: 'Xor2' } } }));
  });
});

describe('spec.tsdb of a PrometheusAgent', () => {
  it('writes one storage.tsdb with every setting, the window from 2.54 only (as upstream gates it for agents)', () => {
    const output = render(agent({ version: 'v3.16.0', tsdb: ALL_SETTINGS }));
    expect(storageSection(output.configs[0] ?? '')).toBe('storage:\n  tsdb:\n    out_of_order_time_window: 30m\n    stale_series_compaction_threshold: 0.5\n    chunk_encoding:\n      floats: xor2\n');
    const old = render(agent({ version: 'v2.53.0', tsdb: { outOfOrderTimeWindow: '30m' } }));
    expect(storageSection(old.configs[0] ?? '')).toBe('');
    expect(old.prometheusWarnings).toContain('spec.tsdb.outOfOrderTimeWindow: ignored because Prometheus v2.53.0 does not support "out_of_order_time_window" (needs v2.54.0 or later)');
  });
});

describe('every configuration rendered above', () => {
  it('passes the real promtool check config (servers) and check config --agent (agents)', async () => {
    expect(renderedServers.length).toBeGreaterThanOrEqual(10);
    const servers = await promtoolCheckConfigs(renderedServers);
    expect({ code: servers.code, output: servers.code === 0 ? '' : servers.stdout + servers.stderr }).toEqual({ code: 0, output: '' });
    const dir = mkdtempSync(join(tmpdir(), 'promop-tsdb-agent-'));
    try {
      const files = renderedAgents.map((text, index) => {
        const file = join(dir, `agent-${index}.yaml`);
        writeFileSync(file, text);
        return file;
      });
      const agents = await runPromtool(['check', 'config', '--agent', '--syntax-only', ...files]);
      expect({ code: agents.code, output: agents.code === 0 ? '' : agents.stdout + agents.stderr }).toEqual({ code: 0, output: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is checked by a promtool that refuses a chunk encoding Prometheus does not know', async () => {
    const refused = await promtoolCheckConfigs(['storage:\n  tsdb:\n    chunk_encoding:\n      floats: xor3\n']);
    expect(refused.code).toBe(1);
  });
});
