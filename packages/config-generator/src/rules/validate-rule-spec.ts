/**
 * The checks Prometheus applies when it loads a rule file (`rulefmt.Parse`), run on a
 * PrometheusRule's spec before its file is written, so one bad object is rejected alone with the
 * exact field at fault instead of making Prometheus refuse its whole configuration. Input is
 * `unknown`: objects may come from a file that skipped the API server's schema validation.
 * Expressions are parsed and type-checked as the target Prometheus does, and the labels and annotations of
 * alerting rules parsed as Go templates (@promop/prometheus-lang's checkExpression and checkTemplate). Before any of that, the
 * object's size and each expression's nesting are bounded (rule-input-limits.ts), so one object's check costs
 * every other team little time.
 */
import type { FieldProblem } from '../model.ts';
import { keyPath } from '../values/field-path.ts';
import { isRecord } from '../values/is-record.ts';
import { isValidLabelName, isValidMetricName, labelNameRule, metricNameRule, type NameValidationScheme } from '../values/prometheus-names.ts';
import { checkExpression, checkTemplate, describePosition, parseDuration, shortened, type PromqlTarget } from '@promop/prometheus-lang';
import type { RuleFieldSupport } from './rule-field-support.ts';
import type { PrometheusVersion } from '../prometheus-version.ts';
import { MAX_PROMQL_BRACKET_DEPTH, MAX_RULE_PROBLEMS, ruleTextProblem, tooDeepBracketOffset } from './rule-input-limits.ts';

/** What the checks depend on: the target Prometheus' release, name rules, fields and PromQL. */
export interface RuleValidationOptions {
  scheme: NameValidationScheme;
  /** Fields the version does not support are dropped later, so they are not checked. */
  support: RuleFieldSupport;
  version: PrometheusVersion;
  /** The PromQL of that release with the Prometheus' feature flags (one object for all the rules, so its dialect is worked out once). */
  promql: PromqlTarget;
}

/**
 * The problems in `spec` (a PrometheusRule's `.spec`), in document order; empty when valid. An object holding
 * more text than its rule file could gets that one problem, unchecked; checking stops after MAX_RULE_PROBLEMS.
 */
export function validateRuleSpec(spec: unknown, options: RuleValidationOptions): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!isRecord(spec)) return [{ path: 'spec', message: 'must be an object with a "groups" list' }];
  if (spec.groups === undefined || spec.groups === null) return problems;
  if (!Array.isArray(spec.groups)) return [{ path: 'spec.groups', message: 'must be a list of rule groups' }];
  const tooMuchText = ruleTextProblem(spec);
  if (tooMuchText) return [tooMuchText];
  const firstIndexOfName = new Map<string, number>();
  for (const [index, group] of (spec.groups as unknown[]).entries()) {
    if (problems.length >= MAX_RULE_PROBLEMS) break;
    checkGroup(group, index, firstIndexOfName, options, problems);
  }
  if (problems.length < MAX_RULE_PROBLEMS) return problems;
  return [...problems.slice(0, MAX_RULE_PROBLEMS), { path: 'spec', message: `promop stopped checking after ${MAX_RULE_PROBLEMS} problems; fix these first` }];
}

function checkGroup(group: unknown, index: number, firstIndexOfName: Map<string, number>, options: RuleValidationOptions, problems: FieldProblem[]): void {
  const path = `spec.groups[${index}]`;
  if (!isRecord(group)) {
    problems.push({ path, message: 'must be an object with "name" and "rules"' });
    return;
  }
  if (typeof group.name !== 'string' || group.name === '') {
    problems.push({ path: `${path}.name`, message: 'group name must be a non-empty string' });
  } else {
    const first = firstIndexOfName.get(group.name);
    if (first !== undefined) {
      problems.push({
        path: `${path}.name`,
        message: `group name ${quoted(group.name)} is already used by spec.groups[${first}]; Prometheus refuses a file with repeated group names`,
      });
    } else {
      firstIndexOfName.set(group.name, index);
    }
  }
  checkDuration(group.interval, `${path}.interval`, problems);
  if (options.support.queryOffset) checkDuration(group.query_offset, `${path}.query_offset`, problems);
  if (options.support.limit && group.limit !== undefined && !(Number.isInteger(group.limit) && (group.limit as number) >= 0)) {
    problems.push({ path: `${path}.limit`, message: `must be a non-negative integer, got ${shown(group.limit)}` });
  }
  if (options.support.groupLabels) checkLabels(group.labels, `${path}.labels`, options.scheme, problems);
  if (group.rules === undefined || group.rules === null) return;
  if (!Array.isArray(group.rules)) {
    problems.push({ path: `${path}.rules`, message: 'must be a list of rules' });
    return;
  }
  for (const [ruleIndex, rule] of (group.rules as unknown[]).entries()) {
    if (problems.length >= MAX_RULE_PROBLEMS) return;
    checkRule(rule, `${path}.rules[${ruleIndex}]`, options, problems);
  }
}

function checkRule(rule: unknown, path: string, options: RuleValidationOptions, problems: FieldProblem[]): void {
  if (!isRecord(rule)) {
    problems.push({ path, message: 'must be an object with "record" or "alert", and "expr"' });
    return;
  }
  for (const field of ['record', 'alert'] as const) {
    if (rule[field] !== undefined && typeof rule[field] !== 'string') {
      problems.push({ path: `${path}.${field}`, message: `must be a string, got ${shown(rule[field])}` });
    }
  }
  // Like Prometheus, an empty name counts as absent.
  const record = typeof rule.record === 'string' && rule.record !== '' ? rule.record : undefined;
  const alert = typeof rule.alert === 'string' && rule.alert !== '' ? rule.alert : undefined;
  if (record !== undefined && alert !== undefined) {
    problems.push({ path, message: `only one of "record" and "alert" may be set, found record ${quoted(record)} and alert ${quoted(alert)}` });
  } else if (record === undefined && alert === undefined && rule.record === undefined && rule.alert === undefined) {
    problems.push({ path, message: 'one of "record" or "alert" must be set' });
  } else if (record === undefined && alert === undefined) {
    problems.push({ path: rule.alert !== undefined ? `${path}.alert` : `${path}.record`, message: 'must not be empty' });
  }
  checkExpr(rule.expr, `${path}.expr`, options.promql, problems);
  checkDuration(rule.for, `${path}.for`, problems);
  if (options.support.keepFiringFor) checkDuration(rule.keep_firing_for, `${path}.keep_firing_for`, problems);
  if (record !== undefined) {
    if (!isValidMetricName(record, options.scheme)) {
      problems.push({ path: `${path}.record`, message: `${quoted(record)} is not a valid metric name (${metricNameRule(options.scheme)})` });
    } else if (record.includes('{') || record.includes('}')) {
      problems.push({ path: `${path}.record`, message: `${quoted(record)} contains braces; should that part be in expr?` });
    }
    if (isRecord(rule.annotations) && Object.keys(rule.annotations).length > 0) {
      problems.push({ path: `${path}.annotations`, message: 'a recording rule cannot have annotations' });
    }
    if (typeof rule.for === 'string' && (parseDuration(rule.for) ?? 0) > 0) {
      problems.push({ path: `${path}.for`, message: 'a recording rule cannot have "for"' });
    }
    if (options.support.keepFiringFor && typeof rule.keep_firing_for === 'string' && (parseDuration(rule.keep_firing_for) ?? 0) > 0) {
      problems.push({ path: `${path}.keep_firing_for`, message: 'a recording rule cannot have "keep_firing_for"' });
    }
  }
  checkLabels(rule.labels, `${path}.labels`, options.scheme, problems);
  checkAnnotations(rule.annotations, `${path}.annotations`, options.scheme, problems);
  // Prometheus parses the labels and annotations of alerting rules (only) as templates.
  if (alert !== undefined) {
    checkTemplates(rule.labels, `${path}.labels`, alert, options.version, problems);
    checkTemplates(rule.annotations, `${path}.annotations`, alert, options.version, problems);
  }
}

function checkExpr(expr: unknown, path: string, target: PromqlTarget, problems: FieldProblem[]): void {
  if (expr === undefined || expr === null || expr === '') {
    problems.push({ path, message: 'must be set' });
    return;
  }
  if (typeof expr === 'number') return;
  if (typeof expr !== 'string') {
    problems.push({ path, message: `must be a PromQL expression string, got ${shown(expr)}` });
    return;
  }
  const tooDeep = tooDeepBracketOffset(expr);
  if (tooDeep !== undefined) {
    problems.push({
      path,
      message: `${describePosition(expr, tooDeep)}: brackets nested more than ${MAX_PROMQL_BRACKET_DEPTH} deep; promop checks expressions up to that depth (a bound on its work, far beyond any maintained rule); split it into recording rules`,
    });
    return;
  }
  const problem = checkExpression(expr, target);
  if (problem) problems.push({ path, message: problem.message });
}

function checkTemplates(map: unknown, path: string, alert: string, version: PrometheusVersion, problems: FieldProblem[]): void {
  if (!isRecord(map)) return;
  for (const [name, value] of Object.entries(map)) {
    if (typeof value !== 'string') continue;
    const problem = checkTemplate(value, { version, alertName: alert });
    if (problem) problems.push({ path: keyPath(path, name), message: problem.message });
  }
}

function checkDuration(value: unknown, path: string, problems: FieldProblem[]): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' || parseDuration(value) === undefined) {
    problems.push({ path, message: `${shown(value)} is not a valid duration (examples: 30s, 5m, 1h30m)` });
  }
}

function checkLabels(labels: unknown, path: string, scheme: NameValidationScheme, problems: FieldProblem[]): void {
  checkNameValueMap(labels, path, 'label', scheme, problems);
}

function checkAnnotations(annotations: unknown, path: string, scheme: NameValidationScheme, problems: FieldProblem[]): void {
  checkNameValueMap(annotations, path, 'annotation', scheme, problems);
}

/** Labels and annotations share Prometheus' name rules; only labels reserve `__name__`. */
function checkNameValueMap(map: unknown, path: string, what: 'label' | 'annotation', scheme: NameValidationScheme, problems: FieldProblem[]): void {
  if (map === undefined || map === null) return;
  if (!isRecord(map)) {
    problems.push({ path, message: `must be a map of ${what} names to values` });
    return;
  }
  for (const [name, value] of Object.entries(map)) {
    if (what === 'label' && name === '__name__') {
      problems.push({ path: keyPath(path, name), message: 'label name "__name__" is reserved for the metric name' });
    } else if (!isValidLabelName(name, scheme)) {
      problems.push({ path: keyPath(path, name), message: `${quoted(name)} is not a valid ${what} name (${labelNameRule(scheme)})` });
    }
    checkText(value, keyPath(path, name), problems);
  }
}

function checkText(value: unknown, path: string, problems: FieldProblem[]): void {
  if (typeof value !== 'string') {
    problems.push({ path, message: `value must be a string, got ${shown(value)}` });
  } else if (!value.isWellFormed()) {
    problems.push({ path, message: 'value is not valid UTF-8' });
  }
}

/** `value` as JSON, cut to MAX_SHOWN_CHARS. */
function shown(value: unknown): string {
  return shortened(JSON.stringify(value) ?? String(value));
}

/** `text` in double quotes, cut to MAX_SHOWN_CHARS. */
function quoted(text: string): string {
  return `"${shortened(text)}"`;
}

