/**
 * `spec.otlp` of a Prometheus or PrometheusAgent (prometheus-operator's OTLPConfig): how Prometheus' OTLP receiver
 * turns incoming OpenTelemetry metrics into series. Several fields need a newer Prometheus than others; the
 * generator (prometheus/otlp-config.ts) drops or refuses them by version as prometheus-operator does.
 */
import { bool, oneOf } from './common.ts';

/** How metric and label names are translated (Prometheus' `translation_strategy`). */
export const OTLP_TRANSLATION_STRATEGIES = ['NoUTF8EscapingWithSuffixes', 'UnderscoreEscapingWithSuffixes', 'NoTranslation', 'UnderscoreEscapingWithoutSuffixes'] as const;

/** A non-empty set of non-empty resource attribute names. */
function attributeSet<const D extends string>(description: D) {
  return { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 }, 'x-kubernetes-list-type': 'set', description } as const;
}

/** OTLP receiver settings. */
export const otlpConfigSchema = {
  type: 'object',
  description: 'How the OTLP receiver translates OpenTelemetry metrics (needs Prometheus >= 2.55; some fields need newer versions).',
  additionalProperties: false,
  properties: {
    promoteAllResourceAttributes: bool('Turn every resource attribute into a label, except those in ignoreResourceAttributes (Prometheus >= 3.5; not with promoteResourceAttributes).'),
    ignoreResourceAttributes: attributeSet('Resource attributes left out when promoteAllResourceAttributes is true (Prometheus >= 3.5).'),
    promoteResourceAttributes: attributeSet('Resource attributes turned into labels (not with promoteAllResourceAttributes: true).'),
    translationStrategy: oneOf(OTLP_TRANSLATION_STRATEGIES, 'How names are translated (Prometheus >= 3.0; NoTranslation >= 3.4, UnderscoreEscapingWithoutSuffixes >= 3.6).'),
    keepIdentifyingResourceAttributes: bool('Also keep service.name, service.namespace and service.instance.id on target_info (Prometheus >= 3.1).'),
    convertHistogramsToNHCB: bool('Convert explicit bucket histograms to native histograms with custom buckets (Prometheus >= 3.4).'),
    promoteScopeMetadata: bool('Turn the instrumentation scope (name, version, schema URL, attributes) into labels (Prometheus >= 3.6).'),
    labelNameUnderscoreSanitization: bool("Prefix label names that start with a single '_' with 'key' under underscore escaping (Prometheus >= 3.8)."),
    labelNamePreserveMultipleUnderscores: bool('Keep runs of underscores in label names under underscore escaping (Prometheus >= 3.8).'),
  },
} as const;
