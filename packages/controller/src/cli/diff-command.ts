/**
 * `promop diff -f <manifests>`: what applying the manifests would change in the configuration of every Prometheus
 * and PrometheusAgent, like `kubectl diff`. The cluster's objects are read (lists and GETs only), the manifests laid
 * over them (manifest-overlay.ts), every Prometheus and PrometheusAgent rendered before and after with the operator's generator input, and the
 * differences printed: verdicts that change, then a unified diff per file, Secret values redacted.
 */
import { commandHelp, flagValue, parseCommandLine } from './command-line.ts';
import { specOf, type CommandIo } from './commands.ts';
import { describeReadError, openCluster } from './cluster-access.ts';
import { concatClusterObjects, readClusterObjects, type ClusterObjects } from './cluster-objects.ts';
import type { PrometheusDiff, Standing } from './config-diff.ts';
import { ManifestReadError, readManifests, type Manifests } from './manifest-reader.ts';
import type { OverlaidObjects } from './manifest-overlay.ts';

/** Exit statuses, as kubectl diff's (0 same, 1 different) plus promop's own. */
export const DIFF_EXIT = { same: 0, different: 1, error: 2, rejected: 3 } as const;

/** The whole comparison, for formatting and for the exit status. */
export interface DiffReport {
  overlay: Pick<OverlaidObjects, 'applied' | 'refused' | 'notes'>;
  prometheuses: PrometheusDiff[];
  /** Manifest resources rejected after the apply by a Prometheus that selects them, as `Kind namespace/name`. */
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
    const [{ overlayManifests, overlayData }, { readReferencedData }, { renderFromSnapshot, workloadKeyOf, workloadNameOf, workloadsOf }, { diffPrometheus, standingOf }, { secretValues }] = await Promise.all([
      import('./manifest-overlay.ts'),
      import('./cluster-snapshot.ts'),
      import('./explanation.ts'),
      import('./config-diff.ts'),
      import('./secret-redaction.ts'),
    ]);
    let live: ClusterObjects;
    let referenced: Awaited<ReturnType<typeof readReferencedData>>;
    try {
      live = await listing;
    } catch (error) {
      return fail(describeReadError(error, connection));
    }
    const overlay = overlayManifests(live, manifests);
    try {
      // Both sides' references, read once: a monitor of the manifests may reference a Secret no live object does.
      referenced = await readReferencedData(reader, concatClusterObjects(live, overlay.objects));
    } catch (error) {
      return fail(describeReadError(error, connection));
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
    const ignored = Object.entries(manifests.ignoredKinds).sort(([a], [b]) => (a < b ? -1 : 1));
    const notes = [
      ...(ignored.length > 0 ? [`ignored ${ignored.map(([kind, count]) => `${count} ${kind}`).join(', ')}: promop diff shows what changes in Prometheus configurations (kubectl diff shows the rest)`] : []),
      ...(referenced.unreadable.length > 0 ? [`you may not read ${referenced.unreadable.join(', ')}: verdicts assume every key referenced in them exists`] : []),
    ];
    const report: DiffReport = { overlay, prometheuses, rejected: [...rejected].sort(), notes };
    io.stdout(formatDiffReport(report));
    if (overlay.refused.length > 0 || report.rejected.length > 0) return DIFF_EXIT.rejected;
    return prometheuses.some((diff) => diff.change !== 'unchanged') ? DIFF_EXIT.different : DIFF_EXIT.same;
  } catch (error) {
    return fail(describeReadError(error, connection));
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
  if (report.prometheuses.length === 0) lines.push('No Prometheus or PrometheusAgent object in the cluster or the manifests: nothing would be configured.');
  for (const diff of report.prometheuses) {
    const who = `${diff.prometheus.kind} ${diff.prometheus.namespace}/${diff.prometheus.name}`;
    if (diff.change === 'unchanged') {
      lines.push(`${who}: no change`);
      continue;
    }
    const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
    lines.push(`${who}${diff.change === 'created' ? ' (new)' : ''}: ${plural(diff.verdictChanges.length, 'verdict change')}, ${plural(diff.files.length, 'changed file')}`);
    if (JSON.stringify(diff.problemsBefore) !== JSON.stringify(diff.problemsAfter)) {
      for (const problem of diff.problemsAfter) lines.push(`  problem of the ${diff.prometheus.kind}: ${problem.path}: ${problem.message} (promop would keep the previous configuration)`);
      if (diff.problemsAfter.length === 0) lines.push(`  the problems of the ${diff.prometheus.kind} are fixed`);
    }
    for (const change of diff.verdictChanges) {
      lines.push(`  ${change.resource.kind} ${change.resource.namespace}/${change.resource.name}: ${standingText(change.before)} -> ${standingText(change.after)}`);
    }
    for (const file of diff.files) {
      if (file.hidden === 'tls-asset') lines.push(`  ${file.path}: ${file.change} (TLS asset: not shown)`);
      else if (file.hidden === 'secret-values-only') lines.push(`  ${file.path}: only Secret values change (not shown)`);
    }
    for (const file of diff.files.filter((candidate) => candidate.diff !== '')) {
      const old = file.change === 'added' ? '/dev/null' : `a/${diff.prometheus.namespace}/${diff.prometheus.name}/${file.oldPath ?? file.path}`;
      const next = file.change === 'removed' ? '/dev/null' : `b/${diff.prometheus.namespace}/${diff.prometheus.name}/${file.path}`;
      lines.push(`diff -u ${old} ${next}`, file.diff.trimEnd());
    }
  }
  if (report.rejected.length > 0) lines.push('', `Would be rejected: ${report.rejected.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}

function standingText(standing: Standing | null): string {
  if (!standing) return '(absent)';
  if (standing.state === 'accepted') return 'accepted';
  if (standing.state === 'rejected') return `REJECTED: ${standing.reason ?? ''}`;
  return `not selected: ${standing.reason ?? ''}`;
}

