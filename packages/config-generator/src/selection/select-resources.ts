/**
 * Applies one pair of a Prometheus' selectors (e.g. `serviceMonitorSelector` +
 * `serviceMonitorNamespaceSelector`) to candidate resources, with prometheus-operator's
 * semantics: a nil resource selector selects nothing, `{}` selects everything; a nil namespace
 * selector means the Prometheus' own namespace only, `{}` means every namespace. Every candidate
 * left out gets a verdict naming the selector that excluded it and why.
 */
import type { NamespaceInfo, ResourceKind, Verdict } from '../model.ts';
import type { LabelSelector, ObjectMeta } from '@promop/crds';
import { describeLabelSelector, describeLabels, matchLabelSelector } from './label-selector.ts';

/** What selection needs to know about a candidate resource. */
export interface SelectableResource {
  metadata: Pick<ObjectMeta, 'namespace' | 'name' | 'labels'>;
}

/** One selector pair of the Prometheus object, with the field names used in verdicts. */
export interface SelectorPair {
  selectorField: string;
  selector: LabelSelector | null | undefined;
  namespaceSelectorField: string;
  namespaceSelector: LabelSelector | null | undefined;
}

/** The candidates that were selected (in input order) and a verdict for each one that was not. */
export interface ResourceSelection<T> {
  selected: T[];
  notSelected: Verdict[];
}

/** Namespace labels by name; a namespace absent from the input is treated as having no labels. */
export type NamespaceLabels = ReadonlyMap<string, Record<string, string>>;

/** Indexes the input's namespaces once so that each lookup is constant time. */
export function indexNamespaces(namespaces: readonly NamespaceInfo[]): NamespaceLabels {
  return new Map(namespaces.map((namespace) => [namespace.name, namespace.labels ?? {}]));
}

/**
 * Selects `candidates` of `kind` for the Prometheus `prometheus` (namespace/name) using `pair`.
 * Selectors must already have passed validateLabelSelector.
 */
export function selectResources<T extends SelectableResource>(
  kind: ResourceKind,
  candidates: readonly T[],
  prometheus: { kind?: ResourceKind; namespace: string; name: string },
  pair: SelectorPair,
  namespaces: NamespaceLabels,
): ResourceSelection<T> {
  const owner = `${prometheus.kind ?? 'Prometheus'} ${prometheus.namespace}/${prometheus.name}'s`;
  const selected: T[] = [];
  const notSelected: Verdict[] = [];
  // Many candidates share a namespace: decide each namespace once.
  const namespaceDecisions = new Map<string, string | undefined>();

  for (const candidate of candidates) {
    const namespace = candidate.metadata?.namespace ?? '';
    const name = candidate.metadata?.name ?? '';
    const resource = { kind, namespace, name };

    let namespaceReason = namespaceDecisions.get(namespace);
    if (!namespaceDecisions.has(namespace)) {
      namespaceReason = whyNamespaceIsExcluded(kind, owner, prometheus.namespace, pair, namespace, namespaces);
      namespaceDecisions.set(namespace, namespaceReason);
    }
    if (namespaceReason !== undefined) {
      notSelected.push({ resource, selected: false, reason: namespaceReason });
      continue;
    }

    if (pair.selector === null || pair.selector === undefined) {
      notSelected.push({ resource, selected: false, reason: `${owner} ${pair.selectorField} is not set, so no ${kind} is selected` });
      continue;
    }
    const labels = candidate.metadata?.labels ?? {};
    const match = matchLabelSelector(pair.selector, labels);
    if (!match.matches) {
      notSelected.push({
        resource,
        selected: false,
        reason: `${owner} ${pair.selectorField} (${describeLabelSelector(pair.selector)}) does not match the ${kind}'s labels (labels: ${describeLabels(labels)}): ${match.unmet}`,
      });
      continue;
    }
    selected.push(candidate);
  }
  return { selected, notSelected };
}

function whyNamespaceIsExcluded(
  kind: ResourceKind,
  owner: string,
  prometheusNamespace: string,
  pair: SelectorPair,
  namespace: string,
  namespaces: NamespaceLabels,
): string | undefined {
  if (pair.namespaceSelector === null || pair.namespaceSelector === undefined) {
    if (namespace === prometheusNamespace) return undefined;
    return `${owner} ${pair.namespaceSelectorField} is not set, so only ${kind}s in its own namespace "${prometheusNamespace}" are selected, not namespace "${namespace}"`;
  }
  const labels = namespaces.get(namespace) ?? {};
  const match = matchLabelSelector(pair.namespaceSelector, labels);
  if (match.matches) return undefined;
  const known = namespaces.has(namespace) ? '' : ', namespace not found';
  return `${owner} ${pair.namespaceSelectorField} (${describeLabelSelector(pair.namespaceSelector)}) does not match namespace "${namespace}" (labels: ${describeLabels(labels)}${known}): ${match.unmet}`;
}
