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
import { callCache, type RenderCache } from '../render-memo.ts';

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

/** What selection decided for one candidate: why its namespace is out (undefined: in), and its verdict when not selected. */
interface CandidateDecision {
  namespace: string;
  namespaceReason: string | undefined;
  notSelected: Verdict | undefined;
}

/**
 * Selects `candidates` of `kind` for the Prometheus `prometheus` (namespace/name) using `pair`.
 * Selectors must already have passed validateLabelSelector. With a RenderMemo, a candidate that is the very object of
 * the previous call at the same position, under the same selector and with the same decision for its namespace,
 * keeps its decision (and its verdict object) without matching labels again.
 */
export function selectResources<T extends SelectableResource>(
  kind: ResourceKind,
  candidates: readonly T[],
  prometheus: { kind?: ResourceKind; namespace: string; name: string },
  pair: SelectorPair,
  namespaces: NamespaceLabels,
  cache: RenderCache = callCache(),
): ResourceSelection<T> {
  const owner = `${prometheus.kind ?? 'Prometheus'} ${prometheus.namespace}/${prometheus.name}'s`;
  // Many candidates share a namespace: decide each namespace once ('' stands for "selected": no reason is empty).
  const namespaceDecisions = new Map<string, string>();
  const namespaceReasonOf = (namespace: string): string | undefined => {
    let reason = namespaceDecisions.get(namespace);
    if (reason === undefined) namespaceDecisions.set(namespace, (reason = whyNamespaceIsExcluded(kind, owner, prometheus.namespace, pair, namespace, namespaces) ?? ''));
    return reason === '' ? undefined : reason;
  };
  const decide = (candidate: T): CandidateDecision => {
    const namespace = candidate.metadata?.namespace ?? '';
    const name = candidate.metadata?.name ?? '';
    const resource = { kind, namespace, name };
    const namespaceReason = namespaceReasonOf(namespace);
    if (namespaceReason !== undefined) return { namespace, namespaceReason, notSelected: { resource, selected: false, reason: namespaceReason } };
    if (pair.selector === null || pair.selector === undefined) {
      return { namespace, namespaceReason, notSelected: { resource, selected: false, reason: `${owner} ${pair.selectorField} is not set, so no ${kind} is selected` } };
    }
    const labels = candidate.metadata?.labels ?? {};
    const match = matchLabelSelector(pair.selector, labels);
    if (match.matches) return { namespace, namespaceReason, notSelected: undefined };
    return {
      namespace,
      namespaceReason,
      notSelected: {
        resource,
        selected: false,
        reason: `${owner} ${pair.selectorField} (${describeLabelSelector(pair.selector)}) does not match the ${kind}'s labels (labels: ${describeLabels(labels)}): ${match.unmet}`,
      },
    };
  };
  // A kept decision's object and selectors are as before; its namespace's labels may not be.
  const decisions = cache.atPositions(`selection|${kind}`, candidates, `${owner}|${JSON.stringify(pair)}`, decide, (kept) => kept.namespaceReason === namespaceReasonOf(kept.namespace));
  const selected: T[] = [];
  const notSelected: Verdict[] = [];
  for (let index = 0; index < candidates.length; index += 1) {
    const decision = decisions[index]!;
    if (decision.notSelected) notSelected.push(decision.notSelected);
    else selected.push(candidates[index]!);
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
