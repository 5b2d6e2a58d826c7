/**
 * Why a monitor has no active target, as precisely as promop can tell (pure): the first step of Prometheus' target
 * discovery that loses everything, named by the field of the object that decides it. The health reporter gathers
 * the facts (no-targets-facts.ts) and writes the sentence into the NoTargets condition and its Warning.
 *
 * The steps follow what promop renders (`scrape/*.ts` of @promop/config-generator, as prometheus-operator does):
 * the namespaces discovery watches (own namespace, `namespaceSelector.matchNames`, or every one with `any`, and only
 * the own namespace when the Prometheus ignores namespace selectors), the Services (ServiceMonitor) or Pods
 * (PodMonitor) `spec.selector` keeps, the port each endpoint keeps (a ServiceMonitor's `port` is a Service port
 * name, its `targetPort` a container port; a PodMonitor's `port` and `portNumber` are container ports), and, past
 * all that, what Prometheus itself says it discovered and dropped for the endpoint's scrape pool. A step is blamed
 * only when the facts prove it loses every target; otherwise the next one is looked at, and when none can be
 * blamed there is no reason (the condition keeps its general sentence).
 */
import type { V1Pod, V1Service } from '@kubernetes/client-node';
import { describeLabelSelector } from '@promop/config-generator';
import type { LabelSelector, NamespaceSelector, PodMonitorSpec, ScrapeKind, ServiceMonitorSpec } from '@promop/crds';
import { scrapePoolOf } from './target-health.ts';

/** The namespaces discovery of a monitor watches: `all`, or these names. */
export type DiscoveryNamespaces = 'all' | readonly string[];

/**
 * The namespaces a ServiceMonitor's or PodMonitor's discovery watches, as the generator renders them
 * (discoveryNamespaces of @promop/config-generator): deduplicated, in order.
 */
export function discoveryNamespacesOf(selector: NamespaceSelector | undefined, namespace: string, ignoreNamespaceSelectors: boolean): DiscoveryNamespaces {
  if (ignoreNamespaceSelectors) return [namespace];
  if (selector?.any) return 'all';
  const names = selector?.matchNames ?? [];
  return names.length === 0 ? [namespace] : [...new Set(names)];
}

/** What Prometheus says of one scrape pool's dropped targets (GET /api/v1/targets?state=dropped). */
export interface DroppedPool {
  /** How many targets discovery found and relabeling dropped. */
  count: number;
  /** The discovered labels of those Prometheus lists (it may keep fewer than it counts: keep_dropped_targets). */
  targets: readonly Readonly<Record<string, string>>[];
}

/** The facts about one monitor without targets, as far as promop could gather them. */
export interface NoTargetsFacts {
  kind: ScrapeKind;
  namespace: string;
  name: string;
  /** The object's spec (only a ServiceMonitor's and a PodMonitor's are read). */
  spec: unknown;
  /** Whether the Prometheus sets spec.ignoreNamespaceSelectors. */
  ignoreNamespaceSelectors: boolean;
  /**
   * The namespaces that exist (promop's Namespace cache); undefined when promop does not see every namespace
   * (`promop run --namespaces`): then no namespace is said not to exist.
   */
  existingNamespaces: ReadonlySet<string> | undefined;
  /**
   * The Services (ServiceMonitor) or Pods (PodMonitor) of the discovery namespaces that spec.selector matches, and
   * whether that is all of them (false: only a first page was read). Undefined when they were not read.
   */
  selected?: { items: readonly (V1Service | V1Pod)[]; complete: boolean };
  /** By scrape pool: what Prometheus dropped of it; a pool absent was not read. */
  dropped: ReadonlyMap<string, DroppedPool>;
}

/** Why the monitor of `facts` has no active target, with the field path that decides it; undefined when unknown. */
export function noTargetsReason(facts: NoTargetsFacts): string | undefined {
  const steps = monitorStepsOf(facts.kind, facts.spec);
  if (steps) return monitorReason(facts, steps);
  const dropped = facts.dropped.get(scrapePoolOf(facts.kind, facts.namespace, facts.name));
  if (!dropped) return undefined;
  return dropped.count === 0 ? 'Prometheus discovered no target' : `Prometheus discovered ${plural(dropped.count, 'target')} and relabeling dropped them all`;
}

/**
 * How each scraping kind is checked: a monitor that selects Services or Pods step by step; a Probe or ScrapeConfig,
 * whose targets promop cannot see, by what Prometheus dropped only.
 */
const STEPS_OF_KIND: Record<ScrapeKind, ((spec: unknown) => MonitorSteps) | undefined> = {
  ServiceMonitor: (spec) => serviceMonitorSteps(spec as ServiceMonitorSpec),
  PodMonitor: (spec) => podMonitorSteps(spec as PodMonitorSpec),
  Probe: undefined,
  ScrapeConfig: undefined,
};

/** How a monitor of `kind` with `spec` is checked; undefined for a kind that selects no Services or Pods. */
export function monitorStepsOf(kind: ScrapeKind, spec: unknown): MonitorSteps | undefined {
  return STEPS_OF_KIND[kind]?.(spec);
}

/** How a kind of monitor is checked, endpoint by endpoint. */
export interface MonitorSteps {
  selector: LabelSelector;
  namespaceSelector: NamespaceSelector | undefined;
  /** What its selector selects: `Service` or `Pod`, and the resource listed to find them. */
  noun: string;
  resource: 'services' | 'pods';
  /** Its endpoints (the scrape pool index is the position): the field path, and why the selected objects give it no target, when they provably do not. */
  endpoints: { path: string; lostEverything: (selected: readonly (V1Service | V1Pod)[], where: string) => string | undefined }[];
  /** The discovered label naming the object a dropped target came from. */
  nameLabel: string;
}

function monitorReason(facts: NoTargetsFacts, steps: MonitorSteps): string | undefined {
  const namespaces = discoveryNamespacesOf(steps.namespaceSelector, facts.namespace, facts.ignoreNamespaceSelectors);
  const existing = facts.existingNamespaces;
  if (namespaces !== 'all' && existing) {
    const missing = namespaces.filter((name) => !existing.has(name));
    if (missing.length === namespaces.length) {
      const field = facts.ignoreNamespaceSelectors ? 'metadata.namespace' : 'spec.namespaceSelector.matchNames';
      return `${field}: ${missing.length === 1 ? `namespace "${missing[0]}" does not exist` : `none of the namespaces ${missing.map((name) => `"${name}"`).join(', ')} exists`}`;
    }
  }
  const where = namespaces === 'all' ? 'in any namespace' : (() => {
    const present = existing ? namespaces.filter((name) => existing.has(name)) : namespaces;
    return present.length === 1 ? `in namespace ${present[0]}` : `in namespaces ${present.join(', ')}`;
  })();
  const selected = facts.selected;
  if (selected && selected.items.length === 0 && selected.complete) {
    return `spec.selector (${describeLabelSelector(steps.selector)}): no ${steps.noun} ${where} matches it`;
  }
  const reasons = steps.endpoints.map((endpoint, index) => {
    const mismatch = selected && selected.complete ? endpoint.lostEverything(selected.items, where) : undefined;
    if (mismatch) return mismatch;
    const dropped = facts.dropped.get(scrapePoolOf(facts.kind, facts.namespace, facts.name, index));
    if (!dropped) return undefined;
    if (dropped.count === 0) return `${endpoint.path}: Prometheus discovered no target ${where}`;
    if (!selected) return `${endpoint.path}: Prometheus discovered ${plural(dropped.count, 'target')} and relabeling dropped them all`;
    // Discovery lists every Service (Pod) of the namespaces; those of the selected ones tell whether they had any.
    const names = new Set(selected.items.map((item) => `${item.metadata?.namespace ?? ''}/${item.metadata?.name ?? ''}`));
    const own = dropped.targets.filter((labels) => names.has(`${labels.__meta_kubernetes_namespace ?? ''}/${labels[steps.nameLabel] ?? ''}`)).length;
    if (own > 0) return `${endpoint.path}: Prometheus discovered ${plural(own, 'target')} of the selected ${steps.noun}s and relabeling dropped them all`;
    // Prometheus lists all it dropped (and the selected objects are all known): none of them came from a selected one.
    if (dropped.targets.length === dropped.count && selected.complete) {
      return steps.noun === 'Service'
        ? `${endpoint.path}: the Services selected by spec.selector ${where} have no endpoints (no Pod matches their selector?)`
        : `${endpoint.path}: Prometheus discovered no target of the Pods selected by spec.selector ${where}`;
    }
    return undefined;
  });
  const known = reasons.filter((reason): reason is string => reason !== undefined);
  // Every endpoint has none; a reason for some of them only still says what promop found.
  return known.length === 0 ? undefined : [...new Set(known)].join('; ');
}

function serviceMonitorSteps(spec: ServiceMonitorSpec): MonitorSteps {
  return {
    selector: spec.selector ?? {},
    namespaceSelector: spec.namespaceSelector,
    noun: 'Service',
    resource: 'services',
    nameLabel: '__meta_kubernetes_service_name',
    endpoints: (spec.endpoints ?? []).map((endpoint, index) => ({
      path: `spec.endpoints[${index}]`,
      lostEverything: (selected, where) => {
        const ports = (selected as V1Service[]).flatMap((service) => service.spec?.ports ?? []);
        if (endpoint.port) {
          const matches = portMatcher(endpoint.port);
          if (!matches || ports.some((port) => port.name !== undefined && matches(port.name))) return undefined;
          return `spec.endpoints[${index}].port: no Service selected by spec.selector ${where} has a port named "${endpoint.port}"`;
        }
        const target = endpoint.targetPort;
        if (target === undefined) return undefined;
        // A Service port's targetPort names the container port (by name or number; absent: the port's own number).
        // Only a name against a name, or a number against a number, proves a mismatch: a named container port
        // may have the number asked for, and the other way round.
        const provablyOther = ports.every((port) => {
          const to = port.targetPort ?? port.port;
          return typeof to === typeof target && String(to) !== String(target);
        });
        return provablyOther
          ? `spec.endpoints[${index}].targetPort: no port of a Service selected by spec.selector ${where} targets ${typeof target === 'string' ? `"${target}"` : target}`
          : undefined;
      },
    })),
  };
}

function podMonitorSteps(spec: PodMonitorSpec): MonitorSteps {
  const containerPorts = (selected: readonly (V1Service | V1Pod)[]) => (selected as V1Pod[]).flatMap((pod) =>
    [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])].flatMap((container) => container.ports ?? []));
  return {
    selector: spec.selector ?? {},
    namespaceSelector: spec.namespaceSelector,
    noun: 'Pod',
    resource: 'pods',
    nameLabel: '__meta_kubernetes_pod_name',
    endpoints: (spec.podMetricsEndpoints ?? []).map((endpoint, index) => ({
      path: `spec.podMetricsEndpoints[${index}]`,
      lostEverything: (selected, where) => {
        const ports = containerPorts(selected);
        const at = `spec.podMetricsEndpoints[${index}]`;
        // The rendered job keeps only running pods (filterRunning, default true): finished ones give no target.
        if (endpoint.filterRunning !== false && (selected as V1Pod[]).every((pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed')) {
          return `${at}: every Pod selected by spec.selector ${where} has finished (Succeeded or Failed), and filterRunning keeps only running ones`;
        }
        const pods = `no container of a Pod selected by spec.selector ${where} has a port`;
        if (endpoint.port) {
          const matches = portMatcher(endpoint.port);
          if (!matches || ports.some((port) => port.name !== undefined && matches(port.name))) return undefined;
          return `${at}.port: ${pods} named "${endpoint.port}"`;
        }
        if (endpoint.portNumber) return ports.some((port) => port.containerPort === endpoint.portNumber) ? undefined : `${at}.portNumber: ${pods} numbered ${endpoint.portNumber}`;
        const target = endpoint.targetPort;
        if (target === undefined) return undefined;
        const found = ports.some((port) => (typeof target === 'string' ? port.name === target : port.containerPort === target));
        return found ? undefined : `${at}.targetPort: ${pods} ${typeof target === 'string' ? `named "${target}"` : `numbered ${target}`}`;
      },
    })),
  };
}

/**
 * The class of a reason, for deciding whether a new one is worth a status write: the counts of targets Prometheus
 * discovered vary with pods coming and going without anything to fix having changed, so they are left out.
 */
export function noTargetsReasonClass(reason: string): string {
  return reason.replace(/\bdiscovered \d+ targets?\b/g, 'discovered <n> targets');
}

/**
 * Whether a port name is kept: the generator writes the name as the regex of a keep rule, which Prometheus anchors
 * at both ends. Undefined when JavaScript cannot compile it the same way: no claim is made then.
 */
function portMatcher(port: string): ((name: string) => boolean) | undefined {
  try {
    const regex = new RegExp(`^(?:${port})$`, 'u');
    return (name) => regex.test(name);
  } catch {
    return undefined;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
