/**
 * spec.enforcedNamespaceLabel: a last relabeling (for targets and for samples) sets the label to
 * the monitor's namespace, so a tenant cannot pretend its series come from another namespace.
 * It comes after the user's rules on purpose: nothing the user writes can override it.
 */
import type { MonitorKind, ScrapeContext } from './scrape-context.ts';

/** `[{target_label, replacement: <namespace>}]`, or nothing when not enforced or exempt. */
export function namespaceEnforcementRelabelings(kind: MonitorKind, namespace: string, name: string, ctx: ScrapeContext): Record<string, unknown>[] {
  if (!ctx.enforcedNamespaceLabel) return [];
  if (ctx.excludedFromEnforcement(kind, namespace, name)) return [];
  return [{ target_label: ctx.enforcedNamespaceLabel, replacement: namespace }];
}
