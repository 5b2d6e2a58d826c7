/**
 * The cluster as it would be after `kubectl apply -f <manifests>` (pure), for `promop diff`: each Prometheus,
 * PrometheusAgent, ServiceMonitor, PodMonitor, Probe, ScrapeConfig and PrometheusRule of the manifests replaces the object of the same kind, namespace and
 * name (keeping the uid, generation and status the API server keeps) or is added; declared Namespaces replace the
 * labels of the live ones; Secrets and ConfigMaps of the manifests replace the live data. An object the API server
 * would refuse (it fails the CRD schema) is not applied: the live object stays, and the refusal is reported.
 *
 * "Replaces" is what applying a complete manifest does to the fields promop reads (spec and labels). Fields set by
 * other means and left out of the manifest would survive an apply and are not modelled.
 */
import type { V1Namespace } from '@kubernetes/client-node';
import type { FieldProblem, KeyValueSource } from '@promop/config-generator';
import { VALIDATORS } from '@promop/crds';
import { KINDS } from '@promop/crds/kinds';
import { concatClusterObjects, noClusterObjects, type ClusterObjects } from './cluster-objects.ts';
import type { Manifests, RenderedKind } from './manifest-reader.ts';
import { schemaRejection } from './render-command.ts';

/** A manifest object the API server would refuse. */
export interface RefusedManifest {
  /** One of the rendered kinds, or Secret, ConfigMap, Namespace (manifest-reader.ts refuses those). */
  kind: string;
  namespace: string;
  name: string;
  source: string;
  problems: FieldProblem[];
}

/** A manifest object that would be applied. */
export interface AppliedManifest {
  kind: RenderedKind;
  namespace: string;
  name: string;
  source: string;
  /** `created`: no live object; `configured`: its spec or labels change; `unchanged`. */
  change: 'created' | 'configured' | 'unchanged';
}

/** The cluster's objects with the manifests applied. */
export interface OverlaidObjects {
  objects: ClusterObjects;
  applied: AppliedManifest[];
  refused: RefusedManifest[];
  /** Things worth knowing about the result (a new PrometheusRule's file name depends on the uid it will get). */
  notes: string[];
}

type CustomObject = { metadata: { namespace: string; name: string; uid?: string; generation?: number; labels?: Record<string, string> }; spec?: unknown; status?: unknown };


/** Applies `manifests` to the live objects (which stay untouched: the result holds copies of the lists). */
export function overlayManifests(live: ClusterObjects, manifests: Manifests): OverlaidObjects {
  const objects = concatClusterObjects(noClusterObjects(), live);
  const applied: AppliedManifest[] = [];
  const refused: RefusedManifest[] = [...manifests.refused];
  const newRules: string[] = [];
  for (const resource of manifests.resources) {
    const where = { kind: resource.kind, namespace: resource.namespace, name: resource.name, source: resource.source };
    const validated = VALIDATORS[resource.kind](resource.object);
    if (!validated.ok) {
      const verdict = schemaRejection(resource, validated.errors);
      refused.push({ ...where, problems: verdict.selected && !verdict.accepted ? verdict.problems : [] });
      continue;
    }
    const list = (objects as unknown as Record<string, CustomObject[]>)[KINDS[resource.kind].list]!;
    const index = list.findIndex((object) => object.metadata.namespace === resource.namespace && object.metadata.name === resource.name);
    const next = validated.value as CustomObject;
    if (index === -1) {
      list.push(next);
      applied.push({ ...where, change: 'created' });
      if (resource.kind === 'PrometheusRule') newRules.push(`${resource.namespace}/${resource.name}`);
      continue;
    }
    const current = list[index]!;
    const changed = JSON.stringify(next.spec) !== JSON.stringify(current.spec) || !sameLabels(next.metadata.labels, current.metadata.labels);
    list[index] = withServerFields(next, current, changed);
    applied.push({ ...where, change: changed ? 'configured' : 'unchanged' });
  }
  for (const name of manifests.declaredNamespaces) {
    const declared = manifests.namespaces.find((namespace) => namespace.name === name)!;
    const index = objects.namespaces.findIndex((namespace) => namespace.metadata?.name === name);
    const namespace: V1Namespace = { metadata: { ...(index === -1 ? {} : objects.namespaces[index]!.metadata), name, labels: declared.labels } };
    if (index === -1) objects.namespaces.push(namespace);
    else objects.namespaces[index] = namespace;
  }
  const notes = [
    ...(newRules.length === 0 ? [] : [
      `new PrometheusRule${newRules.length > 1 ? 's' : ''} ${newRules.join(', ')}: the rule file name ends with the uid the API server will assign; a placeholder stands in for it`,
    ]),
  ];
  return { objects, applied, refused, notes };
}

/** The live data overlaid with the manifests' Secrets or ConfigMaps (same namespace and name: replaced). */
export function overlayData(live: readonly KeyValueSource[], manifests: readonly KeyValueSource[]): KeyValueSource[] {
  const key = (source: KeyValueSource) => `${source.namespace}/${source.name}`;
  const replaced = new Set(manifests.map(key));
  return [...live.filter((source) => !replaced.has(key(source))), ...manifests];
}

/** The manifest's object with what the API server keeps of the live one: uid, status, and a new generation if the spec changed. */
function withServerFields(next: CustomObject, current: CustomObject, changed: boolean): CustomObject {
  const generation = current.metadata.generation === undefined ? undefined : current.metadata.generation + (changed && JSON.stringify(next.spec) !== JSON.stringify(current.spec) ? 1 : 0);
  return {
    ...next,
    metadata: { ...next.metadata, ...(current.metadata.uid !== undefined ? { uid: current.metadata.uid } : {}), ...(generation !== undefined ? { generation } : {}) },
    ...(current.status !== undefined ? { status: current.status } : {}),
  };
}

function sameLabels(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const left = Object.entries(a ?? {}).sort();
  const right = Object.entries(b ?? {}).sort();
  return JSON.stringify(left) === JSON.stringify(right);
}
