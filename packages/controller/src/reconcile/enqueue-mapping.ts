/**
 * Which Prometheus and PrometheusAgent keys a change enqueues, each kind into its own work queue. Handlers only
 * enqueue (sample-controller); the reconcile reads the rest from the caches. An agent selects monitors, Probes and
 * ScrapeConfigs and references Secrets as a Prometheus does, so everything below that enqueues "every Prometheus"
 * enqueues every agent too; children, pods and bindings name their owner's kind (owner reference kind,
 * `app.kubernetes.io/name`, binding resource).
 *
 * Simplest correct choice: a change to an object of a selected kind (ServiceMonitor, PrometheusRule, ...), a Namespace, or a referenced
 * Secret/ConfigMap enqueues every Prometheus, since whether it is selected depends on selectors the reconcile
 * evaluates anyway. The cost is one render per Prometheus per such change; the queue's dedup folds a burst of
 * changes into one render each, and with a handful of Prometheus objects per cluster (the common case) that is
 * cheap. Clusters with many Prometheus objects and frequently changing Secrets would want an index from
 * referenced Secret to Prometheus here. Secrets and ConfigMaps nothing references (as of the last reconcile, see
 * kube/referenced-objects.ts) enqueue nothing: a cluster's thousands of unrelated Secrets cost no reconcile.
 *
 * What only reflects promop's own writes enqueues nothing, so one change costs one reconcile: an update of a
 * Prometheus, monitor, rule or Namespace that changed only its status (promop writes Prometheus status and the
 * monitors' bindings), and an apply of a child (its applied-hash annotation changes, reconcile/applied-hash.ts).
 *
 * A monitor or rule also enqueues the Prometheus objects named in its status.bindings, so a binding left by a
 * Prometheus deleted while promop was down is cleaned up (the key's reconcile finds it gone and removes it).
 * A child (StatefulSet, DaemonSet, Service, Secret, ConfigMap promop owns) enqueues its controlling Prometheus when
 * it is deleted or edited by someone else, so it is put back, and a StatefulSet or DaemonSet also when its replica
 * counts change, so status follows the pods' readiness.
 *
 * A pod of a Prometheus enqueues it when it appears, disappears, or changes in what reloading depends on (phase,
 * Ready, IP, being deleted): a pod that became Ready must be verified to run the written files, and one with a new
 * IP is called there. Other pod updates (promop's own config-hash annotation among them) enqueue nothing, so the
 * annotation does not cause a reconcile of its own.
 */
import type { V1DaemonSet, V1ObjectMeta, V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { GROUP, KINDS, PROMETHEUS_WORKLOAD_KINDS, PROMETHEUS_SELECTED_KINDS } from '@promop/crds';
import type { ClusterCaches, ReferencedKind } from '../kube/index.ts';
import { PROMETHEUS_NAME_LABEL, WORKLOADS, type WorkloadKind } from '../workload/index.ts';
import { appliedHashOf } from './applied-hash.ts';
import { sameJson } from './json-equality.ts';
import { objectKey } from './key.ts';

/** Something that takes keys (the work queue). */
export interface KeySink {
  add(key: string): void;
}

/** One work queue per kind. */
export type WorkloadQueues = Readonly<Record<WorkloadKind, KeySink>>;

/** The cache of each workload kind. */
const cacheOf = (kind: WorkloadKind) => KINDS[kind].list;

/**
 * Enqueues every cached Prometheus and PrometheusAgent, each into its kind's queue: for changes whose effect the
 * reconcile decides, and the periodic resync.
 */
export function enqueueEveryPrometheus(caches: Pick<ClusterCaches, 'prometheuses' | 'prometheusAgents'>, queues: WorkloadQueues): void {
  for (const kind of PROMETHEUS_WORKLOAD_KINDS) {
    for (const workload of caches[cacheOf(kind)].list()) queues[kind].add(objectKey(workload.metadata.namespace, workload.metadata.name));
  }
}

/** The kind whose pods carry `app.kubernetes.io/name: <appName>`, if any. */
function kindOfAppName(appName: string | undefined): WorkloadKind | undefined {
  return PROMETHEUS_WORKLOAD_KINDS.find((kind) => WORKLOADS[kind].appName === appName);
}

/** The kind an owner reference names, if it is one of promop's owners (group monitoring.coreos.com). */
function kindOfOwner(ref: { apiVersion: string; kind: string }): WorkloadKind | undefined {
  return ref.apiVersion.startsWith(`${GROUP}/`) ? PROMETHEUS_WORKLOAD_KINDS.find((kind) => kind === ref.kind) : undefined;
}

/** What about a pod decides whether and where promop reloads it (pure). */
export function podReloadState(pod: V1Pod): string {
  const ready = pod.status?.conditions?.find((condition) => condition.type === 'Ready')?.status ?? '';
  // The node too: a DaemonSet agent's pod bound to a node needs that node's copy of the configuration (workload/daemonset.ts).
  return [pod.status?.phase ?? '', ready, pod.status?.podIP ?? '', pod.metadata?.deletionTimestamp ? 'deleting' : '', pod.spec?.nodeName ?? ''].join('|');
}

/** Tells which Secrets and ConfigMaps are referenced (kube/referenced-objects.ts). */
export interface ReferenceIndex {
  isReferenced(kind: ReferencedKind, namespace: string, name: string): boolean;
}

/**
 * Whether an update changed more than `status` (its resourceVersion aside): all a reconcile reads of a Prometheus,
 * monitor, rule or Namespace. promop's own status writes (Prometheus status, monitors' bindings) change only
 * status, so they enqueue nothing and one change costs one reconcile.
 */
export function changedBesidesStatus(previous: object | undefined, object: object): boolean {
  if (!previous) return true;
  const withoutStatus = (value: object) => {
    const { status: _status, metadata, ...rest } = value as { status?: unknown; metadata?: { resourceVersion?: string } };
    const { resourceVersion: _resourceVersion, ...kept } = metadata ?? {};
    return { ...rest, metadata: kept };
  };
  return !sameJson(withoutStatus(previous), withoutStatus(object));
}

/** What about a StatefulSet the Prometheus status reports (replica counts, Available), pure. */
export function statefulSetAvailability(statefulSet: V1StatefulSet): string {
  const { replicas, readyReplicas, availableReplicas, updatedReplicas } = statefulSet.status ?? {};
  return [statefulSet.spec?.replicas, replicas, readyReplicas, availableReplicas, updatedReplicas].map((n) => n ?? '').join('|');
}

/** What about a DaemonSet the agent's status reports (its replica counts, Available), pure. */
export function daemonSetAvailability(daemonSet: V1DaemonSet): string {
  const { desiredNumberScheduled, currentNumberScheduled, numberReady, numberAvailable, updatedNumberScheduled } = daemonSet.status ?? {};
  return [desiredNumberScheduled, currentNumberScheduled, numberReady, numberAvailable, updatedNumberScheduled].map((n) => n ?? '').join('|');
}

/**
 * Whether a change of a child promop owns needs its Prometheus reconciled: a delete, or an edit by someone else
 * (the applied-hash annotation unchanged while other content changed), but not promop's own apply (it changes the
 * annotation) nor its create (an add that carries it).
 */
export function ownedChildChanged<T extends { metadata?: V1ObjectMeta }>(object: T, change: 'add' | 'update' | 'delete', previous?: T): boolean {
  if (change === 'delete') return true;
  if (change === 'add' || !previous) return appliedHashOf(object) === undefined;
  if (appliedHashOf(object) !== appliedHashOf(previous)) return false;
  return changedBesidesStatus(previous, object);
}

/**
 * The same for a Secret or ConfigMap promop fills, whose cache holds metadata only (cluster-caches.ts): an edit of
 * its data shows as nothing but a new resourceVersion. So any update that keeps promop's applied-hash is taken for
 * someone else's, and so is one that leaves none (promop never writes without it: a `kubectl replace` of the whole
 * object). promop's own write keeps the hash only when it puts such an edit back or removes keys another manager
 * added; the reconcile that follows finds that version noted as promop's (known-contents.ts) and writes nothing.
 * (An edit that sets another applied-hash, an old copy restored, is taken for promop's: the resync finds it.)
 */
export function ownedDataChildChanged<T extends { metadata?: V1ObjectMeta }>(object: T, change: 'add' | 'update' | 'delete', previous?: T): boolean {
  if (change === 'delete') return true;
  if (change === 'add' || !previous || appliedHashOf(object) === undefined) return appliedHashOf(object) === undefined;
  return appliedHashOf(object) === appliedHashOf(previous);
}

/** Registers the handlers of every cache on the queue of each kind. */
export function enqueueOnChanges(caches: ClusterCaches, queues: WorkloadQueues, references: ReferenceIndex): void {
  const everyPrometheus = () => enqueueEveryPrometheus(caches, queues);
  const ifReferenced = (kind: ReferencedKind) => (object: { metadata?: V1ObjectMeta }) => {
    if (references.isReferenced(kind, object.metadata?.namespace ?? '', object.metadata?.name ?? '')) everyPrometheus();
  };
  const boundPrometheuses = (status: { bindings?: { group: string; resource: string; namespace: string; name: string }[] } | undefined) => {
    for (const binding of status?.bindings ?? []) {
      const kind = binding.group === GROUP ? PROMETHEUS_WORKLOAD_KINDS.find((k) => WORKLOADS[k].resource === binding.resource) : undefined;
      if (kind) queues[kind].add(objectKey(binding.namespace, binding.name));
    }
  };
  // Children of a Prometheus this operator does not manage (another operator's, outside its selector) are left
  // alone: only owners in the cache are enqueued.
  const addIfManaged = (kind: WorkloadKind, namespace: string, name: string) => {
    if (caches[cacheOf(kind)].get(name, namespace)) queues[kind].add(objectKey(namespace, name));
  };
  const controller = (metadata: V1ObjectMeta | undefined) => {
    const owner = metadata?.ownerReferences?.find((ref) => ref.controller && kindOfOwner(ref));
    if (owner && metadata?.namespace) addIfManaged(kindOfOwner(owner)!, metadata.namespace, owner.name);
  };

  for (const kind of PROMETHEUS_WORKLOAD_KINDS) {
    caches[cacheOf(kind)].onChange((workload: { metadata: { namespace: string; name: string } }, change, previous) => {
      if (change !== 'update' || changedBesidesStatus(previous, workload)) queues[kind].add(objectKey(workload.metadata.namespace, workload.metadata.name));
    });
  }
  for (const kind of PROMETHEUS_SELECTED_KINDS) {
    caches[KINDS[kind].list].onChange((resource: { status?: Parameters<typeof boundPrometheuses>[0] }, change, previous) => {
      if (change === 'update' && !changedBesidesStatus(previous, resource)) return;
      everyPrometheus();
      boundPrometheuses(resource.status);
    });
  }
  caches.namespaces.onChange((namespace, change, previous) => {
    if (change !== 'update' || changedBesidesStatus(previous, namespace)) everyPrometheus();
  });
  caches.secrets.onChange(ifReferenced('Secret'));
  caches.configMaps.onChange(ifReferenced('ConfigMap'));
  // A StatefulSet also when what the status reports of it changed (the controller updating its replica counts).
  caches.ownedStatefulSets.onChange((object, change, previous) => {
    const availabilityChanged = change === 'update' && previous !== undefined && statefulSetAvailability(previous) !== statefulSetAvailability(object);
    if (availabilityChanged || ownedChildChanged(object, change, previous)) controller(object.metadata);
  });
  // A DaemonSet (an agent in DaemonSet mode) likewise: put back when deleted or edited, and its counts in status.
  caches.ownedDaemonSets.onChange((object, change, previous) => {
    const availabilityChanged = change === 'update' && previous !== undefined && daemonSetAvailability(previous) !== daemonSetAvailability(object);
    if (availabilityChanged || ownedChildChanged(object, change, previous)) controller(object.metadata);
  });
  caches.ownedSecrets.onChange((object, change, previous) => {
    if (ownedDataChildChanged(object, change, previous)) controller(object.metadata);
  });
  caches.ownedConfigMaps.onChange((object, change, previous) => {
    if (ownedDataChildChanged(object, change, previous)) controller(object.metadata);
  });
  caches.pods.onChange((pod, change, previous) => {
    if (change === 'update' && previous && podReloadState(previous) === podReloadState(pod)) return;
    const prometheus = pod.metadata?.labels?.[PROMETHEUS_NAME_LABEL];
    const kind = kindOfAppName(pod.metadata?.labels?.['app.kubernetes.io/name']);
    if (prometheus && kind && pod.metadata?.namespace) addIfManaged(kind, pod.metadata.namespace, prometheus);
  });
  // A governing Service has only non-controller owners: every Prometheus (or agent) of the namespace.
  caches.ownedServices.onChange((service, change, previous) => {
    if (!ownedChildChanged(service, change, previous)) return;
    for (const ref of service.metadata?.ownerReferences ?? []) {
      const kind = kindOfOwner(ref);
      if (kind && service.metadata?.namespace) addIfManaged(kind, service.metadata.namespace, ref.name);
    }
  });
}
