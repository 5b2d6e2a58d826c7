/**
 * The rule ConfigMaps `prometheus-<name>-rulefiles-<i>` as the generator packed them (at most 512 KiB of files
 * each, so always under the 1 MiB ConfigMap limit). They carry prometheus-operator's `prometheus-name` label so
 * the controller can list them and delete the ones a shrinking rule set no longer needs.
 */
import type { V1ConfigMap } from '@kubernetes/client-node';
import type { GeneratorOutput } from '@promop/config-generator';
import type { PrometheusWorkload } from './workload-kind.ts';
import { RULE_CONFIGMAP_PROMETHEUS_LABEL, managedByLabels } from './labels.ts';
import { prometheusOwnerReference } from './owner-reference.ts';

/** One ConfigMap per entry of `output.ruleConfigMaps` (the generator always gives at least one). */
export function buildRuleConfigMaps(prometheus: PrometheusWorkload, output: Pick<GeneratorOutput, 'ruleConfigMaps'>): V1ConfigMap[] {
  const { name, namespace } = prometheus.metadata;
  const owner = prometheusOwnerReference(prometheus);
  return output.ruleConfigMaps.map((ruleConfigMap): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: ruleConfigMap.name,
      namespace,
      labels: { ...managedByLabels(), [RULE_CONFIGMAP_PROMETHEUS_LABEL]: name },
      ownerReferences: [owner],
    },
    data: { ...ruleConfigMap.files },
  }));
}
