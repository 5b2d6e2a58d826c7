/**
 * Kubernetes label selectors (`matchLabels` + `matchExpressions`), as the Prometheus object's
 * `*Selector` and `*NamespaceSelector` fields use them. Besides matching, this module explains a
 * mismatch in words, because "why is my ServiceMonitor not scraped?" is the question users ask.
 */
// Validation lives with the selector-to-relabeling translation; a selector is checked once, the same way for both uses.
import type { LabelSelectorSpec } from '../scrape/selector-relabelings.ts';

export type { LabelSelectorSpec };

/** Outcome of matching labels against a selector; `unmet` names the first requirement that failed. */
export type SelectorMatch = { matches: true } | { matches: false; unmet: string };

/**
 * Matches `labels` against a (valid) selector. An empty selector matches everything; callers
 * handle the "selector not set" case themselves because its meaning depends on the field.
 */
export function matchLabelSelector(selector: LabelSelectorSpec, labels: Record<string, string>): SelectorMatch {
  const matchLabels = selector.matchLabels ?? {};
  for (const key of Object.keys(matchLabels).sort()) {
    const want = matchLabels[key];
    const have = labels[key];
    if (have === undefined) return { matches: false, unmet: `label ${key} is missing` };
    if (have !== want) return { matches: false, unmet: `label ${key} is "${have}", not "${want}"` };
  }
  for (const expression of selector.matchExpressions ?? []) {
    const have = labels[expression.key];
    const values = expression.values ?? [];
    switch (expression.operator) {
      case 'In':
        if (have === undefined) return { matches: false, unmet: `label ${expression.key} is missing` };
        if (!values.includes(have)) return { matches: false, unmet: `label ${expression.key} is "${have}", not one of ${formatValues(values)}` };
        break;
      case 'NotIn':
        if (have !== undefined && values.includes(have)) {
          return { matches: false, unmet: `label ${expression.key} is "${have}", which is excluded by NotIn ${formatValues(values)}` };
        }
        break;
      case 'Exists':
        if (have === undefined) return { matches: false, unmet: `label ${expression.key} is missing` };
        break;
      case 'DoesNotExist':
        if (have !== undefined) return { matches: false, unmet: `label ${expression.key} is present` };
        break;
      default:
        // validateLabelSelector (scrape/selector-relabelings.ts) rejects unknown operators before anything is matched.
        throw new Error(`bug: unvalidated selector operator ${expression.operator}`);
    }
  }
  return { matches: true };
}

/**
 * A selector in words, e.g. `matchLabels team=a, matchExpressions tier In [x, y]`, or `{}` for
 * the empty selector (which selects everything).
 */
export function describeLabelSelector(selector: LabelSelectorSpec): string {
  const parts: string[] = [];
  const matchLabels = Object.keys(selector.matchLabels ?? {}).sort();
  if (matchLabels.length > 0) parts.push(`matchLabels ${matchLabels.map((key) => `${key}=${selector.matchLabels?.[key]}`).join(',')}`);
  const expressions = (selector.matchExpressions ?? []).map((expression) =>
    expression.operator === 'In' || expression.operator === 'NotIn'
      ? `${expression.key} ${expression.operator} ${formatValues(expression.values ?? [])}`
      : `${expression.key} ${expression.operator}`,
  );
  if (expressions.length > 0) parts.push(`matchExpressions ${expressions.join(', ')}`);
  return parts.length === 0 ? '{}' : parts.join('; ');
}

/** Labels in words, sorted by key: `team=b,tier=web`, or `none`. */
export function describeLabels(labels: Record<string, string>): string {
  const keys = Object.keys(labels).sort();
  return keys.length === 0 ? 'none' : keys.map((key) => `${key}=${labels[key]}`).join(',');
}

function formatValues(values: readonly string[]): string {
  return `[${values.join(', ')}]`;
}
