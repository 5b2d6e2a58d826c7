/**
 * A monitor's `selector` (over Service or Pod labels) turned into keep/drop relabelings on the
 * Kubernetes SD meta labels, as prometheus-operator's default "RelabelConfig" selector mechanism
 * does; or, for the "RoleSelector" mechanism, into the label selector string Kubernetes SD
 * passes to the API server.
 */
import { compareCodePoints } from '../go-map-order.ts';
import type { LabelSelector } from '@promop/crds';
import { sanitizeLabelName } from '../values/label-names.ts';
import { sharedRule } from './shared-rules.ts';

/**
 * Keep/drop relabelings selecting targets whose `kind` (`service`, `pod`, or a Probe's `ingress`)
 * labels match the selector: matchLabels in key order, then matchExpressions in their order.
 */
export function selectorRelabelings(selector: LabelSelector, kind: 'service' | 'pod' | 'ingress'): Record<string, unknown>[] {
  const label = (key: string): string => `__meta_kubernetes_${kind}_label_${sanitizeLabelName(key)}`;
  const present = (key: string): string => `__meta_kubernetes_${kind}_labelpresent_${sanitizeLabelName(key)}`;
  const rules: Record<string, unknown>[] = [];
  const matchLabels = selector.matchLabels ?? {};
  for (const key of Object.keys(matchLabels).sort(compareCodePoints)) {
    const value = matchLabels[key];
    rules.push(sharedRule(`select\u0000${kind}\u0000${key}\u0000${value}`, () => ({ action: 'keep', source_labels: [label(key), present(key)], regex: `(${value});true` })));
  }
  for (const expression of selector.matchExpressions ?? []) {
    const values = (expression.values ?? []).join('|');
    switch (expression.operator) {
      case 'In':
        rules.push({ action: 'keep', source_labels: [label(expression.key), present(expression.key)], regex: `(${values});true` });
        break;
      case 'NotIn':
        rules.push({ action: 'drop', source_labels: [label(expression.key), present(expression.key)], regex: `(${values});true` });
        break;
      case 'Exists':
        rules.push({ action: 'keep', source_labels: [present(expression.key)], regex: 'true' });
        break;
      case 'DoesNotExist':
        rules.push({ action: 'drop', source_labels: [present(expression.key)], regex: 'true' });
        break;
    }
  }
  return rules;
}

/**
 * The selector in Kubernetes' text form (`a=b,c in (d,e),!f`), requirements sorted by key and
 * values sorted, as apimachinery's `LabelSelector.String()` prints it.
 */
export function labelSelectorString(selector: LabelSelector): string {
  const requirements: Array<{ key: string; text: string }> = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) requirements.push({ key, text: `${key}=${value}` });
  for (const expression of selector.matchExpressions ?? []) {
    const values = [...new Set(expression.values ?? [])].sort().join(',');
    const text =
      expression.operator === 'In'
        ? `${expression.key} in (${values})`
        : expression.operator === 'NotIn'
          ? `${expression.key} notin (${values})`
          : expression.operator === 'Exists'
            ? expression.key
            : `!${expression.key}`;
    requirements.push({ key: expression.key, text });
  }
  // Stable sort by key only, as apimachinery's ByKey.
  return requirements
    .map((r, i) => ({ ...r, i }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i))
    .map((r) => r.text)
    .join(',');
}
