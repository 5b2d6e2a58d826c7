/**
 * What changes for one Prometheus or PrometheusAgent between two renderings (pure): the verdicts that change, and a unified diff of
 * every file promop writes for it (prometheus.yaml per shard, scrape files, rule files; TLS assets are named, never
 * shown). Secret values are redacted before diffing, so no diff line holds one; a file whose only change is a
 * Secret value says so instead of showing nothing.
 */
import type { FieldProblem, GeneratorOutput, ResourceRef, Verdict } from '@promop/config-generator';
import type { WorkloadKind } from '../workload/workload-kind.ts';
import { outputFiles } from './render-command.ts';
import { redactSecretValues } from './secret-redaction.ts';
import { unifiedDiff } from './unified-diff.ts';

/** A resource's standing with one Prometheus or Alertmanager. */
export interface Standing {
  /** `not-judged`: selected by an Alertmanager that cannot use its own configuration. */
  state: 'not-selected' | 'accepted' | 'rejected' | 'not-judged';
  /** Why not selected or not judged, or the problems of a rejected resource as `path: message`. */
  reason?: string;
}

/** A resource's standing, keyed by a string unique per resource (see standingsOf). */
export type Standings = Map<string, { resource: ResourceRef; standing: Standing }>;

/** A verdict that differs; `before`/`after` null when the resource is not a candidate on that side. */
export interface VerdictChange {
  resource: ResourceRef;
  before: Standing | null;
  after: Standing | null;
}

/** One file that differs. */
export interface FileChange {
  /** Path under `<namespace>/<name>/` of the new file (of the old one when removed). */
  path: string;
  /** The old path when it differs (scrape files are named by their content). */
  oldPath?: string;
  change: 'added' | 'removed' | 'modified';
  /** The unified diff (labels `a/<namespace>/<name>/<path>`), '' when not shown. */
  diff: string;
  /** Why no diff is shown: a TLS asset (key material), or only Secret values changed. */
  hidden?: 'tls-asset' | 'secret-values-only';
}

/** Everything that changes in one program's configuration: a Prometheus', an agent's or an Alertmanager's. */
export interface ConfigurationChanges {
  /** `created`: an object the manifests add (an apply never removes one). */
  change: 'created' | 'modified' | 'unchanged';
  /** The object's own problems: with one, promop keeps its previous configuration. */
  problemsBefore: FieldProblem[];
  problemsAfter: FieldProblem[];
  verdictChanges: VerdictChange[];
  files: FileChange[];
}

/** Everything that changes for one Prometheus or PrometheusAgent. */
export interface PrometheusDiff extends ConfigurationChanges {
  prometheus: { kind: WorkloadKind; namespace: string; name: string };
}

/** A file's text by a key stable across versions (its path, unless its name changes with its content). */
export type FilesByKey = Map<string, { path: string; text: string }>;

/** Compares two renderings of `prometheus`; `before` undefined for a new Prometheus. `secrets`: values to redact. */
export function diffPrometheus(prometheus: PrometheusDiff['prometheus'], before: GeneratorOutput | undefined, after: GeneratorOutput, secrets: readonly string[]): PrometheusDiff {
  const verdictChanges = compareStandings(standingsOf(before?.verdicts ?? []), standingsOf(after.verdicts));
  const redact = (text: string) => redactSecretValues(text, secrets);
  const files = compareFiles(`${prometheus.namespace}/${prometheus.name}`, before ? filesOf(before) : new Map(), filesOf(after), redact);
  return { prometheus, ...configurationChanges(before !== undefined, { problemsBefore: before?.prometheusProblems ?? [], problemsAfter: after.prometheusProblems, verdictChanges, files }) };
}

/**
 * The changes of one Prometheus, Alertmanager or ThanosRuler: `created` when it did not exist before, `unchanged`
 * when no file, verdict or problem of its own changes.
 */
export function configurationChanges(existedBefore: boolean, parts: Omit<ConfigurationChanges, 'change'>): ConfigurationChanges {
  const { problemsBefore, problemsAfter, verdictChanges, files } = parts;
  const same = files.length === 0 && verdictChanges.length === 0 && JSON.stringify(problemsBefore) === JSON.stringify(problemsAfter);
  return { change: !existedBefore ? 'created' : same ? 'unchanged' : 'modified', ...parts };
}

/** A verdict as a standing. */
export function standingOf(verdict: Verdict): Standing {
  if (!verdict.selected) return { state: 'not-selected', reason: verdict.reason };
  if (verdict.accepted) return { state: 'accepted' };
  const reason = verdict.problems.length > 0 ? verdict.problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ') : verdict.reason;
  return { state: 'rejected', reason };
}

/** The standings of the selected kinds' verdicts (a workload's own verdict is its problems, compared apart). */
function standingsOf(verdicts: readonly Verdict[]): Standings {
  const selectedKinds = verdicts.filter((v) => v.resource.kind !== 'Prometheus' && v.resource.kind !== 'PrometheusAgent');
  return new Map(selectedKinds.map((v) => [standingKey(v.resource), { resource: v.resource, standing: standingOf(v) }]));
}

/** The key of a resource in Standings. */
export function standingKey(ref: ResourceRef): string {
  return `${ref.kind}\u0000${ref.namespace}\u0000${ref.name}`;
}

/** The standings that differ, in key order; a resource missing on one side has the standing null there. */
export function compareStandings(before: Standings, after: Standings): VerdictChange[] {
  const changes: VerdictChange[] = [];
  for (const key of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const a = before.get(key);
    const b = after.get(key);
    const standingA = a?.standing ?? null;
    const standingB = b?.standing ?? null;
    if (JSON.stringify(standingA) === JSON.stringify(standingB)) continue;
    changes.push({ resource: (b ?? a)!.resource, before: standingA, after: standingB });
  }
  return changes;
}

/** The files of a rendering by a key stable across versions: scrape files by shard and slot, not by content hash. */
function filesOf(output: GeneratorOutput): FilesByKey {
  const files: FilesByKey = new Map();
  for (const [path, text] of Object.entries(outputFiles(output))) {
    if (path === 'verdicts.json') continue;
    const scrape = /^(scrape-files\/(?:shard-\d+\/)?)scrape-(\d+)-[0-9a-f]+\.yaml$/.exec(path);
    files.set(scrape ? `${scrape[1]}slot-${scrape[2]}` : path, { path, text });
  }
  return files;
}

/**
 * The files that differ between `before` and `after`, each diffed after `redact` (which masks Secret values); a
 * file whose redacted texts are equal is marked as changing in Secret values only. `prefix`: `<namespace>/<name>`.
 */
export function compareFiles(prefix: string, before: FilesByKey, after: FilesByKey, redact: (text: string) => string): FileChange[] {
  const changes: FileChange[] = [];
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort(byFileOrder);
  for (const key of keys) {
    const a = before.get(key);
    const b = after.get(key);
    if (a && b && a.text === b.text) continue;
    const path = (b ?? a)!.path;
    const change = !a ? 'added' : !b ? 'removed' : 'modified';
    const base = { path, ...(a && b && a.path !== b.path ? { oldPath: a.path } : {}), change } as const;
    if (path.startsWith('tls-assets/')) {
      changes.push({ ...base, diff: '', hidden: 'tls-asset' });
      continue;
    }
    const oldText = a ? redact(a.text) : '';
    const newText = b ? redact(b.text) : '';
    const diff = unifiedDiff(oldText, newText, { old: a ? `a/${prefix}/${a.path}` : '/dev/null', new: b ? `b/${prefix}/${b.path}` : '/dev/null' });
    changes.push(diff === '' ? { ...base, diff: '', hidden: 'secret-values-only' } : { ...base, diff });
  }
  return changes;
}

/** prometheus.yaml first, then the other shards, scrape files, rules, TLS assets. */
function byFileOrder(a: string, b: string): number {
  const rank = (path: string) => (path === 'prometheus.yaml' ? 0 : path.startsWith('prometheus-shard-') ? 1 : path.startsWith('scrape-files/') ? 2 : path.startsWith('rules/') ? 3 : 4);
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}
