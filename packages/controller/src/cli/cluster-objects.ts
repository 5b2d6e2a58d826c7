/**
 * The custom resources and Namespaces of a cluster, listed. Apart from the reader, this module imports nothing at
 * run time, so the commands can start these lists before they load the generator (the requests and the loading
 * overlap).
 */
import type { V1Namespace } from '@kubernetes/client-node';
import type { ResourceOfKind } from '@promop/crds';
import { ALL_KINDS, GROUP, KINDS, type Kind, type ListOf } from '@promop/crds/kinds';
import { KubeReadError, type KubeReader } from './kube-reader.ts';
import { PROMETHEUS_SOURCE_KINDS } from './program-kinds.ts';

/** The custom resources of a cluster, one list per kind of the registry (`serviceMonitors`, ...), and its namespaces. */
export type ClusterObjects = { [K in Kind as ListOf<K>]: ResourceOfKind[K][] } & { namespaces: V1Namespace[] };

/** A ClusterObjects of empty lists. */
export function noClusterObjects(): ClusterObjects {
  return Object.fromEntries([...ALL_KINDS.map((kind) => [KINDS[kind].list, []]), ['namespaces', []]]) as unknown as ClusterObjects;
}

/** The lists of `a` followed by those of `b`, kind by kind. */
export function concatClusterObjects(a: ClusterObjects, b: ClusterObjects): ClusterObjects {
  const lists = [...ALL_KINDS.map((kind) => KINDS[kind].list), 'namespaces'] as const;
  return Object.fromEntries(lists.map((list) => [list, [...(a as Record<string, unknown[]>)[list]!, ...(b as Record<string, unknown[]>)[list]!]])) as unknown as ClusterObjects;
}

/**
 * Lists the custom resources of `kinds` and the namespaces; the lists of the other kinds stay empty. The commands
 * list only the kinds of the configuration they judge (program-kinds.ts: a Prometheus' by default), as a user may
 * read one program's objects without the right to list the other's. A refused list is a KubeReadError naming the
 * resource. A kind the cluster does not serve (404: CRDs older than promop's support of that kind) has no objects,
 * unless the cluster serves none of the kinds: then the CRDs are not installed, and the first 404 is the error.
 */
export async function readClusterObjects(reader: KubeReader, kinds: readonly Kind[] = PROMETHEUS_SOURCE_KINDS): Promise<ClusterObjects> {
  const [namespaceListing, ...listings] = await Promise.allSettled([
    reader.list<V1Namespace>('/api/v1/namespaces'),
    ...kinds.map((kind) => {
      const { version, plural } = KINDS[kind];
      // The generator tells an agent by its kind, which a custom resource's list items carry; set it all the same.
      return reader.list<Record<string, unknown>>(`/apis/${GROUP}/${version}/${plural}`).then((items) => items.map((item) => ({ ...item, kind })));
    }),
  ]);
  const unserved = (listing: PromiseSettledResult<unknown>) => listing.status === 'rejected' && listing.reason instanceof KubeReadError && listing.reason.status === 404;
  const refused = listings.find((listing): listing is PromiseRejectedResult => listing.status === 'rejected' && !unserved(listing));
  if (refused) throw refused.reason;
  if (listings.every(unserved)) throw (listings[0] as PromiseRejectedResult).reason;
  if (namespaceListing!.status === 'rejected') throw namespaceListing!.reason;
  const objects = noClusterObjects();
  kinds.forEach((kind, index) => {
    const listing = listings[index]!;
    if (listing.status === 'fulfilled') (objects as unknown as Record<string, unknown[]>)[KINDS[kind].list] = listing.value;
  });
  return { ...objects, namespaces: namespaceListing!.value as V1Namespace[] };
}

/** `objects` with the lists of `kinds` taken from `other` (listed apart, by another program's needs). */
export function withListsOf(objects: ClusterObjects, other: ClusterObjects, kinds: readonly Kind[]): ClusterObjects {
  const merged = { ...objects };
  for (const kind of kinds) (merged as unknown as Record<string, unknown[]>)[KINDS[kind].list] = (other as unknown as Record<string, unknown[]>)[KINDS[kind].list]!;
  return merged;
}
