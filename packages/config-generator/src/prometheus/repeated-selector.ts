/**
 * A bound checked before a ServiceMonitor or PodMonitor is rendered: every endpoint's job repeats the monitor's
 * selector, so a small object (5,000 endpoints and 200 matchExpressions are 85 KB) asks for a million selector
 * rules, and building them would cost far more time and memory than the object's size suggests before the jobs'
 * size (shard-configs.ts) could refuse them (docs/performance.md, "Hostile objects").
 */
import type { PodMonitor, ServiceMonitor } from '@promop/crds';
import { formatCount } from '@promop/prometheus-lang';
import type { FieldProblem } from '../model.ts';
import { MONITOR_JOBS_MAX_BYTES } from './scrape-config-files.ts';

/**
 * The least bytes one selector requirement takes in one job, lower bounds so that no monitor whose jobs could fit
 * is refused: the default mechanism (RelabelConfig) writes a relabeling per requirement, whose source label alone
 * is `__meta_kubernetes_pod_label_` and the key (over 40 bytes with its list item); RoleSelector writes the key (at
 * least one character) and a separator into the label selector text.
 */
const RELABELING_REQUIREMENT_BYTES = 40;
const ROLE_SELECTOR_REQUIREMENT_BYTES = 2;

/**
 * Why `monitor`'s jobs cannot fit into one scrape file, from its endpoints and selector alone, or undefined when
 * they might (the jobs are then measured as written).
 */
export function repeatedSelectorProblem(monitor: ServiceMonitor | PodMonitor, maxBytes: number = MONITOR_JOBS_MAX_BYTES): FieldProblem | undefined {
  const spec: Partial<ServiceMonitor['spec'] & PodMonitor['spec']> = monitor.spec ?? {};
  const endpoints = Array.isArray(spec.endpoints) ? spec.endpoints.length : Array.isArray(spec.podMetricsEndpoints) ? spec.podMetricsEndpoints.length : 0;
  const selector = spec.selector ?? {};
  const requirements = Object.keys(selector.matchLabels ?? {}).length + (Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0);
  const perRequirement = spec.selectorMechanism === 'RoleSelector' ? ROLE_SELECTOR_REQUIREMENT_BYTES : RELABELING_REQUIREMENT_BYTES;
  const leastBytes = endpoints * requirements * perRequirement;
  if (leastBytes <= maxBytes) return undefined;
  return {
    path: 'spec',
    message: `its ${formatCount(endpoints)} endpoints each repeat the ${formatCount(requirements)} requirements of its selector in their scrape jobs, at least ${formatCount(leastBytes)} bytes of YAML; a monitor's jobs may take at most ${formatCount(maxBytes)} bytes, what one scrape file holds (all of a monitor's jobs go into one file, a Secret of at most 1 MiB); use fewer endpoints or a shorter selector, or split it into several monitors`,
  };
}
