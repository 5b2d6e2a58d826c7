/**
 * What differs when the generator renders a PrometheusAgent instead of a Prometheus server. The agent's spec is
 * the fields the two share, so everything else (selectors, monitors, scrape classes, global scrape settings,
 * remote write, sharding) is the same code; this module holds only the differences:
 *
 * - no rules and no alerting: Prometheus in agent mode refuses a configuration with `rule_files`, `alerting` or
 *   `remote_read` (config.go, "field ... is not allowed in agent mode"), and prometheus-operator's agent
 *   configuration (GenerateAgentConfiguration) has none of them, nor `evaluation_interval`, `rule_query_offset`,
 *   `query_log_file` or a retention;
 * - `spec.mode: DaemonSet` is prometheus-operator's alpha deployment mode, which promop does not implement: it is
 *   reported at its path instead of being deployed as a StatefulSet without a word.
 */
import type { Prometheus, PrometheusAgent } from '@promop/crds';
import type { FieldProblem } from '../model.ts';

/** A Prometheus server or agent: the objects the generator renders a configuration for. */
export type PrometheusWorkload = Prometheus | PrometheusAgent;

/** True for a PrometheusAgent. */
export function isAgent(workload: PrometheusWorkload): workload is PrometheusAgent {
  return workload.kind === 'PrometheusAgent';
}

/** Problems of an agent's spec that make its configuration unusable: a deployment mode promop does not implement. */
export function agentModeProblems(workload: PrometheusWorkload): FieldProblem[] {
  if (!isAgent(workload)) return [];
  const mode = workload.spec?.mode;
  if (mode === undefined || mode === 'StatefulSet') return [];
  return [{
    path: 'spec.mode',
    message: `"${mode}" is not implemented by promop, which deploys a PrometheusAgent as a StatefulSet only; remove spec.mode or set it to StatefulSet`,
  }];
}

/**
 * Warnings about an agent's spec. An agent without remote write is valid (Prometheus and prometheus-operator accept
 * it), but it keeps no queryable data, so every sample it scrapes is dropped once its WAL is truncated.
 */
export function agentModeWarnings(workload: PrometheusWorkload): string[] {
  if (!isAgent(workload) || (workload.spec?.remoteWrite?.length ?? 0) > 0) return [];
  return ['spec.remoteWrite: empty, so the agent scrapes its targets but sends the samples nowhere (an agent keeps no queryable data)'];
}
