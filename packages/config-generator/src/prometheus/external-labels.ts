/**
 * `global.external_labels`: the labels every series and alert leaving this Prometheus carries.
 * prometheus-operator writes `$(POD_NAME)` for the replica label and has its config-reloader
 * sidecar substitute it. promop has no such sidecar, so it writes `${POD_NAME}` and relies on
 * Prometheus itself expanding environment variables in external label values (always on since
 * Prometheus 3.0; the `expand-external-labels` feature flag before that), with POD_NAME set
 * from the pod's name by the StatefulSet.
 */
import type { PrometheusSpec } from '@promop/crds';
import { compareCodePoints } from '../go-map-order.ts';
import { isValidLabelName, labelNameRule } from '../values/prometheus-names.ts';
import type { PrometheusRenderContext } from './render-context.ts';
import { zoneLabelName } from './sharding.ts';
import { TOPOLOGY_ZONE_PLACEHOLDER } from '../scrape/sharding.ts';

/** The environment variable the StatefulSet sets to the pod name. */
export const POD_NAME_ENV = 'POD_NAME';
/** Default name of the label carrying `<namespace>/<name>` of the Prometheus object. */
export const DEFAULT_PROMETHEUS_LABEL_NAME = 'prometheus';
/** Default name of the label carrying the pod (replica) name. */
export const DEFAULT_REPLICA_LABEL_NAME = 'prometheus_replica';

/** The fields of the Prometheus spec that shape the external labels. */
export type ExternalLabelFields = Pick<PrometheusSpec, 'externalLabels' | 'prometheusExternalLabelName' | 'replicaExternalLabelName' | 'shardingStrategy'>;

/** The replica label's name after defaulting; '' means the label is not added. */
export function replicaLabelName(spec: ExternalLabelFields): string {
  return spec.replicaExternalLabelName ?? DEFAULT_REPLICA_LABEL_NAME;
}

/**
 * Builds external_labels sorted by name (as upstream's map is). The operator-owned labels win
 * over a user label of the same name, which is dropped with a warning. A name Prometheus would
 * refuse ("" is not a valid label name: the whole file is refused) is a problem.
 */
export function buildExternalLabels(spec: ExternalLabelFields, context: PrometheusRenderContext): Record<string, string> {
  const checkName = (name: string, path: string) => {
    if (!isValidLabelName(name, context.nameValidationScheme)) {
      context.findings.problem(path, `"${name}" is not a label name this Prometheus accepts (${labelNameRule(context.nameValidationScheme)})`);
    }
  };
  if (spec.prometheusExternalLabelName) checkName(spec.prometheusExternalLabelName, 'spec.prometheusExternalLabelName');
  if (spec.replicaExternalLabelName) checkName(spec.replicaExternalLabelName, 'spec.replicaExternalLabelName');
  const labels = new Map<string, string>();
  const prometheusLabel = spec.prometheusExternalLabelName ?? DEFAULT_PROMETHEUS_LABEL_NAME;
  if (prometheusLabel !== '') labels.set(prometheusLabel, `${context.namespace}/${context.name}`);
  const replicaLabel = replicaLabelName(spec);
  if (replicaLabel !== '') labels.set(replicaLabel, `\${${POD_NAME_ENV}}`);
  // Topology sharding: the shard's zone, written into each shard's file (prometheus/sharding.ts substituteShard).
  const zoneLabel = zoneLabelName(spec);
  if (zoneLabel !== undefined) labels.set(zoneLabel, TOPOLOGY_ZONE_PLACEHOLDER);

  const userLabels = spec.externalLabels ?? {};
  for (const key of Object.keys(userLabels).sort(compareCodePoints)) {
    checkName(key, `spec.externalLabels.${key}`);
    if (labels.has(key)) {
      context.findings.warn(`spec.externalLabels.${key}: ignored because "${key}" is a label promop sets itself`);
      continue;
    }
    labels.set(key, userLabels[key] ?? '');
  }

  const sorted: Record<string, string> = {};
  for (const key of [...labels.keys()].sort(compareCodePoints)) sorted[key] = labels.get(key) ?? '';
  return sorted;
}
