/**
 * A Prometheus asking for more shards than promop renders: `spec.shards` is any int32 for the CRD, and rendering
 * every shard of `spec.shards: 1096109863` (a case of the fuzz suite, e2e/fuzz) would run until the heap ran out,
 * which in the operator would stall every other Prometheus.
 */
import type { Prometheus } from '@promop/crds';
import { generate } from '../generate.ts';
import type { GeneratorInput } from '../model.ts';
import { MAX_SHARDS, shardCount } from './sharding.ts';

function inputWithShards(shards: number): GeneratorInput {
  const prometheus = { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec: { shards } } as Prometheus;
  return { prometheus, serviceMonitors: [], podMonitors: [], prometheusRules: [], namespaces: [], secrets: [], configMaps: [] };
}

describe('a Prometheus with spec.shards beyond what promop renders', () => {
  it('is rejected at spec.shards with a reason, at once, and no config is rendered', () => {
    const started = Date.now();
    const output = generate(inputWithShards(2_000_000_000));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(output.ok).toBe(false);
    expect(output.configs).toEqual([]);
    expect(output.prometheusProblems).toEqual([
      { path: 'spec.shards', message: `2000000000 shards is more than promop renders (at most ${MAX_SHARDS}, each a StatefulSet with its own configuration)` },
    ]);
  });

  it('counts as MAX_SHARDS where the controller lists the shards (the StatefulSets it reads while reporting the failure)', () => {
    expect(shardCount(2_000_000_000)).toBe(MAX_SHARDS);
  });

  it('is rendered up to MAX_SHARDS', () => {
    const output = generate(inputWithShards(MAX_SHARDS));
    expect(output.ok).toBe(true);
    expect(output.configs).toHaveLength(MAX_SHARDS);
  });
});
