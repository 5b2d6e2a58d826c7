/**
 * `promop explain alertmanagerconfig|alertmanager`: reads what an Alertmanager configuration is made from (the
 * snapshot of cluster-snapshot.ts, with each Alertmanager's configSecret), explains it (alertmanager-explanation.ts)
 * and writes the text a person reads. explain-command.ts parses the command line, prints and exits.
 */
import type { KubeReader } from './kube-reader.ts';
import type { ClusterObjects } from './cluster-objects.ts';
import { readClusterSnapshot } from './cluster-snapshot.ts';
import {
  alertmanagerKeyOf, alertmanagersOf, explainAlertmanager, explainAlertmanagerConfig, findAlertmanagerConfig, renderAlertmanagerFromSnapshot,
  type AlertmanagerConfigExplanation, type AlertmanagerConfigStanding, type AlertmanagerExplanation,
} from './alertmanager-explanation.ts';
import { labelsText } from './labels-text.ts';
import { ALERTMANAGER_WORKLOAD_KINDS, type AlertmanagerSelectedKind, type AlertmanagerWorkloadKind } from './program-kinds.ts';
import type { EXPLAIN_EXIT } from './explain-command.ts';

/** An Alertmanager or AlertmanagerConfig to explain. */
export interface AlertingTarget {
  kind: AlertmanagerSelectedKind | AlertmanagerWorkloadKind;
  namespace: string;
  name: string;
}

/** The answer: the explanation (printed as is for -o json|yaml), its text for a person, and the exit status' name. */
export type AlertingAnswer =
  | { found: false }
  | { found: true; explanation: AlertmanagerConfigExplanation | AlertmanagerExplanation; text: string; exit: keyof typeof EXPLAIN_EXIT };

/** Reads the snapshot (from `listing`, the lists already requested) and explains `target`. Read errors are thrown. */
export async function explainAlertingTarget(reader: KubeReader, listing: Promise<ClusterObjects>, target: AlertingTarget): Promise<AlertingAnswer> {
  const snapshot = await readClusterSnapshot(reader, await listing);
  if (ALERTMANAGER_WORKLOAD_KINDS.some((kind) => kind === target.kind)) {
    const alertmanager = snapshot.alertmanagers.find((each) => each.metadata.namespace === target.namespace && each.metadata.name === target.name);
    if (!alertmanager) return { found: false };
    const explanation = explainAlertmanager(snapshot, alertmanager);
    return { found: true, explanation, text: formatAlertmanagerExplanation(explanation), exit: explanation.problem ? 'rejected' : 'ok' };
  }
  if (!findAlertmanagerConfig(snapshot, target)) return { found: false };
  const renderings = new Map(alertmanagersOf(snapshot).map((alertmanager) => [alertmanagerKeyOf(alertmanager), renderAlertmanagerFromSnapshot(snapshot, alertmanager)]));
  const explanation = explainAlertmanagerConfig(snapshot, target, renderings);
  const exit = ({ accepted: 'ok', rejected: 'rejected', 'not-judged': 'rejected', 'not-selected': 'notSelected' } as const)[explanation.outcome];
  return { found: true, explanation, text: formatAlertmanagerConfigExplanation(explanation), exit };
}

/** The text a person reads for an AlertmanagerConfig. */
export function formatAlertmanagerConfigExplanation(explanation: AlertmanagerConfigExplanation): string {
  const lines = [`${explanation.kind} ${explanation.namespace}/${explanation.name}${explanation.generation !== undefined ? ` (generation ${explanation.generation})` : ''}`];
  lines.push(`  labels: ${labelsText(explanation.labels)}`);
  lines.push(`  namespace ${explanation.namespace}: ${explanation.namespaceLabels ? labelsText(explanation.namespaceLabels) : 'does not exist'}`);
  for (const note of explanation.notes) lines.push(`  note: ${note}`);
  for (const judgement of explanation.alertmanagers) {
    const who = `Alertmanager ${judgement.alertmanager.namespace}/${judgement.alertmanager.name}`;
    lines.push('');
    if (!judgement.selected) lines.push(`${who}: not selected`, `  ${judgement.reason ?? ''}`);
    else if (judgement.accepted === undefined) lines.push(`${who}: selected, NOT JUDGED`, `  ${judgement.reason ?? ''}`);
    else if (!judgement.accepted) lines.push(`${who}: selected, REJECTED`, ...(judgement.problems ?? []).map((problem) => `  ${problem.path}: ${problem.message}`));
    else lines.push(`${who}: selected, accepted`);
    const problem = judgement.accepted === undefined ? undefined : judgement.alertmanagerProblem;
    if (problem) lines.push(`  the Alertmanager cannot use its own configuration (${problem.path}: ${problem.message}); its pods keep running the last one`);
    if (judgement.selected) for (const warning of judgement.warnings ?? []) lines.push(`  warning: ${warning}`);
  }
  const count = (test: (judgement: AlertmanagerConfigExplanation['alertmanagers'][number]) => boolean) => explanation.alertmanagers.filter(test).length;
  lines.push(
    '',
    explanation.alertmanagers.length === 0
      ? 'Selected by no Alertmanager: the cluster has none.'
      : `Selected by ${count((j) => j.selected)} of ${explanation.alertmanagers.length} Alertmanager objects: accepted by ${count((j) => j.accepted === true)}, rejected by ${count((j) => j.accepted === false)}${count((j) => j.selected && j.accepted === undefined) > 0 ? `, not judged by ${count((j) => j.selected && j.accepted === undefined)}` : ''}.`,
  );
  return `${lines.join('\n')}\n`;
}

/** The text a person reads for an Alertmanager. */
export function formatAlertmanagerExplanation(explanation: AlertmanagerExplanation): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const lines = [`${explanation.kind} ${explanation.namespace}/${explanation.name} (version ${explanation.version}, ${plural(explanation.replicas, 'replica')}${explanation.paused ? ', PAUSED' : ''})`];
  lines.push(`  configSecret: ${explanation.configSecret.name} (${{ present: 'read', missing: 'does not exist', unreadable: 'may not be read', unused: 'not read: spec.alertmanagerConfiguration makes the configuration' }[explanation.configSecret.state]})`);
  if (explanation.problem) lines.push(`  problem: ${explanation.problem.path}: ${explanation.problem.message} (promop keeps the running configuration)`);
  for (const note of explanation.notes) lines.push(`  note: ${note}`);
  const counts = explanation.alertmanagerConfigs;
  const unjudged = counts.selected - counts.accepted - counts.rejected;
  lines.push('', `AlertmanagerConfigs: ${plural(counts.candidates, 'candidate')}, ${counts.selected} selected (${counts.accepted} accepted, ${counts.rejected} rejected${unjudged > 0 ? `, ${unjudged} not judged` : ''}), ${counts.candidates - counts.selected} not selected`);
  const width = Math.max(0, ...counts.resources.map((resource) => `${resource.namespace}/${resource.name}`.length));
  const order: Record<AlertmanagerConfigStanding['state'], number> = { rejected: 0, 'not-judged': 1, accepted: 2, 'not-selected': 3 };
  const label: Record<AlertmanagerConfigStanding['state'], string> = { rejected: 'REJECTED', 'not-judged': 'NOT JUDGED', accepted: 'accepted', 'not-selected': 'not selected' };
  const labelWidth = Math.max(...Object.values(label).map((text) => text.length));
  for (const resource of [...counts.resources].sort((a, b) => order[a.state] - order[b.state])) {
    // A not-judged object's reason is the Alertmanager's problem, printed once above.
    const detail = resource.state === 'accepted' || resource.state === 'not-judged' ? '' : resource.reason ?? '';
    lines.push(`  ${label[resource.state].padEnd(labelWidth)}  ${`${resource.namespace}/${resource.name}`.padEnd(width)}  ${detail}`.trimEnd());
    for (const problem of resource.problems?.slice(1) ?? []) lines.push(`  ${' '.repeat(labelWidth)}  ${' '.repeat(width)}  ${problem.path}: ${problem.message}`);
    for (const warning of resource.warnings ?? []) lines.push(`  ${' '.repeat(labelWidth)}  ${' '.repeat(width)}  warning: ${warning}`);
  }
  return `${lines.join('\n')}\n`;
}
