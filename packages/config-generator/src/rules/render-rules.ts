/**
 * PrometheusRules → rule files packed into ConfigMaps, with one verdict per PrometheusRule. Each
 * object is checked as Prometheus will check its file; a bad one is left out alone and its
 * verdict says which field is wrong, so the others still reach Prometheus.
 */
import type { Prometheus, PrometheusRule } from '@promop/crds';
import type { RuleConfigMap, Verdict } from '../model.ts';
import type { PrometheusVersion } from '../prometheus-version.ts';
import { callCache, type RenderCache } from '../render-memo.ts';
import { selectedVerdict } from '../verdict.ts';
import { toPrometheusYaml } from '../yaml-output.ts';
import { isRecord } from '../values/is-record.ts';
import { MAX_RULE_CONFIGMAP_BYTES, packRuleFiles } from './pack-rule-files.ts';
import { nameValidationSchemeFor } from '../values/prometheus-names.ts';
import { buildRuleFileDocument, type RuleReaderDialect } from './rule-file-document.ts';
import { ruleFieldSupport } from './rule-field-support.ts';
import { ruleFileName } from './rule-file-name.ts';
import { validateRuleSpec } from './validate-rule-spec.ts';
import type { PromqlTarget } from '@promop/prometheus-lang';
import { findEnforcementProblems } from './enforcement-check.ts';

/** What renderRules needs: the Prometheus and the PrometheusRules its selectors already picked. */
export interface RenderRulesInput {
  prometheus: Prometheus;
  /** Already selected by the caller; every one gets a `selected: true` verdict. */
  rules: PrometheusRule[];
  version: PrometheusVersion;
  /** `spec.enforcedNamespaceLabel` of the Prometheus, when set and non-empty. */
  enforcedNamespaceLabel?: string;
  /** True for rules listed in `spec.excludedFromEnforcement`. */
  isExcludedFromEnforcement?: (namespace: string, name: string) => boolean;
  /** Rule files kept from previous calls (render-memo.ts); the output is the same with a cache for this call alone. */
  cache?: RenderCache;
  /**
   * For a Thanos Ruler: its field gates and `partial_response_strategy`; `version` is then the Prometheus release
   * whose PromQL and names its Thanos release reads.
   */
  dialect?: RuleReaderDialect;
  /** The name of rule ConfigMap `index` (default `prometheus-<name>-rulefiles-<index>`). */
  ruleConfigMapName?: (index: number) => string;
}

/** The rule ConfigMaps (always at least one) and one verdict per input rule, in input order. */
export interface RenderRulesOutput {
  ruleConfigMaps: RuleConfigMap[];
  verdicts: Verdict[];
}

/** Renders the rule files of one Prometheus. Pure and deterministic. */
export function renderRules(input: RenderRulesInput): RenderRulesOutput {
  const prometheusSpec = isRecord(input.prometheus.spec) ? input.prometheus.spec : {};
  const scheme = nameValidationSchemeFor(input.version, prometheusSpec.nameValidationScheme);
  const support = input.dialect?.support ?? ruleFieldSupport(input.version);
  // Feature flags decide which PromQL the Prometheus parses (experimental functions, fill modifiers...).
  const enabledFeatures = Array.isArray(prometheusSpec.enableFeatures) ? prometheusSpec.enableFeatures.filter((feature): feature is string => typeof feature === 'string') : [];
  const promql: PromqlTarget = { version: input.version, features: enabledFeatures };
  const files = new Map<string, string>();
  // Everything a rule file depends on besides its PrometheusRule (and whether enforcement exempts it).
  const cache = input.cache ?? callCache();
  const settings = cache.settings(() => ({ version: input.version, scheme, enabledFeatures, enforcedNamespaceLabel: input.enforcedNamespaceLabel, dialect: input.dialect }));
  const verdicts: Verdict[] = input.rules.map((rule) => {
    const { namespace, name } = identityOf(rule);
    const render = () => renderRuleFile(rule, input, { scheme, support, promql });
    const excluded = input.isExcludedFromEnforcement?.(namespace, name) === true;
    const rendered = cache.rendering(rule, `${settings}|${excluded}`, undefined, render);
    if (rendered.file) files.set(rendered.file.name, rendered.file.text);
    return rendered.verdict;
  });
  return { ruleConfigMaps: packRuleFiles(input.prometheus.metadata?.name ?? '', files, input.ruleConfigMapName), verdicts };
}

/** One PrometheusRule's verdict and, when accepted, its rule file (name and text). */
function renderRuleFile(
  rule: PrometheusRule,
  input: RenderRulesInput,
  dialect: { scheme: ReturnType<typeof nameValidationSchemeFor>; support: ReturnType<typeof ruleFieldSupport>; promql: PromqlTarget },
): { verdict: Verdict; file?: { name: string; text: string } } {
  const { namespace, name, uid } = identityOf(rule);
  const resource = { kind: 'PrometheusRule' as const, namespace, name };
  const { scheme, support, promql } = dialect;
  const problems = validateRuleSpec(rule.spec, { scheme, support, version: input.version, promql });
  if (problems.length > 0) return { verdict: selectedVerdict(resource, problems, []) };
  const enforced = input.enforcedNamespaceLabel && !input.isExcludedFromEnforcement?.(namespace, name);
  if (enforced) {
    const enforcementProblems = findEnforcementProblems(rule.spec, input.enforcedNamespaceLabel!, namespace, promql);
    if (enforcementProblems.length > 0) return { verdict: selectedVerdict(resource, enforcementProblems, []) };
  }
  const { document, warnings } = buildRuleFileDocument(rule.spec, {
    version: input.version,
    support,
    ...(enforced ? { enforcement: { label: input.enforcedNamespaceLabel!, namespace } } : {}),
    ...(input.dialect ? { dialect: input.dialect } : {}),
  });
  const text = toPrometheusYaml(document);
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_RULE_CONFIGMAP_BYTES) {
    const message = `the rule file is ${size} bytes, over the ${MAX_RULE_CONFIGMAP_BYTES}-byte (512 KiB) limit of one ConfigMap; split it into several PrometheusRules`;
    return { verdict: selectedVerdict(resource, [{ path: 'spec', message }], warnings) };
  }
  return { verdict: selectedVerdict(resource, [], warnings), file: { name: ruleFileName(namespace, name, uid), text } };
}

/** Namespace, name and uid; a missing uid (objects not read from a cluster) leaves it empty. */
function identityOf(rule: PrometheusRule): { namespace: string; name: string; uid: string } {
  const metadata: Record<string, unknown> = isRecord(rule.metadata) ? rule.metadata : {};
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return { namespace: text(metadata.namespace), name: text(metadata.name), uid: text(metadata.uid) };
}
