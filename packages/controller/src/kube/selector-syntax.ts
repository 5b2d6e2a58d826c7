/**
 * Checks of the selector strings `promop run` passes to the API server (`--prometheus-instance-selector`,
 * `--secret-label-selector`, `--secret-field-selector`) and of namespace names (`--namespaces`). The API server
 * refuses a malformed selector with 400 on every list, which would leave promop retrying its first list forever;
 * checking the flag first turns that into one sentence and exit status 2.
 *
 * The grammar is the one of k8s.io/apimachinery's label and field selector parsers, written from their documented
 * syntax (https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors and
 * .../field-selectors/): comma-separated requirements; labels take `k`, `!k`, `k=v`, `k==v`, `k!=v`, `k in (v,...)`,
 * `k notin (v,...)`, `k>n`, `k<n`; fields take `f=v`, `f==v`, `f!=v`.
 */

/** A user's flag value: fine, or a sentence saying what is wrong. */
export type SyntaxCheck = { ok: true } | { ok: false; message: string };

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Why `key` is not a label key, or undefined when it is one. */
function labelKeyProblem(key: string): string | undefined {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) return `the prefix "${prefix}" of label key "${key}" is not a DNS subdomain`;
  if (name.length === 0 || name.length > 63 || !NAME.test(name)) return `"${key}" is not a label key (at most 63 letters, digits, '-', '_', '.', beginning and ending with a letter or digit, after an optional DNS prefix and '/')`;
  return undefined;
}

function labelValueProblem(value: string): string | undefined {
  if (value === '' || (value.length <= 63 && NAME.test(value))) return undefined;
  return `"${value}" is not a label value (at most 63 letters, digits, '-', '_', '.', beginning and ending with a letter or digit)`;
}

/** Splits at the commas outside parentheses. */
function requirements(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selector.slice(start));
  return parts.map((part) => part.trim());
}

/** Checks a label selector string such as `team=a,tier in (web,api),!legacy`. */
export function checkLabelSelector(selector: string): SyntaxCheck {
  if (selector.trim() === '') return { ok: false, message: 'is empty' };
  for (const requirement of requirements(selector)) {
    const problem = labelRequirementProblem(requirement);
    if (problem) return { ok: false, message: problem };
  }
  return { ok: true };
}

function labelRequirementProblem(requirement: string): string | undefined {
  if (requirement === '') return 'has an empty requirement (two commas, or a comma at an end)';
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(requirement);
  if (set) {
    const [, key = '', , values = ''] = set;
    const listed = values.split(',').map((value) => value.trim());
    if (listed.length === 1 && listed[0] === '') return `"${requirement}" lists no value`;
    return labelKeyProblem(key) ?? listed.map(labelValueProblem).find(Boolean);
  }
  const compare = /^([^=!<>\s]+)\s*(==|=|!=|<|>)\s*(.*)$/.exec(requirement);
  if (compare) {
    const [, key = '', operator, value = ''] = compare;
    if ((operator === '<' || operator === '>') && !/^-?\d+$/.test(value)) return `"${requirement}": ${operator} compares with an integer`;
    return labelKeyProblem(key) ?? labelValueProblem(value);
  }
  const exists = /^(!?)\s*([^\s=!<>(),]+)$/.exec(requirement);
  if (exists) return labelKeyProblem(exists[2] ?? '');
  return `"${requirement}" is not a requirement (key, !key, key=value, key!=value, key in (a,b), key notin (a,b))`;
}

/** Checks a field selector string such as `type!=kubernetes.io/dockercfg,metadata.name=x`. */
export function checkFieldSelector(selector: string): SyntaxCheck {
  if (selector.trim() === '') return { ok: false, message: 'is empty' };
  for (const requirement of selector.split(',').map((part) => part.trim())) {
    if (requirement === '') return { ok: false, message: 'has an empty requirement (two commas, or a comma at an end)' };
    if (!/^[A-Za-z][A-Za-z0-9_.]*\s*(==|=|!=)[^=!]*$/.test(requirement)) {
      return { ok: false, message: `"${requirement}" is not a requirement (field=value, field==value or field!=value)` };
    }
  }
  return { ok: true };
}

/** Checks a namespace name (a DNS label of at most 63 characters). */
export function checkNamespaceName(name: string): SyntaxCheck {
  if (name.length <= 63 && DNS_LABEL.test(name)) return { ok: true };
  return { ok: false, message: `"${name}" is not a namespace name (at most 63 lower-case letters, digits and '-', beginning and ending with a letter or digit)` };
}
