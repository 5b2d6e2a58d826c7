/**
 * How a WatchedCache reads its collection: every page of a list (a `continue` token that expired starts the list over),
 * or the GET of one object in `objectName` mode; and the store both the list and the watch fill (objects by namespace
 * and name, stripped of what promop never reads: see watched-cache.ts).
 */
import { apiErrorOf } from './api-error.ts';
import { METADATA_ACCEPT, METADATA_LIST_ACCEPT, type RawApi } from './raw-api.ts';
import type { CachedObject, WatchedCacheOptions } from './watched-cache.ts';

/** kubectl's copy of the whole object (for a Secret: its data); never needed here. */
const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** Cached objects by namespace (`''` for cluster-scoped ones), then name. */
export type Objects<T> = Map<string, Map<string, T>>;

/** The whole collection the options name, and the resourceVersion to watch from. */
export async function readCollection<T extends CachedObject>(api: RawApi, options: WatchedCacheOptions): Promise<{ objects: Objects<T>; resourceVersion: string }> {
  const { path, labelSelector, fieldSelector, metadataOnly, pageSize, objectName } = options;
  let objects: Objects<T> = new Map();
  let resourceVersion = '';
  let token: string | undefined;
  // objectName: one GET of that object stands for the whole list; otherwise every page of the collection.
  if (objectName !== undefined) ({ objects, resourceVersion } = await readOne<T>(api, options, `${path}/${encodeURIComponent(objectName)}`));
  else do {
    let page: { apiVersion?: string; kind?: string; items?: (T & { apiVersion?: string; kind?: string })[]; metadata?: { resourceVersion?: string; continue?: string } };
    try {
      page = await api.getJson(path, {
        query: { limit: pageSize ?? 500, continue: token, labelSelector, fieldSelector },
        ...(metadataOnly ? { accept: METADATA_LIST_ACCEPT } : {}),
      });
    } catch (error) {
      // The continue token expired (the list took longer than etcd keeps its revision): start over.
      if (token === undefined || apiErrorOf(error)?.code !== 410) throw error;
      objects = new Map();
      token = undefined;
      continue;
    }
    if (token === undefined) resourceVersion = page.metadata?.resourceVersion ?? '';
    // Items of a list of a built-in kind come without apiVersion and kind (watch events have them): complete them
    // from the list's, so every cached object looks the same.
    const itemKind = page.kind?.endsWith('List') ? page.kind.slice(0, -'List'.length) : undefined;
    for (const item of page.items ?? []) {
      item.apiVersion ??= page.apiVersion;
      item.kind ??= itemKind;
      put(objects, stripped(item));
    }
    token = page.metadata?.continue || undefined;
  } while (token !== undefined);
  return { objects, resourceVersion };
}

/** The one object of `objectName` mode as list content; 404 is an empty list. */
async function readOne<T extends CachedObject>(api: RawApi, options: WatchedCacheOptions, objectPath: string): Promise<{ objects: Objects<T>; resourceVersion: string }> {
  const objects: Objects<T> = new Map();
  try {
    const object = await api.getJson<T>(objectPath, options.metadataOnly ? { accept: METADATA_ACCEPT } : {});
    put(objects, stripped(object));
    return { objects, resourceVersion: object.metadata?.resourceVersion ?? '' };
  } catch (error) {
    if (apiErrorOf(error)?.code !== 404) throw error;
    // Absent: the watch then starts at the current state (resourceVersion unset) and reports its creation as an ADDED.
    return { objects, resourceVersion: '' };
  }
}

/** `/api/v1/namespaces` → `/api/v1/watch/namespaces` (the same for `/apis/<group>/<version>/...`). */
export function watchFormOf(path: string): string {
  const match = /^(\/api\/v1|\/apis\/[^/]+\/[^/]+)(\/.*)$/.exec(path);
  if (!match) throw new Error(`bug: no watch form of ${path}`);
  return `${match[1]}/watch${match[2]}`;
}

/** Stores `object` under its namespace and name. */
export function put<T extends CachedObject>(objects: Objects<T>, object: T): void {
  const { name = '', namespace = '' } = object.metadata ?? {};
  let inNamespace = objects.get(namespace);
  if (!inNamespace) {
    inNamespace = new Map();
    objects.set(namespace, inNamespace);
  }
  inNamespace.set(name, object);
}

/** The object without what promop never reads and may be big (see the module comment). */
export function stripped<T extends CachedObject>(object: T): T {
  const metadata = object.metadata;
  if (metadata) {
    delete metadata.managedFields;
    if (metadata.annotations && LAST_APPLIED_ANNOTATION in metadata.annotations) {
      const { [LAST_APPLIED_ANNOTATION]: _dropped, ...kept } = metadata.annotations;
      metadata.annotations = kept;
    }
  }
  return object;
}
