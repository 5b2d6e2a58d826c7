/**
 * Writes the children of a Prometheus (StatefulSets, Services, Secrets, ConfigMaps).
 *
 * StatefulSets and Services: server-side apply, field manager `promop`, `force: true`. Apply sends the whole
 * desired object, so running it twice is harmless and an unchanged object is not rewritten (the API server keeps its
 * resourceVersion, no watch event follows). `force` takes over fields another manager (kubectl edit, a previous
 * operator) set, as a controller must, and fields others add (an HPA's replicas aside, a sidecar injector's
 * annotations) are kept.
 *
 * The Secrets and ConfigMaps whose content promop alone makes (prometheus.yaml, the scrape files, rule files, TLS
 * assets): created, then replaced (PUT) with the cached object's resourceVersion as precondition — see
 * `writeSecret`. Server-side apply costs the API server a multiple of a create for these large objects
 * (bench/config-writes.bench.ts; docs/performance.md, "Writing"), and promop owns their data maps entirely anyway,
 * which a replace expresses directly. Their bodies go as Kubernetes' protobuf (protobuf-body.ts) and the answer is
 * the stored object's metadata only: a large scrape Secret sent as JSON costs the API server much of its CPU to
 * decode, and answered whole it is encoded back for promop to parse again (bench/config-writes.bench.ts;
 * docs/performance.md, "Writing").
 */
import type { V1ConfigMap, V1DaemonSet, V1Secret, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import { apiErrorOf, apiResponseOf, isNotFound } from './api-error.ts';
import { FIELD_MANAGER } from './field-manager.ts';
import { protobufBodyOf, PROTOBUF_CONTENT_TYPE } from './protobuf-body.ts';
import { EncodedBody, METADATA_ACCEPT, PATCH_TYPE, namespacedPath, rawApiOf, type KubeAccess, type RawApi } from './raw-api.ts';
import type { PartialObjectMetadata } from './watched-cache.ts';
import { MANAGED_BY_LABEL } from '../workload/index.ts';

/** Where each child kind lives. */
const CHILD_PATHS = {
  StatefulSet: { api: '/apis/apps/v1', plural: 'statefulsets' },
  DaemonSet: { api: '/apis/apps/v1', plural: 'daemonsets' },
  Service: { api: '/api/v1', plural: 'services' },
  Secret: { api: '/api/v1', plural: 'secrets' },
  ConfigMap: { api: '/api/v1', plural: 'configmaps' },
} as const;

/** The StatefulSet fields the API server fixes at creation that promop sets. */
const IMMUTABLE_STATEFULSET_FIELDS = new Set(['spec', 'spec.volumeClaimTemplates', 'spec.serviceName', 'spec.selector', 'spec.podManagementPolicy']);

/**
 * Whether the API server refused a StatefulSet update only because it changes fields fixed at creation
 * (volumeClaimTemplates, serviceName, selector, podManagementPolicy). Read from the Status' `details.causes`:
 * Kubernetes 1.37 answers 422 with one cause per field, `spec.volumeClaimTemplates: Invalid value: ...: field is
 * immutable`; older releases one `spec: Forbidden: updates to statefulset spec for fields other than ...`. When any
 * cause is something else (an invalid toleration as well), it is not: recreating would fail the same way, after
 * the old StatefulSet was gone.
 */
export function isImmutableStatefulSetChange(error: unknown): boolean {
  const response = apiResponseOf(error);
  if (response?.code !== 422) return false;
  const causes = (response.status as { details?: { causes?: { field?: unknown; message?: unknown }[] } } | undefined)?.details?.causes ?? [];
  return causes.length > 0 && causes.every((cause) => typeof cause.field === 'string' && IMMUTABLE_STATEFULSET_FIELDS.has(cause.field)
    && typeof cause.message === 'string' && /field is immutable|updates to statefulset spec for fields other than/.test(cause.message));
}

/** Who a StatefulSet is: see {@link ChildWriter.statefulSetIdentity}. */
export interface StatefulSetIdentity {
  uid: string;
  /** Its `app.kubernetes.io/managed-by` label: `promop`, `prometheus-operator`, or absent. */
  managedBy: string | undefined;
  ownerUids: string[];
  /** `spec.replicas` (1 when unset, as Kubernetes defaults it). */
  replicas: number;
}

/** The child kinds promop writes. */
export type ChildKind = 'StatefulSet' | 'DaemonSet' | 'Service' | 'Secret' | 'ConfigMap';

/** The object type of each child kind. */
export type ChildOf<K extends ChildKind> = { StatefulSet: V1StatefulSet; DaemonSet: V1DaemonSet; Service: V1Service; Secret: V1Secret; ConfigMap: V1ConfigMap }[K];

/**
 * What the write of each child kind answers: the whole object as stored for the applies of StatefulSets and
 * Services; only the metadata (PartialObjectMetadata) for the whole writes of Secrets and ConfigMaps.
 */
export type WrittenOf<K extends ChildKind> = { StatefulSet: V1StatefulSet; DaemonSet: V1DaemonSet; Service: V1Service; Secret: PartialObjectMetadata; ConfigMap: PartialObjectMetadata }[K];

/** Applies and deletes children. Every method throws the API error (see api-error.ts to turn it into a value). */
export class ChildWriter {
  readonly #api: RawApi;

  /** `access`: the RawApi every writer of `promop run` shares, or a kubeconfig (a RawApi of its own is made). */
  constructor(access: RawApi | KubeAccess) {
    this.#api = rawApiOf(access);
  }

  #path(kind: ChildKind, namespace: string, name?: string): string {
    return namespacedPath(CHILD_PATHS[kind].api, namespace, CHILD_PATHS[kind].plural, name);
  }

  /**
   * Writes a Secret whose content promop alone makes; `current` is the object as promop last saw it (its cache), or
   * undefined when it saw none. None: a create. Else a replace guarded by current's resourceVersion, whose body is
   * promop's (type, data, its labels, annotations and ownerReference) over current's metadata (labels, annotations,
   * finalizers and ownerReferences others added stay; keys others added to `data` go, as that map is promop's).
   * When current was behind (409: promop's own previous write not yet in the cache, or another writer; or the
   * object exists though the cache has none yet), the write is repeated once over a fresh read of its metadata.
   * Only current's metadata is read. Returns the metadata of the object as stored (not its data: see
   * `#writeWhole`); an unchanged body leaves its resourceVersion as it was.
   */
  writeSecret(body: V1Secret, current: PartialObjectMetadata | undefined): Promise<PartialObjectMetadata> {
    return this.#writeWhole('Secret', body, current);
  }

  /** Writes a ConfigMap whose content promop alone makes (rule files), as `writeSecret` writes Secrets. */
  writeConfigMap(body: V1ConfigMap, current: PartialObjectMetadata | undefined): Promise<PartialObjectMetadata> {
    return this.#writeWhole('ConfigMap', body, current);
  }

  /**
   * The create or replace of a Secret or ConfigMap, sent as protobuf (protobuf-body.ts; as JSON when the body holds
   * a field that encoder does not know) and answered with the stored object's metadata only (`as=PartialObjectMetadata`,
   * which the API server's create and update handlers honour as its GET does): promop needs its uid and
   * resourceVersion, not the large body it has just sent, encoded by the API server and parsed here again.
   */
  #writeWhole<T extends WholeObject>(kind: 'Secret' | 'ConfigMap', body: T, current: PartialObjectMetadata | undefined): Promise<PartialObjectMetadata> {
    const { name, namespace } = identify(body);
    const encoded = (object: T): unknown => {
      const bytes = protobufBodyOf(kind, object);
      return bytes ? new EncodedBody(bytes, PROTOBUF_CONTENT_TYPE) : object;
    };
    const answer = { accept: METADATA_ACCEPT };
    return createOrReplace(body, current, {
      create: () => this.#api.create<PartialObjectMetadata>(this.#path(kind, namespace), encoded(body), { fieldManager: FIELD_MANAGER }, answer),
      replace: (replacement) => this.#api.replace<PartialObjectMetadata>(this.#path(kind, namespace, name), encoded(replacement), { fieldManager: FIELD_MANAGER }, answer),
      read: () => this.#api.getJson<PartialObjectMetadata>(this.#path(kind, namespace, name), answer),
    });
  }

  /**
   * Reads a Secret or ConfigMap of promop's whole (undefined when there is none): their cache holds metadata only
   * (cluster-caches.ts), so the reconciler reads one whose content it cannot vouch for (reconcile/known-contents.ts).
   */
  async read<K extends 'Secret' | 'ConfigMap'>(kind: K, namespace: string, name: string): Promise<ChildOf<K> | undefined> {
    try {
      return await this.#api.getJson<ChildOf<K>>(this.#path(kind, namespace, name));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * A Service by name, whoever made it (a `spec.serviceName` names the owner's own), or undefined when there is none:
   * read only to check that it governs the pods (workload/governing-service.ts).
   */
  async readService(namespace: string, name: string): Promise<V1Service | undefined> {
    try {
      return await this.#api.getJson<V1Service>(this.#path('Service', namespace, name));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Applies a Service; returns it as stored. */
  applyService(body: V1Service): Promise<V1Service> {
    const { name, namespace } = identify(body);
    return this.#api.patch(this.#path('Service', namespace, name), body, PATCH_TYPE.apply, { fieldManager: FIELD_MANAGER, force: true });
  }

  /** Applies a DaemonSet (a PrometheusAgent in DaemonSet mode); returns it as stored. */
  applyDaemonSet(body: V1DaemonSet): Promise<V1DaemonSet> {
    const { name, namespace } = identify(body);
    return this.#api.patch(this.#path('DaemonSet', namespace, name), body, PATCH_TYPE.apply, { fieldManager: FIELD_MANAGER, force: true });
  }

  /** Applies a StatefulSet; returns it as stored (its status is the latest the API server has). */
  applyStatefulSet(body: V1StatefulSet): Promise<V1StatefulSet> {
    const { name, namespace } = identify(body);
    return this.#api.patch(this.#path('StatefulSet', namespace, name), body, PATCH_TYPE.apply, { fieldManager: FIELD_MANAGER, force: true });
  }

  /**
   * Changes a child with a JSON merge patch (reconcile/foreign-keys.ts builds the ones that remove keys another
   * manager added to maps promop owns entirely; server-side apply never removes those). Returns it as stored.
   */
  mergePatch<K extends ChildKind>(kind: K, namespace: string, name: string, body: object): Promise<ChildOf<K>> {
    return this.#api.patch<ChildOf<K>>(this.#path(kind, namespace, name), body, PATCH_TYPE.merge, { fieldManager: FIELD_MANAGER });
  }

  /**
   * Deletes StatefulSet `namespace/name` but not its pods, and only if its uid is still `uid` (a precondition, so a
   * newer one of the same name is never hit). propagationPolicy Orphan: the garbage collector takes the pods'
   * ownerReferences off before the StatefulSet goes, and a new StatefulSet with the same selector adopts them, so
   * Prometheus keeps serving throughout. Already gone is success.
   */
  async deleteStatefulSetKeepingPods(namespace: string, name: string, uid: string): Promise<void> {
    try {
      // Both in the body: the API server reads DeleteOptions from the body when there is one and then ignores the
      // query string, so a propagationPolicy query parameter next to a body would silently mean Background.
      await this.#api.delete(this.#path('StatefulSet', namespace, name), { body: { propagationPolicy: 'Orphan', preconditions: { uid } } });
    } catch (error) {
      // 404: gone; 409: the precondition failed, so the one with this uid is gone too.
      if (!isNotFound(error) && apiErrorOf(error)?.code !== 409) throw error;
    }
  }

  /** The uid of StatefulSet `namespace/name` as the API server has it now (not a cache); undefined when absent. */
  async statefulSetUid(namespace: string, name: string): Promise<string | undefined> {
    return (await this.statefulSetIdentity(namespace, name))?.uid;
  }

  /**
   * Who StatefulSet `namespace/name` is, as the API server has it now (not a cache): its uid, the value of its
   * `app.kubernetes.io/managed-by` label and the uids of its owners; undefined when absent.
   */
  async statefulSetIdentity(namespace: string, name: string): Promise<StatefulSetIdentity | undefined> {
    try {
      const { metadata, spec } = await this.#api.getJson<V1StatefulSet>(this.#path('StatefulSet', namespace, name));
      return {
        uid: metadata?.uid ?? '',
        managedBy: metadata?.labels?.[MANAGED_BY_LABEL],
        ownerUids: (metadata?.ownerReferences ?? []).map((owner) => owner.uid),
        replicas: spec?.replicas ?? 1,
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** The uid of pod `namespace/name` as the API server has it now; undefined when absent. */
  async podUid(namespace: string, name: string): Promise<string | undefined> {
    try {
      return (await this.#api.getJson<{ metadata?: { uid?: string } }>(`/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}`)).metadata?.uid;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * Polls until StatefulSet `namespace/name` with `uid` is gone (the orphan finalizer done); throws after
   * `timeoutMs` (a plain Error: the work queue retries the reconcile with backoff).
   */
  async untilStatefulSetGone(namespace: string, name: string, uid: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.statefulSetUid(namespace, name)) === uid) {
      if (Date.now() > deadline) throw new Error(`StatefulSet ${namespace}/${name} (uid ${uid}) still exists ${timeoutMs} ms after its deletion`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * Sets (string) or removes (null) annotations of a StatefulSet with a JSON merge patch of `metadata.annotations`
   * only. Not an apply: an apply of just these fields would make the API server drop every other field promop's
   * applies own. Resolves false when the StatefulSet is gone.
   */
  async annotateStatefulSet(namespace: string, name: string, annotations: Record<string, string | null>): Promise<boolean> {
    try {
      await this.#api.patch(this.#path('StatefulSet', namespace, name), { metadata: { annotations } }, PATCH_TYPE.merge, { fieldManager: FIELD_MANAGER });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /**
   * Deletes a child; already gone is success. StatefulSets and DaemonSets are deleted in the foreground (like
   * prometheus-operator) so their pods are gone before the object is.
   */
  async delete(kind: ChildKind, namespace: string, name: string): Promise<void> {
    try {
      await this.#api.delete(this.#path(kind, namespace, name), kind === 'StatefulSet' || kind === 'DaemonSet' ? { query: { propagationPolicy: 'Foreground' } } : {});
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}

/** The requests of one object that createOrReplace makes; each answers the object's metadata as stored. */
interface WholeObjectRequests<T> {
  create(): Promise<PartialObjectMetadata>;
  replace(replacement: T): Promise<PartialObjectMetadata>;
  read(): Promise<PartialObjectMetadata>;
}

type WholeObject = V1Secret | V1ConfigMap;

async function createOrReplace<T extends WholeObject>(desired: T, current: PartialObjectMetadata | undefined, requests: WholeObjectRequests<T>): Promise<PartialObjectMetadata> {
  if (!current) {
    try {
      return await requests.create();
    } catch (error) {
      // 409 AlreadyExists: it was made since the cache last heard (promop's own create of a moment ago, mostly).
      if (apiErrorOf(error)?.code !== 409) throw error;
    }
    current = await requests.read();
  }
  try {
    return await requests.replace(replacementOf(desired, current));
  } catch (error) {
    const code = apiErrorOf(error)?.code;
    if (code === 404) return requests.create();
    if (code !== 409) throw error;
  }
  // 409 Conflict: current's resourceVersion was not the latest. Once more over what the API server has now; a
  // second conflict is thrown (the work queue retries the reconcile).
  return requests.replace(replacementOf(desired, await requests.read()));
}

/**
 * The body that replaces `current` with promop's `desired` (pure): promop's fields over current's metadata, so what
 * others added to labels, annotations, finalizers and ownerReferences stays, guarded by current's uid and
 * resourceVersion. managedFields is left out, which keeps the API server's record as it is.
 */
export function replacementOf<T extends WholeObject>(desired: T, current: PartialObjectMetadata): T {
  const { managedFields: _managedFields, ...currentMeta } = current.metadata ?? {};
  const desiredMeta = desired.metadata ?? {};
  const desiredOwners = desiredMeta.ownerReferences ?? [];
  const ownerReferences = [...(currentMeta.ownerReferences ?? []).filter((ref) => !desiredOwners.some((own) => own.uid === ref.uid)), ...desiredOwners];
  return {
    ...desired,
    metadata: {
      ...currentMeta,
      ...desiredMeta,
      labels: { ...currentMeta.labels, ...desiredMeta.labels },
      annotations: { ...currentMeta.annotations, ...desiredMeta.annotations },
      ...(ownerReferences.length > 0 ? { ownerReferences } : {}),
      uid: currentMeta.uid,
      resourceVersion: currentMeta.resourceVersion,
    },
  };
}

function identify(object: { metadata?: { name?: string; namespace?: string } }): { name: string; namespace: string } {
  const name = object.metadata?.name;
  const namespace = object.metadata?.namespace;
  if (!name || !namespace) throw new Error('bug: a child to apply has no metadata.name or metadata.namespace');
  return { name, namespace };
}
