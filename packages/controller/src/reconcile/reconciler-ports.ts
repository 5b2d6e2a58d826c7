/**
 * What the reconciler (reconcile-prometheus.ts) calls on the things it reads and writes through, and nothing
 * more: these narrow interfaces are what ReconcilerDependencies asks for. The operator passes the real ones
 * (ClusterCaches, ChildWriter, StatusWriter, EventRecorder, the shard reloader, ReferencedObjects), which satisfy
 * them; the reconciler's unit tests pass small in-memory fakes (test-reconciler-fakes.ts). Behaviour against the
 * API server stays covered by the API-server tests.
 */
import type { ChildWriter, ClusterCaches, EventRecorder, ReferencedObjects, StatusWriter } from '../kube/index.ts';
import type { ConfigReloader } from './config-reloader.ts';

/** A cache as the reconciler reads it: lookups only, no watch, start or stop. */
export interface CacheReader<T> {
  get(name: string, namespace?: string): T | undefined;
  list(namespace?: string): readonly T[];
}

/** The object type a cache of ClusterCaches holds. */
export type CachedKind<K extends keyof ClusterCaches> = NonNullable<ReturnType<ClusterCaches[K]['get']>>;

/** Every cache the operator has, read-only. */
export type ReconcilerCaches = { readonly [K in keyof ClusterCaches]: CacheReader<CachedKind<K>> };

/** The writes of promop's children (StatefulSets, Services, Secrets, ConfigMaps) the reconciler makes. */
export type ReconcilerChildren = Pick<ChildWriter,
  | 'writeSecret' | 'writeConfigMap' | 'read' | 'readService' | 'applyService' | 'applyStatefulSet' | 'applyDaemonSet' | 'mergePatch'
  | 'statefulSetUid' | 'statefulSetIdentity' | 'deleteStatefulSetKeepingPods' | 'untilStatefulSetGone' | 'annotateStatefulSet' | 'delete'
  | 'podUid'>;

/** Status writes of Prometheus objects, monitors and rules (a 409 when the resourceVersion is stale). */
export type ReconcilerStatus = Pick<StatusWriter, 'apply'>;

/** Warning Events about rejected monitors and rules. */
export type ReconcilerEvents = Pick<EventRecorder, 'record'>;

/** Makes shards run their files; forgets a Prometheus that is gone. */
export type ReconcilerReloader = Pick<ConfigReloader, 'reload' | 'forget'>;

/** The data of the Secrets and ConfigMaps that Prometheus objects and monitors reference. */
export type ReconcilerReferenced = Pick<ReferencedObjects, 'resolve'>;
