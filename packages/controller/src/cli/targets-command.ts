/**
 * `promop targets`: the health each Prometheus and PrometheusAgent last reported of a namespace's monitors and
 * rules, as one table: what the health reporter of `promop run` wrote into their bindings (targets up of those
 * active and the most frequent scrape error, rules failing), so a team reads it without access to Prometheus. Reads
 * the objects' status only (list requests in the namespace); never calls a Prometheus.
 */
import { API_VERSIONS, GROUP, PLURALS, PROMETHEUS_SELECTED_KINDS, type PrometheusSelectedKind } from '@promop/crds/kinds';
import type { ConfigResourceStatus } from '@promop/crds';
import { dump } from 'js-yaml';
import { commandHelp, flagValue, parseCommandLine } from './command-line.ts';
import { specOf, type CommandIo } from './commands.ts';
import { describeReadError, openCluster } from './cluster-access.ts';
import { reportedHealth } from '../health/binding-health.ts';

/** Exit statuses of `promop targets`. */
export const TARGETS_EXIT = { ok: 0, failed: 1, usage: 2, unhealthy: 3 } as const;

type Binding = NonNullable<ConfigResourceStatus['bindings']>[number];

/** One object's standing with one Prometheus. */
export interface TargetsRow {
  kind: PrometheusSelectedKind;
  namespace: string;
  name: string;
  /** `<namespace>/<name>` of the Prometheus (or `PrometheusAgent <namespace>/<name>`). */
  prometheus: string;
  /** The Healthy condition's reason; `Rejected` when that Prometheus rejects the object; `-` before a first report. */
  health: string;
  /** Targets `up/active`, or rules `failing/rules failing`; `-` when not reported. */
  counts: string;
  message: string;
  /** Whether this row says something is wrong (Healthy False, or rejected). */
  unhealthy: boolean;
}

/** The rows of `objects` of `kind`, one per binding, in name order. */
export function targetsRows(kind: PrometheusSelectedKind, objects: readonly { metadata: { namespace?: string; name?: string }; status?: ConfigResourceStatus }[]): TargetsRow[] {
  const rows = objects.flatMap((object) => (object.status?.bindings ?? []).map((binding) => rowOf(kind, object.metadata.namespace ?? '', object.metadata.name ?? '', binding)));
  return rows.sort((a, b) => (a.name === b.name ? a.prometheus.localeCompare(b.prometheus) : a.name < b.name ? -1 : 1));
}

function rowOf(kind: PrometheusSelectedKind, namespace: string, name: string, binding: Binding): TargetsRow {
  const prometheus = `${binding.resource === PLURALS.PrometheusAgent ? 'PrometheusAgent ' : ''}${binding.namespace}/${binding.name}`;
  const accepted = binding.conditions?.find((condition) => condition.type === 'Accepted');
  if (accepted?.status === 'False') return { kind, namespace, name, prometheus, health: 'Rejected', counts: '-', message: accepted.message ?? '', unhealthy: true };
  const health = reportedHealth(binding);
  const counts = binding.targets ? `${binding.targets.up ?? 0}/${binding.targets.active ?? 0}` : binding.rules ? `${binding.rules.failing ?? 0}/${binding.rules.rules ?? 0} failing` : '-';
  if (!health) return { kind, namespace, name, prometheus, health: '-', counts, message: 'no health report yet (promop run --health-interval)', unhealthy: false };
  return { kind, namespace, name, prometheus, health: health.reason || health.status, counts, message: health.message, unhealthy: health.status === 'False' };
}

/** The rows as a table, columns padded; the message last, unpadded. */
export function formatTargetsTable(rows: readonly TargetsRow[]): string {
  const header = ['KIND', 'NAME', 'PROMETHEUS', 'HEALTH', 'UP', 'MESSAGE'];
  const lines = [header, ...rows.map((row) => [row.kind, row.name, row.prometheus, row.health, row.counts, row.message])];
  const widths = header.slice(0, -1).map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  return lines.map((line) => line.map((cell, column) => (column < widths.length ? cell.padEnd(widths[column]!) : cell)).join('  ').trimEnd()).join('\n') + '\n';
}

/** Runs `promop targets`. */
export async function runTargetsCommand(argv: readonly string[], io: CommandIo, program = 'promop'): Promise<number> {
  const spec = specOf('targets');
  const parsed = parseCommandLine(spec, argv);
  if (parsed.kind === 'help') {
    io.stdout(commandHelp(spec, program));
    return TARGETS_EXIT.ok;
  }
  if (parsed.kind === 'error') {
    io.stderr(`${program} targets: ${parsed.message}\n\n${commandHelp(spec, program)}`);
    return TARGETS_EXIT.usage;
  }
  const cluster = await openCluster(parsed.line);
  if (!cluster.ok) {
    io.stderr(`${program} targets: ${cluster.message}\n`);
    return TARGETS_EXIT.failed;
  }
  const { reader, connection } = cluster;
  const namespace = flagValue(parsed.line, 'namespace') ?? connection.namespace;
  try {
    const lists = await Promise.all(PROMETHEUS_SELECTED_KINDS.map(async (kind) => targetsRows(kind, await reader.list<{ metadata: { namespace?: string; name?: string }; status?: ConfigResourceStatus }>(
      `/apis/${GROUP}/${API_VERSIONS[kind]}/namespaces/${encodeURIComponent(namespace)}/${PLURALS[kind]}`,
    ))));
    const rows = lists.flat();
    const format = flagValue(parsed.line, 'output');
    if (format === 'json') io.stdout(`${JSON.stringify({ namespace, rows }, null, 2)}\n`);
    else if (format === 'yaml') io.stdout(dump({ namespace, rows }, { lineWidth: -1, noRefs: true }));
    else io.stdout(rows.length > 0 ? formatTargetsTable(rows) : `No monitor or rule in namespace ${namespace} is bound to a Prometheus.\n`);
    return rows.some((row) => row.unhealthy) ? TARGETS_EXIT.unhealthy : TARGETS_EXIT.ok;
  } catch (error) {
    io.stderr(`${program} targets: ${describeReadError(error, connection)}\n`);
    return TARGETS_EXIT.failed;
  } finally {
    reader.close();
  }
}
