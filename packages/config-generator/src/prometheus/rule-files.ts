/**
 * `rule_files`: one glob per rule ConfigMap mount. prometheus-operator always mounts at least
 * three rule ConfigMaps (optional volumes, so the missing ones are empty directories): adding a
 * rule file that needs a new ConfigMap then does not change the pod template.
 */
import { RULES_DIR, ruleConfigMapName } from '../pod-layout.ts';

/** How many rule ConfigMap mounts there are at least. */
export const MIN_RULE_CONFIGMAP_MOUNTS = 3;

/** The names of the rule ConfigMaps the pod mounts, padded to MIN_RULE_CONFIGMAP_MOUNTS. */
export function mountedRuleConfigMapNames(prometheusName: string, ruleConfigMapCount: number): string[] {
  const count = Math.max(ruleConfigMapCount, MIN_RULE_CONFIGMAP_MOUNTS);
  return Array.from({ length: count }, (_, index) => ruleConfigMapName(prometheusName, index));
}

/** The `rule_files` globs for those mounts. */
export function buildRuleFiles(prometheusName: string, ruleConfigMapCount: number): string[] {
  return mountedRuleConfigMapNames(prometheusName, ruleConfigMapCount).map((name) => `${RULES_DIR}/${name}/*.yaml`);
}
