/**
 * The `otlp` section of prometheus.yaml from `spec.otlp`, in prometheus-operator's key order and with its version
 * handling: the section needs Prometheus 2.55, and a translation strategy Prometheus does not have yet is refused
 * (a problem), while the other fields newer than the Prometheus are dropped with a warning. What Prometheus refuses
 * when it loads the file (both ways of promoting resource attributes at once, an empty or repeated attribute, a
 * strategy keeping UTF-8 names under the Legacy name validation scheme) is a problem at its path.
 */
import type { PrometheusSpec } from '@promop/crds';
import { supports } from '../http-client/index.ts';
import { isAtLeast } from '../prometheus-version.ts';
import { isPresent } from '../is-present.ts';
import type { PrometheusRenderContext } from './render-context.ts';

type OtlpSpec = NonNullable<PrometheusSpec['otlp']>;

const PATH = 'spec.otlp';

/** The first Prometheus with the `otlp` section. */
const OTLP_SINCE = '2.55.0';

/** Translation strategies and the first Prometheus that knows each. */
const STRATEGY_SINCE: Readonly<Record<string, string>> = {
  UnderscoreEscapingWithSuffixes: '3.0.0',
  NoUTF8EscapingWithSuffixes: '3.0.0',
  NoTranslation: '3.4.0',
  UnderscoreEscapingWithoutSuffixes: '3.6.0',
};

/** Strategies that keep UTF-8 names, which Prometheus refuses beside `metric_name_validation_scheme: legacy`. */
const UTF8_STRATEGIES: ReadonlySet<string> = new Set(['NoUTF8EscapingWithSuffixes', 'NoTranslation']);

/**
 * Builds the `otlp` section, or undefined when `spec.otlp` is absent or every field it sets was dropped for the
 * version. `nameValidationScheme` is the spec's own field (`Legacy` or `UTF8`), as upstream compares it.
 */
export function buildOtlpConfig(
  otlp: OtlpSpec | null | undefined,
  nameValidationScheme: string | null | undefined,
  context: PrometheusRenderContext,
): Record<string, unknown> | undefined {
  if (!isPresent(otlp)) return undefined;
  if (!isAtLeast(context.version, OTLP_SINCE)) {
    context.findings.problem(PATH, `needs Prometheus ${OTLP_SINCE} or later (this Prometheus is ${context.version.text})`);
    return undefined;
  }
  checkTranslationStrategy(otlp.translationStrategy, nameValidationScheme, context);
  const promoteAll = otlp.promoteAllResourceAttributes === true;
  const promoted = otlp.promoteResourceAttributes ?? [];
  const ignored = otlp.ignoreResourceAttributes ?? [];
  // Both fields exist from 3.5 on; before that they are dropped below, so nothing conflicts in the file.
  if (isAtLeast(context.version, '3.5.0')) {
    if (promoteAll && promoted.length > 0) {
      context.findings.problem(`${PATH}.promoteResourceAttributes`, 'cannot be set when promoteAllResourceAttributes is true (use ignoreResourceAttributes to leave some out)');
    }
    if (ignored.length > 0 && !promoteAll) {
      context.findings.problem(`${PATH}.ignoreResourceAttributes`, 'can only be set when promoteAllResourceAttributes is true');
    }
    checkAttributes(ignored, `${PATH}.ignoreResourceAttributes`, context);
  }
  checkAttributes(promoted, `${PATH}.promoteResourceAttributes`, context);

  const out: Record<string, unknown> = {};
  if (promoted.length > 0) out.promote_resource_attributes = [...promoted];
  if (isPresent(otlp.translationStrategy) && supports(context, '3.0.0', `${PATH}.translationStrategy`, 'translation_strategy')) {
    out.translation_strategy = otlp.translationStrategy;
  }
  const flag = (field: keyof OtlpSpec, key: string, since: string) => {
    const value = otlp[field];
    if (isPresent(value) && supports(context, since, `${PATH}.${field}`, key)) out[key] = value;
  };
  flag('keepIdentifyingResourceAttributes', 'keep_identifying_resource_attributes', '3.1.0');
  flag('convertHistogramsToNHCB', 'convert_histograms_to_nhcb', '3.4.0');
  flag('promoteAllResourceAttributes', 'promote_all_resource_attributes', '3.5.0');
  if (ignored.length > 0 && supports(context, '3.5.0', `${PATH}.ignoreResourceAttributes`, 'ignore_resource_attributes')) out.ignore_resource_attributes = [...ignored];
  flag('promoteScopeMetadata', 'promote_scope_metadata', '3.6.0');
  flag('labelNameUnderscoreSanitization', 'label_name_underscore_sanitization', '3.8.0');
  flag('labelNamePreserveMultipleUnderscores', 'label_name_preserve_multiple_underscores', '3.8.0');
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * A strategy the Prometheus does not know is refused rather than dropped, as upstream: dropping it would change
 * every OTLP metric's name to the default strategy's.
 */
function checkTranslationStrategy(strategy: string | null | undefined, nameValidationScheme: string | null | undefined, context: PrometheusRenderContext): void {
  if (!isPresent(strategy)) return;
  const path = `${PATH}.translationStrategy`;
  const since = STRATEGY_SINCE[strategy];
  if (since === undefined) {
    context.findings.problem(path, `must be one of ${Object.keys(STRATEGY_SINCE).join(', ')}, not "${strategy}"`);
    return;
  }
  if (since !== '3.0.0' && !isAtLeast(context.version, since)) {
    context.findings.problem(path, `"${strategy}" needs Prometheus ${since} or later (this Prometheus is ${context.version.text})`);
  }
  if (UTF8_STRATEGIES.has(strategy) && nameValidationScheme === 'Legacy') {
    context.findings.problem(path, `"${strategy}" keeps UTF-8 names, which nameValidationScheme "Legacy" does not allow (Prometheus refuses the pair)`);
  }
}

/** Prometheus trims each attribute and refuses an empty one or one listed twice. */
function checkAttributes(attributes: readonly string[], path: string, context: PrometheusRenderContext): void {
  const seen = new Map<string, number>();
  attributes.forEach((attribute: unknown, index) => {
    // Only the API server guarantees strings; `promop render` reads objects as they are written.
    const trimmed = typeof attribute === 'string' ? attribute.trim() : '';
    if (trimmed === '') {
      context.findings.problem(`${path}[${index}]`, typeof attribute === 'string' ? 'must not be empty or only spaces' : 'must be a string');
      return;
    }
    const first = seen.get(trimmed);
    if (first === undefined) seen.set(trimmed, index);
    else context.findings.problem(`${path}[${index}]`, `"${trimmed}" is already listed at [${first}]; Prometheus refuses an attribute listed twice`);
  });
}
