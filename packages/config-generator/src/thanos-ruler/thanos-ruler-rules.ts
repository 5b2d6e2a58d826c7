/**
 * The rule files of a ThanosRuler: the PrometheusRules its `ruleSelector` and `ruleNamespaceSelector` pick, each
 * checked and written by the same code as a Prometheus' (rules/render-rules.ts), with one verdict per object, in the
 * dialect of its Thanos release as prometheus-operator's Thanos format has it: `partial_response_strategy` kept
 * (Thanos reads it; Prometheus refuses it), the gated fields at Thanos' releases (group `limit` 0.24, rule
 * `keep_firing_for` 0.34, group `query_offset` 0.38, group `labels` 0.39), UTF-8 names from Thanos 0.38. The
 * enforced namespace label and its exemptions work as for a Prometheus. Pure.
 */
import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import type { FieldProblem, NamespaceInfo, RuleConfigMap, Verdict } from '../model.ts';
import { DEFAULT_PROMETHEUS_VERSION, parsePrometheusVersion, type PrometheusVersion } from '../prometheus-version.ts';
import { callCache, type RenderMemo } from '../render-memo.ts';
import { enforcementExclusion } from '../prometheus/enforcement-exclusions.ts';
import { renderRules } from '../rules/render-rules.ts';
import type { RuleFieldSupport } from '../rules/rule-field-support.ts';
import { validateLabelSelector } from '../selection/label-selector.ts';
import { indexNamespaces, selectResources } from '../selection/select-resources.ts';
import { resourceRef, selectedVerdict } from '../verdict.ts';

/** The Thanos release assumed when `spec.version` is empty: prometheus-operator v0.93's default, as for the sidecar. */
export const DEFAULT_THANOS_RULER_VERSION = 'v0.42.2';

/** The release each gated rule field needs in Thanos (upstream's Thanos format). */
export const THANOS_RULE_FIELD_MINIMUM_VERSIONS: Readonly<Record<keyof RuleFieldSupport, string>> = {
  limit: 'v0.24.0',
  keepFiringFor: 'v0.34.0',
  queryOffset: 'v0.38.0',
  groupLabels: 'v0.39.0',
};

/** Thanos reads metric and label names as UTF-8 from this release (upstream's ValidationSchemeForThanos). */
const THANOS_UTF8_NAMES_SINCE = 'v0.38.0';

/**
 * The Prometheus release whose PromQL and name rules stand for a Thanos release's: a Thanos that reads UTF-8 names
 * embeds Prometheus 3's PromQL (promop's default release); an older one Prometheus 2's, read with legacy names.
 */
const PROMQL_OF_OLD_THANOS = 'v2.55.1';

/** A Thanos version as Go's semver.ParseTolerant reads it. */
export interface ThanosReleaseVersion {
  major: number;
  minor: number;
  patch: number;
  preRelease: string;
  /** As written in `spec.version` (or the default). */
  text: string;
}

/** Reads `text` tolerantly (a leading `v`, a missing minor or patch); undefined when it is no version. */
export function parseThanosVersion(text: string | undefined | null): ThanosReleaseVersion | undefined {
  const written = text === undefined || text === null || text === '' ? DEFAULT_THANOS_RULER_VERSION : text;
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(written.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? 0), patch: Number(match[3] ?? 0), preRelease: match[4] ?? '', text: written };
}

/** Whether `version` is at least `minimum` (a release literal), a pre-release counting below its release. */
export function thanosVersionAtLeast(version: ThanosReleaseVersion, minimum: string): boolean {
  const min = parseThanosVersion(minimum)!;
  if (version.major !== min.major) return version.major > min.major;
  if (version.minor !== min.minor) return version.minor > min.minor;
  if (version.patch !== min.patch) return version.patch > min.patch;
  return version.preRelease === '' || min.preRelease !== '';
}

/** The rule ConfigMap `index` of ThanosRuler `name` (upstream's `thanos-ruler-<name>-rulefiles-<index>`). */
export function thanosRulerRuleConfigMapName(name: string, index: number): string {
  return `thanos-ruler-${name}-rulefiles-${index}`;
}

/** What a ThanosRuler's rules are rendered from. */
export interface ThanosRulerRulesInput {
  thanosRuler: ThanosRuler;
  /** Candidates: the ThanosRuler's selectors pick among them. */
  prometheusRules: readonly PrometheusRule[];
  namespaces: readonly NamespaceInfo[];
  /** Renderings kept from previous calls (render-memo.ts); the output is the same without it. */
  memo?: RenderMemo;
}

/** The rule ConfigMaps (at least one), a verdict per candidate, and the ThanosRuler's own problems. */
export interface ThanosRulerRules {
  ruleConfigMaps: RuleConfigMap[];
  verdicts: Verdict[];
  /** Problems of the ThanosRuler's rule fields (a bad selector, an unreadable version): nothing is written then. */
  problems: FieldProblem[];
}

/** Selects and renders the rule files of one ThanosRuler. */
export function generateThanosRulerRules(input: ThanosRulerRulesInput): ThanosRulerRules {
  const { thanosRuler } = input;
  const { namespace = '', name = '' } = thanosRuler.metadata;
  const spec: NonNullable<ThanosRuler['spec']> = thanosRuler.spec ?? {};
  const problems: FieldProblem[] = [];
  const parsed = parseThanosVersion(spec.version);
  if (!parsed) problems.push({ path: 'spec.version', message: `"${spec.version ?? ''}" is not a Thanos version such as v0.42.2` });
  const version = parsed ?? parseThanosVersion(DEFAULT_THANOS_RULER_VERSION)!;
  const selectorProblems = [
    ...(spec.ruleSelector ? validateLabelSelector(spec.ruleSelector, 'spec.ruleSelector') : []),
    ...(spec.ruleNamespaceSelector ? validateLabelSelector(spec.ruleNamespaceSelector, 'spec.ruleNamespaceSelector') : []),
  ];
  problems.push(...selectorProblems);
  const cache = input.memo ?? callCache();
  // A selector that cannot be read selects nothing, as for a Prometheus.
  const pair = {
    selectorField: 'ruleSelector',
    selector: selectorProblems.length > 0 ? undefined : spec.ruleSelector,
    namespaceSelectorField: 'ruleNamespaceSelector',
    namespaceSelector: spec.ruleNamespaceSelector,
  };
  const selection = selectResources('PrometheusRule', input.prometheusRules, { kind: 'ThanosRuler', namespace, name }, pair, indexNamespaces(input.namespaces), cache);
  const isExcluded = enforcementExclusion(spec.excludedFromEnforcement, spec.prometheusRulesExcludedFromEnforce);
  const enforcedNamespaceLabel = spec.enforcedNamespaceLabel || undefined;
  const sorted = [...selection.selected].sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  // Thanos refuses the whole rule file set at load for one unknown strategy: such an object is rejected alone.
  const strategyVerdicts: Verdict[] = [];
  const renderable = sorted.filter((rule) => {
    const strategyProblems = partialResponseStrategyProblems(rule);
    if (strategyProblems.length > 0) strategyVerdicts.push(selectedVerdict(resourceRef('PrometheusRule', rule), strategyProblems, []));
    return strategyProblems.length === 0;
  });
  const rendered = renderRules({
    // renderRules reads the name (for the ConfigMaps) and the PromQL dialect's settings of a Prometheus: a
    // ThanosRuler has neither a name validation scheme nor Prometheus feature flags.
    prometheus: { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace, name }, spec: {} },
    rules: renderable,
    version: promqlVersionOf(version),
    ...(enforcedNamespaceLabel ? { enforcedNamespaceLabel } : {}),
    isExcludedFromEnforcement: (ruleNamespace, ruleName) => isExcluded('PrometheusRule', ruleNamespace, ruleName),
    cache,
    dialect: {
      program: 'Thanos',
      versionText: version.text,
      minimumVersions: THANOS_RULE_FIELD_MINIMUM_VERSIONS,
      support: {
        limit: thanosVersionAtLeast(version, THANOS_RULE_FIELD_MINIMUM_VERSIONS.limit),
        keepFiringFor: thanosVersionAtLeast(version, THANOS_RULE_FIELD_MINIMUM_VERSIONS.keepFiringFor),
        queryOffset: thanosVersionAtLeast(version, THANOS_RULE_FIELD_MINIMUM_VERSIONS.queryOffset),
        groupLabels: thanosVersionAtLeast(version, THANOS_RULE_FIELD_MINIMUM_VERSIONS.groupLabels),
      },
      keepPartialResponseStrategy: true,
    },
    ruleConfigMapName: (index) => thanosRulerRuleConfigMapName(name, index),
  });
  return { ruleConfigMaps: rendered.ruleConfigMaps, verdicts: [...rendered.verdicts, ...strategyVerdicts, ...selection.notSelected], problems };
}

/** A group's `partial_response_strategy` Thanos cannot read (it takes abort or warn, in any case, or nothing). */
function partialResponseStrategyProblems(rule: PrometheusRule): FieldProblem[] {
  const groups: unknown = (rule.spec as { groups?: unknown } | undefined)?.groups;
  if (!Array.isArray(groups)) return [];
  return groups.flatMap((group: unknown, index) => {
    const strategy = (group as { partial_response_strategy?: unknown } | null)?.partial_response_strategy;
    if (strategy === undefined || strategy === null || (typeof strategy === 'string' && /^(abort|warn)?$/i.test(strategy))) return [];
    return [{ path: `spec.groups[${index}].partial_response_strategy`, message: `${JSON.stringify(strategy)} is not a strategy Thanos knows: abort or warn` }];
  });
}

/** The Prometheus release whose PromQL and names stand for `version`'s. */
function promqlVersionOf(version: ThanosReleaseVersion): PrometheusVersion {
  return parsePrometheusVersion(thanosVersionAtLeast(version, THANOS_UTF8_NAMES_SINCE) ? DEFAULT_PROMETHEUS_VERSION : PROMQL_OF_OLD_THANOS)!;
}

function keyOf(rule: PrometheusRule): string {
  return `${rule.metadata.namespace ?? ''}/${rule.metadata.name ?? ''}`;
}
