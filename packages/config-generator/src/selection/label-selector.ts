/**
 * Kubernetes label selectors (`matchLabels` + `matchExpressions`), as the Prometheus object's
 * `*Selector` and `*NamespaceSelector` fields and monitors' `selector` use them: validation (once, the
 * same way for selection and for the relabelings scrape/selector-relabelings.ts makes of them), matching,
 * and a mismatch explained in words, because "why is my ServiceMonitor not scraped?" is the question users ask.
 */
import type { LabelSelector } from '@promop/crds';
import type { FieldProblem } from '../model.ts';
import { keyPath } from '../values/field-path.ts';

const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/**
 * A Kubernetes label key (apimachinery's IsLabelKey): an optional DNS subdomain prefix of at most 253
 * characters and `/`, then a name of at most 63 letters, digits, `-`, `_` or `.` that starts and ends
 * with a letter or digit.
 */
export function isQualifiedName(key: string): boolean {
  const slash = key.indexOf('/');
  const name = slash < 0 ? key : key.slice(slash + 1);
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) return false;
  return name.length <= 63 && NAME.test(name);
}

/** A Kubernetes label value (apimachinery's IsLabelValue): empty, or a label key's name part. */
export function isLabelValue(value: string): boolean {
  return value.length <= 63 && VALUE.test(value);
}

/**
 * Checks that the selector is one Kubernetes would accept: label keys and values well formed,
 * known operators, values present exactly when the operator needs them. Values end up inside
 * generated regexes, so this also keeps those regexes valid; a caller that accepts values no label can have
 * (`acceptInvalidLabels`) must quote them in its regexes (literalSelector). Keys only ever reach a relabeling
 * sanitised into a label name, so an invalid one cannot break it.
 */
export function validateLabelSelector(selector: LabelSelector, path: string, options: { acceptInvalidLabels?: boolean } = {}): FieldProblem[] {
  const problems: FieldProblem[] = [];
  // acceptInvalidLabels: the caller warns about such keys and values and renders the values literally (a Probe's
  // ingress selector, see scrape/probe.ts).
  const badValue = (value: unknown) => typeof value !== 'string' || (!options.acceptInvalidLabels && !isLabelValue(value));
  const badKey = (key: unknown) => typeof key !== 'string' || (!options.acceptInvalidLabels && !isQualifiedName(key));
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (badKey(key)) problems.push({ path: `${path}.matchLabels`, message: `"${key}" is not a valid label key` });
    else if (badValue(value)) problems.push({ path: keyPath(`${path}.matchLabels`, key), message: `"${String(value)}" is not a valid label value` });
  }
  (selector.matchExpressions ?? []).forEach((expression, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values = expression.values ?? [];
    if (badKey(expression.key ?? '')) problems.push({ path: `${at}.key`, message: `"${String(expression.key ?? '')}" is not a valid label key` });
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
      if (badValue(value)) problems.push({ path: `${at}.values[${j}]`, message: `"${String(value)}" is not a valid label value` });
    });
  });
  return problems;
}

/** Outcome of matching labels against a selector; `unmet` names the first requirement that failed. */
export type SelectorMatch = { matches: true } | { matches: false; unmet: string };

/**
 * Matches `labels` against a (valid) selector. An empty selector matches everything; callers
 * handle the "selector not set" case themselves because its meaning depends on the field.
 */
export function matchLabelSelector(selector: LabelSelector, labels: Record<string, string>): SelectorMatch {
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
        // validateLabelSelector (above) rejects unknown operators before anything is matched.
        throw new Error(`bug: unvalidated selector operator ${expression.operator}`);
    }
  }
  return { matches: true };
}

/**
 * A selector in words, e.g. `matchLabels team=a, matchExpressions tier In [x, y]`, or `{}` for
 * the empty selector (which selects everything).
 */
export function describeLabelSelector(selector: LabelSelector): string {
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

/** Go's regexp.QuoteMeta: `text` matched literally inside a regex. */
function quoteRegex(text: string): string {
  return text.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** Where a selector holds a key or a value no Kubernetes label can have, and that key or value. */
export interface InvalidSelectorValue {
  path: string;
  value: string;
}

/**
 * `selector` with every value that is not a valid label value quoted for a regex (Go's QuoteMeta), so that the
 * relabelings made of it (scrape/selector-relabelings.ts, which writes valid values as they are) match it
 * literally: no label has such a value, so it matches nothing, and none of its characters can change what the
 * regex matches or make it invalid. Also returns where those values are, and where the keys no label can have are
 * (kept as they are: a relabeling reads a key sanitised into a label name).
 */
export function literalSelector(selector: LabelSelector, path: string): { selector: LabelSelector; invalid: InvalidSelectorValue[]; invalidKeys: InvalidSelectorValue[] } {
  const invalid: InvalidSelectorValue[] = [];
  const invalidKeys: InvalidSelectorValue[] = [];
  for (const key of Object.keys(selector.matchLabels ?? {})) {
    if (!isQualifiedName(key)) invalidKeys.push({ path: keyPath(`${path}.matchLabels`, key), value: key });
  }
  (selector.matchExpressions ?? []).forEach((expression, i) => {
    if (!isQualifiedName(expression.key ?? '')) invalidKeys.push({ path: `${path}.matchExpressions[${i}].key`, value: expression.key ?? '' });
  });
  const literal = (value: string, at: string) => {
    if (isLabelValue(value)) return value;
    invalid.push({ path: at, value });
    return quoteRegex(value);
  };
  const matchLabels = selector.matchLabels === undefined
    ? undefined
    : Object.fromEntries(Object.entries(selector.matchLabels).map(([key, value]) => [key, literal(value, keyPath(`${path}.matchLabels`, key))]));
  const matchExpressions = selector.matchExpressions?.map((expression, i) => (expression.values === undefined
    ? expression
    : { ...expression, values: expression.values.map((value, j) => literal(value, `${path}.matchExpressions[${i}].values[${j}]`)) }));
  return {
    selector: { ...selector, ...(matchLabels ? { matchLabels } : {}), ...(matchExpressions ? { matchExpressions } : {}) },
    invalid,
    invalidKeys,
  };
}
