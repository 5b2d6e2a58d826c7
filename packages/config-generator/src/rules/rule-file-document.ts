/**
 * The content of one rule file, built from a validated PrometheusRule spec the way
 * prometheus-operator writes it: keys sorted alphabetically at every level (it marshals through
 * JSON), fields the Prometheus version does not know dropped with a warning,
 * `partial_response_strategy` dropped for Prometheus (which refuses it) and kept for Thanos Ruler, and, when a namespace label is
 * enforced, that label added to every rule and matched in every vector selector (of `expr`, and of the
 * `query` calls of alert templates).
 */
import { sortedByKey } from '../go-map-order.ts';
import type { PrometheusVersion } from '../prometheus-version.ts';
import { isRecord } from '../values/is-record.ts';
import { injectLabelMatcher } from './inject-label-matcher.ts';
import { enforceOnTemplateQueries } from './template-query-enforcement.ts';
import { RULE_FIELD_MINIMUM_VERSIONS, type RuleFieldSupport } from './rule-field-support.ts';

/** The label promop enforces on a PrometheusRule from `enforcedNamespaceLabel`. */
export interface NamespaceEnforcement {
  /** The label name, e.g. `namespace`. */
  label: string;
  /** The PrometheusRule's namespace. */
  namespace: string;
}

/**
 * The program that reads the rule file when it is not Prometheus: Thanos Ruler, whose releases gate the same
 * fields at other versions and which reads `partial_response_strategy`.
 */
export interface RuleReaderDialect {
  /** Its name and release, as warnings write them (`Thanos v0.33.0`). */
  program: string;
  versionText: string;
  /** The release each gated field needs, as warnings write them. */
  minimumVersions: Readonly<Record<keyof RuleFieldSupport, string>>;
  support: RuleFieldSupport;
  keepPartialResponseStrategy: boolean;
}

/** How to turn a spec into a rule file for one Prometheus (or, with `dialect`, one Thanos Ruler). */
export interface RuleFileOptions {
  version: PrometheusVersion;
  support: RuleFieldSupport;
  enforcement?: NamespaceEnforcement;
  dialect?: RuleReaderDialect;
}

/** The rule file as a plain object ready for YAML, and what was dropped on the way. */
export interface RuleFileDocument {
  document: { groups: Record<string, unknown>[] };
  warnings: string[];
}

/**
 * Builds the rule file of `spec`, which must have passed validateRuleSpec (shapes are trusted).
 * Objects are built in sorted key order because the YAML writer keeps insertion order.
 */
export function buildRuleFileDocument(spec: unknown, options: RuleFileOptions): RuleFileDocument {
  const warnings: string[] = [];
  const groups = isRecord(spec) && Array.isArray(spec.groups) ? (spec.groups as Record<string, unknown>[]) : [];
  const drop = (path: string, field: keyof RuleFieldSupport, value: unknown): boolean => {
    if (value === undefined || value === null || options.support[field]) return false;
    const reader = options.dialect ? `${options.dialect.program} ${options.dialect.versionText}` : `Prometheus ${options.version.text}`;
    const minimum = (options.dialect?.minimumVersions ?? RULE_FIELD_MINIMUM_VERSIONS)[field];
    warnings.push(`${path} was dropped: ${reader} does not support it (needs ${minimum} or later)`);
    return true;
  };
  const document = {
    groups: groups.map((group, groupIndex) => {
      const path = `spec.groups[${groupIndex}]`;
      const out: Record<string, unknown> = {};
      setIfPresent(out, 'interval', group.interval);
      if (!drop(`${path}.labels`, 'groupLabels', group.labels)) setIfPresent(out, 'labels', sortedMap(group.labels));
      if (!drop(`${path}.limit`, 'limit', group.limit)) setIfPresent(out, 'limit', group.limit);
      out.name = group.name;
      // Go's omitempty: an empty strategy is left out as upstream's marshalling leaves it out.
      if (options.dialect?.keepPartialResponseStrategy && group.partial_response_strategy !== '') setIfPresent(out, 'partial_response_strategy', group.partial_response_strategy);
      if (!drop(`${path}.query_offset`, 'queryOffset', group.query_offset)) setIfPresent(out, 'query_offset', group.query_offset);
      if (Array.isArray(group.rules)) {
        out.rules = (group.rules as Record<string, unknown>[]).map((rule, ruleIndex) =>
          buildRule(rule, `${path}.rules[${ruleIndex}]`, options, drop),
        );
      }
      return out;
    }),
  };
  return { document, warnings };
}

function buildRule(
  rule: Record<string, unknown>,
  path: string,
  options: RuleFileOptions,
  drop: (path: string, field: keyof RuleFieldSupport, value: unknown) => boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Empty names are omitted like Go's `omitempty`; validation guarantees exactly one is set.
  if (rule.alert !== '') setIfPresent(out, 'alert', rule.alert);
  // An alerting rule's labels and annotations are templates whose `query` calls run PromQL: enforced there too.
  const templates = (map: unknown): unknown => (options.enforcement && isAlertingRule(rule) ? enforceOnTemplates(map, options.enforcement) : map);
  setIfPresent(out, 'annotations', sortedMap(templates(rule.annotations)));
  out.expr = options.enforcement ? injectLabelMatcher(String(rule.expr), options.enforcement.label, options.enforcement.namespace) : rule.expr;
  setIfPresent(out, 'for', rule.for);
  if (!drop(`${path}.keep_firing_for`, 'keepFiringFor', rule.keep_firing_for)) setIfPresent(out, 'keep_firing_for', rule.keep_firing_for);
  const labels = isRecord(rule.labels) ? { ...(templates(rule.labels) as Record<string, unknown>) } : {};
  if (options.enforcement) labels[options.enforcement.label] = options.enforcement.namespace;
  setIfPresent(out, 'labels', sortedMap(labels));
  if (rule.record !== '') setIfPresent(out, 'record', rule.record);
  return out;
}

function isAlertingRule(rule: Record<string, unknown>): boolean {
  return typeof rule.alert === 'string' && rule.alert !== '';
}

/** The map with every string value's `query` literals given the enforced matcher. */
function enforceOnTemplates(map: unknown, enforcement: NamespaceEnforcement): unknown {
  if (!isRecord(map)) return map;
  return Object.fromEntries(
    Object.entries(map).map(([key, value]) => [key, typeof value === 'string' ? enforceOnTemplateQueries(value, enforcement.label, enforcement.namespace) : value]),
  );
}

function setIfPresent(target: Record<string, unknown>, key: string, value: unknown): void {
  if (value !== undefined && value !== null) target[key] = value;
}

/** A copy of `map` with keys in Go's order; undefined when empty. */
function sortedMap(map: unknown): Record<string, unknown> | undefined {
  if (!isRecord(map) || Object.keys(map).length === 0) return undefined;
  return sortedByKey(map);
}
