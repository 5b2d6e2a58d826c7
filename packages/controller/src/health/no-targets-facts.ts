/**
 * Gathers what no-targets-reason.ts needs to say why a monitor has no target: the Namespaces from promop's cache,
 * the Services (ServiceMonitor) or Pods (PodMonitor) its selector matches, read from the API server (promop's caches
 * hold only its own Services and Pods), and what Prometheus dropped of each of its scrape pools.
 *
 * Bounded: the health reporter asks only for a monitor about to be written NoTargets, or one that has said so for a
 * while (health-reporter.ts); then at most NAMESPACES_READ_MAX list requests of one page each (the selector's
 * matchLabels sent to the API server, its matchExpressions applied here), and one request to Prometheus per scrape
 * pool, at most POOLS_READ_MAX, each answer at most DROPPED_ANSWER_MAX_BYTES (a Prometheus too old to filter by pool
 * answers with every pool's). Any of them may fail: the reason then says less, never something untrue.
 */
import type { V1Pod, V1Service } from '@kubernetes/client-node';
import { matchLabelSelector } from '@promop/config-generator';
import type { LabelSelector, ScrapeKind } from '@promop/crds';
import { namespacedPath } from '../kube/index.ts';
import type { PrometheusClient } from '../prometheus-client/index.ts';
import { discoveryNamespacesOf, monitorStepsOf, type DroppedPool, type NoTargetsFacts } from './no-targets-reason.ts';
import { scrapePoolOf } from './target-health.ts';

/** At most this many namespaces have their Services or Pods read for one monitor. */
export const NAMESPACES_READ_MAX = 10;
/** At most this many scrape pools (endpoints) of one monitor are asked about. */
export const POOLS_READ_MAX = 8;
/** The longest answer of GET /api/v1/targets?state=dropped read. */
export const DROPPED_ANSWER_MAX_BYTES = 4 * 1024 * 1024;
/** The Services or Pods read per namespace (one page). */
export const OBJECTS_PAGE_SIZE = 500;

/** One page of a namespace's Services or Pods. */
export interface ObjectsPage {
  items: readonly (V1Service | V1Pod)[];
  /** False when more pages follow. */
  complete: boolean;
}

/** Reads one page of `resource` in `namespace` that `labelSelector` (Kubernetes' text form) matches. */
export type ListObjects = (resource: 'services' | 'pods', namespace: string, labelSelector: string) => Promise<ObjectsPage>;

/**
 * ListObjects through the API server (`getJson` of kube/raw-api.ts): one page of OBJECTS_PAGE_SIZE, the label
 * selector applied by the server.
 */
export function apiObjectLister(getJson: <T>(path: string, request: { query: Record<string, string | number | undefined> }) => Promise<T>): ListObjects {
  return async (resource, namespace, labelSelector) => {
    const page = await getJson<{ items?: (V1Service | V1Pod)[]; metadata?: { continue?: string } }>(
      namespacedPath('/api/v1', namespace, resource), { query: { limit: OBJECTS_PAGE_SIZE, labelSelector: labelSelector === '' ? undefined : labelSelector } });
    return { items: page.items ?? [], complete: !page.metadata?.continue };
  };
}

/** What the gathering needs of one monitor. */
export interface NoTargetsSubject {
  kind: ScrapeKind;
  namespace: string;
  name: string;
  spec: unknown;
  /** The Prometheus' spec.ignoreNamespaceSelectors. */
  ignoreNamespaceSelectors: boolean;
}

/** The facts, and whether some read failed (the reason found may then be less precise than the last one). */
export interface GatheredFacts {
  facts: NoTargetsFacts;
  failed: boolean;
}

/**
 * The facts about `subject`. `existingNamespaces`: those promop's cache holds, undefined when it does not hold every
 * one (no-targets-reason.ts). `list` reads Services and Pods (undefined: they are not read); `client` calls one
 * replica of the Prometheus that reports no target (undefined: nothing dropped is read). Every shard discovers every
 * target and drops those of the other shards, so with no active target on any shard one shard's dropped targets
 * are all that discovery found.
 */
export async function gatherNoTargetsFacts(subject: NoTargetsSubject, existingNamespaces: ReadonlySet<string> | undefined, list: ListObjects | undefined, client: PrometheusClient | undefined): Promise<GatheredFacts> {
  let failed = false;
  const facts: NoTargetsFacts = { ...subject, existingNamespaces, dropped: new Map() };
  const monitor = monitorStepsOf(subject.kind, subject.spec);
  if (monitor && list) {
    const wanted = discoveryNamespacesOf(monitor.namespaceSelector, subject.namespace, subject.ignoreNamespaceSelectors);
    const namespaces = wanted === 'all' ? [...existingNamespaces ?? []].sort() : wanted.filter((name) => existingNamespaces?.has(name) ?? true);
    if (namespaces.length > 0 && namespaces.length <= NAMESPACES_READ_MAX) {
      const { selector } = monitor;
      try {
        const pages = await Promise.all(namespaces.map((namespace) => list(monitor.resource, namespace, matchLabelsText(selector))));
        facts.selected = {
          items: pages.flatMap((page) => page.items).filter((item) => matchLabelSelector(selector, item.metadata?.labels ?? {}).matches),
          complete: pages.every((page) => page.complete),
        };
      } catch {
        failed = true;
      }
    }
  }
  if (client) {
    const pools = Array.from({ length: monitor ? Math.min(monitor.endpoints.length, POOLS_READ_MAX) : 1 }, (_, index) => scrapePoolOf(subject.kind, subject.namespace, subject.name, index));
    for (const pool of pools) {
      const answer = await client.droppedTargets(pool, DROPPED_ANSWER_MAX_BYTES);
      if (!answer.ok) {
        failed = true;
        continue;
      }
      (facts.dropped as Map<string, DroppedPool>).set(pool, droppedPoolOf(answer.value, pool));
    }
  }
  return { facts, failed };
}

/**
 * What `answer` says of `pool`. A Prometheus that ignores `scrapePool=` lists every pool's, so targets are kept by
 * their pool (older versions name it only in the discovered `job` label); the count is Prometheus' own when it
 * gives one (it keeps at most keep_dropped_targets of them listed), else the targets listed.
 */
export function droppedPoolOf(answer: { droppedTargets: readonly { scrapePool?: string; discoveredLabels?: Record<string, string> }[]; droppedTargetCounts?: Record<string, number> }, pool: string): DroppedPool {
  const targets = answer.droppedTargets.filter((target) => (target.scrapePool ?? target.discoveredLabels?.job) === pool).map((target) => target.discoveredLabels ?? {});
  return { count: answer.droppedTargetCounts?.[pool] ?? targets.length, targets };
}

/** The selector's matchLabels in Kubernetes' text form (label names and values need no quoting); `` for none. */
function matchLabelsText(selector: LabelSelector): string {
  return Object.entries(selector.matchLabels ?? {}).map(([key, value]) => `${key}=${value}`).join(',');
}
