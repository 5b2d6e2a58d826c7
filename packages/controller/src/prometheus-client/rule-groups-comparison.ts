/**
 * Are the rule files Prometheus reports as loaded (GET /api/v1/rules) the ones promop wrote into the rule
 * ConfigMaps? Rule files reach the pod through their own ConfigMap volumes, which the kubelet updates
 * independently of the config Secret, so a reload can pick up a new config with old rules (or the reverse).
 *
 * The API reports each group with the file it came from, its rules' names, labels, annotations and `for` (in
 * seconds), and each expression re-printed by the PromQL printer (`sum(x) by (job)` comes back as
 * `sum by (job) (x)`, quotes as `"`). Expressions are therefore compared by a fingerprint that survives
 * re-printing: their non-space characters as a sorted multiset, with quotes unified. Any edit that adds,
 * removes or changes a character (a threshold, a metric, a label) changes it; a pure permutation of the same
 * characters is the one edit it cannot see.
 */
import { load } from 'js-yaml';
import { parseDuration } from '@promop/config-generator';

/** One group as GET /api/v1/rules reports it (the fields compared). */
export interface LoadedRuleGroup {
  name: string;
  file: string;
  /** Evaluation interval in seconds. */
  interval: number;
  rules: LoadedRule[];
  /** Duration of the group's last evaluation, in seconds (read by the health reporter, not compared). */
  evaluationTime?: number;
}

/** One rule as GET /api/v1/rules reports it (the fields compared). */
export interface LoadedRule {
  type: 'alerting' | 'recording';
  name: string;
  query: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** `for`, in seconds (alerting rules). */
  duration?: number;
  /** The last evaluation's outcome, `ok`, `err` or `unknown`, and its error (read by the health reporter, not compared). */
  health?: string;
  lastError?: string;
  /** Alerting rules: their pending and firing alerts (read by the health reporter, not compared). */
  alerts?: { state?: string }[];
}

/** The rule files promop expects Prometheus to have loaded: the path Prometheus sees (in the pod) → file text. */
export type ExpectedRuleFiles = Readonly<Record<string, string>>;

/** Equal, or a sentence saying where they first differ. */
export type RuleComparison = { equal: true } | { equal: false; reason: string };

interface ExpectedRule {
  record?: string;
  alert?: string;
  expr?: string | number;
  for?: string;
  labels?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

interface ExpectedGroup {
  name: string;
  interval?: string;
  rules?: ExpectedRule[];
}

/** How to compare. */
export interface RuleComparisonOptions {
  /**
   * Label names left out of both sides' rule labels: thanos rule reports its external labels among each rule's
   * labels, and one of them replaces a rule's label of the same name, so neither side's value of them is comparable.
   */
  ignoredLabels?: readonly string[];
}

/**
 * Compares `expected` (the complete set of rule files for this Prometheus) with the loaded groups: each file's
 * groups must be loaded with the same rules in the same order, and no group may come from a file not in `expected`
 * (a rule file promop removed but Prometheus still evaluates). Throws only if an expected file is not YAML
 * (promop wrote it: a bug).
 */
export function compareLoadedRules(expected: ExpectedRuleFiles, loaded: readonly LoadedRuleGroup[], options: RuleComparisonOptions = {}): RuleComparison {
  const ignored = new Set(options.ignoredLabels ?? []);
  for (const group of loaded) {
    if (!(group.file in expected)) return { equal: false, reason: `Prometheus evaluates group ${group.name} from ${group.file}, which is not an expected rule file` };
  }
  for (const [file, text] of Object.entries(expected)) {
    const groups = ((load(text) as { groups?: ExpectedGroup[] } | null)?.groups) ?? [];
    const loadedGroups = loaded.filter((group) => group.file === file);
    if (loadedGroups.length !== groups.length) {
      return { equal: false, reason: `${file}: ${groups.length} groups expected, ${loadedGroups.length} loaded` };
    }
    // The API lists groups sorted, not in file order; names are unique within a file (Prometheus enforces it).
    for (const group of groups) {
      const loadedGroup = loadedGroups.find((candidate) => candidate.name === group.name);
      if (loadedGroup === undefined) return { equal: false, reason: `${file}: group ${JSON.stringify(group.name)} is not loaded` };
      const result = compareGroup(group, loadedGroup, ignored);
      if (!result.equal) return { equal: false, reason: `${file}: ${result.reason}` };
    }
  }
  return { equal: true };
}

function compareGroup(expected: ExpectedGroup, loaded: LoadedRuleGroup, ignoredLabels: ReadonlySet<string>): RuleComparison {
  const where = `group ${expected.name}`;
  if (expected.interval !== undefined && parseDuration(expected.interval) !== loaded.interval * 1000) {
    return { equal: false, reason: `${where}: interval ${expected.interval} expected, ${loaded.interval}s loaded` };
  }
  const rules = expected.rules ?? [];
  if (rules.length !== loaded.rules.length) return { equal: false, reason: `${where}: ${rules.length} rules expected, ${loaded.rules.length} loaded` };
  for (const [index, rule] of rules.entries()) {
    const actual = loaded.rules[index]!;
    const name = rule.alert ?? rule.record ?? '';
    const type = rule.alert !== undefined ? 'alerting' : 'recording';
    const at = `${where}, rule ${index} (${name})`;
    if (actual.type !== type || actual.name !== name) return { equal: false, reason: `${at}: ${type} rule ${name} expected, ${actual.type} rule ${actual.name} loaded` };
    if (exprFingerprint(String(rule.expr ?? '')) !== exprFingerprint(actual.query)) return { equal: false, reason: `${at}: the expression differs` };
    if (!sameStrings(withoutNames(rule.labels, ignoredLabels), withoutNames(actual.labels, ignoredLabels))) return { equal: false, reason: `${at}: the labels differ` };
    if (type === 'alerting') {
      if (!sameStrings(rule.annotations, actual.annotations)) return { equal: false, reason: `${at}: the annotations differ` };
      if ((parseDuration(rule.for ?? '0') ?? -1) !== (actual.duration ?? 0) * 1000) return { equal: false, reason: `${at}: for ${rule.for ?? '0s'} expected, ${actual.duration ?? 0}s loaded` };
    }
  }
  return { equal: true };
}

/**
 * A fingerprint of an expression that the PromQL printer's rewriting does not change: comments (dropped by the
 * printer), number spellings (`0.20` → `0.2`), duration spellings (`300s` → `5m`), keyword case (`BY` → `by`),
 * empty `()`/`{}` (`group_left` → `group_left ()`, `x{}` → `x`), trailing commas, quotes (`'`, `` ` `` → `"`) and
 * clause order (`sum(x) by (job)` → `sum by (job) (x)`, matchers sorted) are all normalised away by reducing
 * what is left to the sorted multiset of its characters.
 */
function exprFingerprint(expr: string): string {
  const normalised = withoutComments(expr)
    .replace(DURATION_TOKEN, (token) => `${parseDuration(token) ?? token}ms`)
    .replace(NUMBER_TOKEN, (token) => String(Number(token)))
    .replace(/\s+/g, '')
    .toLowerCase()
    .replace(/,([)}])/g, '$1')
    .replace(/\(\)|\{\}/g, '')
    .replace(/['`]/g, '"');
  return [...normalised].sort().join('');
}

// Tokens standing alone (not part of a metric or label name such as `burnrate1h`).
const DURATION_TOKEN = /(?<![\w.:])(?:\d+(?:ms|[smhdwy]))+(?![\w.:])/g;
const NUMBER_TOKEN = /(?<![\w.:])(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?(?![\w.:])/gi;

/** `expr` without PromQL comments: `#` to the end of the line, outside string literals. */
function withoutComments(expr: string): string {
  let result = '';
  let quote: string | undefined;
  for (let index = 0; index < expr.length; index += 1) {
    const char = expr[index]!;
    if (quote !== undefined) {
      result += char;
      if (char === '\\' && quote !== '`') {
        result += expr[index + 1] ?? '';
        index += 1;
      } else if (char === quote) {
        quote = undefined;
      }
    } else if (char === '"' || char === "'" || char === '`') {
      quote = char;
      result += char;
    } else if (char === '#') {
      while (index < expr.length && expr[index] !== '\n') index += 1;
      result += '\n';
    } else {
      result += char;
    }
  }
  return result;
}

function withoutNames<T>(labels: Record<string, T> | undefined, names: ReadonlySet<string>): Record<string, T> | undefined {
  return labels && names.size > 0 ? Object.fromEntries(Object.entries(labels).filter(([name]) => !names.has(name))) : labels;
}

function sameStrings(expected: Record<string, unknown> | undefined, loaded: Record<string, string> | undefined): boolean {
  const a = Object.entries(expected ?? {}).map(([key, value]) => [key, String(value)] as const);
  const b = loaded ?? {};
  return a.length === Object.keys(b).length && a.every(([key, value]) => b[key] === value);
}
