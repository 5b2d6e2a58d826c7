/**
 * `spec.excludedFromEnforcement` (and the deprecated `prometheusRulesExcludedFromEnforce`):
 * objects the enforced namespace label is not applied to. An entry without a name exempts every
 * object of that resource in the namespace.
 */
import type { PLURALS } from '@promop/crds';
import type { ResourceKind } from '../model.ts';
import { isRecord } from '../rules/is-record.ts';

/** Tells whether an object is exempt from the enforced namespace label. */
export type EnforcementExclusion = (kind: ResourceKind, namespace: string, name: string) => boolean;

/**
 * Entries name their resource by its API plural. Typed against @promop/crds' PLURALS so the two
 * cannot drift; not imported from it at run time, which would load ajv and every CRD schema into
 * the pure generator just for a few strings.
 */
const RESOURCE_OF_KIND: Omit<typeof PLURALS, 'Prometheus' | 'PrometheusAgent'> = {
  ServiceMonitor: 'servicemonitors',
  PodMonitor: 'podmonitors',
  Probe: 'probes',
  ScrapeConfig: 'scrapeconfigs',
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
    keys.add(`${RESOURCE_OF_KIND.PrometheusRule}/${text(entry.ruleNamespace)}/${text(entry.ruleName)}`);
  }
  return (kind, namespace, name) => {
    // Only monitors and rules get the enforced label.
    if (kind === 'Prometheus' || kind === 'PrometheusAgent') return false;
    const resource = RESOURCE_OF_KIND[kind];
    return keys.has(`${resource}/${namespace}/${name}`) || keys.has(`${resource}/${namespace}/`);
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
