/**
 * `spec.excludedFromEnforcement` (and the deprecated `prometheusRulesExcludedFromEnforce`):
 * objects the enforced namespace label is not applied to. An entry without a name exempts every
 * object of that resource in the namespace.
 */
import type { ResourceKind } from '../model.ts';

/** Tells whether an object is exempt from the enforced namespace label. */
export type EnforcementExclusion = (kind: ResourceKind, namespace: string, name: string) => boolean;

const RESOURCE_OF_KIND: Partial<Record<ResourceKind, string>> = {
  ServiceMonitor: 'servicemonitors',
  PodMonitor: 'podmonitors',
  PrometheusRule: 'prometheusrules',
};

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
    keys.add(`prometheusrules/${text(entry.ruleNamespace)}/${text(entry.ruleName)}`);
  }
  return (kind, namespace, name) => {
    const resource = RESOURCE_OF_KIND[kind];
    if (resource === undefined) return false;
    return keys.has(`${resource}/${namespace}/${name}`) || keys.has(`${resource}/${namespace}/`);
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
