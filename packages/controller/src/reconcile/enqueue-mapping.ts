/**
 * Which Prometheus keys a change enqueues. Handlers only enqueue (sample-controller); the reconcile reads the
 * rest from the caches.
 *
 * Simplest correct choice: a change to a ServiceMonitor, PodMonitor, PrometheusRule, Namespace, or referenced
 * Secret/ConfigMap enqueues every Prometheus, since whether it is selected depends on selectors the reconcile
 * evaluates anyway. Secrets and ConfigMaps nothing references (as of the last reconcile, see
 * kube/referenced-objects.ts) enqueue nothing: a cluster's thousands of unrelated Secrets cost no reconcile. The cost is one render per Prometheus per such change; the queue's dedup folds a burst of
 * changes into one render each, and with a handful of Prometheus objects per cluster (the common case) that is
 * cheap. Clusters with many Prometheus objects and frequently changing Secrets would want an index from
 * referenced Secret to Prometheus here.
 *
 * A monitor or rule also enqueues the Prometheus objects named in its status.bindings, so a binding left by a
 * Prometheus deleted while promop was down is cleaned up (the key's reconcile finds it gone and removes it).
 * A child (StatefulSet, Service, Secret, ConfigMap promop owns) enqueues its controlling Prometheus, so a child
 * deleted or edited by hand is put back and status follows the pods' readiness.
 *
 * A pod of a Prometheus enqueues it when it appears, disappears, or changes in what reloading depends on (phase,
 * Ready, IP, being deleted): a pod that became Ready must be verified to run the written files, and one with a new
 * IP is called there. Other pod updates (promop's own config-hash annotation among them) enqueue nothing, so the
 * annotation does not cause a reconcile of its own.
 */
import type { V1ObjectMeta, V1Pod } from '@kubernetes/client-node';
import { GROUP } from '@promop/crds';
import type { ClusterCaches, ReferencedKind } from '../kube/index.ts';
import { PROMETHEUS_NAME_LABEL } from '../workload/index.ts';
import { objectKey } from './key.ts';

/** Something that takes keys (the work queue). */
export interface KeySink {
  add(key: string): void;
}

/** Enqueues every cached Prometheus: for changes whose effect the reconcile decides, and the periodic resync. */
export function enqueueEveryPrometheus(caches: Pick<ClusterCaches, 'prometheuses'>, queue: KeySink): void {
  for (const prometheus of caches.prometheuses.list()) queue.add(objectKey(prometheus.metadata.namespace, prometheus.metadata.name));
}

/** What about a pod decides whether and where promop reloads it (pure). */
export function podReloadState(pod: V1Pod): string {
  const ready = pod.status?.conditions?.find((condition) => condition.type === 'Ready')?.status ?? '';
  return [pod.status?.phase ?? '', ready, pod.status?.podIP ?? '', pod.metadata?.deletionTimestamp ? 'deleting' : ''].join('|');
}

/** Tells which Secrets and ConfigMaps are referenced (kube/referenced-objects.ts). */
export interface ReferenceIndex {
  isReferenced(kind: ReferencedKind, namespace: string, name: string): boolean;
}

/** Registers the handlers of every cache on `queue`. */
export function enqueueOnChanges(caches: ClusterCaches, queue: KeySink, references: ReferenceIndex): void {
  const everyPrometheus = () => enqueueEveryPrometheus(caches, queue);
  const ifReferenced = (kind: ReferencedKind) => (object: { metadata?: V1ObjectMeta }) => {
    if (references.isReferenced(kind, object.metadata?.namespace ?? '', object.metadata?.name ?? '')) everyPrometheus();
  };
  const boundPrometheuses = (status: { bindings?: { group: string; resource: string; namespace: string; name: string }[] } | undefined) => {
    for (const binding of status?.bindings ?? []) {
      if (binding.group === GROUP && binding.resource === 'prometheuses') queue.add(objectKey(binding.namespace, binding.name));
    }
  };
  // Children of a Prometheus this operator does not manage (another operator's, outside its selector) are left
  // alone: only owners in the cache are enqueued.
  const addIfManaged = (namespace: string, name: string) => {
    if (caches.prometheuses.get(name, namespace)) queue.add(objectKey(namespace, name));
  };
  const controller = (metadata: V1ObjectMeta | undefined) => {
    const owner = metadata?.ownerReferences?.find((ref) => ref.controller && ref.kind === 'Prometheus' && ref.apiVersion.startsWith(`${GROUP}/`));
    if (owner && metadata?.namespace) addIfManaged(metadata.namespace, owner.name);
  };

  caches.prometheuses.onChange((prometheus) => queue.add(objectKey(prometheus.metadata.namespace, prometheus.metadata.name)));
  for (const cache of [caches.serviceMonitors, caches.podMonitors, caches.prometheusRules] as const) {
    cache.onChange((resource) => {
      everyPrometheus();
      boundPrometheuses(resource.status);
    });
  }
  caches.namespaces.onChange(everyPrometheus);
  caches.secrets.onChange(ifReferenced('Secret'));
  caches.configMaps.onChange(ifReferenced('ConfigMap'));
  caches.ownedStatefulSets.onChange((object) => controller(object.metadata));
  caches.ownedSecrets.onChange((object) => controller(object.metadata));
  caches.ownedConfigMaps.onChange((object) => controller(object.metadata));
  // Last reload state per pod uid. Handlers get only the new object, so the previous state is kept here.
  const podStates = new Map<string, string>();
  caches.pods.onChange((pod, change) => {
    const uid = pod.metadata?.uid ?? '';
    const state = podReloadState(pod);
    const before = podStates.get(uid);
    if (change === 'delete') podStates.delete(uid);
    else podStates.set(uid, state);
    if (change !== 'delete' && before === state) return;
    const prometheus = pod.metadata?.labels?.[PROMETHEUS_NAME_LABEL];
    if (prometheus && pod.metadata?.namespace) addIfManaged(pod.metadata.namespace, prometheus);
  });
  // The Service has only non-controller owners: every Prometheus of the namespace.
  caches.ownedServices.onChange((service) => {
    for (const ref of service.metadata?.ownerReferences ?? []) {
      if (ref.kind === 'Prometheus' && service.metadata?.namespace) addIfManaged(service.metadata.namespace, ref.name);
    }
  });
}
