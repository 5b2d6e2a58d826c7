/**
 * In-memory fakes of the reconciler's narrow interfaces (reconciler-ports.ts), for the unit tests of its
 * decisions (reconcile-prometheus.test.ts). They record every write and feed what was written back into the fake
 * caches, as the operator's watches would, so a second reconcile sees the first one's results. They model no
 * Kubernetes behaviour beyond that (no defaulting, no validation, no garbage collection): the API-server tests
 * cover the reconciler against the real thing. Not shipped (test-*.ts, see NOT_SHIPPED in e2e's promop-app.ts).
 */
import { ApiException } from '@kubernetes/client-node';
import { ALL_KINDS, KINDS, type Kind } from '@promop/crds';
import type { V1ConfigMap, V1Secret, V1Service } from '@kubernetes/client-node';
import type { ChildKind, ChildOf, EventSpec, PartialObjectMetadata, ReferencedData, StatusTarget } from '../kube/index.ts';
import { replacementOf, type StatefulSetIdentity } from '../kube/child-writer.ts';
import { MANAGED_BY } from '../workload/index.ts';
import { protobufBodyOf } from '../kube/protobuf-body.ts';
import type { ExpectedShardFiles, ReloadContext, ReloadResult } from './config-reloader.ts';
import type {
  CacheReader, CachedKind, ReconcilerCaches, ReconcilerChildren, ReconcilerEvents, ReconcilerReferenced, ReconcilerReloader, ReconcilerStatus,
} from './reconciler-ports.ts';
import type { ClusterCaches } from '../kube/index.ts';

interface Named {
  metadata?: { name?: string | undefined; namespace?: string | undefined; resourceVersion?: string | undefined; uid?: string | undefined };
}

let versions = 1000;
/** A fresh resourceVersion, as the API server gives one on every write. */
const nextVersion = (): string => String(++versions);

/** A cache holding what a test put into it. */
export class FakeCache<T extends Named> implements CacheReader<T> {
  readonly #objects = new Map<string, T>();

  put(...objects: T[]): void {
    for (const object of objects) this.#objects.set(`${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`, object);
  }

  remove(name: string, namespace: string): void {
    this.#objects.delete(`${namespace}/${name}`);
  }

  get(name: string, namespace = ''): T | undefined {
    return this.#objects.get(`${namespace}/${name}`);
  }

  list(namespace?: string): readonly T[] {
    return [...this.#objects.values()].filter((object) => namespace === undefined || object.metadata?.namespace === namespace);
  }
}

/** Every cache of ClusterCaches as a FakeCache, empty until a test puts objects in it. */
export type FakeCaches = { readonly [K in keyof ClusterCaches]: FakeCache<CachedKind<K> & Named> };

/** One FakeCache per cache name, made on first use (so every cache the reconciler asks for exists). */
export function fakeCaches(): FakeCaches & ReconcilerCaches {
  const made = new Map<string | symbol, FakeCache<Named>>();
  return new Proxy({}, {
    get: (_, key) => {
      let cache = made.get(key);
      if (!cache) made.set(key, (cache = new FakeCache()));
      return cache;
    },
  }) as FakeCaches & ReconcilerCaches;
}

/** The status-bearing cache of each kind. */
const CACHE_OF_KIND = Object.fromEntries(ALL_KINDS.map((kind) => [kind, KINDS[kind].list])) as Record<Kind, keyof ClusterCaches>;

/** An error as client-node throws it for an HTTP `code` with a Status body. */
export function apiError(code: number, reason: string, message: string): ApiException<object> {
  return new ApiException(code, `HTTP ${code}`, { kind: 'Status', code, reason, message }, {});
}

/** One write the reconciler made. */
export type Write =
  | { to: 'child'; op: 'apply' | 'create' | 'replace'; kind: ChildKind; name: string }
  | { to: 'child'; op: 'delete' | 'merge-patch'; kind: ChildKind; name: string }
  | { to: 'child'; op: 'annotate' | 'orphan-delete'; kind: 'StatefulSet'; name: string }
  | { to: 'status'; kind: Kind; name: string; status: object };

/**
 * Records writes; children and statuses written go into `caches`. `fail` makes a write throw; `hold` makes a status
 * write wait (before it is recorded or stored) until the promise it returns settles.
 */
export class FakeCluster {
  readonly caches = fakeCaches();
  /**
   * The Secrets and ConfigMaps as the API server holds them, whole: the operator's caches of them hold metadata
   * only (cluster-caches.ts), so their data is read from here (`children.read`), and tests look here for it.
   */
  readonly stored = { Secret: new FakeCache<V1Secret & Named>(), ConfigMap: new FakeCache<V1ConfigMap & Named>() };
  /** Services users made (a `spec.serviceName`), which promop's caches do not hold: read by name (`children.readService`). */
  readonly userServices = new FakeCache<V1Service & Named>();
  /** How many whole reads of Secrets and ConfigMaps the reconciler made. */
  reads = 0;
  readonly writes: Write[] = [];
  readonly events: EventSpec[] = [];
  /** `namespace/name` of the Prometheus objects the API server has (prometheusExists). */
  readonly existing = new Set<string>();
  /** StatefulSets by `namespace/name` that another operator wrote: not in promop's owned cache (statefulSetIdentity). */
  readonly foreignStatefulSets = new Map<string, StatefulSetIdentity>();
  /** Pods by `namespace/name` → uid (the orphans of a replaced StatefulSet). */
  readonly pods = new Map<string, string>();
  /** Throws the returned error for a write it returns one for. */
  fail: (write: Write) => Error | undefined = () => undefined;
  /** Called when a status write starts; the write waits for the promise it returns, if any. */
  hold: (target: StatusTarget) => Promise<void> | undefined = () => undefined;

  #write(write: Write): void {
    const error = this.fail(write);
    if (error) throw error;
    this.writes.push(write);
  }

  #cacheOf(kind: ChildKind): FakeCache<Named> {
    const caches = {
      StatefulSet: this.caches.ownedStatefulSets, DaemonSet: this.caches.ownedDaemonSets, Service: this.caches.ownedServices, Secret: this.caches.ownedSecrets,
      ConfigMap: this.caches.ownedConfigMaps,
    };
    return caches[kind] as unknown as FakeCache<Named>;
  }

  /**
   * Stores a whole Secret or ConfigMap and puts its metadata into the operator's cache, as its watch would;
   * returns it whole.
   */
  #storeData<K extends 'Secret' | 'ConfigMap'>(kind: K, body: ChildOf<K>): ChildOf<K> {
    const stored = this.#store(this.stored[kind] as FakeCache<Named>, body as Named) as ChildOf<K>;
    (this.#cacheOf(kind) as FakeCache<PartialObjectMetadata>).put(metadataOnly(stored));
    return stored;
  }

  /**
   * What another manager's write of a Secret or ConfigMap leaves: `edit` applied to the stored object, under a new
   * resourceVersion, its metadata in the cache.
   */
  editData<K extends 'Secret' | 'ConfigMap'>(kind: K, namespace: string, name: string, edit: (current: ChildOf<K>) => ChildOf<K>): void {
    const current = (this.stored[kind] as FakeCache<Named>).get(name, namespace) as ChildOf<K> | undefined;
    if (!current) throw new Error(`${kind} ${namespace}/${name} is not stored`);
    this.#storeData(kind, edit(current));
  }

  #store<T extends Named>(cache: FakeCache<T>, body: T): T {
    const previous = cache.get(body.metadata?.name ?? '', body.metadata?.namespace ?? '');
    const stored = {
      ...body,
      metadata: { ...body.metadata, uid: previous?.metadata?.uid ?? `uid-${body.metadata?.name ?? ''}`, resourceVersion: nextVersion() },
    } as T;
    cache.put(stored);
    return stored;
  }

  readonly children: ReconcilerChildren = {
    // As the API server answers ChildWriter's whole writes: the stored object's metadata only. And every Secret and
    // ConfigMap the reconciler builds must go as protobuf: one that would fall back to JSON fails the test here.
    writeSecret: async (body, current) => (encodable('Secret', body), this.#write({ to: 'child', op: current ? 'replace' : 'create', kind: 'Secret', name: body.metadata?.name ?? '' }), metadataOnly(this.#storeData('Secret', current ? replacementOf(body, current) : body))),
    writeConfigMap: async (body, current) => (encodable('ConfigMap', body), this.#write({ to: 'child', op: current ? 'replace' : 'create', kind: 'ConfigMap', name: body.metadata?.name ?? '' }), metadataOnly(this.#storeData('ConfigMap', current ? replacementOf(body, current) : body))),
    read: async (kind, namespace, name) => {
      this.reads += 1;
      return (this.stored[kind] as FakeCache<Named>).get(name, namespace) as never;
    },
    readService: async (namespace, name) => this.userServices.get(name, namespace) ?? this.caches.ownedServices.get(name, namespace),
    applyService: async (body) => (this.#write({ to: 'child', op: 'apply', kind: 'Service', name: body.metadata?.name ?? '' }), this.#store(this.caches.ownedServices, body)),
    applyStatefulSet: async (body) => (this.#write({ to: 'child', op: 'apply', kind: 'StatefulSet', name: body.metadata?.name ?? '' }), this.#store(this.caches.ownedStatefulSets, body)),
    applyDaemonSet: async (body) => (this.#write({ to: 'child', op: 'apply', kind: 'DaemonSet', name: body.metadata?.name ?? '' }), this.#store(this.caches.ownedDaemonSets, body)),
    statefulSetUid: async (namespace, name) => (this.caches.ownedStatefulSets.get(name, namespace)?.metadata?.uid ?? this.foreignStatefulSets.get(`${namespace}/${name}`)?.uid),
    statefulSetIdentity: async (namespace, name) => {
      const owned = this.caches.ownedStatefulSets.get(name, namespace);
      if (owned) return { uid: owned.metadata?.uid ?? '', managedBy: MANAGED_BY, ownerUids: (owned.metadata?.ownerReferences ?? []).map((owner) => owner.uid), replicas: owned.spec?.replicas ?? 1 };
      return this.foreignStatefulSets.get(`${namespace}/${name}`);
    },
    deleteStatefulSetKeepingPods: async (namespace, name) => {
      this.#write({ to: 'child', op: 'orphan-delete', kind: 'StatefulSet', name });
      this.caches.ownedStatefulSets.remove(name, namespace);
      this.foreignStatefulSets.delete(`${namespace}/${name}`);
    },
    untilStatefulSetGone: async () => undefined,
    podUid: async (namespace, name) => this.pods.get(`${namespace}/${name}`),
    annotateStatefulSet: async (namespace, name, annotations) => {
      this.#write({ to: 'child', op: 'annotate', kind: 'StatefulSet', name });
      const current = this.caches.ownedStatefulSets.get(name, namespace);
      if (!current) return false;
      const merged: Record<string, string> = { ...current.metadata?.annotations };
      for (const [key, value] of Object.entries(annotations)) {
        if (value === null) delete merged[key];
        else merged[key] = value;
      }
      this.#store(this.caches.ownedStatefulSets, { ...current, metadata: { ...current.metadata, annotations: merged } });
      return true;
    },
    mergePatch: async (kind, namespace, name, patch) => {
      this.#write({ to: 'child', op: 'merge-patch', kind, name });
      if (kind === 'Secret' || kind === 'ConfigMap') {
        const current = (this.stored[kind as 'Secret' | 'ConfigMap'] as FakeCache<Named>).get(name, namespace);
        if (!current) throw Object.assign(new Error(`${kind} ${namespace}/${name} not found`), { code: 404 });
        return this.#storeData(kind as 'Secret' | 'ConfigMap', applyMergePatch(current, patch) as never) as never;
      }
      const cache = this.#cacheOf(kind);
      const current = cache.get(name, namespace);
      if (!current) throw Object.assign(new Error(`${kind} ${namespace}/${name} not found`), { code: 404 });
      return this.#store(cache, applyMergePatch(current, patch)) as never;
    },
    delete: async (kind, namespace, name) => {
      this.#write({ to: 'child', op: 'delete', kind, name });
      this.#cacheOf(kind).remove(name, namespace);
      if (kind === 'Secret' || kind === 'ConfigMap') this.stored[kind].remove(name, namespace);
    },
  };

  readonly status: ReconcilerStatus = {
    apply: async (target: StatusTarget, status: object) => {
      await this.hold(target);
      this.#write({ to: 'status', kind: target.kind, name: target.name, status });
      const cache = this.caches[CACHE_OF_KIND[target.kind]] as unknown as FakeCache<Named & { status?: object }>;
      const current = cache.get(target.name, target.namespace);
      if (!current) return undefined;
      if (target.resourceVersion !== undefined && target.resourceVersion !== current.metadata?.resourceVersion) {
        throw apiError(409, 'Conflict', 'the object has been modified; please apply your changes to the latest version and try again');
      }
      const stored = this.#store(cache, { ...current, status });
      return { resourceVersion: stored.metadata?.resourceVersion ?? '' };
    },
  };

  readonly recorder: ReconcilerEvents = {
    record: async (event) => {
      this.events.push(event);
    },
  };

  readonly referenced: ReconcilerReferenced = {
    resolve: async (): Promise<ReferencedData> => ({ secrets: [], configMaps: [] }),
  };

  prometheusExists = async (namespace: string, name: string): Promise<boolean> => this.existing.has(`${namespace}/${name}`);

  /** Writes only (not events), of one target. */
  writesTo(to: Write['to']): Write[] {
    return this.writes.filter((write) => write.to === to);
  }
}

/** A reloader whose every shard runs what was written, unless `failure` or `reloading` says otherwise. */
export class FakeReloader implements ReconcilerReloader {
  readonly reloads: { key: string; shard: number; expected: ExpectedShardFiles; onRoundEnd?: () => void }[] = [];
  readonly forgotten: string[] = [];
  /** When set, every reload fails with this message. */
  failure: string | undefined;
  /** When true, every shard's replica is still being reloaded. */
  reloading = false;

  async reload(prometheus: { metadata: { namespace: string; name: string } }, shard: number, expected: ExpectedShardFiles, context: ReloadContext): Promise<ReloadResult> {
    this.reloads.push({ key: `${prometheus.metadata.namespace}/${prometheus.metadata.name}`, shard, expected, ...(context.onRoundEnd ? { onRoundEnd: context.onRoundEnd } : {}) });
    const pod = `prometheus-${prometheus.metadata.name}-${shard === 0 ? '' : `shard-${shard}-`}0`;
    const shardID = String(shard);
    if (this.failure) return { state: 'failed', message: this.failure, status: { shardID, configHash: expected.hash, pendingReplicas: [{ pod, reason: 'ReloadFailed', message: this.failure }] } };
    if (this.reloading) return { state: 'reloading', status: { shardID, configHash: expected.hash, pendingReplicas: [{ pod, reason: 'Reloading', message: 'reloading' }] } };
    return { state: 'loaded', status: { shardID, configHash: expected.hash, loadedReplicas: [pod] } };
  }

  forget(key: string): void {
    this.forgotten.push(key);
  }
}

/** Throws when ChildWriter would send `body` as JSON: it holds a field protobuf-body.ts does not know. */
function encodable(kind: 'Secret' | 'ConfigMap', body: unknown): void {
  if (!protobufBodyOf(kind, body)) throw new Error(`bug: this ${kind} has a field protobuf-body.ts does not know, so ChildWriter would send it as JSON`);
}

/** What a create or replace with `Accept: ...;as=PartialObjectMetadata` answers. */
function metadataOnly(object: Named): PartialObjectMetadata {
  return { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', ...(object.metadata ? { metadata: object.metadata } : {}) };
}

/** `target` with a JSON merge patch (RFC 7386) applied: null removes a key, objects merge, anything else replaces. */
function applyMergePatch<T>(target: T, patch: unknown): T {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) return patch as T;
  const result: Record<string, unknown> = target !== null && typeof target === 'object' && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(result[key], value);
  }
  return result as T;
}
