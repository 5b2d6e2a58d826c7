/** Test fixtures for the workload builders: a Prometheus as read from the API server, and a generator output. */
import { DEFAULT_PROMETHEUS_VERSION, parsePrometheusVersion, ruleConfigMapName, type GeneratorOutput, type PrometheusVersion } from '@promop/config-generator';
import type { Prometheus, PrometheusAgent } from '@promop/crds';

/** A Prometheus `monitoring/main` with a uid, as the API server returns it, with `spec` as given. */
export function testPrometheus(spec: NonNullable<Prometheus['spec']> = {}, metadata: Partial<Prometheus['metadata']> = {}): Prometheus {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { name: 'main', namespace: 'monitoring', uid: '0b5cf4a3-2d4e-4f7b-9a51-3c1f0b8e9d21', ...metadata },
    spec,
  } as Prometheus;
}

/** A PrometheusAgent `monitoring/main` with a uid, as the API server returns it, with `spec` as given. */
export function testPrometheusAgent(spec: NonNullable<PrometheusAgent['spec']> = {}, metadata: Partial<PrometheusAgent['metadata']> = {}): PrometheusAgent {
  return {
    apiVersion: 'monitoring.coreos.com/v1alpha1',
    kind: 'PrometheusAgent',
    metadata: { name: 'main', namespace: 'monitoring', uid: '5d0e6a2b-8c1f-4e3a-b7d9-2f4a6c8e0b13', ...metadata },
    spec,
  } as PrometheusAgent;
}

/** The version the generator reads from `spec.version` (the default when empty); throws for text that is not one. */
export function versionOf(spec: { version?: string | null } = {}): PrometheusVersion {
  const version = parsePrometheusVersion(spec.version ?? DEFAULT_PROMETHEUS_VERSION);
  if (!version) throw new Error(`test fixture: ${spec.version} is not a version`);
  return version;
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
    version: versionOf(),
  };
}
