/**
 * `spec.excludedFromEnforcement` (and the deprecated `prometheusRulesExcludedFromEnforce`):
 * objects the enforced namespace label is not applied to. An entry without a name exempts every
 * object of that resource in the namespace.
 */
import { KINDS, PLURALS } from '@promop/crds/kinds';
import type { ResourceKind } from '../model.ts';
import { isRecord } from '../values/is-record.ts';

/** Tells whether an object is exempt from the enforced namespace label. */
export type EnforcementExclusion = (kind: ResourceKind, namespace: string, name: string) => boolean;


/** Builds the exemption test from the spec's lists (entries are opaque objects in the CRD). */
export function enforcementExclusion(excluded: readonly unknown[] | undefined, legacyRuleExclusions: readonly unknown[] | undefined): EnforcementExclusion {
  const keys = new Set<string>();
  for (const entry of excluded ?? []) {
    if (!isRecord(entry)) continue;
    keys.add(`${text(entry.resource)}/${text(entry.namespace)}/${text(entry.name)}`);
  }
  // The deprecated list names rules by `ruleNamespace` and `ruleName`.
  for (const entry of legacyRuleExclusions ?? []) {
    if (!isRecord(entry)) continue;
    keys.add(`${PLURALS.PrometheusRule}/${text(entry.ruleNamespace)}/${text(entry.ruleName)}`);
  }
  return (kind, namespace, name) => {
    // Only the teams' objects get the enforced label, never a workload.
    if (KINDS[kind].role === 'workload') return false;
    const resource = PLURALS[kind];
    return keys.has(`${resource}/${namespace}/${name}`) || keys.has(`${resource}/${namespace}/`);
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
