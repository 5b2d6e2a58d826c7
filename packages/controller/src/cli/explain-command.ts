/**
 * `promop explain <kind> [-n NS] NAME [-o json|yaml]` (any kind of the registry): reads the cluster
 * (list and get only), explains with the operator's code (explanation.ts; alertmanager-explain.ts for the alerting
 * kinds) and prints the answer for a person or a script. The exit status tells CI the outcome (commands.ts
 * describes it).
 */
import { kindNamed, type Kind } from '@promop/crds/kinds';
import { dump } from 'js-yaml';
import type { PrometheusWorkload } from '../workload/workload-kind.ts';
import { commandHelp, flagValue, parseCommandLine, type ParsedCommandLine } from './command-line.ts';
import { EXPLAIN_KINDS, specOf, type CommandIo } from './commands.ts';
import { describeReadError, openCluster } from './cluster-access.ts';
import { noClusterObjects, readClusterObjects, type ClusterObjects } from './cluster-objects.ts';
import type { ClusterSnapshot } from './cluster-snapshot.ts';
import type { LoadState, PrometheusExplanation, ResourceExplanation } from './explanation.ts';
import { labelsText } from './labels-text.ts';
import { ALERTMANAGER_SOURCE_KINDS, PROMETHEUS_SOURCE_KINDS, THANOS_RULER_SOURCE_KINDS, isAlertmanagerSourceKind, isPrometheusSelectedKind, isThanosRulerWorkloadKind } from './program-kinds.ts';

/** Exit statuses. */
export const EXPLAIN_EXIT = { ok: 0, failed: 1, usage: 2, rejected: 3, notSelected: 4 } as const;

/** What to explain, from the command line. */
export interface ExplainTarget {
  kind: Kind;
  /** From -n; undefined: the context's namespace. */
  namespace: string | undefined;
  name: string;
}

/** Reads `<kind> <name>` or `<kind>/<name>`, kubectl's short and plural kind names included. */
export function explainTarget(line: ParsedCommandLine): { ok: true; target: ExplainTarget } | { ok: false; message: string } {
  const [first = '', second] = line.positionals;
  const [kindText, inlineName] = first.includes('/') ? (first.split('/', 2) as [string, string]) : [first, undefined];
  if (inlineName !== undefined && second !== undefined) return { ok: false, message: `unexpected argument "${second}" after ${first}` };
  const name = inlineName ?? second;
  const named = kindNamed(kindText);
  const kind = EXPLAIN_KINDS.find((each) => each === named);
  if (!kind) return { ok: false, message: `cannot explain "${kindText}": the kind must be one of ${EXPLAIN_KINDS.map((each) => each.toLowerCase()).join(', ')}` };
  if (!name) return { ok: false, message: `missing the name of the ${kind.toLowerCase()}` };
  return { ok: true, target: { kind, namespace: flagValue(line, 'namespace'), name } };
}

/** Runs `promop explain` with the arguments after `explain`; resolves to the exit status. */
export async function runExplainCommand(argv: readonly string[], io: CommandIo, program = 'promop'): Promise<number> {
  const spec = specOf('explain');
  const usage = (message: string) => {
    io.stderr(`${program} explain: ${message}\n\n${commandHelp(spec, program)}`);
    return EXPLAIN_EXIT.usage;
  };
  const parsed = parseCommandLine(spec, argv);
  if (parsed.kind === 'help') {
    io.stdout(commandHelp(spec, program));
    return EXPLAIN_EXIT.ok;
  }
  if (parsed.kind === 'error') return usage(parsed.message);
  const target = explainTarget(parsed.line);
  if (!target.ok) return usage(target.message);
  const fail = (message: string) => {
    io.stderr(`${program} explain: ${message}\n`);
    return EXPLAIN_EXIT.failed;
  };
  const cluster = await openCluster(parsed.line);
  if (!cluster.ok) return fail(cluster.message);
  const { reader, connection } = cluster;
  const { kind, name } = target.target;
  // Only the kinds of the program that judges the object are listed: each program's are all it needs.
  const kinds = isAlertmanagerSourceKind(kind) ? ALERTMANAGER_SOURCE_KINDS : isThanosRulerWorkloadKind(kind) ? THANOS_RULER_SOURCE_KINDS : PROMETHEUS_SOURCE_KINDS;
  const format = flagValue(parsed.line, 'output');
  const print = (explanation: object, text: () => string) => io.stdout(format === 'json' ? `${JSON.stringify(explanation, null, 2)}\n` : format === 'yaml' ? dump(explanation, { lineWidth: -1, noRefs: true }) : text());
  try {
    const namespace = target.target.namespace ?? connection.namespace;
    // The lists go out first; the generator loads while the API server answers.
    const listing = readClusterObjects(reader, kinds);
    listing.catch(() => {});
    if (isAlertmanagerSourceKind(kind)) {
      const { explainAlertingTarget } = await import('./alertmanager-explain.ts');
      const answer = await explainAlertingTarget(reader, listing, { kind, namespace, name });
      if (!answer.found) return fail(`${kind.toLowerCase()} "${name}" not found in namespace "${namespace}"`);
      print(answer.explanation, () => answer.text);
      return EXPLAIN_EXIT[answer.exit];
    }
    if (isThanosRulerWorkloadKind(kind)) {
      const { explainThanosRuler, formatThanosRulerExplanation } = await import('./thanos-ruler-explain.ts');
      let objects: ClusterObjects;
      try {
        objects = await listing;
      } catch (error) {
        return fail(describeReadError(error, connection, kinds));
      }
      const thanosRuler = objects.thanosRulers.find((each) => each.metadata.namespace === namespace && each.metadata.name === name);
      if (!thanosRuler) return fail(`${kind.toLowerCase()} "${name}" not found in namespace "${namespace}"`);
      const { readReferencedData } = await import('./cluster-snapshot.ts');
      let referenced: Awaited<ReturnType<typeof readReferencedData>>;
      try {
        // Only this ruler's references (its remote write endpoints' Secrets and ConfigMaps).
        referenced = await readReferencedData(reader, { ...noClusterObjects(), thanosRulers: [thanosRuler] });
      } catch (error) {
        return fail(describeReadError(error, connection, kinds));
      }
      const explanation = explainThanosRuler({ ...objects, ...referenced }, thanosRuler);
      print(explanation, () => formatThanosRulerExplanation(explanation));
      return explanation.problems.length > 0 ? EXPLAIN_EXIT.rejected : EXPLAIN_EXIT.ok;
    }
    const [{ readClusterSnapshot, readConfigSecretUids }, { explainPrometheus, explainResource, findResource, renderFromSnapshot, workloadKeyOf, workloadsOf }] = await Promise.all([
      import('./cluster-snapshot.ts'),
      import('./explanation.ts'),
    ]);
    let snapshot: ClusterSnapshot;
    try {
      snapshot = await readClusterSnapshot(reader, await listing);
    } catch (error) {
      return fail(describeReadError(error, connection, kinds));
    }
    if (kind === 'Prometheus' || kind === 'PrometheusAgent') {
      const list: PrometheusWorkload[] = kind === 'Prometheus' ? snapshot.prometheuses : snapshot.prometheusAgents;
      const prometheus = list.find((candidate) => candidate.metadata.namespace === namespace && candidate.metadata.name === name);
      if (!prometheus) return fail(`${kind.toLowerCase()} "${name}" not found in namespace "${namespace}"`);
      const output = renderFromSnapshot(snapshot, prometheus);
      const uids = await readConfigSecretUids(reader, prometheus, output.configs.length);
      const explanation = explainPrometheus(snapshot, prometheus, uids, output);
      print(explanation, () => formatPrometheusExplanation(explanation));
      return explanation.problems.length > 0 ? EXPLAIN_EXIT.rejected : EXPLAIN_EXIT.ok;
    }
    // The other programs' kinds were explained above.
    if (!isPrometheusSelectedKind(kind)) return fail(`cannot explain a ${kind.toLowerCase()}`);
    const resource = { kind, namespace, name };
    if (!findResource(snapshot, resource)) return fail(`${kind.toLowerCase()} "${name}" not found in namespace "${namespace}"`);
    const workloads = workloadsOf(snapshot);
    const outputs = new Map(workloads.map((workload) => [workloadKeyOf(workload), renderFromSnapshot(snapshot, workload)]));
    const uids = new Map(await Promise.all(workloads.map(async (workload) => [workloadKeyOf(workload), await readConfigSecretUids(reader, workload, outputs.get(workloadKeyOf(workload))!.configs.length)] as const)));
    const explanation = explainResource(snapshot, resource, uids, outputs);
    print(explanation, () => formatResourceExplanation(explanation));
    return explanation.outcome === 'accepted' ? EXPLAIN_EXIT.ok : explanation.outcome === 'rejected' ? EXPLAIN_EXIT.rejected : EXPLAIN_EXIT.notSelected;
  } catch (error) {
    return fail(describeReadError(error, connection, kinds));
  } finally {
    reader.close();
  }
}

/** The text a person reads for a monitor or rule. */
export function formatResourceExplanation(explanation: ResourceExplanation): string {
  const lines = [`${explanation.kind} ${explanation.namespace}/${explanation.name}${explanation.generation !== undefined ? ` (generation ${explanation.generation})` : ''}`];
  lines.push(`  labels: ${labelsText(explanation.labels)}`);
  lines.push(`  namespace ${explanation.namespace}: ${explanation.namespaceLabels ? labelsText(explanation.namespaceLabels) : 'does not exist'}`);
  for (const note of explanation.notes) lines.push(`  note: ${note}`);
  for (const judgement of explanation.prometheuses) {
    const who = `${judgement.prometheus.kind} ${judgement.prometheus.namespace}/${judgement.prometheus.name}`;
    lines.push('');
    if (!judgement.selected) {
      lines.push(`${who}: not selected`, `  ${judgement.reason ?? ''}`);
      continue;
    }
    if (!judgement.accepted) {
      lines.push(`${who}: selected, REJECTED`, ...(judgement.problems ?? []).map((problem) => `  ${problem.path}: ${problem.message}`));
      for (const warning of judgement.warnings ?? []) lines.push(`  warning: ${warning}`);
      continue;
    }
    lines.push(`${who}: selected, accepted`);
    if (judgement.scrapeJobs) lines.push(`  scrape jobs: ${judgement.scrapeJobs.length > 0 ? judgement.scrapeJobs.join(', ') : 'none (no endpoint)'}`);
    if (judgement.ruleFile) lines.push(`  rule file: /etc/prometheus/rules/${judgement.ruleFile}`);
    for (const warning of judgement.warnings ?? []) lines.push(`  warning: ${warning}`);
    for (const problem of judgement.prometheusProblems ?? []) lines.push(`  problem of the ${judgement.prometheus.kind}: ${problem.path}: ${problem.message}`);
    if (judgement.loaded) lines.push(`  ${loadedLine(judgement.loaded)}`);
    if (judgement.health) lines.push(`  health: ${judgement.health.reason}: ${judgement.health.message}${judgement.health.since ? ` (since ${judgement.health.since})` : ''}`);
  }
  const count = (test: (j: ResourceExplanation['prometheuses'][number]) => boolean) => explanation.prometheuses.filter(test).length;
  const judges = explanation.prometheuses.some((judgement) => judgement.prometheus.kind === 'PrometheusAgent') ? 'Prometheus and PrometheusAgent objects' : 'Prometheus objects';
  lines.push(
    '',
    explanation.prometheuses.length === 0
      ? 'Selected by no Prometheus: the cluster has none.'
      : `Selected by ${count((j) => j.selected)} of ${explanation.prometheuses.length} ${judges}: accepted by ${count((j) => j.selected && j.accepted === true)}, rejected by ${count((j) => j.selected && j.accepted === false)}.`,
  );
  return `${lines.join('\n')}\n`;
}

/** The text a person reads for a Prometheus or PrometheusAgent. */
export function formatPrometheusExplanation(explanation: PrometheusExplanation): string {
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const lines = [`${explanation.kind} ${explanation.namespace}/${explanation.name} (version ${explanation.version}, ${plural(explanation.shards, 'shard')}, ${plural(explanation.replicas, 'replica')}${explanation.paused ? ', PAUSED' : ''})`];
  for (const problem of explanation.problems) lines.push(`  problem: ${problem.path}: ${problem.message}`);
  for (const warning of explanation.warnings) lines.push(`  warning: ${warning}`);
  lines.push(`  configuration: ${loadedLine(explanation.configuration).replace(/^loaded: /, '')}`);
  for (const note of explanation.notes) lines.push(`  note: ${note}`);
  for (const [kind, counts] of Object.entries(explanation.kinds).filter((entry): entry is [string, NonNullable<typeof entry[1]>] => entry[1] !== undefined)) {
    lines.push('', `${kind}s: ${plural(counts.candidates, 'candidate')}, ${counts.selected} selected (${counts.accepted} accepted, ${counts.rejected} rejected), ${counts.candidates - counts.selected} not selected`);
    const width = Math.max(0, ...counts.resources.map((resource) => `${resource.namespace}/${resource.name}`.length));
    const order = { rejected: 0, accepted: 1, 'not-selected': 2 } as const;
    for (const resource of [...counts.resources].sort((a, b) => order[a.state] - order[b.state])) {
      const label = { accepted: 'accepted    ', rejected: 'REJECTED    ', 'not-selected': 'not selected' }[resource.state];
      const detail = resource.state === 'accepted'
        ? resource.scrapeJobs ? plural(resource.scrapeJobs.length, 'scrape job') : resource.ruleFile ? `rule file ${resource.ruleFile}` : ''
        : resource.reason ?? '';
      lines.push(`  ${label}  ${`${resource.namespace}/${resource.name}`.padEnd(width)}  ${detail}`.trimEnd());
      for (const problem of resource.problems?.slice(1) ?? []) lines.push(`  ${' '.repeat(12)}  ${' '.repeat(width)}  ${problem.path}: ${problem.message}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function loadedLine(state: LoadState): string {
  const word = { loaded: 'loaded', 'partly-loaded': 'partly loaded', 'not-loaded': 'NOT loaded', 'not-written': 'NOT loaded', changing: 'changing', unknown: 'unknown' }[state.state];
  return `loaded: ${word}: ${state.message}`;
}
