/**
 * A list-watch cache of one resource with the repairs client-node 2.0.1 leaves to its users (stack.md):
 * - after a watch error other than 410/timeout, client-node's ListWatch reports the error and stops for good;
 *   this restarts it with a backoff (1 s doubling to 30 s);
 * - silent watch stalls (#364, #596, #958): a relist on a timer replaces the ListWatch with a fresh one, so a
 *   stalled connection or a missed delete cannot outlive one period. client-node already aborts a watch that
 *   received nothing for 30 s and resumes it from the last resourceVersion.
 * Handlers registered with `onChange` only see the changed object; they must not throw (a throw inside a
 * client-node callback is an unhandled error that kills the process), so each call is guarded.
 */
import { ListWatch, Watch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { apiErrorOf, describeError } from './api-error.ts';

/** How a WatchedCache lists its resource and where it watches it. */
export interface WatchedCacheOptions<T> {
  /** Short name for logs (`prometheuses`, `secrets`, ...). */
  resource: string;
  /** The watch path, e.g. `/api/v1/secrets` or `/apis/monitoring.coreos.com/v1/prometheuses`. */
  path: string;
  /** Lists every object the watch covers, with the same selectors. */
  list: () => Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>;
  labelSelector?: string;
  fieldSelector?: string;
  /** Period of the full relist (default 5 minutes). */
  relistIntervalMs?: number;
}

/** Called with the object that was added, updated or deleted. */
export type ChangeHandler<T> = (object: T, change: 'add' | 'update' | 'delete') => void;

const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;

/** A read-only cache of one resource, kept current by a watch. */
export class WatchedCache<T> {
  readonly #kc: KubeConfig;
  readonly #options: WatchedCacheOptions<T>;
  readonly #log: Logger;
  readonly #handlers: ChangeHandler<T>[] = [];
  #listWatch: ListWatch<KubernetesObject> | undefined;
  #stopped = true;
  #restartDelayMs = RESTART_MIN_MS;
  #restartTimer: NodeJS.Timeout | undefined;
  #relistTimer: NodeJS.Timeout | undefined;
  #pending: ListWatch<KubernetesObject> | undefined;
  /** Ends start()'s wait between attempts when stop() is called. */
  #wake: (() => void) | undefined;
  #synced = false;

  constructor(kc: KubeConfig, options: WatchedCacheOptions<T>, log: Logger) {
    this.#kc = kc;
    this.#options = options;
    this.#log = log.child({ resource: options.resource });
  }

  /** Registers a handler for every later change. */
  onChange(handler: ChangeHandler<T>): void {
    this.#handlers.push(handler);
  }

  /** Lists, starts watching and resolves once the first list is in the cache. Rejects if that list fails. */
  async start(): Promise<void> {
    this.#stopped = false;
    // The first list is retried while the cause may pass (a CRD installed a moment ago answers 404 or 429
    // "storage is (re)initializing" for a while); 401/403 are a deployment error and fail start() at once.
    for (;;) {
      try {
        await this.#connect();
        break;
      } catch (error) {
        const code = apiErrorOf(error)?.code;
        if (this.#stopped || code === 401 || code === 403) throw error;
        const delay = this.#restartDelayMs;
        this.#restartDelayMs = Math.min(delay * 2, RESTART_MAX_MS);
        this.#log.warn({ err: describeError(error), retryInMs: delay }, 'first list failed; retrying');
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
          this.#restartTimer = setTimeout(resolve, delay);
        });
        this.#wake = undefined;
        if (this.#stopped) return;
      }
    }
    this.#synced = true;
    const interval = this.#options.relistIntervalMs ?? 5 * 60_000;
    this.#relistTimer = setInterval(() => void this.#relist(), interval);
    this.#relistTimer.unref();
  }

  /** Whether the first list has arrived. */
  get synced(): boolean {
    return this.#synced;
  }

  /** Stops the watch and every timer; the cache keeps its last content. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#relistTimer);
    clearTimeout(this.#restartTimer);
    this.#wake?.();
    await this.#pending?.stop();
    await this.#listWatch?.stop();
  }

  /** The cached object `namespace/name` (namespace omitted for cluster-scoped kinds). */
  get(name: string, namespace?: string): T | undefined {
    return this.#listWatch?.get(name, namespace) as T | undefined;
  }

  /** Every cached object, or those of one namespace. */
  list(namespace?: string): readonly T[] {
    return (this.#listWatch?.list(namespace) ?? []) as readonly T[];
  }

  /**
   * Lists and watches with a new ListWatch and makes it current once its list is complete, so readers never see
   * an empty cache; the previous one is stopped. Throws when the list fails.
   */
  async #connect(): Promise<void> {
    const { path, list, labelSelector, fieldSelector } = this.#options;
    // client-node's KubernetesObject types creationTimestamp as Date; the CRD types (from JSON) say string.
    const listWatch = new ListWatch<KubernetesObject>(path, new Watch(this.#kc), list as unknown as () => Promise<KubernetesListObject<KubernetesObject>>, false, labelSelector, fieldSelector);
    let listError: unknown;
    for (const verb of ['add', 'update', 'delete'] as const) {
      listWatch.on(verb, (object) => this.#dispatch(listWatch, object as T, verb));
    }
    listWatch.on('error', (error) => {
      if (listWatch === this.#pending) listError = error;
      else this.#failed(listWatch, error);
    });
    this.#pending = listWatch;
    try {
      // start() resolves even when the list fails (client-node reports it to 'error' listeners and gives up).
      await listWatch.start();
    } finally {
      this.#pending = undefined;
    }
    if (listError !== undefined || listWatch.latestResourceVersion() === '' || this.#stopped) {
      await listWatch.stop();
      if (listError !== undefined) throw listError;
      return;
    }
    const previous = this.#listWatch;
    this.#listWatch = listWatch;
    this.#restartDelayMs = RESTART_MIN_MS;
    await previous?.stop();
    // Objects the old cache held and the new list lacks were deleted while the old watch was not hearing: tell the
    // handlers, as client-go's relist does with its delete/add diff.
    for (const object of previous?.list() ?? []) {
      const { name, namespace } = object.metadata ?? {};
      if (name !== undefined && listWatch.get(name, namespace) === undefined) this.#dispatch(listWatch, object as T, 'delete');
    }
  }

  #dispatch(source: ListWatch<KubernetesObject>, object: T, change: 'add' | 'update' | 'delete'): void {
    // A replacing ListWatch reports every object as added while it lists: handlers hear a relist as adds, which a
    // level-based reconcile does not mind. Events of a replaced ListWatch are dropped.
    if (source !== this.#listWatch && source !== this.#pending) return;
    for (const handler of this.#handlers) {
      try {
        handler(object, change);
      } catch (error) {
        this.#log.error({ err: describeError(error) }, 'bug: a change handler threw');
      }
    }
  }

  /** A watch of the current ListWatch ended with an error; client-node does not restart it, so this does. */
  #failed(source: ListWatch<KubernetesObject>, error: unknown): void {
    if (this.#stopped || source !== this.#listWatch) return;
    this.#scheduleRestart(error);
  }

  #scheduleRestart(error: unknown): void {
    const delay = this.#restartDelayMs;
    this.#restartDelayMs = Math.min(delay * 2, RESTART_MAX_MS);
    this.#log.warn({ err: describeError(error), retryInMs: delay }, 'watch failed; listing again');
    clearTimeout(this.#restartTimer);
    this.#restartTimer = setTimeout(() => void this.#relist(), delay);
    this.#restartTimer.unref();
  }

  async #relist(): Promise<void> {
    // The relist timer and a restart after an error may fire together; one relist at a time is enough.
    if (this.#stopped || this.#pending) return;
    try {
      await this.#connect();
    } catch (error) {
      if (!this.#stopped) this.#scheduleRestart(error);
    }
  }
}
