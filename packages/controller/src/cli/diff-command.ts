/**
 * `promop diff -f <manifests>`: what applying the manifests would change in the configuration of every Prometheus,
 * PrometheusAgent, Alertmanager and ThanosRuler, like `kubectl diff`. The cluster's objects are read (lists and GETs
 * only), the manifests laid over them (manifest-overlay.ts), every one of those workloads rendered before
 * and after with the operator's generator input, and the differences printed: verdicts that change, then a unified
 * diff per file, Secret values redacted.
 */
import { commandHelp, flagValue, parseCommandLine } from './command-line.ts';
import { specOf, type CommandIo } from './commands.ts';
import type { AlertmanagerDiff } from './alertmanager-diff.ts';
import { describeReadError, openCluster } from './cluster-access.ts';
import { concatClusterObjects, readClusterObjects, withListsOf, type ClusterObjects } from './cluster-objects.ts';
import type { ConfigurationChanges, PrometheusDiff, Standing } from './config-diff.ts';
import type { Kind } from '@promop/crds/kinds';
import { KubeReadError } from './kube-reader.ts';
import { ManifestReadError, readManifests, type Manifests } from './manifest-reader.ts';
import type { OverlaidObjects } from './manifest-overlay.ts';
import { ALERTMANAGER_SOURCE_KINDS, PROMETHEUS_SOURCE_KINDS, THANOS_RULER_WORKLOAD_KINDS, isAlertmanagerSourceKind, isThanosRulerWorkloadKind } from './program-kinds.ts';
import type { ThanosRulerDiff } from './thanos-ruler-diff.ts';

/** Exit statuses, as kubectl diff's (0 same, 1 different) plus promop's own. */
export const DIFF_EXIT = { same: 0, different: 1, error: 2, rejected: 3 } as const;

/** The whole comparison, for formatting and for the exit status. */
export interface DiffReport {
  overlay: Pick<OverlaidObjects, 'applied' | 'refused' | 'notes'>;
  prometheuses: PrometheusDiff[];
  /** Empty when the Alertmanager kinds were not listed (the manifests cannot change an Alertmanager). */
  alertmanagers: AlertmanagerDiff[];
  /** Empty when the ThanosRulers were not listed (the manifests cannot change one). */
  thanosRulers: ThanosRulerDiff[];
  /**
   * Manifest resources rejected after the apply by a Prometheus or Alertmanager that selects them, and Alertmanagers
   * the apply leaves with a problem of their own, as `Kind namespace/name`.
   */
  rejected: string[];
  notes: string[];
}

/** Runs `promop diff` with the arguments after `diff`; resolves to the exit status. */
export async function runDiffCommand(argv: readonly string[], io: CommandIo, program = 'promop'): Promise<number> {
  const spec = specOf('diff');
  const parsed = parseCommandLine(spec, argv);
  if (parsed.kind === 'help') {
    io.stdout(commandHelp(spec, program));
    return DIFF_EXIT.same;
  }
  const usage = (message: string) => {
    io.stderr(`${program} diff: ${message}\n\n${commandHelp(spec, program)}`);
    return DIFF_EXIT.error;
  };
  if (parsed.kind === 'error') return usage(parsed.message);
  const paths = parsed.line.flags.get('filename') ?? [];
  if (paths.length === 0) return usage('at least one -f/--filename is required');
  const fail = (message: string) => {
    io.stderr(`${program} diff: ${message}\n`);
    return DIFF_EXIT.error;
  };
  const cluster = await openCluster(parsed.line);
  if (!cluster.ok) return fail(cluster.message);
  const { reader, connection } = cluster;
  let listedKinds: readonly Kind[] = PROMETHEUS_SOURCE_KINDS;
  try {
    // The lists go out first; the manifests are read and the generator loads while the API server answers.
    const listing = readClusterObjects(reader);
    listing.catch(() => {});
    let manifests: Manifests;
    try {
      manifests = await readManifests(paths, { defaultNamespace: flagValue(parsed.line, 'namespace') ?? connection.namespace });
    } catch (error) {
      if (error instanceof ManifestReadError) return fail(error.message);
      throw error;
    }
    const alerting = alertingNeedOf(manifests);
    const alertingListing = alerting === 'none' ? undefined : { need: alerting, listing: readClusterObjects(reader, ALERTMANAGER_SOURCE_KINDS) };
    alertingListing?.listing.catch(() => {});
    if (alerting === 'required') listedKinds = [...PROMETHEUS_SOURCE_KINDS, ...ALERTMANAGER_SOURCE_KINDS];
    const ruling = thanosRulerNeedOf(manifests);
    const rulerListing = ruling === 'none' ? undefined : { need: ruling, listing: readClusterObjects(reader, THANOS_RULER_WORKLOAD_KINDS) };
    rulerListing?.listing.catch(() => {});
    if (ruling === 'required') listedKinds = [...listedKinds, ...THANOS_RULER_WORKLOAD_KINDS];
    const [{ overlayManifests, overlayData }, { readReferencedData }, { renderFromSnapshot, workloadKeyOf, workloadNameOf, workloadsOf }, { diffPrometheus, standingOf }, { secretValues }, { diffAlertmanagers }, { diffThanosRulers }] = await Promise.all([
      import('./manifest-overlay.ts'),
      import('./cluster-snapshot.ts'),
      import('./explanation.ts'),
      import('./config-diff.ts'),
      import('./secret-redaction.ts'),
      import('./alertmanager-diff.ts'),
      import('./thanos-ruler-diff.ts'),
    ]);
    let live: ClusterObjects;
    let alertingNote: string | undefined;
    let rulerNote: string | undefined;
    let referenced: Awaited<ReturnType<typeof readReferencedData>>;
    try {
      live = await listing;
      const listed = alertingListing && (await listAlerting(alertingListing.listing, alertingListing.need));
      if (listed?.objects) live = withListsOf(live, listed.objects, ALERTMANAGER_SOURCE_KINDS);
      alertingNote = listed?.note;
      const rulers = rulerListing && (await listOptional(rulerListing.listing, rulerListing.need, 'ThanosRulers'));
      if (rulers?.objects) live = withListsOf(live, rulers.objects, THANOS_RULER_WORKLOAD_KINDS);
      rulerNote = rulers?.note;
    } catch (error) {
      return fail(describeReadError(error, connection, listedKinds));
    }
    const overlay = overlayManifests(live, manifests);
    try {
      // Both sides' references, read once: a monitor of the manifests may reference a Secret no live object does.
      referenced = await readReferencedData(reader, concatClusterObjects(live, overlay.objects));
    } catch (error) {
      return fail(describeReadError(error, connection, listedKinds));
    }
    const before = { ...live, ...referenced };
    const after = { ...overlay.objects, ...referenced, secrets: overlayData(referenced.secrets, manifests.secrets), configMaps: overlayData(referenced.configMaps, manifests.configMaps) };
    const redacted = secretValues([...referenced.secrets, ...manifests.secrets]);
    const previous = new Map(workloadsOf(before).map((workload) => [workloadKeyOf(workload), workload]));
    const rendered = workloadsOf(after).map((workload) => ({ workload, output: renderFromSnapshot(after, workload) }));
    const prometheuses = rendered.map(({ workload, output }) => {
      const old = previous.get(workloadKeyOf(workload));
      return diffPrometheus(workloadNameOf(workload), old ? renderFromSnapshot(before, old) : undefined, output, redacted);
    });
    const alertmanagers = alertingListing ? diffAlertmanagers(before, after, redacted) : [];
    const thanosRulers = rulerListing ? diffThanosRulers(before, after, redacted) : [];
    const fromManifests = new Set(overlay.applied.map((resource) => `${resource.kind} ${resource.namespace}/${resource.name}`));
    const rejected = new Set<string>();
    for (const diff of prometheuses) {
      const name = `${diff.prometheus.kind} ${diff.prometheus.namespace}/${diff.prometheus.name}`;
      if (fromManifests.has(name) && diff.problemsAfter.length > 0) rejected.add(name);
    }
    for (const { output } of rendered) {
      for (const verdict of output.verdicts) {
        const name = `${verdict.resource.kind} ${verdict.resource.namespace}/${verdict.resource.name}`;
        const workload = verdict.resource.kind === 'Prometheus' || verdict.resource.kind === 'PrometheusAgent';
        if (!workload && fromManifests.has(name) && standingOf(verdict).state === 'rejected') rejected.add(name);
      }
    }
    for (const diff of alertmanagers) {
      const name = `Alertmanager ${diff.alertmanager.namespace}/${diff.alertmanager.name}`;
      // Its own problem counts when the manifests hold it or bring the problem (its configSecret, a Namespace...).
      const newProblem = JSON.stringify(diff.problemsAfter) !== JSON.stringify(diff.problemsBefore);
      if (diff.problemsAfter.length > 0 && (fromManifests.has(name) || newProblem)) rejected.add(name);
      for (const config of diff.rejectedAfter) if (fromManifests.has(`AlertmanagerConfig ${config}`)) rejected.add(`AlertmanagerConfig ${config}`);
    }
    for (const diff of thanosRulers) {
      const name = `ThanosRuler ${diff.thanosRuler.namespace}/${diff.thanosRuler.name}`;
      // As an Alertmanager's: its own problem counts when the manifests hold it or bring the problem.
      const newProblem = JSON.stringify(diff.problemsAfter) !== JSON.stringify(diff.problemsBefore);
      if (diff.problemsAfter.length > 0 && (fromManifests.has(name) || newProblem)) rejected.add(name);
      for (const rule of diff.rejectedAfter) if (fromManifests.has(`PrometheusRule ${rule}`)) rejected.add(`PrometheusRule ${rule}`);
    }
    const ignored = Object.entries(manifests.ignoredKinds).sort(([a], [b]) => (a < b ? -1 : 1));
    const notes = [
      ...(ignored.length > 0 ? [`ignored ${ignored.map(([kind, count]) => `${count} ${kind}`).join(', ')}: promop diff shows what changes in Prometheus and Alertmanager configurations (kubectl diff shows the rest)`] : []),
      ...(alertingNote ? [alertingNote] : []),
      ...(rulerNote ? [rulerNote] : []),
      ...(referenced.unreadable.length > 0 ? [`you may not read ${referenced.unreadable.join(', ')}: verdicts assume every key referenced in them exists`] : []),
    ];
    const report: DiffReport = { overlay, prometheuses, alertmanagers, thanosRulers, rejected: [...rejected].sort(), notes };
    io.stdout(formatDiffReport(report));
    if (overlay.refused.length > 0 || report.rejected.length > 0) return DIFF_EXIT.rejected;
    return [...prometheuses, ...alertmanagers, ...thanosRulers].some((diff) => diff.change !== 'unchanged') ? DIFF_EXIT.different : DIFF_EXIT.same;
  } catch (error) {
    return fail(describeReadError(error, connection, listedKinds));
  } finally {
    reader.close();
  }
}

/** The report a person reads. */
export function formatDiffReport(report: DiffReport): string {
  const lines: string[] = [];
  for (const note of [...report.notes, ...report.overlay.notes]) lines.push(`note: ${note}`);
  if (report.overlay.refused.length > 0) {
    lines.push('Refused by the API server (not applied; the live object stays):');
    for (const refused of report.overlay.refused) {
      lines.push(`  ${refused.kind} ${refused.namespace ? `${refused.namespace}/` : ''}${refused.name} (${refused.source}):`, ...refused.problems.map((problem) => `    ${problem.path}: ${problem.message}`));
    }
  }
  if (lines.length > 0) lines.push('');
  if (report.prometheuses.length === 0 && report.alertmanagers.length === 0 && report.thanosRulers.length === 0) {
    lines.push('No Prometheus or PrometheusAgent object in the cluster or the manifests: nothing would be configured.');
  }
  for (const diff of report.prometheuses) lines.push(...changesText(diff.prometheus, diff));
  for (const diff of report.alertmanagers) lines.push(...changesText(diff.alertmanager, diff));
  for (const diff of report.thanosRulers) lines.push(...changesText(diff.thanosRuler, diff));
  if (report.rejected.length > 0) lines.push('', `Would be rejected: ${report.rejected.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}

/** The lines of one Prometheus', agent's, Alertmanager's or ThanosRuler's changes. */
function changesText(owner: { kind: string; namespace: string; name: string }, diff: ConfigurationChanges): string[] {
  const who = `${owner.kind} ${owner.namespace}/${owner.name}`;
  if (diff.change === 'unchanged') return [`${who}: no change`];
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const lines = [`${who}${diff.change === 'created' ? ' (new)' : ''}: ${plural(diff.verdictChanges.length, 'verdict change')}, ${plural(diff.files.length, 'changed file')}`];
  if (JSON.stringify(diff.problemsBefore) !== JSON.stringify(diff.problemsAfter)) {
    for (const problem of diff.problemsAfter) lines.push(`  problem of the ${owner.kind}: ${problem.path}: ${problem.message} (promop would keep the previous configuration)`);
    if (diff.problemsAfter.length === 0) lines.push(`  the problems of the ${owner.kind} are fixed`);
  }
  for (const change of diff.verdictChanges) {
    lines.push(`  ${change.resource.kind} ${change.resource.namespace}/${change.resource.name}: ${standingText(change.before)} -> ${standingText(change.after)}`);
  }
  for (const file of diff.files) {
    if (file.hidden === 'tls-asset') lines.push(`  ${file.path}: ${file.change} (TLS asset: not shown)`);
    else if (file.hidden === 'secret-values-only') lines.push(`  ${file.path}: only Secret values change (not shown)`);
  }
  for (const file of diff.files.filter((candidate) => candidate.diff !== '')) {
    const old = file.change === 'added' ? '/dev/null' : `a/${owner.namespace}/${owner.name}/${file.oldPath ?? file.path}`;
    const next = file.change === 'removed' ? '/dev/null' : `b/${owner.namespace}/${owner.name}/${file.path}`;
    lines.push(`diff -u ${old} ${next}`, file.diff.trimEnd());
  }
  return lines;
}

function standingText(standing: Standing | null): string {
  if (!standing) return '(absent)';
  if (standing.state === 'accepted') return 'accepted';
  if (standing.state === 'rejected') return `REJECTED: ${standing.reason ?? ''}`;
  if (standing.state === 'not-judged') return `NOT JUDGED: ${standing.reason ?? ''}`;
  return `not selected: ${standing.reason ?? ''}`;
}


/**
 * Whether the manifests can change an Alertmanager's configuration: `required` when they hold an Alertmanager or
 * AlertmanagerConfig (its kinds must be read), `possible` when they hold a Secret (a configSecret, or one an
 * AlertmanagerConfig references) or a Namespace (alertmanagerConfigNamespaceSelector), `none` otherwise: then the
 * Alertmanager kinds are not listed at all, and a user who may not list them diffs Prometheus as before.
 */
function alertingNeedOf(manifests: Manifests): 'required' | 'possible' | 'none' {
  if (manifests.resources.some((resource) => isAlertmanagerSourceKind(resource.kind))) return 'required';
  return manifests.secrets.length > 0 || manifests.declaredNamespaces.length > 0 ? 'possible' : 'none';
}

/**
 * Whether the manifests can change a ThanosRuler: `required` when they hold one (its kind must be listed),
 * `possible` when they hold a PrometheusRule (one a ruler selects), a Namespace (ruleNamespaceSelector) or a Secret or
 * ConfigMap (one a remote write endpoint references), `none`
 * otherwise: then ThanosRulers are not listed, and a user who may not list them diffs as before.
 */
function thanosRulerNeedOf(manifests: Manifests): 'required' | 'possible' | 'none' {
  if (manifests.resources.some((resource) => isThanosRulerWorkloadKind(resource.kind))) return 'required';
  const data = manifests.secrets.length > 0 || manifests.configMaps.length > 0 || manifests.declaredNamespaces.length > 0;
  return data || manifests.resources.some((resource) => resource.kind === 'PrometheusRule') ? 'possible' : 'none';
}

/** The Alertmanager kinds' lists (listOptional). */
function listAlerting(listing: Promise<ClusterObjects>, need: 'required' | 'possible'): Promise<{ objects?: ClusterObjects; note?: string }> {
  return listOptional(listing, need, 'Alertmanagers');
}

/**
 * The lists of one program's kinds. When the manifests only possibly change one of its workloads, a list the user
 * may not read, or kinds the cluster does not serve, leave those workloads (`what`) out (with a note for the
 * refusal) instead of failing the diff; otherwise the error is thrown.
 */
async function listOptional(listing: Promise<ClusterObjects>, need: 'required' | 'possible', what: string): Promise<{ objects?: ClusterObjects; note?: string }> {
  try {
    return { objects: await listing };
  } catch (error) {
    if (need === 'required' || !(error instanceof KubeReadError)) throw error;
    if (error.status === 404) return {};
    if (error.status === 403) return { note: `you may not list ${error.path.replace(/\?.*$/, '')} (403): ${what} are not diffed` };
    throw error;
  }
}
