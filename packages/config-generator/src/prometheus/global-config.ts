/**
 * The `global` block of prometheus.yaml, in prometheus-operator's key order: scrape settings,
 * external labels, global scrape limits, name validation and histogram settings, then rule
 * evaluation settings. Fields newer than the Prometheus version are dropped with a warning.
 */
import type { PrometheusSpec } from '@promop/crds';
import { parseByteSize } from '../values/byte-size.ts';
import { DEFAULT_INTERVAL, effectiveScrapeInterval } from '../values/scrape-interval.ts';
import { ESCAPING_SCHEMES, escapingSchemeName } from '../values/name-escaping.ts';
import { checkScrapeProtocols, protocolsForVersion } from '../values/scrape-protocols.ts';
import { buildExternalLabels, type ExternalLabelFields } from './external-labels.ts';
import { supports } from '../http-client/index.ts';
import { isPresent } from '../is-present.ts';
import type { PrometheusRenderContext } from './render-context.ts';
import { LOG_DIR, inLogDirectory } from '../pod-layout.ts';


/** The fields of the Prometheus spec that the global block reads. */
export type GlobalFields = ExternalLabelFields &
  Pick<
    PrometheusSpec,
    | 'scrapeInterval' | 'scrapeTimeout' | 'evaluationInterval' | 'scrapeProtocols' | 'bodySizeLimit' | 'enforcedBodySizeLimit'
    | 'sampleLimit' | 'enforcedSampleLimit' | 'targetLimit' | 'enforcedTargetLimit' | 'labelLimit' | 'enforcedLabelLimit'
    | 'labelNameLengthLimit' | 'enforcedLabelNameLengthLimit' | 'labelValueLengthLimit' | 'enforcedLabelValueLengthLimit'
    | 'keepDroppedTargets' | 'enforcedKeepDroppedTargets' | 'scrapeFailureLogFile' | 'nameValidationScheme' | 'nameEscapingScheme'
    | 'convertClassicHistogramsToNHCB' | 'scrapeClassicHistograms' | 'scrapeNativeHistograms' | 'ruleQueryOffset' | 'queryLogFile'
  >;


/**
 * Builds the `global` block. `ruleEvaluation: false` (an agent, which evaluates no rules) leaves out the rule
 * evaluation settings, as prometheus-operator's agent configuration does.
 */
export function buildGlobalConfig(spec: GlobalFields, context: PrometheusRenderContext, options: { ruleEvaluation: boolean } = { ruleEvaluation: true }): Record<string, unknown> {
  const global: Record<string, unknown> = {};
  global.scrape_interval = effectiveScrapeInterval(spec);
  if (spec.scrapeTimeout) global.scrape_timeout = spec.scrapeTimeout;
  checkScrapeProtocols(spec.scrapeProtocols, 'spec.scrapeProtocols', context);
  if (spec.scrapeProtocols && spec.scrapeProtocols.length > 0 && supports(context, '2.49.0', 'spec.scrapeProtocols', 'scrape_protocols')) {
    // The same version filter as monitor-level protocols; nothing left → no key (an empty list is refused).
    const protocols = protocolsForVersion(spec.scrapeProtocols, 'spec.scrapeProtocols', context);
    if (protocols.length > 0) global.scrape_protocols = protocols;
  }
  global.external_labels = buildExternalLabels(spec, context);

  // As prometheus-operator: the Prometheus' own bodySizeLimit, else the enforced one (not the lower of the two:
  // both are the Prometheus owner's settings, and every monitor job carries its own capped body_size_limit).
  const bodySizeField = spec.bodySizeLimit ? 'bodySizeLimit' : 'enforcedBodySizeLimit';
  const bodySizeLimit = spec.bodySizeLimit || spec.enforcedBodySizeLimit;
  // The CRD pattern's ^ anchors only its first alternative, so "x1KB" passes the API server; Prometheus refuses it.
  for (const field of ['bodySizeLimit', 'enforcedBodySizeLimit'] as const) {
    const size = spec[field];
    if (size && parseByteSize(size) === undefined) context.findings.problem(`spec.${field}`, `"${size}" is not a size like 512MB or 1GiB`);
  }
  if (bodySizeLimit && supports(context, '2.45.0', `spec.${bodySizeField}`, 'body_size_limit')) {
    global.body_size_limit = bodySizeLimit;
  }
  appendLimit(global, 'sample_limit', spec.sampleLimit, spec.enforcedSampleLimit, 'sampleLimit', context, '2.45.0');
  appendLimit(global, 'target_limit', spec.targetLimit, spec.enforcedTargetLimit, 'targetLimit', context, '2.45.0');
  appendLimit(global, 'label_limit', spec.labelLimit, spec.enforcedLabelLimit, 'labelLimit', context, '2.45.0');
  appendLimit(global, 'label_name_length_limit', spec.labelNameLengthLimit, spec.enforcedLabelNameLengthLimit, 'labelNameLengthLimit', context, '2.45.0');
  appendLimit(global, 'label_value_length_limit', spec.labelValueLengthLimit, spec.enforcedLabelValueLengthLimit, 'labelValueLengthLimit', context, '2.45.0');
  appendLimit(global, 'keep_dropped_targets', spec.keepDroppedTargets, spec.enforcedKeepDroppedTargets, 'keepDroppedTargets', context, '2.47.0');

  if (spec.scrapeFailureLogFile && supports(context, '2.55.0', 'spec.scrapeFailureLogFile', 'scrape_failure_log_file')) {
    global.scrape_failure_log_file = logFilePath(spec.scrapeFailureLogFile);
  }
  if (spec.nameValidationScheme && supports(context, '3.0.0', 'spec.nameValidationScheme', 'metric_name_validation_scheme')) {
    global.metric_name_validation_scheme = spec.nameValidationScheme.toLowerCase();
  }
  if (spec.nameEscapingScheme && !ESCAPING_SCHEMES.includes(spec.nameEscapingScheme)) {
    // A plain string in the Prometheus CRD (an enum in ScrapeConfig's); Prometheus refuses other names.
    context.findings.problem('spec.nameEscapingScheme', `nameEscapingScheme must be one of ${ESCAPING_SCHEMES.join(', ')}, got "${spec.nameEscapingScheme}"`);
  } else if (spec.nameEscapingScheme && supports(context, '3.4.0', 'spec.nameEscapingScheme', 'metric_name_escaping_scheme')) {
    global.metric_name_escaping_scheme = escapingSchemeName(spec.nameEscapingScheme);
  }
  if (isPresent(spec.convertClassicHistogramsToNHCB) && supports(context, '3.4.0', 'spec.convertClassicHistogramsToNHCB', 'convert_classic_histograms_to_nhcb')) {
    global.convert_classic_histograms_to_nhcb = spec.convertClassicHistogramsToNHCB;
  }
  if (isPresent(spec.scrapeClassicHistograms) && supports(context, '3.5.0', 'spec.scrapeClassicHistograms', 'always_scrape_classic_histograms')) {
    global.always_scrape_classic_histograms = spec.scrapeClassicHistograms;
  }
  if (isPresent(spec.scrapeNativeHistograms) && supports(context, '3.8.0', 'spec.scrapeNativeHistograms', 'scrape_native_histograms')) {
    global.scrape_native_histograms = spec.scrapeNativeHistograms;
  }

  if (!options.ruleEvaluation) return global;
  global.evaluation_interval = spec.evaluationInterval || DEFAULT_INTERVAL;
  if (spec.ruleQueryOffset && supports(context, '2.53.0', 'spec.ruleQueryOffset', 'rule_query_offset')) global.rule_query_offset = spec.ruleQueryOffset;
  if (spec.queryLogFile && supports(context, '2.16.0', 'spec.queryLogFile', 'query_log_file')) global.query_log_file = logFilePath(spec.queryLogFile);
  return global;
}

/**
 * A global limit is the user's value capped by the enforced one, or the enforced one alone, so
 * that jobs without their own limit inherit it.
 */
function appendLimit(
  global: Record<string, unknown>,
  key: string,
  limit: number | null | undefined,
  enforced: number | null | undefined,
  field: string,
  context: PrometheusRenderContext,
  minimum: string,
): void {
  const own = limit ?? 0;
  const cap = enforced ?? 0;
  let value: number | undefined;
  if (own > 0) value = cap > 0 && own > cap ? cap : own;
  else if (cap > 0) value = cap;
  if (value === undefined) return;
  const enforcedField = `enforced${field[0]?.toUpperCase()}${field.slice(1)}`;
  if (supports(context, minimum, `spec.${own > 0 ? field : enforcedField}`, key)) global[key] = value;
}

/** A bare file name goes to the log directory; a path is kept (upstream's logFilePath). */
function logFilePath(file: string): string {
  return inLogDirectory(file) ? `${LOG_DIR}/${file}` : file;
}


