/**
 * `promop check -f <file|dir>... [-o json|yaml]`: the gate for a team's CI pipeline. It judges the manifests as
 * `promop render` does (the operator's generators, offline) and exits non-zero when any object would be refused:
 * one the API server would reject (its schema), one a Prometheus, PrometheusAgent, Alertmanager or ThanosRuler of the
 * manifests selects and rejects, or a workload that cannot render. The report names each object, who judged it, the outcome
 * and every field path with its reason; `-o json|yaml` prints the same for a machine.
 */
import { dump } from 'js-yaml';
import type { FieldProblem, ResourceRef, Verdict } from '@promop/config-generator';
import { commandHelp, flagValue, parseCommandLine } from './command-line.ts';
import { specOf, type CommandIo } from './commands.ts';
import { ManifestReadError, readManifests } from './manifest-reader.ts';
import { renderManifests, type RenderResult } from './render-command.ts';

/** Exit statuses: 3 when something would be refused, as `promop explain` says "rejected". */
export const CHECK_EXIT = { ok: 0, failed: 1, usage: 2, rejected: 3 } as const;

/** One object's outcome, as the report lists it. */
export interface CheckedObject {
  kind: string;
  namespace: string;
  name: string;
  /**
   * `accepted` by every workload that selects it; `rejected` by at least one; `invalid`: the API server would
   * refuse it (its schema); `not-selected`: no workload of the manifests selects it (nothing to check it against).
   */
  outcome: 'accepted' | 'rejected' | 'invalid' | 'not-selected';
  /** The workloads that selected it (`Kind namespace/name`). */
  judgedBy: string[];
  problems: FieldProblem[];
}

/** The report of a check. */
export interface CheckReport {
  ok: boolean;
  objects: CheckedObject[];
  /** The manifests' Prometheus, PrometheusAgent, Alertmanager and ThanosRuler objects that cannot be rendered, with why. */
  workloads: { kind: string; namespace: string; name: string; problems: FieldProblem[] }[];
}

/** The report of `result` (pure). */
export function checkReport(result: RenderResult): CheckReport {
  const objects = new Map<string, CheckedObject>();
  const entry = (ref: ResourceRef): CheckedObject => {
    const key = `${ref.kind}/${ref.namespace}/${ref.name}`;
    let found = objects.get(key);
    if (!found) objects.set(key, (found = { kind: ref.kind, namespace: ref.namespace, name: ref.name, outcome: 'not-selected', judgedBy: [], problems: [] }));
    return found;
  };
  const judge = (verdict: Verdict, by: string) => {
    const object = entry(verdict.resource);
    if (!verdict.selected) return;
    object.judgedBy.push(by);
    if (verdict.accepted) {
      if (object.outcome === 'not-selected') object.outcome = 'accepted';
      return;
    }
    if (object.outcome !== 'invalid') object.outcome = 'rejected';
    object.problems.push(...verdict.problems.map((problem) => ({ ...problem, message: `${problem.message} (${by})` })));
  };
  const workloads: CheckReport['workloads'] = [];
  for (const rendered of result.prometheuses) {
    const who = `${rendered.prometheus.kind} ${rendered.prometheus.namespace}/${rendered.prometheus.name}`;
    const own = rendered.output?.prometheusProblems ?? rendered.verdicts.flatMap((verdict) => (verdict.selected && !verdict.accepted ? verdict.problems : []));
    if (!rendered.output?.ok) workloads.push({ ...rendered.prometheus, problems: own });
    const isItself = (ref: ResourceRef) => ref.kind === rendered.prometheus.kind && ref.namespace === rendered.prometheus.namespace && ref.name === rendered.prometheus.name;
    for (const verdict of rendered.verdicts) if (!isItself(verdict.resource)) judge(verdict, who);
  }
  for (const rendered of result.alertmanagers) {
    const who = `Alertmanager ${rendered.alertmanager.namespace}/${rendered.alertmanager.name}`;
    if (rendered.problem) workloads.push({ ...rendered.alertmanager, problems: [rendered.problem] });
    for (const verdict of rendered.verdicts) judge(verdict, who);
  }
  for (const rendered of result.thanosRulers) {
    const who = `ThanosRuler ${rendered.thanosRuler.namespace}/${rendered.thanosRuler.name}`;
    if (rendered.problems.length > 0) workloads.push({ ...rendered.thanosRuler, problems: rendered.problems });
    for (const verdict of rendered.verdicts) judge(verdict, who);
  }
  for (const { verdict, source } of result.invalidResources) {
    const object = entry(verdict.resource);
    object.outcome = 'invalid';
    if (verdict.selected && !verdict.accepted) object.problems.push(...verdict.problems.map((problem) => ({ ...problem, message: `${problem.message} (schema, ${source})` })));
  }
  const sorted = [...objects.values()].sort((a, b) => `${a.kind}/${a.namespace}/${a.name}`.localeCompare(`${b.kind}/${b.namespace}/${b.name}`));
  const refused = sorted.some((object) => object.outcome === 'rejected' || object.outcome === 'invalid');
  return { ok: !refused && workloads.length === 0 && result.refused.length === 0, objects: sorted, workloads };
}

/** The report for a person. */
export function formatCheckReport(report: CheckReport, refused: RenderResult['refused']): string {
  const lines: string[] = [];
  for (const workload of report.workloads) {
    lines.push(`CANNOT RENDER ${workload.kind} ${workload.namespace}/${workload.name}`, ...workload.problems.map((problem) => `  ${problem.path}: ${problem.message}`));
  }
  for (const object of report.objects.filter((each) => each.outcome === 'rejected' || each.outcome === 'invalid')) {
    lines.push(`${object.outcome === 'invalid' ? 'INVALID' : 'REJECTED'} ${object.kind} ${object.namespace}/${object.name}`, ...object.problems.map((problem) => `  ${problem.path}: ${problem.message}`));
  }
  for (const object of refused) {
    lines.push(`REFUSED ${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name} (${object.source})`, ...object.problems.map((problem) => `  ${problem.path}: ${problem.message}`));
  }
  const count = (outcome: CheckedObject['outcome']) => report.objects.filter((object) => object.outcome === outcome).length;
  lines.push(`${report.objects.length} objects checked: ${count('accepted')} accepted, ${count('rejected')} rejected, ${count('invalid')} invalid, ${count('not-selected')} selected by no workload of these manifests`);
  lines.push(report.ok ? 'OK' : 'FAILED');
  return `${lines.join('\n')}\n`;
}

/** Runs `promop check` with `argv` (the arguments after `check`); resolves to the exit status. */
export async function runCheckCommand(argv: readonly string[], io: CommandIo, program = 'promop'): Promise<number> {
  const spec = specOf('check');
  const usage = (message: string) => {
    io.stderr(`${program} check: ${message}\n\n${commandHelp(spec, program)}`);
    return CHECK_EXIT.usage;
  };
  const parsed = parseCommandLine(spec, argv);
  if (parsed.kind === 'help') {
    io.stdout(commandHelp(spec, program));
    return CHECK_EXIT.ok;
  }
  if (parsed.kind === 'error') return usage(parsed.message);
  const paths = parsed.line.flags.get('filename') ?? [];
  if (paths.length === 0) return usage('at least one -f/--filename is required');
  const format = flagValue(parsed.line, 'output');
  if (format !== undefined && format !== 'json' && format !== 'yaml') return usage(`-o must be json or yaml, not "${format}"`);
  let result: RenderResult;
  try {
    result = renderManifests(await readManifests(paths));
  } catch (error) {
    if (!(error instanceof ManifestReadError)) throw error;
    io.stderr(`${program} check: ${error.message}\n`);
    return CHECK_EXIT.failed;
  }
  const report = checkReport(result);
  const machine = { ...report, refused: result.refused };
  io.stdout(format === 'json' ? `${JSON.stringify(machine, null, 2)}\n` : format === 'yaml' ? dump(machine, { lineWidth: -1, noRefs: true }) : formatCheckReport(report, result.refused));
  return report.ok ? CHECK_EXIT.ok : CHECK_EXIT.rejected;
}
