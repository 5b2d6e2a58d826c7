/**
 * `promop explain thanosruler NAME`: what a ThanosRuler selects and rejects, with the operator's own code
 * (thanos-ruler-rendering.ts, as its reconciler renders it), and why the ruler itself is refused when
 * it is. explain-command.ts parses the command line, prints and exits.
 */
import type { FieldProblem, Verdict } from '@promop/config-generator';
import type { ThanosRuler } from '@promop/crds';
import { renderThanosRuler } from '../thanos-ruler/thanos-ruler-rendering.ts';
import type { ClusterSnapshot } from './cluster-snapshot.ts';

/** What `explain` says of a ThanosRuler (printed as is for -o json|yaml). */
export interface ThanosRulerExplanation {
  kind: 'ThanosRuler';
  namespace: string;
  name: string;
  generation?: number;
  /** Why promop refuses the ruler itself (nothing is written then); empty when it runs it. */
  problems: FieldProblem[];
  /** Each PrometheusRule: selected or not (and why), accepted or rejected (and why). */
  prometheusRules: { namespace: string; name: string; selected: boolean; accepted?: boolean; reason?: string; problems?: FieldProblem[]; warnings?: string[] }[];
  /** The rule ConfigMaps and their files, as the operator writes them. */
  ruleConfigMaps: { name: string; files: string[] }[];
}

/** Explains `thanosRuler` against the PrometheusRules, namespaces, Secrets and ConfigMaps of `objects`. */
export function explainThanosRuler(objects: Pick<ClusterSnapshot, 'prometheusRules' | 'namespaces' | 'secrets' | 'configMaps'>, thanosRuler: ThanosRuler): ThanosRulerExplanation {
  const { rules, problems } = renderThanosRuler(thanosRuler, {
    secrets: objects.secrets,
    configMaps: objects.configMaps,
    prometheusRules: objects.prometheusRules,
    namespaces: objects.namespaces.map((each) => ({ name: each.metadata?.name ?? '', labels: each.metadata?.labels ?? {} })),
  });
  const judged = (verdict: Verdict): ThanosRulerExplanation['prometheusRules'][number] => {
    const base = { namespace: verdict.resource.namespace, name: verdict.resource.name };
    if (!verdict.selected) return { ...base, selected: false, reason: verdict.reason };
    const warnings = verdict.warnings.length > 0 ? { warnings: verdict.warnings } : {};
    if (verdict.accepted) return { ...base, selected: true, accepted: true, ...warnings };
    return { ...base, selected: true, accepted: false, problems: verdict.problems, ...warnings };
  };
  return {
    kind: 'ThanosRuler',
    namespace: thanosRuler.metadata.namespace ?? '',
    name: thanosRuler.metadata.name,
    ...(thanosRuler.metadata.generation !== undefined ? { generation: thanosRuler.metadata.generation } : {}),
    problems,
    prometheusRules: rules.verdicts.map(judged).sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`)),
    ruleConfigMaps: rules.ruleConfigMaps.map((each) => ({ name: each.name, files: Object.keys(each.files).sort() })),
  };
}

/** The text a person reads. */
export function formatThanosRulerExplanation(explanation: ThanosRulerExplanation): string {
  const lines = [`ThanosRuler ${explanation.namespace}/${explanation.name}${explanation.generation !== undefined ? ` (generation ${explanation.generation})` : ''}`];
  if (explanation.problems.length > 0) {
    lines.push('  REFUSED: promop writes nothing for it until these are fixed:', ...explanation.problems.map((problem) => `    ${problem.path}: ${problem.message}`));
  }
  const selected = explanation.prometheusRules.filter((rule) => rule.selected);
  lines.push('', `PrometheusRules: ${selected.filter((rule) => rule.accepted).length} accepted, ${selected.filter((rule) => !rule.accepted).length} rejected, ${explanation.prometheusRules.length - selected.length} not selected`);
  for (const rule of explanation.prometheusRules) {
    const who = `  ${rule.namespace}/${rule.name}`;
    if (!rule.selected) lines.push(`${who}: not selected`, `    ${rule.reason ?? ''}`);
    else if (!rule.accepted) lines.push(`${who}: selected, REJECTED`, ...(rule.problems ?? []).map((problem) => `    ${problem.path}: ${problem.message}`));
    else lines.push(`${who}: selected, accepted`);
    for (const warning of rule.warnings ?? []) lines.push(`    warning: ${warning}`);
  }
  lines.push('', 'Rule ConfigMaps:', ...explanation.ruleConfigMaps.map((each) => `  ${each.name}: ${each.files.length} files`));
  return `${lines.join('\n')}\n`;
}
