/**
 * Kubernetes label names turned into Prometheus label names (meta label suffixes, targetLabels,
 * podTargetLabels). Whether a name is valid is decided in ../prometheus-names.ts.
 */
import { isValidLabelName, labelNameRule, type NameCheckContext } from './prometheus-names.ts';
import type { FieldProblem } from '../model.ts';

/**
 * prometheus-operator's `sanitizeLabelName`: every character outside `[a-zA-Z0-9_]` becomes `_`,
 * so a Kubernetes label like `app.kubernetes.io/name` maps to its meta label suffix. Character means code point, as
 * in Go (a Probe's ingress selector may hold a key no label can have, `🙂` included: one `_`, not two).
 */
export function sanitizeLabelName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_]/gu, '_');
}

/**
 * Checks Kubernetes label names that become target label names (targetLabels, podTargetLabels):
 * after sanitizing, the legacy scheme (Prometheus 2, or `nameValidationScheme: Legacy`) still
 * refuses a leading digit.
 */
export function validateCopiedLabels(labels: string[] | undefined, path: string, target: NameCheckContext): FieldProblem[] {
  const problems: FieldProblem[] = [];
  (labels ?? []).forEach((label, i) => {
    const name = sanitizeLabelName(label);
    if (!isValidLabelName(name, target.nameValidationScheme)) {
      problems.push({ path: `${path}[${i}]`, message: `"${label}" becomes the label name "${name}", which this Prometheus does not accept (${labelNameRule(target.nameValidationScheme)})` });
    }
  });
  return problems;
}
