/**
 * Which Secrets and ConfigMaps the managed Prometheus objects and every monitor of the cluster reference (pure):
 * the objects whose data the reconciler reads (kube/referenced-objects.ts) and whose changes enqueue a reconcile.
 * Every monitor counts, selected or not: which are selected is the generator's answer, and a reference of an
 * unselected monitor costs one small read. A reference is looked up in the referencing object's namespace (a
 * Prometheus' scrape classes included: the generator reads them there too). Each object's references are computed
 * once per version (the WeakMap forgets a version the cache replaced).
 */
import { ALL_KINDS, KINDS, keyReferences, type Kind, type ResourceOfKind } from '@promop/crds';
import { ResultsByPosition } from '@promop/config-generator';
import type { KindLists, References } from '../kube/index.ts';

type ReferencingObject = ResourceOfKind[Kind];

interface Found {
  secrets: string[];
  configMaps: string[];
}

const referencesOfObject = new WeakMap<ReferencingObject, Found>();
/** What most objects reference: nothing (one shared value, so nothing is added for them). */
const NOTHING: Found = { secrets: [], configMaps: [] };

function referencesOf(kind: Kind, object: ReferencingObject): Found {
  let found = referencesOfObject.get(object);
  if (!found) {
    const namespace = object.metadata.namespace;
    const refs = keyReferences(kind, object);
    found = refs.length === 0 ? NOTHING : {
      secrets: refs.filter((ref) => ref.kind === 'Secret').map((ref) => `${namespace}/${ref.name}`),
      configMaps: refs.filter((ref) => ref.kind === 'ConfigMap').map((ref) => `${namespace}/${ref.name}`),
    };
    referencesOfObject.set(object, found);
  }
  return found;
}

/**
 * Each monitor's references kept by position from the previous call (one per reconciler, by-position.ts in the
 * generator): one changed monitor among 10,000 costs one comparison per monitor instead of a WeakMap lookup each,
 * which would dominate the cost of a change.
 */
export class ReferencesMemo {
  readonly #byPosition = new ResultsByPosition();

  /** The references of each of `objects` (list `list`, of `kind`), in order. */
  foundIn(list: Kind, objects: readonly ReferencingObject[]): readonly Found[] {
    return this.#byPosition.results(list, objects, '', (object) => referencesOf(list, object));
  }
}

/**
 * The Secrets and ConfigMaps (`namespace/name`) the objects of every kind given reference (a kind whose schema
 * holds no reference, PrometheusRule, costs nothing: key-references.ts skips what cannot reference).
 */
export function referencedObjects(objects: Partial<KindLists>, memo?: ReferencesMemo): References {
  const secrets = new Set<string>();
  const configMaps = new Set<string>();
  const addAll = (kind: Kind, list: readonly ReferencingObject[]) => {
    const found = memo ? memo.foundIn(kind, list) : list.map((object) => referencesOf(kind, object));
    for (let index = 0; index < found.length; index += 1) {
      const { secrets: secretKeys, configMaps: configMapKeys } = found[index]!;
      if (secretKeys.length === 0 && configMapKeys.length === 0) continue;
      for (const key of secretKeys) secrets.add(key);
      for (const key of configMapKeys) configMaps.add(key);
    }
  };
  for (const kind of ALL_KINDS) addAll(kind, objects[KINDS[kind].list] ?? []);
  return { secrets, configMaps };
}
