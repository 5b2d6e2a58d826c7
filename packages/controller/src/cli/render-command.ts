/**
 * `promop render -f <file|dir>... [-o <dir>]`: renders every Prometheus, PrometheusAgent, Alertmanager and
 * ThanosRuler found in local manifests with the same generators the operator runs, writes the files they would read, and prints
 * what was selected, accepted or rejected and why. Resources with problems are reported, not
 * fatal: the exit code is non-zero only when the input cannot be read or the flags are wrong.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  generate,
  type FieldProblem,
  type GeneratorOutput,
  type ResourceRef,
  type Verdict,
} from '@promop/config-generator';
import { ALL_KINDS, KINDS, PROMETHEUS_SELECTED_KINDS, VALIDATORS, WORKLOAD_KINDS, kindsSelectedBy, type ResourceOfKind, type ValidationError } from '@promop/crds';
import { ALERTMANAGER_CONFIG_KEY } from '../alertmanager/alertmanager-children.ts';
import { renderAlertmanagerConfiguration } from '../alertmanager/alertmanager-rendering.ts';
import { renderThanosRuler, thanosRulerFiles } from '../thanos-ruler/thanos-ruler-rendering.ts';
import { commandHelp, flagValue, parseCommandLine } from './command-line.ts';
import { specOf, type CommandIo } from './commands.ts';
import { ManifestReadError, readManifests, type ManifestResource, type Manifests, type RenderedKind } from './manifest-reader.ts';
import { redactSecretValues, secretValues } from './secret-redaction.ts';

/** Parsed command line. */
export interface RenderArguments {
  paths: string[];
  outputDir?: string;
}

/** The command line parsed, a usage error, or a request for help. */
export type ParsedRenderArguments = { kind: 'ok'; args: RenderArguments } | { kind: 'help' } | { kind: 'error'; message: string };

/** Parses `render`'s arguments (kubectl-style `-f x`, `-f=x`, `--filename x`, `--filename=x`). */
export function parseRenderArguments(argv: readonly string[]): ParsedRenderArguments {
  const parsed = parseCommandLine(specOf('render'), argv);
  if (parsed.kind !== 'ok') return parsed;
  const paths = parsed.line.flags.get('filename') ?? [];
  const outputDir = flagValue(parsed.line, 'output-dir');
  if (paths.length === 0) return { kind: 'error', message: 'at least one -f/--filename is required' };
  return { kind: 'ok', args: { paths, ...(outputDir !== undefined ? { outputDir } : {}) } };
}

/** One Prometheus rendered: its verdicts and the files to write under `<namespace>/<name>/`. */
export interface RenderedPrometheus {
  prometheus: ResourceRef;
  /** Undefined when the Prometheus object itself failed schema validation. */
  output?: GeneratorOutput;
  verdicts: Verdict[];
  /** Path relative to the Prometheus' output directory → content. */
  files: Record<string, string>;
}

/** One Alertmanager rendered: its AlertmanagerConfigs' verdicts and `alertmanager.yaml`. */
export interface RenderedAlertmanager {
  alertmanager: ResourceRef;
  /** Why no configuration could be built (the operator keeps the running one); undefined when rendered. */
  problem?: FieldProblem;
  verdicts: Verdict[];
  /** Path relative to the output directory of the Alertmanager (shared with a Prometheus of the same name) → content. */
  files: Record<string, string>;
}

/** One ThanosRuler rendered: its PrometheusRules' verdicts and its rule files. */
export interface RenderedThanosRuler {
  thanosRuler: ResourceRef;
  /** Why promop refuses to run it (it then writes nothing, and the running pods stay); empty when rendered. */
  problems: FieldProblem[];
  /** Fields left out for its Thanos release. */
  warnings: string[];
  verdicts: Verdict[];
  /** Path relative to the output directory of the ThanosRuler (shared with other kinds of the same name) → content. */
  files: Record<string, string>;
}

/** The whole rendering of a set of manifests. */
export interface RenderResult {
  prometheuses: RenderedPrometheus[];
  alertmanagers: RenderedAlertmanager[];
  thanosRulers: RenderedThanosRuler[];
  /** Monitors and rules that failed schema validation, with the file they came from: never passed to any Prometheus. */
  invalidResources: { verdict: Verdict; source: string }[];
  /** Things the user should know about the input itself (ignored kinds, placeholder uids). */
  notes: string[];
  /** Secrets, ConfigMaps and Namespaces the API server would refuse (manifest-reader.ts): not used. */
  refused: Manifests['refused'];
}

/** The objects of each kind that passed schema validation, as the validators return them (defaults filled in). */
type ValidByKind = { [K in RenderedKind]: Array<ResourceOfKind[K]> };

/** Validates `object` as a `kind`: adds it to `valid` and returns undefined, or returns the schema errors. */
function keepIfValid<K extends RenderedKind>(valid: ValidByKind, kind: K, object: unknown): ValidationError[] | undefined {
  const result = VALIDATORS[kind](object);
  if (!result.ok) return result.errors;
  valid[kind].push(result.value);
  return undefined;
}

/**
 * Validates every resource against its CRD schema (filling the defaults the API server would)
 * and renders each valid Prometheus with all valid monitors and rules as candidates.
 */
export function renderManifests(manifests: Manifests): RenderResult {
  const valid = Object.fromEntries(ALL_KINDS.map((kind) => [kind, []])) as unknown as ValidByKind;
  const invalidPrometheuses: Verdict[] = [];
  const invalidResources: RenderResult['invalidResources'] = [];
  for (const resource of sortResources(manifests.resources)) {
    const errors = keepIfValid(valid, resource.kind, resource.object);
    if (errors === undefined) continue;
    const verdict = schemaRejection(resource, errors);
    if (KINDS[resource.kind].role === 'workload') invalidPrometheuses.push(verdict);
    else invalidResources.push({ verdict, source: resource.source });
  }
  // PrometheusAgents are rendered by the same generator, in agent mode (no rules, no alerting).
  const workloads = [...valid.Prometheus, ...valid.PrometheusAgent];
  const prometheuses: RenderedPrometheus[] = workloads.map((prometheus) => {
    const output = generate({
      prometheus,
      serviceMonitors: valid.ServiceMonitor,
      podMonitors: valid.PodMonitor,
      probes: valid.Probe,
      scrapeConfigs: valid.ScrapeConfig,
      prometheusRules: valid.PrometheusRule,
      namespaces: manifests.namespaces,
      secrets: manifests.secrets,
      configMaps: manifests.configMaps,
    });
    const ref: ResourceRef = { kind: prometheus.kind, namespace: prometheus.metadata?.namespace ?? '', name: prometheus.metadata?.name ?? '' };
    return { prometheus: ref, output, verdicts: output.verdicts, files: outputFiles(output) };
  });
  for (const verdict of invalidPrometheuses) prometheuses.push({ prometheus: verdict.resource, verdicts: [verdict], files: {} });
  prometheuses.sort((a, b) => compareRefs(a.prometheus, b.prometheus));
  const alertmanagers = valid.Alertmanager.map((alertmanager) => renderAlertmanager(alertmanager, valid.AlertmanagerConfig, manifests));
  const thanosRulers = valid.ThanosRuler.map((thanosRuler) => renderThanosRulerManifest(thanosRuler, valid.PrometheusRule, manifests));
  return { prometheuses, alertmanagers, thanosRulers, invalidResources, notes: inputNotes(manifests), refused: manifests.refused };
}

/** One ThanosRuler with the manifests' PrometheusRules, as its reconciler renders it. */
function renderThanosRulerManifest(thanosRuler: ResourceOfKind['ThanosRuler'], prometheusRules: ResourceOfKind['PrometheusRule'][], manifests: Manifests): RenderedThanosRuler {
  const rendering = renderThanosRuler(thanosRuler, { prometheusRules, namespaces: manifests.namespaces, secrets: manifests.secrets, configMaps: manifests.configMaps });
  const ref: ResourceRef = { kind: 'ThanosRuler', namespace: thanosRuler.metadata?.namespace ?? '', name: thanosRuler.metadata?.name ?? '' };
  const { verdicts } = rendering.rules;
  const files = { ...thanosRulerFiles(thanosRuler, rendering), [THANOS_RULER_VERDICTS_FILE]: `${JSON.stringify(verdicts, null, 2)}\n` };
  return { thanosRuler: ref, problems: rendering.problems, warnings: rendering.warnings, verdicts, files };
}

/** The verdicts of a ThanosRuler's PrometheusRules, beside its files (a Prometheus' are verdicts.json). */
const THANOS_RULER_VERDICTS_FILE = 'thanos-ruler-verdicts.json';

/** One Alertmanager with the manifests' AlertmanagerConfigs, and its configSecret when the manifests hold it. */
function renderAlertmanager(alertmanager: ResourceOfKind['Alertmanager'], alertmanagerConfigs: ResourceOfKind['AlertmanagerConfig'][], manifests: Manifests): RenderedAlertmanager {
  const { output } = renderAlertmanagerConfiguration(alertmanager, { alertmanagerConfigs, namespaces: manifests.namespaces, secrets: manifests.secrets, configMaps: manifests.configMaps });
  const ref: ResourceRef = { kind: 'Alertmanager', namespace: alertmanager.metadata?.namespace ?? '', name: alertmanager.metadata?.name ?? '' };
  const verdictsFile = `${JSON.stringify(output.verdicts, null, 2)}\n`;
  return output.ok
    ? { alertmanager: ref, verdicts: output.verdicts, files: { [ALERTMANAGER_CONFIG_KEY]: output.text, 'alertmanager-verdicts.json': verdictsFile } }
    : { alertmanager: ref, problem: output.problem, verdicts: output.verdicts, files: { 'alertmanager-verdicts.json': verdictsFile } };
}

/** The files of one rendered Prometheus, by path relative to its output directory. */
export function outputFiles(output: GeneratorOutput): Record<string, string> {
  const files: Record<string, string> = {};
  output.configs.forEach((config, shard) => {
    files[shard === 0 ? 'prometheus.yaml' : `prometheus-shard-${shard}.yaml`] = config;
    for (const file of output.scrapeFiles[shard] ?? []) files[`scrape-files/${shard === 0 ? '' : `shard-${shard}/`}${file.name}`] = file.text;
  });
  for (const configMap of output.ruleConfigMaps) {
    for (const [name, text] of Object.entries(configMap.files)) files[`rules/${configMap.name}/${name}`] = text;
  }
  for (const [name, text] of Object.entries(output.tlsAssets)) files[`tls-assets/${name}`] = text;
  files['verdicts.json'] = `${JSON.stringify(output.verdicts, null, 2)}\n`;
  return files;
}

/** The human-readable report: one table of verdicts per Prometheus. */
export function formatRenderReport(result: RenderResult, outputDir?: string): string {
  const lines: string[] = [];
  for (const note of result.notes) lines.push(`note: ${note}`);
  if (result.notes.length > 0) lines.push('');
  if (result.prometheuses.length === 0 && result.alertmanagers.length === 0 && result.thanosRulers.length === 0) {
    lines.push('No Prometheus, Alertmanager or ThanosRuler object found: nothing to render.');
  }
  for (const rendered of result.prometheuses) {
    const { namespace, name } = rendered.prometheus;
    const where = outputDir !== undefined && Object.keys(rendered.files).length > 0 ? ` -> ${join(outputDir, namespace, name)}` : '';
    const status = !rendered.output
      ? `not rendered: the ${rendered.prometheus.kind} object is invalid`
      : rendered.output.ok
        ? `rendered ${rendered.output.configs.length} shard${rendered.output.configs.length === 1 ? '' : 's'}, ${rendered.output.ruleConfigMaps.length} rule ConfigMap${rendered.output.ruleConfigMaps.length === 1 ? '' : 's'}`
        : `not rendered: the ${rendered.prometheus.kind} has problems (the operator would keep the previous config)`;
    lines.push(`${rendered.prometheus.kind} ${namespace}/${name}: ${status}${where}`);
    for (const problem of rendered.output?.prometheusProblems ?? []) lines.push(`  problem: ${problem.path}: ${problem.message}`);
    for (const warning of rendered.output?.prometheusWarnings ?? []) lines.push(`  warning: ${warning}`);
    lines.push(...indent(verdictTable(rendered.verdicts)), ...indent(detailLines(rendered.verdicts)), `  ${summary(rendered.verdicts)}`, '');
  }
  for (const rendered of result.alertmanagers) {
    const { namespace, name } = rendered.alertmanager;
    const where = outputDir !== undefined ? ` -> ${join(outputDir, namespace, name)}` : '';
    const status = rendered.problem ? 'not rendered: the Alertmanager has a problem (the operator would keep the running configuration)' : 'rendered alertmanager.yaml';
    lines.push(`Alertmanager ${namespace}/${name}: ${status}${where}`);
    if (rendered.problem) lines.push(`  problem: ${rendered.problem.path}: ${rendered.problem.message}`);
    const ofConfigs = rendered.verdicts.filter((verdict) => verdict.resource.kind === 'AlertmanagerConfig');
    const selected = ofConfigs.filter((verdict) => verdict.selected);
    lines.push(...indent(verdictTable(rendered.verdicts)), ...indent(detailLines(rendered.verdicts)),
      `  AlertmanagerConfigs: ${selected.length}/${ofConfigs.length} selected, ${selected.filter((verdict) => verdict.selected && verdict.accepted).length} accepted`, '');
  }
  for (const rendered of result.thanosRulers) {
    const { namespace, name } = rendered.thanosRuler;
    const where = outputDir !== undefined ? ` -> ${join(outputDir, namespace, name)}` : '';
    const configMaps = new Set(Object.keys(rendered.files).filter((path) => path.startsWith('rules/')).map((path) => path.split('/')[1])).size;
    const status = rendered.problems.length > 0
      ? 'not rendered: the ThanosRuler has problems (the operator would write nothing and keep what runs)'
      : `rendered ${configMaps} rule ConfigMap${configMaps === 1 ? '' : 's'}`;
    lines.push(`ThanosRuler ${namespace}/${name}: ${status}${where}`);
    for (const problem of rendered.problems) lines.push(`  problem: ${problem.path}: ${problem.message}`);
    for (const warning of rendered.warnings) lines.push(`  warning: ${warning}`);
    const selected = rendered.verdicts.filter((verdict) => verdict.selected);
    lines.push(...indent(verdictTable(rendered.verdicts)), ...indent(detailLines(rendered.verdicts)),
      `  PrometheusRules: ${selected.length}/${rendered.verdicts.length} selected, ${selected.filter((verdict) => verdict.selected && verdict.accepted).length} accepted`, '');
  }
  if (result.refused.length > 0) {
    lines.push('Refused by the API server (not used):');
    for (const refused of result.refused) {
      lines.push(`  ${refused.kind} ${refused.namespace ? `${refused.namespace}/` : ''}${refused.name} (${refused.source}):`, ...refused.problems.map((problem) => `    ${problem.path}: ${problem.message}`));
    }
    lines.push('');
  }
  if (result.invalidResources.length > 0) {
    lines.push('Invalid resources (failed CRD schema validation; not offered to any Prometheus):');
    for (const { verdict, source } of result.invalidResources) {
      if (!verdict.selected || verdict.accepted) continue;
      const who = `${verdict.resource.kind} ${verdict.resource.namespace}/${verdict.resource.name}`;
      lines.push(`  ${who} (${source}):`, ...verdict.problems.map((problem) => `    ${problem.path}: ${problem.message}`));
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** Runs `promop render` with `argv` (the arguments after `render`); resolves to the exit code. */
export async function runRenderCommand(argv: readonly string[], io: CommandIo, program = 'promop'): Promise<number> {
  const parsed = parseRenderArguments(argv);
  if (parsed.kind === 'help') {
    io.stdout(commandHelp(specOf('render'), program));
    return 0;
  }
  if (parsed.kind === 'error') {
    io.stderr(`${program} render: ${parsed.message}\n\n${commandHelp(specOf('render'), program)}`);
    return 2;
  }
  let manifests: Manifests;
  try {
    manifests = await readManifests(parsed.args.paths);
  } catch (error) {
    if (error instanceof ManifestReadError) {
      io.stderr(`${program} render: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const result = renderManifests(manifests);
  const { outputDir } = parsed.args;
  const redactable = outputDir === undefined ? secretValues(manifests.secrets) : [];
  const workloads = [
    ...result.prometheuses.map((each) => ({ ref: each.prometheus, files: each.files })),
    ...result.alertmanagers.map((each) => ({ ref: each.alertmanager, files: each.files })),
    ...result.thanosRulers.map((each) => ({ ref: each.thanosRuler, files: each.files })),
  ];
  for (const rendered of workloads) {
    for (const [path, text] of Object.entries(rendered.files)) {
      const relative = join(rendered.ref.namespace, rendered.ref.name, path);
      if (outputDir === undefined) {
        if (path.endsWith('verdicts.json')) continue;
        // TLS assets are certificates and private keys copied from Secrets: their size is all a reader needs here.
        if (path.startsWith('tls-assets/')) io.stdout(`# ---- ${relative} (${Buffer.byteLength(text)} bytes, not printed; use -o to write it)\n`);
        else io.stdout(`# ---- ${relative}\n${redactSecretValues(text, redactable)}${text.endsWith('\n') ? '' : '\n'}`);
        continue;
      }
      const target = join(outputDir, relative);
      try {
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, text);
      } catch (error) {
        // A file where a directory should be, or no permission: the user's problem, said in one line, not a stack trace.
        io.stderr(`${program} render: cannot write ${target}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}\n`);
        return 1;
      }
    }
  }
  io.stdout(`${formatRenderReport(result, outputDir)}\n`);
  return 0;
}

/**
 * A schema message about a boolean or a number where a string belongs, with the likely cause: YAML as kubectl reads
 * it turns an unquoted `yes` or `on` into true and `0x10` into 16 (kubectl-yaml.ts), which the API server refuses.
 */
function withYamlHint(message: string): string {
  const found = /must be a string, not (true|false|-?[0-9][0-9.e+-]*)$/.exec(message);
  if (!found) return message;
  return `${message} (YAML as kubectl reads it makes unquoted ${found[1] === 'true' || found[1] === 'false' ? 'y/yes/on/true and n/no/off/false booleans' : 'digits, 0x10 and 010 numbers'}: quote the value)`;
}

/** The verdict of a resource that fails its CRD schema: selected and rejected, one problem per error. */
export function schemaRejection(resource: Pick<ManifestResource, 'kind' | 'namespace' | 'name'>, errors: { path: string; message: string }[]): Verdict {
  // The validators' messages already start with the path; FieldProblem keeps them apart.
  const problems: FieldProblem[] = errors.map(({ path, message }) => ({
    path,
    message: withYamlHint(message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message),
  }));
  const first = errors[0];
  return {
    resource: { kind: resource.kind, namespace: resource.namespace, name: resource.name },
    selected: true,
    accepted: false,
    reason: first ? (first.message.startsWith(first.path) ? first.message : `${first.path}: ${first.message}`) : 'invalid',
    problems,
    warnings: [],
  };
}

function verdictTable(verdicts: readonly Verdict[]): string[] {
  const rows = verdicts.map((verdict) => [
    verdict.resource.kind,
    verdict.resource.namespace,
    verdict.resource.name,
    verdict.selected ? 'yes' : 'no',
    !verdict.selected ? '-' : verdict.accepted ? 'yes' : 'NO',
    !verdict.selected ? verdict.reason : verdict.accepted ? '' : verdict.reason,
  ]);
  const header = ['KIND', 'NAMESPACE', 'NAME', 'SELECTED', 'ACCEPTED', 'REASON'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows].map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd());
}

/** Warnings, and every problem of objects rejected for more than one reason (the table shows the first). */
function detailLines(verdicts: readonly Verdict[]): string[] {
  return verdicts.flatMap((verdict) => {
    if (!verdict.selected) return [];
    const who = `${verdict.resource.kind} ${verdict.resource.namespace}/${verdict.resource.name}`;
    const problems = !verdict.accepted && verdict.problems.length > 1 ? verdict.problems.map((problem) => `problem: ${who}: ${problem.path}: ${problem.message}`) : [];
    return [...problems, ...verdict.warnings.map((warning) => `warning: ${who}: ${warning}`)];
  });
}

function summary(verdicts: readonly Verdict[]): string {
  // Every kind the rendered workloads select, 0/0 included; an agent evaluates no rules, so PrometheusRules are
  // counted only when a Prometheus was rendered too.
  const workloads = WORKLOAD_KINDS.filter((kind) => verdicts.some((verdict) => verdict.resource.kind === kind));
  const kinds = PROMETHEUS_SELECTED_KINDS.filter((kind) => (workloads.length > 0 ? workloads : ['Prometheus' as const]).some((workload) => kindsSelectedBy(workload).includes(kind)));
  return kinds
    .map((kind) => {
      const ofKind = verdicts.filter((verdict) => verdict.resource.kind === kind);
      const selected = ofKind.filter((verdict) => verdict.selected);
      const accepted = selected.filter((verdict) => verdict.selected && verdict.accepted);
      return `${kind}s: ${selected.length}/${ofKind.length} selected, ${accepted.length} accepted`;
    })
    .join('; ');
}

function indent(lines: readonly string[]): string[] {
  return lines.map((line) => `  ${line}`);
}

function inputNotes(manifests: Manifests): string[] {
  const notes: string[] = [];
  const ignored = Object.entries(manifests.ignoredKinds).sort(([a], [b]) => (a < b ? -1 : 1));
  if (ignored.length > 0) notes.push(`ignored ${ignored.map(([kind, count]) => `${count} ${kind}`).join(', ')} (not used for rendering)`);
  if (manifests.placeholderUids > 0) {
    notes.push(`${manifests.placeholderUids} object(s) had no metadata.uid (only the API server assigns one); rule file names use a placeholder uid derived from kind/namespace/name`);
  }
  return notes;
}

function sortResources(resources: readonly ManifestResource[]): ManifestResource[] {
  return [...resources].sort((a, b) => compareRefs(a, b));
}

function compareRefs(a: { kind: string; namespace: string; name: string }, b: { kind: string; namespace: string; name: string }): number {
  const key = (ref: typeof a): string => `${ref.kind}\u0000${ref.namespace}\u0000${ref.name}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}
