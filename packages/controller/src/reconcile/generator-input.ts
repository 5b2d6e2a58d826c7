/**
 * The generator's input for one Prometheus, gathered from the caches. Candidates are every monitor and rule of
 * the cluster: the generator applies the Prometheus' selectors itself (and says in its verdicts why something is
 * not selected). Secrets and ConfigMaps are only the referenced ones, already read and decoded
 * (kube/referenced-objects.ts): the generator never needs another.
 */
import type { GeneratorInput } from '@promop/config-generator';
import type { PrometheusWorkload } from '../workload/index.ts';
import type { ClusterCaches, ReferencedData } from '../kube/index.ts';

/** What generatorInput reads of the caches: their lists (the operator's caches, or `promop explain`'s snapshot). */
export type GeneratorSources = { [K in 'serviceMonitors' | 'podMonitors' | 'probes' | 'scrapeConfigs' | 'prometheusRules' | 'namespaces']: { list(): ReturnType<ClusterCaches[K]['list']> } };

/** Everything `generate()` needs for `prometheus`, from the caches and the referenced objects' data. */
export function generatorInput(prometheus: PrometheusWorkload, caches: GeneratorSources, referenced: ReferencedData): GeneratorInput {
  return {
    prometheus,
    serviceMonitors: [...caches.serviceMonitors.list()],
    podMonitors: [...caches.podMonitors.list()],
    probes: [...caches.probes.list()],
    scrapeConfigs: [...caches.scrapeConfigs.list()],
    prometheusRules: [...caches.prometheusRules.list()],
    namespaces: caches.namespaces.list().map((namespace) => ({ name: namespace.metadata?.name ?? '', labels: { ...namespace.metadata?.labels } })),
    secrets: referenced.secrets,
    configMaps: referenced.configMaps,
  };
}
