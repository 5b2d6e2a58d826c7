/**
 * The `selectors` of a Kubernetes discovery, checked as Prometheus checks them when it loads its configuration
 * (discovery/kubernetes SDConfig.UnmarshalYAML): each selector's role is known, appears once, and is one the
 * discovery role watches; its field selector parses with fields.ParseSelector and its label selector with
 * labels.Parse. Prometheus refuses the whole file for the first failure, breaking every team's reload; here each
 * failure is a problem at its path, and only the object that wrote it is rejected.
 *
 * Where prometheus-operator and Prometheus disagree, Prometheus decides (docs/compatibility.md): since 3.11 a
 * `pod` discovery also accepts a `node` selector (the node metadata it attaches), which prometheus-operator
 * v0.93 still refuses; duplicated roles are refused by Prometheus and by the CRD's list map, not by the operator.
 */
import { isAtLeast, type PrometheusVersion } from '../prometheus-version.ts';
import type { FieldProblem } from '../model.ts';
import { parseFieldSelectorString } from '../selection/field-selector-string.ts';
import { parseLabelSelectorString } from '../selection/label-selector-string.ts';

/** The discovery roles Prometheus knows (lowercase, as written in its configuration). */
export const KUBERNETES_SD_ROLES = ['pod', 'service', 'endpoints', 'endpointslice', 'node', 'ingress'] as const;

/** A selector as written to `kubernetes_sd_configs[].selectors[]`: the role lowercased, label and field verbatim. */
export interface KubernetesSdSelector {
  role: string;
  label?: string;
  field?: string;
}

/** The selector roles each discovery role watches; `pod` takes `node` too from Prometheus 3.11. */
function allowedSelectorRoles(role: string, version: PrometheusVersion): readonly string[] | undefined {
  switch (role) {
    case 'pod':
      return isAtLeast(version, '3.11.0') ? ['pod', 'node'] : ['pod'];
    case 'endpoints':
      return ['pod', 'service', 'endpoints'];
    case 'endpointslice':
      return ['pod', 'service', 'endpointslice'];
    case 'service':
    case 'node':
    case 'ingress':
      return [role];
    default:
      return undefined;
  }
}

/**
 * Every reason Prometheus would refuse `selectors` under a discovery of `role` (lowercase), at
 * `<path>.selectors[i].role|label|field`. An unknown discovery role is reported by the caller.
 */
export function kubernetesSdSelectorProblems(role: string, selectors: readonly KubernetesSdSelector[], path: string, version: PrometheusVersion): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const allowed = allowedSelectorRoles(role, version);
  const seen = new Map<string, number>();
  selectors.forEach((selector, i) => {
    const at = `${path}.selectors[${i}]`;
    const first = seen.get(selector.role);
    if (!(KUBERNETES_SD_ROLES as readonly string[]).includes(selector.role)) {
      problems.push({ path: `${at}.role`, message: `"${selector.role}" is not a Kubernetes discovery role (${KUBERNETES_SD_ROLES.join(', ')})` });
    } else if (first !== undefined) {
      problems.push({ path: `${at}.role`, message: `selectors[${first}] already selects ${selector.role} objects; Prometheus takes one selector per role` });
    } else if (allowed && !allowed.includes(selector.role)) {
      const later = role === 'pod' && selector.role === 'node' ? ` (node selectors under role pod need Prometheus v3.11.0 or later; configured: ${version.text})` : '';
      problems.push({ path: `${at}.role`, message: `a ${role} discovery accepts only ${allowed.join(', ')} selectors${later}` });
    }
    if (first === undefined) seen.set(selector.role, i);
    if (selector.field !== undefined) {
      const field = parseFieldSelectorString(selector.field);
      if (!field.ok) problems.push({ path: `${at}.field`, message: `not a field selector Prometheus accepts: ${field.reason}` });
    }
    if (selector.label !== undefined) {
      const label = parseLabelSelectorString(selector.label);
      if (!label.ok) problems.push({ path: `${at}.label`, message: `not a label selector Prometheus accepts: ${label.reason}` });
    }
  });
  return problems;
}
