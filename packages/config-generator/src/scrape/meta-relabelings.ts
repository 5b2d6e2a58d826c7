/**
 * Relabelings prometheus-operator puts into every monitor job, in its exact shapes (key order
 * matters: the output is meant to diff cleanly against upstream).
 */
import { sanitizeLabelName } from '../values/label-names.ts';
import { sharedRule } from './shared-rules.ts';

/** Keeps the configured job name in `__tmp_prometheus_job_name` before anything rewrites `job`. */
export function jobNameMetaRelabeling(): Record<string, unknown> {
  return sharedRule('job-name', () => ({ source_labels: ['job'], target_label: '__tmp_prometheus_job_name' }));
}

/** Drops targets of pods that finished (Failed or Succeeded): they cannot be scraped anyway. */
export function runningPodFilter(): Record<string, unknown> {
  return sharedRule('running-pod', () => ({ action: 'drop', source_labels: ['__meta_kubernetes_pod_phase'], regex: '(Failed|Succeeded)' }));
}

/** `{action: keep}` on one meta label; `regex` may be a number (container port numbers render as ints). */
export function keepMatching(sourceLabel: string, regex: string | number): Record<string, unknown> {
  return sharedRule(`keep\u0000${sourceLabel}\u0000${typeof regex}\u0000${regex}`, () => ({ action: 'keep', source_labels: [sourceLabel], regex }));
}

/** Keep only the container port named or numbered by `targetPort` (the fallback when no port name is given). */
export function keepTargetPort(targetPort: string | number | undefined): Record<string, unknown>[] {
  if (typeof targetPort === 'string' && targetPort !== '') return [keepMatching('__meta_kubernetes_pod_container_port_name', targetPort)];
  if (typeof targetPort === 'number' && targetPort !== 0) return [keepMatching('__meta_kubernetes_pod_container_port_number', targetPort)];
  return [];
}

/** Copies a meta label onto a target label (no regex, as upstream's namespace/service/pod/container rules). */
export function copyMetaLabel(sourceLabel: string, targetLabel: string): Record<string, unknown> {
  return sharedRule(`copy\u0000${sourceLabel}\u0000${targetLabel}`, () => ({ source_labels: [sourceLabel], target_label: targetLabel }));
}

/**
 * Copies a Kubernetes label (`service` or `pod`) onto the target when it has a value: used for
 * targetLabels, podTargetLabels and jobLabel.
 */
export function copyKubernetesLabel(kind: 'service' | 'pod', label: string, targetLabel = sanitizeLabelName(label)): Record<string, unknown> {
  return {
    source_labels: [`__meta_kubernetes_${kind}_label_${sanitizeLabelName(label)}`],
    target_label: targetLabel,
    regex: '(.+)',
    replacement: '${1}',
  };
}

/** Sets a target label to a fixed value. */
export function setLabel(targetLabel: string, replacement: string): Record<string, unknown> {
  return sharedRule(`set\u0000${targetLabel}\u0000${replacement}`, () => ({ target_label: targetLabel, replacement }));
}
