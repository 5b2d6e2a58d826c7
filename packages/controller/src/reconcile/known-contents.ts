/**
 * What promop knows its own Secrets and ConfigMaps hold, without watching their data (pure).
 *
 * Their cache holds metadata only (kube/cluster-caches.ts): the scrape files are most of a large configuration's
 * bytes, and watching them whole would make the API server encode every write as JSON (base64, then escaped) for
 * promop to parse again, and keep all of it in promop's memory. What is in them is known instead: promop's own
 * write sends the whole data, so the version it stored (uid and resourceVersion from the write's answer) holds
 * exactly that body, whose applied-hash (applied-hash.ts) is noted with it. Another version (someone else's write,
 * or one promop has not seen since it started) is read once, compared, and noted when it matches.
 *
 * Per Prometheus (the children applier keeps one per Prometheus key), so a deleted Prometheus' notes go with it.
 */
import type { PartialObjectMetadata } from '../kube/index.ts';

/** The children whose data promop alone fills and whose cache holds metadata only. */
export type DataChildKind = 'Secret' | 'ConfigMap';

interface NotedVersion {
  uid: string;
  resourceVersion: string;
  hash: string;
}

type Metadata = PartialObjectMetadata['metadata'];

/** The versions of a Prometheus' Secrets and ConfigMaps known to hold a body, by kind, namespace and name. */
export class KnownContents {
  readonly #versions = new Map<string, NotedVersion>();

  /** The version `metadata` describes (as stored) holds exactly the body whose applied-hash is `hash`. */
  note(kind: DataChildKind, metadata: Metadata, hash: string): void {
    const { uid, resourceVersion } = metadata ?? {};
    if (!uid || !resourceVersion) return;
    this.#versions.set(keyOf(kind, metadata ?? {}), { uid, resourceVersion, hash });
  }

  /** Whether `cached` is a version noted with `hash`: it holds that body, with nothing added since. */
  holds(kind: DataChildKind, cached: PartialObjectMetadata | undefined, hash: string): boolean {
    const metadata = cached?.metadata;
    if (!metadata) return false;
    const noted = this.#versions.get(keyOf(kind, metadata));
    return noted !== undefined && noted.hash === hash && noted.uid === metadata.uid && noted.resourceVersion === metadata.resourceVersion;
  }

  /** Forgets a child promop deleted. */
  forget(kind: DataChildKind, namespace: string, name: string): void {
    this.#versions.delete(keyOf(kind, { namespace, name }));
  }
}

function keyOf(kind: DataChildKind, metadata: { namespace?: string | undefined; name?: string | undefined }): string {
  return `${kind}\0${metadata.namespace ?? ''}\0${metadata.name ?? ''}`;
}
