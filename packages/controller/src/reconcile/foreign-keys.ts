/**
 * Keys someone else added to maps promop alone decides (pure).
 *
 * promop writes its children with server-side apply, and apply only ever removes fields the applying manager owns.
 * A key another manager *adds* to a map promop fills therefore survives every apply: a file added to a rule
 * ConfigMap is mounted next to promop's and loaded by Prometheus, a key added to a scrape-file Secret is picked up by
 * the `scrape_config_files` glob, a label added to the governing Service's selector leaves the Service without
 * endpoints. For these maps promop's content is the whole content, so such keys are found here (what is stored
 * minus what promop sends) and removed with a patch that sets them to null.
 *
 * Other fields are left to server-side apply on purpose: labels and annotations others add (kubectl, policy
 * engines, Argo CD tracking) are theirs to add and change nothing Prometheus does.
 */
import type { ChildKind } from '../kube/index.ts';

/** A map of a child whose every key is promop's: the path to it from the object's root. */
type MapPath = readonly string[];

/** The maps promop owns entirely, per child kind. */
export const EXCLUSIVE_MAPS: Readonly<Record<ChildKind, readonly MapPath[]>> = {
  // Every key of a rule ConfigMap is a rule file Prometheus loads.
  ConfigMap: [['data'], ['binaryData']],
  // Every key of a config, scrape-file or TLS-assets Secret is a file in Prometheus' pod.
  Secret: [['data']],
  // Selects the pods the Service's DNS names point at: a foreign label would select none of them.
  Service: [['spec', 'selector']],
  // Its fields that matter are lists and fixed-at-creation selectors; apply handles them.
  StatefulSet: [],
  DaemonSet: [],
};

/** Keys of exclusive maps found in `stored` but not in `desired`, by map path. */
export interface ForeignKeys {
  readonly path: MapPath;
  readonly keys: readonly string[];
}

/** The keys of `stored`'s exclusive maps that `desired` does not set (none when `stored` is undefined). */
export function foreignKeysOf(kind: ChildKind, desired: object, stored: object | undefined): ForeignKeys[] {
  if (!stored) return [];
  const found: ForeignKeys[] = [];
  for (const path of EXCLUSIVE_MAPS[kind]) {
    const storedMap = mapAt(stored, path);
    if (!storedMap) continue;
    const desiredMap = mapAt(desired, path) ?? {};
    const keys = Object.keys(storedMap).filter((key) => !Object.hasOwn(desiredMap, key) || desiredMap[key] === undefined).sort();
    if (keys.length > 0) found.push({ path, keys });
  }
  return found;
}

/**
 * A JSON merge patch (RFC 7386) that removes `foreign` keys and nothing else, guarded by `resourceVersion`: if the
 * object changed since it was read the API server answers 409 and the reconcile is retried from fresh data, so a
 * key promop itself has just added is never removed.
 */
export function removalPatch(foreign: readonly ForeignKeys[], resourceVersion: string | undefined): Record<string, unknown> {
  const patch: Record<string, unknown> = resourceVersion ? { metadata: { resourceVersion } } : {};
  for (const { path, keys } of foreign) {
    let node = patch;
    for (const segment of path) node = (node[segment] ??= {}) as Record<string, unknown>;
    for (const key of keys) node[key] = null;
  }
  return patch;
}

/** Readable list for the log: `data["extra.yaml"], spec.selector["team"]` (key names only, never values). */
export function describeForeignKeys(foreign: readonly ForeignKeys[]): string {
  return foreign.flatMap(({ path, keys }) => keys.map((key) => `${path.join('.')}[${JSON.stringify(key)}]`)).join(', ');
}

function mapAt(object: object, path: MapPath): Record<string, unknown> | undefined {
  let node: unknown = object;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>) : undefined;
}
