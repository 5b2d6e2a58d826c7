/**
 * Values as Prometheus reads them, shared by every part of the generator (monitors, the Prometheus'
 * own settings, rules) and by the controller: durations, byte sizes, RE2 regexes, relabelings,
 * metric and label names, scrape protocols. Each module checks a value the way the Prometheus that
 * will load it does, so a bad one is reported on its object instead of failing a reload.
 */
export { parseDuration } from './duration.ts';
export { parseByteSize, lowerByteSize } from './byte-size.ts';
export { re2RegexError } from './re2-regex.ts';
export { validateRelabelConfigs, validateRelabelConfig, renderRelabelConfigs, renderRelabelConfig } from './relabeling.ts';
export { sanitizeLabelName, validateCopiedLabels } from './label-names.ts';
export {
  isValidLabelName, isValidMetricName, labelNameRule, metricNameRule, nameValidationSchemeFor, type NameCheckContext, type NameValidationScheme,
} from './prometheus-names.ts';
export { SCRAPE_PROTOCOLS, checkScrapeProtocols, protocolsForVersion, type ScrapeProtocol } from './scrape-protocols.ts';
