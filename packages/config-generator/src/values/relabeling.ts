/**
 * User relabelings (`relabelings`, `metricRelabelings`, and for Prometheus-level callers
 * `writeRelabelConfigs`, alert relabelings…): validation with the rules Prometheus applies when it
 * loads a config (so one bad rule rejects its resource, not the whole file), and rendering in
 * prometheus-operator's key order.
 */
import type { RelabelConfig } from '@promop/crds';
import type { FieldProblem } from '../model.ts';
import { isValidLabelName, type NameCheckContext } from './prometheus-names.ts';
import { isAtLeast } from '../prometheus-version.ts';
import { checkRegex, shortened } from '@promop/prometheus-lang';

/** The relabel actions Prometheus knows, lowercase, with the version that introduced them. */
const ACTIONS: Record<string, string | undefined> = {
  replace: undefined,
  keep: undefined,
  drop: undefined,
  hashmod: undefined,
  labelmap: undefined,
  labeldrop: undefined,
  labelkeep: undefined,
  lowercase: '2.36.0',
  uppercase: '2.36.0',
  keepequal: '2.41.0',
  dropequal: '2.41.0',
};

const NEEDS_TARGET = new Set(['replace', 'hashmod', 'lowercase', 'uppercase', 'keepequal', 'dropequal']);
const DEFAULT_SEPARATOR = ';';
const DEFAULT_REGEX = '(.*)';
const DEFAULT_REPLACEMENT = '$1';
// Prometheus' template-aware target label check for the legacy name scheme.
const LEGACY_TARGET_TEMPLATE = /^(?:(?:[a-zA-Z_]|\$(?:\{\w+\}|\w+))+\w*)+$/;

/**
 * Validates relabel configs; `path` locates the list (e.g. `spec.endpoints[0].relabelings`) and
 * each problem points at the offending rule's field. `target` is the Prometheus that will load
 * them: its version decides which actions exist, its name validation scheme which label names.
 * Returns no problems for valid input.
 */
export function validateRelabelConfigs(configs: RelabelConfig[] | undefined, path: string, target: NameCheckContext): FieldProblem[] {
  const problems: FieldProblem[] = [];
  (configs ?? []).forEach((config, i) => problems.push(...validateRelabelConfig(config, `${path}[${i}]`, target)));
  return problems;
}

/** Validates one relabel config; see validateRelabelConfigs. */
export function validateRelabelConfig(config: RelabelConfig, path: string, target: NameCheckContext): FieldProblem[] {
  const { version, nameValidationScheme: scheme } = target;
  const problems: FieldProblem[] = [];
  const problem = (field: string, message: string): void => {
    problems.push({ path: field ? `${path}.${field}` : path, message });
  };
  const action = (config.action ?? '').toLowerCase() || 'replace';
  if (!(action in ACTIONS)) {
    problem('action', `unknown relabel action "${config.action}"; expected one of ${Object.keys(ACTIONS).join(', ')}`);
    return problems;
  }
  const minimum = ACTIONS[action];
  if (minimum && !isAtLeast(version, minimum)) {
    problem('action', `the ${action} action needs Prometheus v${minimum} or later (configured: ${version.text})`);
  }
  (config.sourceLabels ?? []).forEach((label, i) => {
    if (!isValidLabelName(label, scheme)) problem(`sourceLabels[${i}]`, `"${label}" is not a valid label name`);
  });
  if (config.regex !== undefined && config.regex !== '') {
    const error = checkRegex(config.regex, 'relabeling');
    if (error) problem('regex', `invalid regex "${shortened(config.regex)}": ${error}`);
  }
  if (action === 'hashmod' && !config.modulus) problem('modulus', 'the hashmod action needs a non-zero modulus');
  if (config.modulus !== undefined && (!Number.isInteger(config.modulus) || config.modulus < 0)) {
    problem('modulus', 'modulus must be a non-negative integer');
  }

  const targetLabel = config.targetLabel ?? '';
  if (NEEDS_TARGET.has(action) && targetLabel === '') {
    problem('targetLabel', `the ${action} action needs a targetLabel`);
  } else if (action === 'replace' && !isValidTemplateTarget(targetLabel, scheme)) {
    problem('targetLabel', `"${targetLabel}" is not a valid target label for the replace action`);
  } else if (NEEDS_TARGET.has(action) && action !== 'replace' && !isValidLabelName(targetLabel, scheme)) {
    problem('targetLabel', `"${targetLabel}" is not a valid target label for the ${action} action`);
  }

  const replacementSet = config.replacement !== undefined && config.replacement !== DEFAULT_REPLACEMENT;
  if (['lowercase', 'uppercase', 'keepequal', 'dropequal'].includes(action) && replacementSet) {
    problem('replacement', `replacement cannot be set for the ${action} action`);
  }
  if (action === 'labelmap' && config.replacement !== undefined && !isValidTemplateTarget(config.replacement, scheme)) {
    problem('replacement', `"${config.replacement}" is not a valid replacement for the labelmap action`);
  }
  const separatorSet = config.separator !== undefined && config.separator !== DEFAULT_SEPARATOR;
  const modulusSet = config.modulus !== undefined && config.modulus !== 0;
  if (action === 'keepequal' || action === 'dropequal') {
    const regexSet = config.regex !== undefined && config.regex !== '' && config.regex !== DEFAULT_REGEX;
    if (regexSet || modulusSet || separatorSet || replacementSet) {
      problem('', `the ${action} action takes only sourceLabels and targetLabel`);
    }
  }
  if (action === 'labeldrop' || action === 'labelkeep') {
    if ((config.sourceLabels ?? []).length > 0 || targetLabel !== '' || modulusSet || separatorSet || replacementSet) {
      problem('', `the ${action} action takes only regex`);
    }
  }
  return problems;
}

function isValidTemplateTarget(target: string, scheme: NameCheckContext['nameValidationScheme']): boolean {
  if (scheme === 'utf8') return isValidLabelName(target, scheme);
  return target.includes('$') ? LEGACY_TARGET_TEMPLATE.test(target) : isValidLabelName(target, scheme);
}

/**
 * Renders relabel configs as prometheus-operator does: only the fields that are set, in the
 * order source_labels, separator, target_label, regex, modulus, replacement, action (lowercased).
 */
export function renderRelabelConfigs(configs: RelabelConfig[] | undefined): Record<string, unknown>[] {
  return (configs ?? []).map(renderRelabelConfig);
}

/** Renders one relabel config; see renderRelabelConfigs. */
export function renderRelabelConfig(config: RelabelConfig): Record<string, unknown> {
  const rendered: Record<string, unknown> = {};
  if (config.sourceLabels && config.sourceLabels.length > 0) rendered.source_labels = [...config.sourceLabels];
  if (config.separator !== undefined) rendered.separator = config.separator;
  if (config.targetLabel) rendered.target_label = config.targetLabel;
  if (config.regex) rendered.regex = config.regex;
  if (config.modulus) rendered.modulus = config.modulus;
  if (config.replacement !== undefined) rendered.replacement = config.replacement;
  if (config.action) rendered.action = config.action.toLowerCase();
  return rendered;
}
