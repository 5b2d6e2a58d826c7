/**
 * The caches' requests, counted: a RawApi that records every list (its first page: a request with `limit` and no
 * `continue` token) and every watch it sends, and those that failed, per resource (the plural in the path:
 * `secrets`, `prometheuses`, ...). A watch the caller aborted (stop, or the relist timer) is a normal end, as in
 * RawApi; a watch that ended in an error, a cut connection or 410 Gone is a failure the cache restarts from. So a
 * healthy cache shows one list at start, one relist per relist period and one watch per 5–10 minutes per
 * resource; a storm of restarts shows as failures.
 */
import { RawApi, type KubeAccess, type RawRequest, type WatchEvent } from '../kube/raw-api.ts';
import type { CacheRequestMetrics } from './queue-and-cache-metrics.ts';

/** The plural a collection or watch path names: `/api/v1/namespaces/a/secrets` → `secrets`, `/api/v1/watch/namespaces/a` → `namespaces`. */
export function resourceOfPath(path: string): string {
  const segments = path.replace(/^\/(api\/v1|apis\/[^/]+\/[^/]+)\//, '').replace(/^watch\//, '').split('/').filter((s) => s !== '');
  // namespaces/<ns>/<plural>[/<name>] is a namespaced resource; namespaces[/<name>] the Namespaces themselves.
  if (segments[0] === 'namespaces' && segments.length >= 3) return segments[2] ?? '';
  return segments[0] ?? '';
}

/** A RawApi whose lists and watches are counted in `metrics`. */
export class MeteredRawApi extends RawApi {
  readonly #metrics: CacheRequestMetrics;

  constructor(access: KubeAccess, metrics: CacheRequestMetrics, options: ConstructorParameters<typeof RawApi>[1] = {}) {
    super(access, options);
    this.#metrics = metrics;
  }

  override async getJson<T>(path: string, request: RawRequest = {}): Promise<T> {
    const listPage = request.query?.limit !== undefined;
    if (listPage && request.query?.continue === undefined) this.#metrics.listStarted(resourceOfPath(path));
    try {
      return await super.getJson<T>(path, request);
    } catch (error) {
      if (listPage) this.#metrics.listFailed(resourceOfPath(path));
      throw error;
    }
  }

  override async watch(path: string, request: RawRequest, onEvent: (event: WatchEvent) => void): Promise<void> {
    this.#metrics.watchStarted(resourceOfPath(path));
    try {
      await super.watch(path, request, onEvent);
    } catch (error) {
      this.#metrics.watchFailed(resourceOfPath(path));
      throw error;
    }
  }
}
