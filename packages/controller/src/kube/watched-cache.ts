/**
 * A list-watch cache of one resource, in the shape of client-go's reflector + store:
 * - lists in pages (`limit`, default 500, and `continue`), so a big cluster never produces one huge response (a
 *   list read for longer than the API server's request timeout is cut off mid-body: raw-api.ts); a `continue` token
 *   that expired (410) starts the list over;
 * - watches from the list's resourceVersion with bookmarks, and after a watch that ended or was cut off resumes
 *   from the last resourceVersion seen, with a backoff (1 s doubling to 30 s) after a failure: a cut connection
 *   costs one request, not a relist of everything; only 410 Gone (the resourceVersion is too old) lists again;
 * - relists on a timer (default 5 minutes) as a repair for a stalled watch or a missed delete, without ever
 *   showing an empty or partial cache: the new content replaces the old once its last page is in, and handlers
 *   hear the difference (adds, updates, deletes), not the whole list again;
 * - `metadataOnly` keeps just each object's metadata (PartialObjectMetadata), for kinds whose content promop
 *   reads only for a few objects (Secrets, ConfigMaps: referenced-objects.ts).
 * Every object is stored without `metadata.managedFields` and without kubectl's last-applied-configuration
 * annotation: nothing in promop reads them and the annotation holds a whole copy of the object (for a Secret,
 * its data).
 *
 * Handlers get the object, the change and, for updates, the previous version; they must not throw (a throw is
 * logged as a bug and does not reach the watch).
 */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { apiErrorOf, describeError } from './api-error.ts';
import { METADATA_ACCEPT, RawApi, type WatchEvent } from './raw-api.ts';
import { put, readCollection, stripped, watchFormOf, type Objects } from './collection-read.ts';

/** What a cached object has at least. */
export interface CachedObject {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; annotations?: Record<string, string>; managedFields?: unknown } | undefined;
}

/** An object as a metadata-only cache holds it (meta.k8s.io/v1 PartialObjectMetadata; client-node has no type). */
export interface PartialObjectMetadata {
  apiVersion?: string;
  kind?: string;
  metadata?: V1ObjectMeta;
}

/** How a WatchedCache lists and watches its resource. */
export interface WatchedCacheOptions {
  /** Short name for logs (`prometheuses`, `secrets`, ...). */
  resource: string;
  /** The collection path, e.g. `/api/v1/secrets` or `/apis/monitoring.coreos.com/v1/prometheuses`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Keep only metadata (PartialObjectMetadata); default false. */
  metadataOnly?: boolean;
  /** Items per list page (default 500). */
  pageSize?: number;
  /** Period of the full relist (default 5 minutes). */
  relistIntervalMs?: number;
  /**
   * Cache just the object of this name in `path` (absent: an empty cache): the list is a GET of `path/name` and
   * the watch goes through the `/watch/` form of that path. A Role in namespace `x` may grant get and watch of
   * Namespace `x` (the API server authorizes `/api/v1/namespaces/x` and `/api/v1/watch/namespaces/x` in namespace
   * `x`), but never a list of Namespaces, even with a `metadata.name` field selector: that is how promop reads the
   * Namespaces it is limited to with `--namespaces` and only per-namespace Roles.
   */
  objectName?: string;
}

/** What changed; `previous` is the version the cache held before an update. */
export type ChangeHandler<T> = (object: T, change: 'add' | 'update' | 'delete', previous?: T) => void;

const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** The API server sends a bookmark about once a minute; a watch silent for this long is dead. */
const WATCH_IDLE_MS = 120_000;
/** A watch that lasted this long was healthy: the next failure starts the backoff over. */
const HEALTHY_WATCH_MS = 10_000;

/** The watch's resourceVersion is too old (410 Gone): only a new list can continue. */
class GoneError extends Error {
  constructor() {
    super('resourceVersion too old (410 Gone)');
    this.name = 'GoneError';
  }
}

/** A read-only cache of one resource, kept current by a watch. */
export class WatchedCache<T extends CachedObject> {
  readonly #api: RawApi;
  readonly #options: WatchedCacheOptions;
  readonly #log: Logger;
  readonly #handlers: ChangeHandler<T>[] = [];
  #objects: Objects<T> = new Map();
  /** list()'s answer for every namespace while #objects has not changed; undefined once it has. */
  #all: readonly T[] | undefined;
  #resourceVersion = '';
  #synced = false;
  #stopped = true;
  /** Aborts the current watch (stop, or the relist timer). */
  #watchAbort: AbortController | undefined;
  #relistDue = false;
  #relistTimer: NodeJS.Timeout | undefined;
  /** Ends a backoff wait early (stop). */
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;

  constructor(api: RawApi, options: WatchedCacheOptions, log: Logger) {
    this.#api = api;
    this.#options = options;
    this.#log = log.child({ resource: options.resource });
  }

  /** Registers a handler for every later change. */
  onChange(handler: ChangeHandler<T>): void {
    this.#handlers.push(handler);
  }

  /**
   * Lists, starts watching and resolves once the first list is in the cache. The first list is retried while
   * the cause may pass (a CRD installed a moment ago answers 404 or 429 "storage is (re)initializing" for a
   * while); 401/403 are a deployment error and reject at once.
   */
  async start(): Promise<void> {
    this.#stopped = false;
    let delay = RESTART_MIN_MS;
    for (;;) {
      try {
        await this.#list();
        break;
      } catch (error) {
        const code = apiErrorOf(error)?.code;
        if (this.#stopped || code === 401 || code === 403) throw error;
        this.#log.warn({ err: describeError(error), retryInMs: delay }, 'first list failed; retrying');
        await this.#sleep(delay);
        delay = Math.min(delay * 2, RESTART_MAX_MS);
        if (this.#stopped) return;
      }
    }
    this.#synced = true;
    this.#relistTimer = setInterval(() => {
      this.#relistDue = true;
      this.#watchAbort?.abort();
    }, this.#options.relistIntervalMs ?? 5 * 60_000);
    this.#relistTimer.unref();
    this.#loop = this.#watchLoop();
  }

  /** Whether the first list has arrived. */
  get synced(): boolean {
    return this.#synced;
  }

  /** Stops the watch and every timer; the cache keeps its last content. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#relistTimer);
    this.#watchAbort?.abort();
    this.#wake?.();
    await this.#loop;
  }

  /** The cached object `namespace/name` (namespace omitted for cluster-scoped kinds). */
  get(name: string, namespace?: string): T | undefined {
    return this.#objects.get(namespace ?? '')?.get(name);
  }

  /**
   * Every cached object, or those of one namespace. The list of every object is the same (frozen) array until the
   * content changes: a reconcile asks for it several times, and copying 10,000 objects each time was garbage.
   */
  list(namespace?: string): readonly T[] {
    if (namespace !== undefined) return [...(this.#objects.get(namespace)?.values() ?? [])];
    if (this.#all) return this.#all;
    const all: T[] = [];
    for (const inNamespace of this.#objects.values()) all.push(...inNamespace.values());
    this.#all = Object.freeze(all);
    return this.#all;
  }

  /** Watches, resumes, relists when due or after 410, until stopped. */
  async #watchLoop(): Promise<void> {
    let delay = RESTART_MIN_MS;
    while (!this.#stopped) {
      if (this.#relistDue) {
        this.#relistDue = false;
        try {
          await this.#list();
        } catch (error) {
          if (this.#stopped) return;
          this.#relistDue = true;
          this.#log.warn({ err: describeError(error), retryInMs: delay }, 'list failed; retrying');
          await this.#sleep(delay);
          delay = Math.min(delay * 2, RESTART_MAX_MS);
          continue;
        }
      }
      const started = Date.now();
      try {
        await this.#watch();
        delay = RESTART_MIN_MS;
      } catch (error) {
        if (this.#stopped) return;
        if (error instanceof GoneError) {
          this.#relistDue = true;
          continue;
        }
        if (Date.now() - started >= HEALTHY_WATCH_MS) delay = RESTART_MIN_MS;
        this.#log.warn({ err: describeError(error), retryInMs: delay }, 'watch failed; resuming from the last resourceVersion');
        await this.#sleep(delay);
        delay = Math.min(delay * 2, RESTART_MAX_MS);
      }
    }
  }

  /** Lists every page, then replaces the cache's content and tells the handlers what differs. */
  async #list(): Promise<void> {
    const { objects, resourceVersion } = await readCollection<T>(this.#api, this.#options);
    if (this.#stopped && this.#synced) return;
    const previous = this.#objects;
    this.#objects = objects;
    this.#all = undefined;
    this.#resourceVersion = resourceVersion;
    for (const [namespace, inNamespace] of objects) {
      for (const [name, object] of inNamespace) {
        const before = previous.get(namespace)?.get(name);
        if (!before) this.#dispatch(object, 'add');
        else if (before.metadata?.resourceVersion !== object.metadata?.resourceVersion) this.#dispatch(object, 'update', before);
      }
    }
    // Objects the old content held and the new list lacks were deleted while no watch heard it.
    for (const [namespace, inNamespace] of previous) {
      for (const [name, object] of inNamespace) if (!objects.get(namespace)?.has(name)) this.#dispatch(object, 'delete');
    }
  }

  /** One watch from the current resourceVersion, until the server ends it, it fails, or it is aborted. */
  async #watch(): Promise<void> {
    const { labelSelector, fieldSelector, metadataOnly, objectName } = this.#options;
    const path = objectName === undefined ? this.#options.path : `${watchFormOf(this.#options.path)}/${encodeURIComponent(objectName)}`;
    const abort = new AbortController();
    this.#watchAbort = abort;
    if (this.#relistDue || this.#stopped) return;
    try {
      await this.#api.watch(path, {
        query: {
          resourceVersion: this.#resourceVersion,
          allowWatchBookmarks: true,
          // Spread over 5–10 minutes, as client-go does, so watches do not all end together.
          timeoutSeconds: 300 + Math.floor(Math.random() * 300),
          labelSelector,
          fieldSelector,
        },
        ...(metadataOnly ? { accept: METADATA_ACCEPT } : {}),
        idleTimeoutMs: WATCH_IDLE_MS,
        signal: abort.signal,
      }, (event) => this.#apply(event));
    } finally {
      if (this.#watchAbort === abort) this.#watchAbort = undefined;
    }
  }

  #apply(event: WatchEvent): void {
    if (event.type === 'ERROR') {
      const status = event.object as { code?: number; reason?: string; message?: string };
      if (status.code === 410) throw new GoneError();
      throw new Error(`watch error ${status.code ?? ''} ${status.reason ?? ''}: ${status.message ?? ''}`);
    }
    const object = stripped(event.object as T);
    const resourceVersion = object.metadata?.resourceVersion;
    if (event.type !== 'BOOKMARK') {
      const { name = '', namespace = '' } = object.metadata ?? {};
      const before = this.#objects.get(namespace)?.get(name);
      if (event.type === 'DELETED') {
        this.#all = undefined;
        const inNamespace = this.#objects.get(namespace);
        inNamespace?.delete(name);
        if (inNamespace?.size === 0) this.#objects.delete(namespace);
        this.#dispatch(object, 'delete');
      } else if (before?.metadata?.resourceVersion !== resourceVersion) {
        this.#all = undefined;
        put(this.#objects, object);
        if (before) this.#dispatch(object, 'update', before);
        else this.#dispatch(object, 'add');
      }
    }
    if (resourceVersion) this.#resourceVersion = resourceVersion;
  }

  #dispatch(object: T, change: 'add' | 'update' | 'delete', previous?: T): void {
    for (const handler of this.#handlers) {
      try {
        handler(object, change, previous);
      } catch (error) {
        this.#log.error({ err: describeError(error) }, 'bug: a change handler threw');
      }
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wake = done;
    }).finally(() => {
      this.#wake = undefined;
    });
  }
}
