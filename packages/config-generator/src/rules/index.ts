/** PrometheusRules → rule files and verdicts (issue 4, rules part). */
export { renderRules, type RenderRulesInput, type RenderRulesOutput } from './render-rules.ts';
export { packRuleFiles, MAX_RULE_CONFIGMAP_BYTES } from './pack-rule-files.ts';
export { ruleFileName } from './rule-file-name.ts';
export { validateRuleSpec, type RuleValidationOptions } from './validate-rule-spec.ts';
export { buildRuleFileDocument, type NamespaceEnforcement, type RuleFileOptions, type RuleFileDocument } from './rule-file-document.ts';
export { injectLabelMatcher, quoteLabelName } from './inject-label-matcher.ts';
export { ruleFieldSupport, RULE_FIELD_MINIMUM_VERSIONS, type RuleFieldSupport } from './rule-field-support.ts';
export {
  nameValidationSchemeFor,
  isValidLabelName,
  isValidMetricName,
  isLegacyLabelName,
  type NameValidationScheme,
} from '../values/prometheus-names.ts';
