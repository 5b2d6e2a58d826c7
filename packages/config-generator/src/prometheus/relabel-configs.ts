/**
 * User relabel rules of the Prometheus object itself (remote write `writeRelabelConfigs`,
 * alertmanager `relabelings`/`alertRelabelings`) in upstream's key order: source_labels,
 * separator, target_label, regex, modulus, replacement, action (lowercased). Only set fields
 * are written.
 */

/** prometheus-operator's RelabelConfig API type. */
export interface RelabelConfigSpec {
  sourceLabels?: string[] | null;
  separator?: string | null;
  targetLabel?: string | null;
  regex?: string | null;
  modulus?: number | null;
  replacement?: string | null;
  action?: string | null;
}

/** Renders relabel rules for prometheus.yaml. */
export function renderRelabelConfigs(rules: readonly RelabelConfigSpec[]): Array<Record<string, unknown>> {
  return rules.map((rule) => {
    const rendered: Record<string, unknown> = {};
    if (rule.sourceLabels && rule.sourceLabels.length > 0) rendered.source_labels = [...rule.sourceLabels];
    if (rule.separator !== null && rule.separator !== undefined) rendered.separator = rule.separator;
    if (rule.targetLabel) rendered.target_label = rule.targetLabel;
    if (rule.regex) rendered.regex = rule.regex;
    if (rule.modulus) rendered.modulus = rule.modulus;
    if (rule.replacement !== null && rule.replacement !== undefined) rendered.replacement = rule.replacement;
    if (rule.action) rendered.action = rule.action.toLowerCase();
    return rendered;
  });
}
