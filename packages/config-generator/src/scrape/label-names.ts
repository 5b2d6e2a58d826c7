/** Label name rules shared by the generated relabelings and their validation. */
import { isAtLeast, type PrometheusVersion } from '../prometheus-version.ts';

/**
 * prometheus-operator's `sanitizeLabelName`: every character outside `[a-zA-Z0-9_]` becomes `_`,
 * so a Kubernetes label like `app.kubernetes.io/name` maps to its meta label suffix.
 */
export function sanitizeLabelName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_]/g, '_');
}

const LEGACY_LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/**
 * Whether Prometheus accepts `name` as a label name: any non-empty UTF-8 text from v3.0 (its
 * default validation scheme is UTF-8), the legacy `[a-zA-Z_][a-zA-Z0-9_]*` before.
 */
export function isValidLabelName(name: string, version: PrometheusVersion): boolean {
  if (isAtLeast(version, '3.0.0')) return name.length > 0 && isWellFormed(name);
  return LEGACY_LABEL_NAME.test(name);
}

function isWellFormed(text: string): boolean {
  // Lone surrogates cannot be encoded as UTF-8.
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/**
 * Checks Kubernetes label names that become target label names (targetLabels, podTargetLabels):
 * after sanitizing, Prometheus 2 still refuses a leading digit.
 */
export function validateCopiedLabels(labels: string[] | undefined, path: string, version: PrometheusVersion): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  (labels ?? []).forEach((label, i) => {
    const name = sanitizeLabelName(label);
    if (!isValidLabelName(name, version)) problems.push({ path: `${path}[${i}]`, message: `"${label}" does not give a valid label name ("${name}") for Prometheus ${version.text}` });
  });
  return problems;
}
