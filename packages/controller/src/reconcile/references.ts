/**
 * Which Secrets and ConfigMaps the managed Prometheus objects and every monitor of the cluster reference (pure):
 * the objects whose data the reconciler reads (kube/referenced-objects.ts) and whose changes enqueue a reconcile.
 * Every monitor counts, selected or not: which are selected is the generator's answer, and a reference of an
 * unselected monitor costs one small read. A reference is looked up in the referencing object's namespace (a
 * Prometheus' scrape classes included: the generator reads them there too). Each object's references are computed
 * once per version (the WeakMap forgets a version the cache replaced).
 */
import { keyReferences, type PodMonitor, type Probe, type Prometheus, type PrometheusAgent, type ReferencingKind, type ScrapeConfig, type ServiceMonitor } from '@promop/crds';
import type { References } from '../kube/index.ts';

type ReferencingObject = Prometheus | PrometheusAgent | ServiceMonitor | PodMonitor | Probe | ScrapeConfig;

const referencesOfObject = new WeakMap<ReferencingObject, { secrets: string[]; configMaps: string[] }>();

function referencesOf(kind: ReferencingKind, object: ReferencingObject): { secrets: string[]; configMaps: string[] } {
  let found = referencesOfObject.get(object);
  if (!found) {
    const namespace = object.metadata.namespace;
    const refs = keyReferences(kind, object);
    found = {
      secrets: refs.filter((ref) => ref.kind === 'Secret').map((ref) => `${namespace}/${ref.name}`),
      configMaps: refs.filter((ref) => ref.kind === 'ConfigMap').map((ref) => `${namespace}/${ref.name}`),
    };
    referencesOfObject.set(object, found);
  }
  return found;
}

/** The Secrets and ConfigMaps (`namespace/name`) that `prometheuses`, the monitors and the Probes reference. */
export function referencedObjects(objects: {
  prometheuses: readonly Prometheus[];
  prometheusAgents?: readonly PrometheusAgent[];
  serviceMonitors: readonly ServiceMonitor[];
  podMonitors: readonly PodMonitor[];
  probes?: readonly Probe[];
  scrapeConfigs?: readonly ScrapeConfig[];
}): References {
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const add = (kind: ReferencingKind, object: ReferencingObject) => {
    const found = referencesOf(kind, object);
    for (const key of found.secrets) secrets.add(key);
    for (const key of found.configMaps) configMaps.add(key);
  };
  for (const prometheus of objects.prometheuses) add('Prometheus', prometheus);
  for (const agent of objects.prometheusAgents ?? []) add('PrometheusAgent', agent);
  for (const monitor of objects.serviceMonitors) add('ServiceMonitor', monitor);
  for (const monitor of objects.podMonitors) add('PodMonitor', monitor);
  for (const probe of objects.probes ?? []) add('Probe', probe);
  for (const scrapeConfig of objects.scrapeConfigs ?? []) add('ScrapeConfig', scrapeConfig);
  return { secrets, configMaps };
}
