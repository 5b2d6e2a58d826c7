/** Test fixtures for the workload builders: a Prometheus as read from the API server, and a generator output. */
import { ruleConfigMapName, type GeneratorOutput } from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';

/** A Prometheus `monitoring/main` with a uid, as the API server returns it, with `spec` as given. */
export function testPrometheus(spec: NonNullable<Prometheus['spec']> = {}, metadata: Partial<Prometheus['metadata']> = {}): Prometheus {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { name: 'main', namespace: 'monitoring', uid: '0b5cf4a3-2d4e-4f7b-9a51-3c1f0b8e9d21', ...metadata },
    spec,
  } as Prometheus;
}

/** A successful generator output with one config per entry of `configs` and `ruleConfigMapCount` rule ConfigMaps. */
export function testOutput(configs: string[] = ['global: {}\n'], ruleConfigMapCount = 1, name = 'main'): GeneratorOutput {
  return {
    ok: true,
    prometheusProblems: [],
    prometheusWarnings: [],
    configs,
    scrapeFiles: configs.map(() => []),
    ruleConfigMaps: Array.from({ length: ruleConfigMapCount }, (_, index) => ({
      name: ruleConfigMapName(name, index),
      files: { [`monitoring-rules${index}-uid.yaml`]: 'groups: []\n' },
    })),
    tlsAssets: {},
    verdicts: [],
  };
}
