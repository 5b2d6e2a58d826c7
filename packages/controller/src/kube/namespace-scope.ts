/**
 * Which namespaces promop watches (`promop run --namespaces` / `--deny-namespaces`), and a cache that reads a
 * namespaced kind from several namespaces at once.
 *
 * - All namespaces (the default): one cluster-wide list/watch per kind, as before.
 * - `--deny-namespaces a,b`: still one cluster-wide list/watch, with the field selector
 *   `metadata.namespace!=a,metadata.namespace!=b`, so the objects of those namespaces never reach promop.
 * - `--namespaces a,b`: one list/watch per namespace (`/api/v1/namespaces/a/secrets`, ...), which a Role in each
 *   namespace authorizes; nothing is read cluster-wide. The Namespace objects themselves are read one by one
 *   (get and watch of `namespaces/a`, which a Role in `a` can grant; see WatchedCacheOptions.objectName).
 */
import type { ChangeHandler, CachedObject, WatchedCache } from './watched-cache.ts';

/** The namespaces promop watches. */
export type NamespaceScope =
  | { kind: 'all' }
  | { kind: 'only'; namespaces: readonly string[] }
  | { kind: 'deny'; namespaces: readonly string[] };

/** Every namespace. */
export const ALL_NAMESPACES: NamespaceScope = { kind: 'all' };

/** What the controller reads from a cache; a WatchedCache and a MultiNamespaceCache both are one. */
export interface ObjectCache<T extends CachedObject> {
  onChange(handler: ChangeHandler<T>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly synced: boolean;
  get(name: string, namespace?: string): T | undefined;
  list(namespace?: string): readonly T[];
}

/** The field selector that leaves out the objects of denied namespaces, joined to `fieldSelector`. */
export function withDeniedNamespaces(fieldSelector: string | undefined, denied: readonly string[], field = 'metadata.namespace'): string | undefined {
  const parts = [...(fieldSelector ? [fieldSelector] : []), ...denied.map((namespace) => `${field}!=${namespace}`)];
  return parts.length ? parts.join(',') : undefined;
}

/** One WatchedCache per namespace, read as one cache. */
export class MultiNamespaceCache<T extends CachedObject> implements ObjectCache<T> {
  readonly #byNamespace: ReadonlyMap<string, WatchedCache<T>>;

  /** `caches`: namespace → the cache of that namespace's objects. */
  constructor(caches: ReadonlyMap<string, WatchedCache<T>>) {
    this.#byNamespace = caches;
  }

  onChange(handler: ChangeHandler<T>): void {
    for (const cache of this.#byNamespace.values()) cache.onChange(handler);
  }

  /** Starts every namespace's cache; resolves once each has listed, or stops them all and rejects. */
  async start(): Promise<void> {
    const results = await Promise.allSettled([...this.#byNamespace.values()].map((cache) => cache.start()));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) {
      await this.stop();
      throw failed.reason;
    }
  }

  async stop(): Promise<void> {
    await Promise.all([...this.#byNamespace.values()].map((cache) => cache.stop()));
  }

  get synced(): boolean {
    return [...this.#byNamespace.values()].every((cache) => cache.synced);
  }

  /** For a cluster-scoped kind (Namespaces, one cache per name) the object's namespace is '' and every cache is asked. */
  get(name: string, namespace?: string): T | undefined {
    if (namespace) return this.#byNamespace.get(namespace)?.get(name, namespace);
    for (const cache of this.#byNamespace.values()) {
      const found = cache.get(name);
      if (found) return found;
    }
    return undefined;
  }

  list(namespace?: string): readonly T[] {
    if (namespace !== undefined && namespace !== '') return this.#byNamespace.get(namespace)?.list(namespace) ?? [];
    return [...this.#byNamespace.values()].flatMap((cache) => cache.list(namespace));
  }
}
