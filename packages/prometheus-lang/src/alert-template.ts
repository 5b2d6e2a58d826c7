/**
 * Alert labels and annotations are Go templates. When Prometheus loads a rule file, rulefmt
 * parses each one of an alerting rule (not of a recording rule) with text/template, Prometheus'
 * template functions and four variables declared in front of the text, and refuses the whole file
 * if one does not parse (model/rulefmt/rulefmt.go, testTemplateParsing). The same parse here.
 */
import { isAtLeast, toPrometheusVersion, type PrometheusVersion } from './prometheus-version.ts';
import { findGoTemplateError, type GoTemplateError } from './go-template.ts';
import { describePosition } from './promql-check.ts';

/** The alerting rule a label or annotation template belongs to, and the Prometheus that loads it. */
export interface AlertTemplateTarget {
  /** The release (`v3.16.0`), as text or read: it decides which template functions exist. */
  version: PrometheusVersion | string;
  /** The rule's `alert`: Go names the template after it. */
  alertName: string;
}

/** Why Prometheus would refuse a template. */
export interface TemplateProblem {
  /** Where, in the template as written (UTF-16 code units). */
  offset: number;
  /** text/template's objection, without the position: `function "nosuch" not defined`. */
  reason: string;
  /** The sentence a user reads: `template error at column 4: function "nosuch" not defined`. */
  message: string;
}

/**
 * Why Prometheus would refuse `text` as a label or annotation of an alerting rule (rule files parse them when they
 * load), or undefined when it parses.
 */
export function checkTemplate(text: string, target: AlertTemplateTarget): TemplateProblem | undefined {
  const error = findAlertTemplateError(text, target.alertName, toPrometheusVersion(target.version));
  if (!error) return undefined;
  return { offset: error.offset, reason: error.message, message: `template error at ${describePosition(text, error.offset)}: ${error.message}` };
}

/** Prometheus' template functions (template/template.go) and the release that added each. */
const PROMETHEUS_TEMPLATE_FUNCTIONS: Readonly<Record<string, string>> = {
  query: '2.0.0',
  first: '2.0.0',
  label: '2.0.0',
  value: '2.0.0',
  strvalue: '2.0.0',
  args: '2.0.0',
  reReplaceAll: '2.0.0',
  safeHtml: '2.0.0',
  match: '2.0.0',
  title: '2.0.0',
  toUpper: '2.0.0',
  toLower: '2.0.0',
  graphLink: '2.0.0',
  tableLink: '2.0.0',
  sortByLabel: '2.0.0',
  humanize: '2.0.0',
  humanize1024: '2.0.0',
  humanizeDuration: '2.0.0',
  humanizePercentage: '2.11.0',
  humanizeTimestamp: '2.0.0',
  pathPrefix: '2.0.0',
  externalURL: '2.0.0',
  parseDuration: '2.32.0',
  stripPort: '2.33.0',
  stripDomain: '2.36.0',
  toTime: '2.38.0',
  toDuration: '3.6.0',
  now: '3.6.0',
  urlQueryEscape: '3.8.0',
};

/**
 * What rulefmt puts in front of every label and annotation before parsing it, so these variables
 * exist at the top level (not inside a {{define}}).
 */
const DECLARATIONS = '{{$labels := .Labels}}{{$externalLabels := .ExternalLabels}}{{$externalURL := .ExternalURL}}{{$value := .Value}}';

const functionsByVersion = new Map<string, ReadonlySet<string>>();

/** The template functions of `version` (computed once per version). */
function templateFunctionsOf(version: PrometheusVersion): ReadonlySet<string> {
  const key = `${version.major}.${version.minor}.${version.patch}`;
  let functions = functionsByVersion.get(key);
  if (!functions) {
    functions = new Set(Object.keys(PROMETHEUS_TEMPLATE_FUNCTIONS).filter((name) => isAtLeast(version, PROMETHEUS_TEMPLATE_FUNCTIONS[name]!)));
    functionsByVersion.set(key, functions);
  }
  return functions;
}

/** The first error Prometheus would report for the label or annotation `text` of alert `alertName`. */
export function findAlertTemplateError(text: string, alertName: string, version: PrometheusVersion): GoTemplateError | undefined {
  const functions = templateFunctionsOf(version);
  const error = findGoTemplateError(DECLARATIONS + text, { functions, name: `__alert_${alertName}` });
  if (!error) return undefined;
  return { offset: Math.max(0, error.offset - DECLARATIONS.length), message: error.message };
}

/** The release that added a Prometheus template function, for a message about a missing one. */
export function templateFunctionSince(name: string): string | undefined {
  return Object.hasOwn(PROMETHEUS_TEMPLATE_FUNCTIONS, name) ? PROMETHEUS_TEMPLATE_FUNCTIONS[name] : undefined;
}
