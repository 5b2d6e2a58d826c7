/**
 * A monitor's `selector` (over Service or Pod labels) turned into keep/drop relabelings on the
 * Kubernetes SD meta labels, as prometheus-operator's default "RelabelConfig" selector mechanism
 * does; or, for the "RoleSelector" mechanism, into the label selector string Kubernetes SD
 * passes to the API server.
 */
import { compareCodePoints } from '../go-map-order.ts';
import type { FieldProblem } from '../model.ts';
import { keyPath } from '../rules/field-path.ts';
import { sanitizeLabelName } from './label-names.ts';

/** metav1.LabelSelector. */
export interface LabelSelectorSpec {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function isQualifiedName(key: string): boolean {
  const slash = key.indexOf('/');
  const name = slash < 0 ? key : key.slice(slash + 1);
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) return false;
  return name.length <= 63 && NAME.test(name);
}

function isLabelValue(value: string): boolean {
  return value.length <= 63 && VALUE.test(value);
}

/**
 * Checks that the selector is one Kubernetes would accept: label keys and values well formed,
 * known operators, values present exactly when the operator needs them. Values end up inside
 * generated regexes, so this also keeps those regexes valid.
 */
export function validateLabelSelector(selector: LabelSelectorSpec, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (!isQualifiedName(key)) problems.push({ path: `${path}.matchLabels`, message: `"${key}" is not a valid label key` });
    else if (typeof value !== 'string' || !isLabelValue(value)) problems.push({ path: keyPath(`${path}.matchLabels`, key), message: `"${String(value)}" is not a valid label value` });
  }
  (selector.matchExpressions ?? []).forEach((expression, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values = expression.values ?? [];
    if (!isQualifiedName(expression.key ?? '')) problems.push({ path: `${at}.key`, message: `"${expression.key ?? ''}" is not a valid label key` });
    switch (expression.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) problems.push({ path: `${at}.values`, message: `the ${expression.operator} operator needs at least one value` });
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) problems.push({ path: `${at}.values`, message: `the ${expression.operator} operator takes no values` });
        break;
      default:
        problems.push({ path: `${at}.operator`, message: `unknown operator "${expression.operator}"; expected In, NotIn, Exists or DoesNotExist` });
    }
    values.forEach((value, j) => {
      if (!isLabelValue(value)) problems.push({ path: `${at}.values[${j}]`, message: `"${value}" is not a valid label value` });
    });
  });
  return problems;
}

/**
 * Keep/drop relabelings selecting targets whose `kind` (`service`, `pod`, or a Probe's `ingress`)
 * labels match the selector: matchLabels in key order, then matchExpressions in their order.
 */
export function selectorRelabelings(selector: LabelSelectorSpec, kind: 'service' | 'pod' | 'ingress'): Record<string, unknown>[] {
  const label = (key: string): string => `__meta_kubernetes_${kind}_label_${sanitizeLabelName(key)}`;
  const present = (key: string): string => `__meta_kubernetes_${kind}_labelpresent_${sanitizeLabelName(key)}`;
  const rules: Record<string, unknown>[] = [];
  const matchLabels = selector.matchLabels ?? {};
  for (const key of Object.keys(matchLabels).sort(compareCodePoints)) {
    rules.push({ action: 'keep', source_labels: [label(key), present(key)], regex: `(${matchLabels[key]});true` });
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
export function labelSelectorString(selector: LabelSelectorSpec): string {
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
