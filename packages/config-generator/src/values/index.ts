/**
 * Values as Prometheus reads them, shared by every part of the generator (monitors, the Prometheus'
 * own settings, rules): byte sizes, relabelings, metric and label names, scrape protocols (durations and
 * RE2 regexes are read by @promop/prometheus-lang). Each module checks a value the way the Prometheus that
 * will load it does, so a bad one is reported on its object instead of failing a reload.
 */
export { parseByteSize, lowerByteSize } from './byte-size.ts';
export { validateRelabelConfigs, validateRelabelConfig, renderRelabelConfigs, renderRelabelConfig } from './relabeling.ts';
export { sanitizeLabelName, validateCopiedLabels } from './label-names.ts';
export {
  isValidLabelName, isValidMetricName, labelNameRule, metricNameRule, nameValidationSchemeFor, type NameCheckContext, type NameValidationScheme,
} from './prometheus-names.ts';
export { SCRAPE_PROTOCOLS, checkScrapeProtocols, protocolsForVersion, type ScrapeProtocol } from './scrape-protocols.ts';
