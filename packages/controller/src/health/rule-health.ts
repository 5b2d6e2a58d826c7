/**
 * Per PrometheusRule, how its groups fare in one Prometheus: from GET /api/v1/rules of one replica per shard, the
 * groups loaded from its rule file, their rules, the rules whose last evaluation failed (with one redacted error),
 * the firing alerts and the longest group evaluation. Pure: the health reporter reads and writes.
 *
 * The generator names each object's rule file `<namespace>-<name>-<uid>.yaml` (ruleFileName of
 * @promop/config-generator) and Prometheus reports the path of the file a group came from; the file's base name is
 * matched exactly against the names of the objects in the cache, so a group names its object without parsing a
 * name that may itself hold dashes. Every shard loads every rule file, so groups, rules and failures are those of
 * the shard that reports most (they are the same on a healthy Prometheus), while firing alerts add up: each shard
 * evaluates on the series of its own targets.
 *
 * An object none of whose rules was evaluated yet (a Prometheus just started, or just loaded its groups) gets no
 * summary: nothing is known of it, and the reporter writes nothing for it, so its binding keeps what it said.
 */
import { ErrorTally } from './error-tally.ts';

/** One rule as GET /api/v1/rules reports it (the fields read). */
export interface EvaluatedRule {
  type?: string;
  /** `ok`, `err` or `unknown` (not evaluated yet). */
  health?: string;
  lastError?: string;
  /** Alerting rules: their alerts, each `pending` or `firing`. */
  alerts?: readonly { state?: string }[];
}

/** One group as GET /api/v1/rules reports it (the fields read). */
export interface EvaluatedGroup {
  name: string;
  file: string;
  rules: readonly EvaluatedRule[];
  /** Duration of the last evaluation, in seconds. */
  evaluationTime?: number;
}

/** The condition reason of a PrometheusRule's Healthy condition. */
export type RulesReason = 'RulesEvaluated' | 'RulesFailing' | 'NoRuleGroups';

/** The rule groups of one PrometheusRule in one Prometheus. */
export interface RulesSummary {
  groups: number;
  rules: number;
  failing: number;
  /** Rules not evaluated yet (a group just loaded). */
  pending: number;
  /** A redacted last evaluation error of a failing rule (the most frequent kind). */
  lastError?: string;
  firingAlerts: number;
  /** The longest last evaluation of one of its groups, in whole milliseconds. */
  evaluationMilliseconds: number;
}

/** A PrometheusRule none of whose groups this Prometheus has loaded. */
export const NO_RULE_GROUPS: RulesSummary = { groups: 0, rules: 0, failing: 0, pending: 0, firingAlerts: 0, evaluationMilliseconds: 0 };

/**
 * What `report` says of PrometheusRule `key`: its summary, NO_RULE_GROUPS when none of its groups is loaded,
 * undefined when nothing is known of it yet (see the file comment).
 */
export function rulesOf(report: RulesReport, key: string): RulesSummary | undefined {
  return report.notEvaluatedYet.has(key) ? undefined : report.summaries.get(key) ?? NO_RULE_GROUPS;
}

/** The base name of a path (`/etc/prometheus/rules/<ConfigMap>/<file>` → `<file>`). */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** What one Prometheus says of the rule groups of its PrometheusRules, by object key. */
export interface RulesReport {
  /** The objects with groups loaded and at least one rule evaluated (or failing). */
  summaries: Map<string, RulesSummary>;
  /** The objects with groups loaded none of whose rules was evaluated yet: nothing is known of them (file comment). */
  notEvaluatedYet: Set<string>;
}

/**
 * The rule groups of every PrometheusRule in `objectOfFile` (rule file base name → the object's key) that has any,
 * from `answers` (the groups of each shard); a group from a file of no object in the map is ignored. Objects in
 * neither part of the result have no group loaded in this Prometheus.
 */
export function summariseRules(answers: readonly (readonly EvaluatedGroup[])[], objectOfFile: ReadonlyMap<string, string>): RulesReport {
  const perShard = answers.map((groups) => {
    const byObject = new Map<string, { summary: RulesSummary; errors: ErrorTally }>();
    for (const group of groups) {
      const key = objectOfFile.get(baseName(group.file));
      if (key === undefined) continue;
      let entry = byObject.get(key);
      if (!entry) byObject.set(key, (entry = { summary: { ...NO_RULE_GROUPS }, errors: new ErrorTally() }));
      const { summary, errors } = entry;
      summary.groups += 1;
      summary.evaluationMilliseconds = Math.max(summary.evaluationMilliseconds, Math.round((group.evaluationTime ?? 0) * 1000));
      for (const rule of group.rules) {
        summary.rules += 1;
        summary.firingAlerts += (rule.alerts ?? []).filter((alert) => alert.state === 'firing').length;
        if (rule.health !== 'ok' && rule.health !== 'err') summary.pending += 1;
        if (rule.health !== 'err') continue;
        summary.failing += 1;
        errors.add(rule.lastError);
      }
    }
    return new Map([...byObject].map(([key, { summary, errors }]) => {
      const top = errors.mostFrequent();
      return [key, top ? { ...summary, lastError: top.example } : summary];
    }));
  });
  const result = new Map<string, RulesSummary>();
  for (const shard of perShard) {
    for (const [key, summary] of shard) {
      const seen = result.get(key);
      if (!seen) {
        result.set(key, summary);
        continue;
      }
      // The shard with more failures (then more groups) speaks for the object; firing alerts add up.
      const worse = summary.failing > seen.failing || (summary.failing === seen.failing && summary.groups > seen.groups) ? summary : seen;
      result.set(key, {
        ...worse,
        firingAlerts: seen.firingAlerts + summary.firingAlerts,
        evaluationMilliseconds: Math.max(seen.evaluationMilliseconds, summary.evaluationMilliseconds),
      });
    }
  }
  const notEvaluatedYet = new Set<string>();
  for (const [key, summary] of result) {
    if (summary.failing === 0 && summary.pending === summary.rules) {
      result.delete(key);
      notEvaluatedYet.add(key);
    }
  }
  return { summaries: result, notEvaluatedYet };
}

/**
 * The Healthy condition of a PrometheusRule with `summary` (one summariseRules made, or NO_RULE_GROUPS): its status,
 * reason and a one-line message.
 */
export function rulesCondition(summary: RulesSummary): { status: 'True' | 'False'; reason: RulesReason; message: string } {
  const { groups, rules, failing, firingAlerts } = summary;
  if (groups === 0) return { status: 'False', reason: 'NoRuleGroups', message: 'no rule group of this object is loaded' };
  const firing = firingAlerts > 0 ? `, ${plural(firingAlerts, 'alert')} firing` : '';
  if (failing === 0) return { status: 'True', reason: 'RulesEvaluated', message: `${plural(groups, 'group')}, ${plural(rules, 'rule')} evaluated${firing}` };
  const error = summary.lastError ? `: ${summary.lastError}` : '';
  return { status: 'False', reason: 'RulesFailing', message: `${failing} of ${plural(rules, 'rule')} failed their last evaluation${firing}${error}` };
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
