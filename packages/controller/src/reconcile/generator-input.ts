/**
 * The generator's input for one Prometheus, gathered from the caches. Candidates are every monitor and rule of
 * the cluster: the generator applies the Prometheus' selectors itself (and says in its verdicts why something is
 * not selected). Secrets and ConfigMaps are only the referenced ones, already read and decoded
 * (kube/referenced-objects.ts): the generator never needs another.
 */
import type { GeneratorInput } from '@promop/config-generator';
import { KINDS, PROMETHEUS_SELECTED_KINDS, type ListOf, type PrometheusSelectedKind } from '@promop/crds/kinds';
import type { ResourceOfKind } from '@promop/crds';
import type { PrometheusWorkload } from '../workload/index.ts';
import type { ClusterCaches, ReferencedData } from '../kube/index.ts';

/** What generatorInput reads of the caches: their lists (the operator's caches, or `promop explain`'s snapshot). */
export type GeneratorSources = { [K in PrometheusSelectedKind as ListOf<K>]: { list(): readonly ResourceOfKind[K][] } } & { namespaces: { list(): ReturnType<ClusterCaches['namespaces']['list']> } };

/** The candidates of every selected kind, one list each, as the generator's input names them. */
export function selectedObjectLists(sources: GeneratorSources): { [K in PrometheusSelectedKind as ListOf<K>]: ResourceOfKind[K][] } {
  const lists = PROMETHEUS_SELECTED_KINDS.map((kind) => [KINDS[kind].list, [...(sources as unknown as Record<string, { list(): readonly unknown[] }>)[KINDS[kind].list]!.list()]]);
  return Object.fromEntries(lists) as { [K in PrometheusSelectedKind as ListOf<K>]: ResourceOfKind[K][] };
}

/** Everything `generate()` needs for `prometheus`, from the caches and the referenced objects' data. */
export function generatorInput(prometheus: PrometheusWorkload, caches: GeneratorSources, referenced: ReferencedData): GeneratorInput {
  return {
    prometheus,
    ...selectedObjectLists(caches),
    namespaces: caches.namespaces.list().map((namespace) => ({ name: namespace.metadata?.name ?? '', labels: { ...namespace.metadata?.labels } })),
    secrets: referenced.secrets,
    configMaps: referenced.configMaps,
  };
}
