/**
 * `promop explain alertmanagerconfig` and `promop explain alertmanager`: the answers, computed from a cluster
 * snapshot with the operator's own code (pure: no I/O). Each Alertmanager is rendered as its reconciler renders it
 * (alertmanager-rendering.ts), so "selected", "accepted" and their reasons are the generator's verdicts, not a
 * second implementation. Nothing here quotes a Secret: the generator's messages name fields and objects, never
 * values, and the base configuration is only parsed.
 */
import type { FieldProblem, NamespaceInfo, Verdict } from '@promop/config-generator';
import type { Alertmanager } from '@promop/crds';
import { renderAlertmanagerConfiguration, type AlertmanagerRendering, type ConfigSecretState } from '../alertmanager/alertmanager-rendering.ts';
import type { ClusterSnapshot } from './cluster-snapshot.ts';

/** The lists an Alertmanager explanation reads. */
export type AlertingSnapshot = Pick<ClusterSnapshot, 'alertmanagers' | 'alertmanagerConfigs' | 'namespaces' | 'secrets' | 'configMaps' | 'unreadable'>;

/** An Alertmanager or an AlertmanagerConfig, by name. */
export interface NamespacedName {
  namespace: string;
  name: string;
}

/** What one Alertmanager makes of an AlertmanagerConfig. */
export interface AlertmanagerJudgement {
  alertmanager: NamespacedName;
  selected: boolean;
  /** Not selected: the selector and the unmet requirement, with the labels seen. Rejected: the first problem. Not judged: why. */
  reason?: string;
  /** Absent for a selected object the Alertmanager could not judge (its own configuration is refused). */
  accepted?: boolean;
  problems?: FieldProblem[];
  warnings?: string[];
  /** The Alertmanager's own problem: promop writes nothing for it and its pods keep the running configuration. */
  alertmanagerProblem?: FieldProblem;
}

/** The explanation of one AlertmanagerConfig across every Alertmanager of the cluster. */
export interface AlertmanagerConfigExplanation {
  kind: 'AlertmanagerConfig';
  namespace: string;
  name: string;
  generation?: number;
  labels: Record<string, string>;
  /** The labels of its namespace, which alertmanagerConfigNamespaceSelector matches; null when the Namespace does not exist. */
  namespaceLabels: Record<string, string> | null;
  /**
   * accepted: selected by at least one Alertmanager and accepted by every one that selects it; rejected: by at
   * least one; not-judged: none rejects it, but one that selects it cannot judge it (its selector is refused).
   */
  outcome: 'accepted' | 'rejected' | 'not-judged' | 'not-selected';
  alertmanagers: AlertmanagerJudgement[];
  notes: string[];
}

/** One AlertmanagerConfig as an Alertmanager sees it. */
export interface AlertmanagerConfigStanding extends NamespacedName {
  state: 'accepted' | 'rejected' | 'not-judged' | 'not-selected';
  reason?: string;
  /** Every problem, when there is more than one (`reason` holds the first). */
  problems?: FieldProblem[];
  warnings?: string[];
}

/** What an Alertmanager selects and rejects, and whether it can use its own configuration. */
export interface AlertmanagerExplanation {
  kind: 'Alertmanager';
  namespace: string;
  name: string;
  version: string;
  replicas: number;
  paused: boolean;
  /** The Secret holding the platform's base configuration (key alertmanager.yaml), and whether it could be read. */
  configSecret: { name: string; state: ConfigSecretState };
  /** Why no configuration can be built: promop keeps the running one. */
  problem?: FieldProblem;
  alertmanagerConfigs: { candidates: number; selected: number; accepted: number; rejected: number; resources: AlertmanagerConfigStanding[] };
  notes: string[];
}

/** Every Alertmanager of the snapshot, by namespace and name. */
export function alertmanagersOf(snapshot: Pick<ClusterSnapshot, 'alertmanagers'>): Alertmanager[] {
  return [...snapshot.alertmanagers].sort((a, b) => compareNames(nameOf(a), nameOf(b)));
}

/** Renders `alertmanager` from the snapshot exactly as the operator's reconcile does. */
export function renderAlertmanagerFromSnapshot(snapshot: AlertingSnapshot, alertmanager: Alertmanager): AlertmanagerRendering {
  return renderAlertmanagerConfiguration(alertmanager, {
    alertmanagerConfigs: snapshot.alertmanagerConfigs,
    namespaces: namespaceInfos(snapshot),
    secrets: snapshot.secrets,
    configMaps: snapshot.configMaps,
    unreadable: snapshot.unreadable,
  });
}

/** The AlertmanagerConfig named, or undefined. */
export function findAlertmanagerConfig(snapshot: Pick<ClusterSnapshot, 'alertmanagerConfigs'>, target: NamespacedName): ClusterSnapshot['alertmanagerConfigs'][number] | undefined {
  return snapshot.alertmanagerConfigs.find((object) => object.metadata.namespace === target.namespace && object.metadata.name === target.name);
}

/** `namespace/name` of an Alertmanager, the key of `renderings`. */
export function alertmanagerKeyOf(alertmanager: Alertmanager): string {
  const { namespace, name } = nameOf(alertmanager);
  return `${namespace}/${name}`;
}

/**
 * Explains `target` (which must exist in the snapshot) for every Alertmanager of the cluster; `renderings` by
 * alertmanagerKeyOf (rendered here when absent).
 */
export function explainAlertmanagerConfig(snapshot: AlertingSnapshot, target: NamespacedName, renderings?: ReadonlyMap<string, AlertmanagerRendering>): AlertmanagerConfigExplanation {
  const object = findAlertmanagerConfig(snapshot, target);
  if (!object) throw new Error(`bug: AlertmanagerConfig ${target.namespace}/${target.name} is not in the snapshot`);
  const namespace = snapshot.namespaces.find((candidate) => candidate.metadata?.name === target.namespace);
  const judgements = alertmanagersOf(snapshot).map((alertmanager): AlertmanagerJudgement => {
    const { output } = renderings?.get(alertmanagerKeyOf(alertmanager)) ?? renderAlertmanagerFromSnapshot(snapshot, alertmanager);
    const verdict = output.verdicts.find((each) => each.resource.namespace === target.namespace && each.resource.name === target.name);
    return judge(nameOf(alertmanager), verdict, output.ok ? undefined : output.problem);
  });
  const selected = judgements.filter((judgement) => judgement.selected);
  const outcome = selected.length === 0
    ? 'not-selected'
    : selected.some((judgement) => judgement.accepted === false) ? 'rejected' : selected.some((judgement) => judgement.accepted === undefined) ? 'not-judged' : 'accepted';
  return {
    kind: 'AlertmanagerConfig',
    namespace: target.namespace,
    name: target.name,
    ...(object.metadata.generation !== undefined ? { generation: object.metadata.generation } : {}),
    labels: { ...object.metadata.labels },
    namespaceLabels: namespace ? { ...namespace.metadata?.labels } : null,
    outcome,
    alertmanagers: judgements,
    notes: snapshotNotes(snapshot),
  };
}

/** Explains what `alertmanager` selects and rejects, and whether its own configuration can be used. */
export function explainAlertmanager(snapshot: AlertingSnapshot, alertmanager: Alertmanager, rendering = renderAlertmanagerFromSnapshot(snapshot, alertmanager)): AlertmanagerExplanation {
  const { output, configSecret } = rendering;
  const owner = nameOf(alertmanager);
  const resources = [...snapshot.alertmanagerConfigs]
    .map((object) => nameOf(object))
    .sort(compareNames)
    .map((candidate): AlertmanagerConfigStanding => {
      const verdict = output.verdicts.find((each) => each.resource.namespace === candidate.namespace && each.resource.name === candidate.name);
      const { selected, accepted, reason, problems, warnings } = judge(owner, verdict, output.ok ? undefined : output.problem);
      return {
        ...candidate,
        state: !selected ? 'not-selected' : accepted === undefined ? 'not-judged' : accepted ? 'accepted' : 'rejected',
        ...(reason !== undefined ? { reason } : {}),
        ...(problems && problems.length > 1 ? { problems } : {}),
        ...(warnings && warnings.length > 0 ? { warnings } : {}),
      };
    });
  const count = (state: AlertmanagerConfigStanding['state']) => resources.filter((resource) => resource.state === state).length;
  const spec = alertmanager.spec ?? {};
  const notes = [...snapshotNotes(snapshot)];
  if (configSecret.state === 'missing') notes.push(`spec.configSecret: Secret ${configSecret.name} does not exist; running a configuration that sends no notification`);
  if (configSecret.state === 'unreadable') notes.push(`you may not read Secret ${configSecret.name}: judged as if it did not exist (a configuration that sends no notification)`);
  if (!spec.alertmanagerConfigSelector) notes.push('spec.alertmanagerConfigSelector is not set: the base configuration runs as written and no AlertmanagerConfig is selected');
  return {
    kind: 'Alertmanager',
    ...owner,
    version: spec.version ?? '(default)',
    replicas: spec.replicas ?? 1,
    paused: spec.paused === true,
    configSecret,
    ...(output.ok ? {} : { problem: output.problem }),
    alertmanagerConfigs: {
      candidates: resources.length,
      selected: resources.length - count('not-selected'),
      accepted: count('accepted'),
      rejected: count('rejected'),
      resources,
    },
    notes,
  };
}

/** The judgement of one verdict; no verdict means the Alertmanager could not judge the object. */
function judge(alertmanager: NamespacedName, verdict: Verdict | undefined, alertmanagerProblem: FieldProblem | undefined): AlertmanagerJudgement {
  const own = alertmanagerProblem ? { alertmanagerProblem } : {};
  // The generator gives a verdict to every candidate it selects or not, also when it refuses the Alertmanager's own
  // configuration; only a refused selector leaves every candidate without one.
  if (!verdict) return { alertmanager, selected: true, reason: `not judged: the Alertmanager cannot use its own configuration${alertmanagerProblem ? ` (${alertmanagerProblem.path}: ${alertmanagerProblem.message})` : ''}`, ...own };
  if (!verdict.selected) return { alertmanager, selected: false, reason: verdict.reason };
  if (!verdict.accepted) return { alertmanager, selected: true, accepted: false, reason: verdict.reason, problems: verdict.problems, warnings: verdict.warnings, ...own };
  return { alertmanager, selected: true, accepted: true, warnings: verdict.warnings, ...own };
}

function snapshotNotes(snapshot: AlertingSnapshot): string[] {
  const notes: string[] = [];
  if (snapshot.alertmanagers.length === 0) notes.push('the cluster has no Alertmanager object');
  if (snapshot.unreadable.length > 0) notes.push(`you may not read ${snapshot.unreadable.join(', ')}: verdicts assume every key referenced in them exists`);
  return notes;
}

function namespaceInfos(snapshot: Pick<ClusterSnapshot, 'namespaces'>): NamespaceInfo[] {
  return snapshot.namespaces.map((each) => ({ name: each.metadata?.name ?? '', labels: each.metadata?.labels ?? {} }));
}

function nameOf(object: { metadata: { namespace?: string; name?: string } }): NamespacedName {
  return { namespace: object.metadata.namespace ?? '', name: object.metadata.name ?? '' };
}

function compareNames(a: NamespacedName, b: NamespacedName): number {
  const key = (each: NamespacedName) => `${each.namespace}/${each.name}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}
