/**
 * The data of just the Secrets and ConfigMaps that something references. The caches watch Secrets and (other
 * than promop's own) ConfigMaps as metadata only, so 5,000 unrelated Secrets of 50 KiB cost their metadata, not
 * 333 MB of JSON; the reconciler says which objects are referenced (`resolve`), and each of those is read by name
 * (GET) and kept, decoded, for as long as its resourceVersion in the metadata cache stays the same. An object no
 * longer referenced is forgotten at the next `resolve`. A change to a referenced object reaches the reconciler
 * through its metadata (a new resourceVersion): `isReferenced` tells the enqueue mapping which changes matter.
 *
 * Values live in memory only and are never logged.
 */
import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import type { KeyValueSource } from '@promop/config-generator';
import { isNotFound } from './api-error.ts';
import { namespacedPath, type RawApi } from './raw-api.ts';
import type { ObjectCache } from './namespace-scope.ts';
import type { PartialObjectMetadata } from './watched-cache.ts';

/** The kinds whose data is read by name. */
export type ReferencedKind = 'Secret' | 'ConfigMap';

/** The referenced objects, as `namespace/name` per kind. */
export interface References {
  secrets: ReadonlySet<string>;
  configMaps: ReadonlySet<string>;
}

/** The data of the referenced objects that exist, as the generator takes it. */
export interface ReferencedData {
  secrets: KeyValueSource[];
  configMaps: KeyValueSource[];
}

interface Held {
  resourceVersion: string;
  source: KeyValueSource;
}

/** Reads one object by name; throws the API error (a 404 means it is gone). */
type ReadObject = (namespace: string, name: string) => Promise<Held>;

/** How many objects are read at once. */
const PARALLEL_READS = 8;

/** One kind's held objects. */
class ReferencedKindData {
  readonly #kind: ReferencedKind;
  readonly #metadata: ObjectCache<PartialObjectMetadata>;
  readonly #read: ReadObject;
  #referenced: ReadonlySet<string> = new Set();
  readonly #held = new Map<string, Held>();
  readonly #reading = new Map<string, Promise<Held | undefined>>();

  constructor(kind: ReferencedKind, metadata: ObjectCache<PartialObjectMetadata>, read: ReadObject) {
    this.#kind = kind;
    this.#metadata = metadata;
    this.#read = read;
  }

  isReferenced(key: string): boolean {
    return this.#referenced.has(key);
  }

  async resolve(referenced: ReadonlySet<string>): Promise<KeyValueSource[]> {
    // Set before anything is awaited: a change of a referenced object that arrives while the reads below run is
    // then heard (isReferenced) and enqueues another reconcile.
    this.#referenced = referenced;
    for (const key of this.#held.keys()) if (!referenced.has(key)) this.#held.delete(key);
    const keys = [...referenced];
    const results: (Held | undefined)[] = new Array(keys.length);
    let next = 0;
    const worker = async () => {
      while (next < keys.length) {
        const index = next++;
        results[index] = await this.#current(keys[index] ?? '');
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, keys.length) }, worker));
    return results.filter((held): held is Held => held !== undefined).map((held) => held.source);
  }

  /** The object's data as of the version the metadata cache has; undefined when it does not exist. */
  async #current(key: string): Promise<Held | undefined> {
    const [namespace = '', name = ''] = key.split('/');
    const resourceVersion = this.#metadata.get(name, namespace)?.metadata?.resourceVersion;
    if (resourceVersion === undefined) {
      // Not in the cache: it does not exist (or the cache has not heard of it yet, and will enqueue when it does).
      this.#held.delete(key);
      return undefined;
    }
    const held = this.#held.get(key);
    if (held?.resourceVersion === resourceVersion) return held;
    let reading = this.#reading.get(key);
    if (!reading) {
      reading = this.#fetch(key, namespace, name).finally(() => this.#reading.delete(key));
      this.#reading.set(key, reading);
    }
    return reading;
  }

  async #fetch(key: string, namespace: string, name: string): Promise<Held | undefined> {
    let read: Held | undefined;
    try {
      read = await this.#read(namespace, name);
    } catch (error) {
      if (!isNotFound(error)) throw new Error(`reading ${this.#kind} ${namespace}/${name}: ${describe(error)}`, { cause: error });
    }
    // Still referenced (resolve may have been called again meanwhile)? Only then is it worth keeping.
    if (read && this.#referenced.has(key)) this.#held.set(key, read);
    else this.#held.delete(key);
    return read;
  }
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' ? `HTTP ${code}` : error instanceof Error ? error.name : String(error);
}

/** The referenced Secrets and ConfigMaps: metadata from the caches, data read by name. */
export class ReferencedObjects {
  readonly #secrets: ReferencedKindData;
  readonly #configMaps: ReferencedKindData;

  constructor(options: { secrets: ObjectCache<PartialObjectMetadata>; configMaps: ObjectCache<PartialObjectMetadata>; api: RawApi }) {
    const { api } = options;
    this.#secrets = new ReferencedKindData('Secret', options.secrets, async (namespace, name) => {
      const secret = await api.getJson<V1Secret>(namespacedPath('/api/v1', namespace, 'secrets', name));
      const data: Record<string, string> = {};
      for (const [key, value] of Object.entries(secret.data ?? {})) data[key] = Buffer.from(value, 'base64').toString('utf8');
      return { resourceVersion: secret.metadata?.resourceVersion ?? '', source: { namespace, name, data } };
    });
    this.#configMaps = new ReferencedKindData('ConfigMap', options.configMaps, async (namespace, name) => {
      const configMap = await api.getJson<V1ConfigMap>(namespacedPath('/api/v1', namespace, 'configmaps', name));
      return { resourceVersion: configMap.metadata?.resourceVersion ?? '', source: { namespace, name, data: { ...configMap.data } } };
    });
  }

  /**
   * Makes `references` the referenced objects and returns the data of those that exist, reading each one whose
   * resourceVersion changed since it was read (or that was never read); forgets the data of the others.
   */
  async resolve(references: References): Promise<ReferencedData> {
    const [secrets, configMaps] = await Promise.all([this.#secrets.resolve(references.secrets), this.#configMaps.resolve(references.configMaps)]);
    return { secrets, configMaps };
  }

  /** Whether `namespace/name` of `kind` was referenced at the last `resolve`: whether its change matters. */
  isReferenced(kind: ReferencedKind, namespace: string, name: string): boolean {
    return (kind === 'Secret' ? this.#secrets : this.#configMaps).isReferenced(`${namespace}/${name}`);
  }
}
