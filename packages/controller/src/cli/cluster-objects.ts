/**
 * The custom resources and Namespaces of a cluster, listed. Apart from the reader, this module imports nothing at
 * run time, so the commands can start these lists before they load the generator (the requests and the loading
 * overlap).
 */
import type { V1Namespace } from '@kubernetes/client-node';
import type { ResourceOfKind } from '@promop/crds';
import { ALL_KINDS, GROUP, KINDS, PROMETHEUS_WORKLOAD_KINDS, PROMETHEUS_SELECTED_KINDS, type Kind, type ListOf } from '@promop/crds/kinds';
import { KubeReadError, type KubeReader } from './kube-reader.ts';

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
 * The kinds the commands read: those a Prometheus configuration is made from. Alertmanagers are not rendered by
 * the CLI, so they are not listed (a user may read the cluster without the right to list them).
 */
const LISTED_KINDS: readonly Kind[] = [...PROMETHEUS_WORKLOAD_KINDS, ...PROMETHEUS_SELECTED_KINDS];

/**
 * Lists the custom resources and namespaces. A refused list is a KubeReadError naming the resource. A kind the
 * cluster does not serve (404: CRDs older than promop's support of that kind) has no objects, unless the cluster
 * serves none of the kinds: then the CRDs are not installed, and the first 404 is the error.
 */
export async function readClusterObjects(reader: KubeReader): Promise<ClusterObjects> {
  const [namespaceListing, ...listings] = await Promise.allSettled([
    reader.list<V1Namespace>('/api/v1/namespaces'),
    ...LISTED_KINDS.map((kind) => {
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
  LISTED_KINDS.forEach((kind, index) => {
    const listing = listings[index]!;
    if (listing.status === 'fulfilled') (objects as unknown as Record<string, unknown[]>)[KINDS[kind].list] = listing.value;
  });
  return { ...objects, namespaces: namespaceListing!.value as V1Namespace[] };
}
