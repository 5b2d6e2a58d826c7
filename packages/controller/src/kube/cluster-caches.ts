/**
 * The caches the controller reads instead of the API server: what a Prometheus' configuration depends on
 * (every kind of the registry, Namespaces, the metadata of Secrets and ConfigMaps) and
 * the children promop owns (StatefulSets, Services, Secrets, ConfigMaps labelled managed-by promop) and the pods of
 * its StatefulSets.
 *
 * Secrets and ConfigMaps: Kubernetes cannot grant "the Secrets a monitor references", so promop, like
 * prometheus-operator, lists and watches them cluster-wide, but as metadata only (PartialObjectMetadata): their
 * data is read by name for just the referenced ones (referenced-objects.ts). The Secret watch also skips the kinds
 * no monitor can reference (ServiceAccount tokens, Helm release blobs) with a field selector, and both skip
 * promop's own children with a label selector (they are watched separately, also as metadata only, and never fed
 * back into the generator). Nothing here logs an object.
 *
 * `scope` (`--namespaces`, `--deny-namespaces`) limits every namespaced cache, and with a namespace list the
 * Namespace cache, to the namespaces promop is given: see namespace-scope.ts.
 */
import type { V1DaemonSet, V1Namespace, V1Pod, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import { ALL_KINDS, GROUP, KINDS, type Kind, type ListOf, type ResourceOfKind } from '@promop/crds';
import type { Logger } from 'pino';
import { MANAGED_BY, MANAGED_BY_LABEL } from '../workload/index.ts';
import type { RawApi } from './raw-api.ts';
import { MultiNamespaceCache, withDeniedNamespaces, type NamespaceScope, type ObjectCache } from './namespace-scope.ts';
import { WatchedCache, type CachedObject, type PartialObjectMetadata, type WatchedCacheOptions } from './watched-cache.ts';

/** Label selector of the objects promop created. */
export const OWNED_SELECTOR = `${MANAGED_BY_LABEL}=${MANAGED_BY}`;
/** Label selector of everything else (objects without the label match too). */
export const NOT_OWNED_SELECTOR = `${MANAGED_BY_LABEL}!=${MANAGED_BY}`;
/** Secret types no monitor or Prometheus can reference in a way promop reads. */
export const IGNORED_SECRET_TYPES_SELECTOR = 'type!=kubernetes.io/service-account-token,type!=helm.sh/release.v1';

/**
 * A cache per kind of the registry, under the kind's list name (`prometheuses`, `serviceMonitors`, ...). Workload
 * kinds are filtered by their program's instance selector: `prometheusSelector` for Prometheus and PrometheusAgent
 * objects, `alertmanagerSelector` for Alertmanagers, `thanosRulerSelector` for ThanosRulers, as upstream's flags filter them.
 */
export type KindCaches = { [K in Kind as ListOf<K>]: ObjectCache<ResourceOfKind[K]> };

/** What the kind caches hold now, one list per kind under the same names. */
export type KindLists = { [K in Kind as ListOf<K>]: readonly ResourceOfKind[K][] };

/** The current list of every kind cache. */
export function kindListsOf(caches: { readonly [K in Kind as ListOf<K>]: { list(): readonly ResourceOfKind[K][] } }): KindLists {
  return Object.fromEntries(ALL_KINDS.map((kind) => [KINDS[kind].list, caches[KINDS[kind].list].list()])) as unknown as KindLists;
}

/** Every cache the controller reads. */
export interface ClusterCaches extends KindCaches {
  namespaces: ObjectCache<V1Namespace>;
  /** The metadata of the Secrets a resource may reference (not promop's own); data: referenced-objects.ts. */
  secrets: ObjectCache<PartialObjectMetadata>;
  /** The metadata of the ConfigMaps a resource may reference (not promop's own). */
  configMaps: ObjectCache<PartialObjectMetadata>;
  ownedStatefulSets: ObjectCache<V1StatefulSet>;
  /** The DaemonSets of PrometheusAgents in DaemonSet mode. */
  ownedDaemonSets: ObjectCache<V1DaemonSet>;
  ownedServices: ObjectCache<V1Service>;
  /** promop's own Secrets and ConfigMaps, metadata only: what they hold is known from promop's writes (reconcile/known-contents.ts). */
  ownedSecrets: ObjectCache<PartialObjectMetadata>;
  ownedConfigMaps: ObjectCache<PartialObjectMetadata>;
  /** The Prometheus pods of promop's StatefulSets: whom to reload, and readiness/IP changes that call for a reload. */
  pods: ObjectCache<V1Pod>;
}

/** Options shared by every cache. */
export interface ClusterCachesOptions {
  relistIntervalMs?: number;
  /**
   * Label selector of the Prometheus objects this operator manages (prometheus-operator's
   * `--prometheus-instance-selector`); default all. Lets two operators, or a test's operator and other tests,
   * share a cluster.
   */
  prometheusSelector?: string;
  /** Label selector of the Alertmanager objects this operator manages (`--alertmanager-instance-selector`); default all. */
  alertmanagerSelector?: string;
  /** Label selector of the ThanosRuler objects this operator manages (`--thanos-ruler-instance-selector`); default all. */
  thanosRulerSelector?: string;
  /** The namespaces to watch (default all). */
  scope?: NamespaceScope;
  /**
   * Field selector of the Secrets promop reads (`--secret-field-selector`); default IGNORED_SECRET_TYPES_SELECTOR.
   * Like prometheus-operator's flag it replaces the default rather than adding to it.
   */
  secretFieldSelector?: string;
  /** Label selector the Secrets promop reads must also match (`--secret-label-selector`); default none. */
  secretLabelSelector?: string;
}

/** Creates (does not start) every cache; all of them send their requests through `api`. */
export function createClusterCaches(api: RawApi, log: Logger, options: ClusterCachesOptions = {}): ClusterCaches {
  const common = options.relistIntervalMs === undefined ? {} : { relistIntervalMs: options.relistIntervalMs };
  const scope = options.scope ?? { kind: 'all' };
  const watched = <T extends CachedObject>(resource: string, path: string, more: Partial<WatchedCacheOptions>) =>
    new WatchedCache<T>(api, { resource, path, ...more, ...common }, log);
  /** A namespaced kind: `group` is `/api/v1` or `/apis/<group>/<version>`, `plural` the resource. */
  const cache = <T extends CachedObject>(resource: string, group: string, plural: string, more: Partial<WatchedCacheOptions> = {}): ObjectCache<T> => {
    if (scope.kind === 'only') {
      return new MultiNamespaceCache(new Map(scope.namespaces.map((namespace) =>
        [namespace, watched<T>(`${resource} in ${namespace}`, `${group}/namespaces/${encodeURIComponent(namespace)}/${plural}`, more)])));
    }
    const fieldSelector = scope.kind === 'deny' ? withDeniedNamespaces(more.fieldSelector, scope.namespaces) : more.fieldSelector;
    return watched<T>(resource, `${group}/${plural}`, { ...more, ...(fieldSelector ? { fieldSelector } : {}) });
  };
  const owned = { labelSelector: OWNED_SELECTOR };
  const referenced = { labelSelector: NOT_OWNED_SELECTOR };
  const referencedSecrets = {
    labelSelector: [NOT_OWNED_SELECTOR, ...(options.secretLabelSelector ? [options.secretLabelSelector] : [])].join(','),
    fieldSelector: options.secretFieldSelector ?? IGNORED_SECRET_TYPES_SELECTOR,
  };
  // With a namespace list, each Namespace is read by name (a Role in it may grant that); otherwise all of them,
  // as a Prometheus' namespace selectors may match any (the objects of denied namespaces are not read anyway).
  const namespaces: ObjectCache<V1Namespace> = scope.kind === 'only'
    ? new MultiNamespaceCache(new Map(scope.namespaces.map((name) => [name, watched<V1Namespace>(`namespace ${name}`, '/api/v1/namespaces', { objectName: name })])))
    : watched<V1Namespace>('namespaces', '/api/v1/namespaces', {});
  const kindCaches = Object.fromEntries(ALL_KINDS.map((kind) => {
    const { plural, version, list } = KINDS[kind];
    const program = 'program' in KINDS[kind] ? KINDS[kind].program : undefined;
    const labelSelector = program === 'prometheus' ? options.prometheusSelector : program === 'alertmanager' ? options.alertmanagerSelector : program === 'thanos-ruler' ? options.thanosRulerSelector : undefined;
    return [list, cache<CachedObject>(plural, `/apis/${GROUP}/${version}`, plural, labelSelector ? { labelSelector } : {})];
  })) as unknown as KindCaches;
  return {
    ...kindCaches,
    namespaces,
    secrets: cache<PartialObjectMetadata>('secrets', '/api/v1', 'secrets', { ...referencedSecrets, metadataOnly: true }),
    configMaps: cache<PartialObjectMetadata>('configmaps', '/api/v1', 'configmaps', { ...referenced, metadataOnly: true }),
    ownedStatefulSets: cache<V1StatefulSet>('owned statefulsets', '/apis/apps/v1', 'statefulsets', owned),
    ownedDaemonSets: cache<V1DaemonSet>('owned daemonsets', '/apis/apps/v1', 'daemonsets', owned),
    ownedServices: cache<V1Service>('owned services', '/api/v1', 'services', owned),
    // Metadata only: promop's scrape files are most of the configuration's bytes, which a whole watch would have the
    // API server encode as JSON on every write, promop parse back and keep (reconcile/known-contents.ts).
    ownedSecrets: cache<PartialObjectMetadata>('owned secrets', '/api/v1', 'secrets', { ...owned, metadataOnly: true }),
    ownedConfigMaps: cache<PartialObjectMetadata>('owned configmaps', '/api/v1', 'configmaps', { ...owned, metadataOnly: true }),
    // Pods inherit the StatefulSet template's labels, so the managed-by label limits the watch to promop's pods.
    pods: cache<V1Pod>('pods', '/api/v1', 'pods', owned),
  };
}

/** Starts every cache and resolves once each has listed; on failure stops those started and rethrows. */
export async function startClusterCaches(caches: ClusterCaches): Promise<void> {
  const all = Object.values(caches) as ObjectCache<CachedObject>[];
  const results = await Promise.allSettled(all.map((cache) => cache.start()));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) {
    await stopClusterCaches(caches);
    throw failed.reason;
  }
}

/** Stops every cache (watches and timers). */
export async function stopClusterCaches(caches: ClusterCaches): Promise<void> {
  await Promise.all((Object.values(caches) as ObjectCache<CachedObject>[]).map((cache) => cache.stop()));
}
