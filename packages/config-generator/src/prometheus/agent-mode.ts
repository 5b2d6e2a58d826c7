/**
 * What differs when the generator renders a PrometheusAgent instead of a Prometheus server. The agent's spec is
 * the fields the two share, so everything else (selectors, monitors, scrape classes, global scrape settings,
 * remote write, sharding) is the same code; this module holds only the differences:
 *
 * - no rules and no alerting: Prometheus in agent mode refuses a configuration with `rule_files`, `alerting` or
 *   `remote_read` (config.go, "field ... is not allowed in agent mode"), and prometheus-operator's agent
 *   configuration (GenerateAgentConfiguration) has none of them, nor `evaluation_interval`, `rule_query_offset`,
 *   `query_log_file` or a retention;
 * - `spec.mode: DaemonSet` (prometheus-operator's alpha mode): one agent pod per node, each scraping the pods of its
 *   own node only. Only PodMonitors are rendered (prometheus-operator's GenerateAgentConfiguration skips
 *   ServiceMonitors, Probes and ScrapeConfigs in this mode), each job's pod discovery is limited to the node by a
 *   field selector on `spec.nodeName`, and nothing is sharded. The fields that make no sense per node are refused
 *   at their paths, the same fields prometheus-operator's CRD refuses with CEL rules (DAEMONSET_REFUSED_FIELDS).
 */
import type { Prometheus, PrometheusAgent } from '@promop/crds';
import type { FieldProblem } from '../model.ts';

/** A Prometheus server or agent: the objects the generator renders a configuration for. */
export type PrometheusWorkload = Prometheus | PrometheusAgent;

/** True for a PrometheusAgent. */
export function isAgent(workload: PrometheusWorkload): workload is PrometheusAgent {
  return workload.kind === 'PrometheusAgent';
}

/** True for a PrometheusAgent with `spec.mode: DaemonSet`: one pod per node, scraping that node's pods. */
export function isDaemonSetAgent(workload: PrometheusWorkload): workload is PrometheusAgent {
  return isAgent(workload) && workload.spec?.mode === 'DaemonSet';
}

/**
 * The spec fields a DaemonSet agent refuses, with why: a pod per node has no replica count, shards or storage of its
 * own, and it scrapes pods only (prometheus-operator's CEL rules on PrometheusAgent refuse the same fields; `shards`
 * only above 1).
 */
export const DAEMONSET_REFUSED_FIELDS = [
  { field: 'replicas', why: 'a DaemonSet runs one pod per node' },
  { field: 'storage', why: 'a DaemonSet has no volume claim per pod' },
  { field: 'shards', why: 'a DaemonSet agent scrapes its own node and is not sharded', onlyAbove: 1 },
  { field: 'persistentVolumeClaimRetentionPolicy', why: 'a DaemonSet has no volume claims' },
  { field: 'shardingStrategy', why: 'a DaemonSet agent is not sharded' },
  { field: 'serviceMonitorSelector', why: 'a DaemonSet agent scrapes pods only (PodMonitors)' },
  { field: 'serviceMonitorNamespaceSelector', why: 'a DaemonSet agent scrapes pods only (PodMonitors)' },
  { field: 'probeSelector', why: 'a DaemonSet agent scrapes pods only (PodMonitors)' },
  { field: 'probeNamespaceSelector', why: 'a DaemonSet agent scrapes pods only (PodMonitors)' },
  { field: 'scrapeConfigSelector', why: 'a DaemonSet agent scrapes pods only (PodMonitors)' },
  { field: 'scrapeConfigNamespaceSelector', why: 'a DaemonSet agent scrapes pods only (PodMonitors)' },
  { field: 'additionalScrapeConfigs', why: 'a DaemonSet agent scrapes pods only (PodMonitors)' },
] as const satisfies readonly { field: string; why: string; onlyAbove?: number }[];

/**
 * Problems of an agent's spec that make its configuration unusable: in DaemonSet mode, each refused field that is
 * set, at its path. The CRD refuses these at apply; this catches objects stored before the CRD carried the rules.
 */
export function agentModeProblems(workload: PrometheusWorkload): FieldProblem[] {
  if (!isDaemonSetAgent(workload)) return [];
  const spec = (workload.spec ?? {}) as Record<string, unknown>;
  return DAEMONSET_REFUSED_FIELDS.flatMap((refused) => {
    const value = spec[refused.field];
    if (value === undefined || value === null) return [];
    if ('onlyAbove' in refused && typeof value === 'number' && value <= refused.onlyAbove) return [];
    return [{ path: `spec.${refused.field}`, message: `cannot be set with spec.mode DaemonSet: ${refused.why}` }];
  });
}

/**
 * Warnings about an agent's spec. An agent without remote write is valid (Prometheus and prometheus-operator accept
 * it), but it keeps no queryable data, so every sample it scrapes is dropped once its WAL is truncated.
 */
export function agentModeWarnings(workload: PrometheusWorkload): string[] {
  if (!isAgent(workload) || (workload.spec?.remoteWrite?.length ?? 0) > 0) return [];
  return ['spec.remoteWrite: empty, so the agent scrapes its targets but sends the samples nowhere (an agent keeps no queryable data)'];
}
