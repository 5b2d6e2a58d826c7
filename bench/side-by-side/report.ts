/**
 * The figures of one run for each operator and the table that compares them: metric | promop |
 * prometheus-operator | ratio (promop ÷ prometheus-operator; below 1 is better for promop on every row).
 */
import type { WriteCount } from './audit-log.ts';

/** One size: a Prometheus selecting `monitors` ServiceMonitors. */
export interface SizeFigures {
  monitors: number;
  /** Prometheus created → its configuration holds every monitor's jobs; null: not within the timeout. */
  firstConfigMs: number | null;
  /** CPU seconds each process used from the Prometheus' creation to its first config (etcd, kube-apiserver, operator, benchmark). */
  firstConfigCpuS?: Record<string, number>;
  /** Size of the configuration then (every file, uncompressed). */
  configBytes: number | null;
  /** Settled VmRSS with this Prometheus configured. */
  rssMiB: number | null;
  /** ServiceMonitor patched → the new value in the configuration, one sample per change. */
  changeMs: number[];
  /** Changes not seen in the configuration within the timeout. */
  changeTimeouts: number;
  /**
   * Of each change, from the audit log: the operator's part (PATCH answered → its first Secret write received) and
   * the API server's storing that write. Absent in results written before it was measured.
   */
  changeSplit?: { operatorMs: number[]; writeMs: number[] };
  /**
   * Its first config → a change to the other team's Prometheus in that one's config: how soon the operator serves
   * others while it writes this Prometheus' bindings. Absent in results written before it was measured.
   */
  createdServedMs?: number | null;
  /** Prometheus created → the operator settled (its CPU quiet: promop's status bindings written). */
  createdSettleMs?: number | null;
}

/** Everything measured for one operator. */
export interface OperatorFigures {
  id: string;
  version: string;
  sizes: SizeFigures[];
  /**
   * Prometheus deleted (with the size it selected) → the operator settled (promop removes its status bindings), and
   * → a change to the other team's Prometheus in that one's config (absent in results written before it was measured).
   */
  deletions: { monitors: number; settleMs: number | null; servedMs?: number | null }[];
  /** Monitors added while a Prometheus selected the previous size: until its configuration held them all. */
  grow?: { from: number; to: number; createMs: number; settleAfterLastCreateMs: number | null };
  idle: { minutes: number; writes: WriteCount };
  restart: { minutes: number; writes: WriteCount; rssMiB: number | null };
  secrets: { count: number; kib: number; settleMs: number | null; rssMiB: number | null; configComplete: boolean };
  durationS: number;
}

/** A row of the table; values are already formatted. */
export interface Row {
  metric: string;
  promop: string;
  prometheusOperator: string;
  ratio: string;
}

/** The p-th percentile (nearest rank) of `samples`. */
export function percentile(samples: readonly number[], p: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

const count = (n: number): string => n.toLocaleString('en-US');
const seconds = (ms: number | null): string => (ms === null ? 'not reached' : `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`);
const millis = (ms: number | null): string => (ms === null ? '–' : `${Math.round(ms).toLocaleString('en-US')} ms`);
const mib = (value: number | null): string => (value === null ? '–' : `${Math.round(value).toLocaleString('en-US')} MiB`);

function ratio(promop: number | null, upstream: number | null): string {
  if (promop === null || upstream === null || promop < 0 || upstream < 0) return '–';
  if (upstream === 0) return promop === 0 ? 'equal' : '–';
  const value = promop / upstream;
  if (value === 0) return '0×';
  return `${value.toFixed(value < 0.1 ? 3 : 2)}×`;
}

function writes(w: WriteCount): string {
  const parts = Object.entries(w.byRequest).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([request, n]) => `${n} ${request}`);
  return parts.length === 0 ? '0' : `${w.total} (${parts.join(', ')}${Object.keys(w.byRequest).length > 3 ? ', ...' : ''})`;
}

/** The comparison table, one row per metric both operators were measured on. */
export function comparisonRows(promop: OperatorFigures, upstream: OperatorFigures): Row[] {
  const rows: Row[] = [];
  const add = (metric: string, a: number | null, b: number | null, format: (v: number | null) => string) =>
    rows.push({ metric, promop: format(a), prometheusOperator: format(b), ratio: ratio(a, b) });
  const sizeOf = (figures: OperatorFigures, monitors: number) => figures.sizes.find((s) => s.monitors === monitors);
  const sizes = promop.sizes.map((s) => s.monitors);
  for (const monitors of sizes) {
    const a = sizeOf(promop, monitors);
    const b = sizeOf(upstream, monitors);
    add(`first config, ${count(monitors)} ServiceMonitors`, a?.firstConfigMs ?? null, b?.firstConfigMs ?? null, seconds);
  }
  if (promop.grow && upstream.grow) {
    add(`settle after adding ${count(promop.grow.to - promop.grow.from)} to ${count(promop.grow.from)} (from the last create)`,
      promop.grow.settleAfterLastCreateMs, upstream.grow.settleAfterLastCreateMs, seconds);
  }
  for (const monitors of sizes) {
    const a = sizeOf(promop, monitors);
    const b = sizeOf(upstream, monitors);
    const n = `n = ${a?.changeMs.length ?? 0} / ${b?.changeMs.length ?? 0}${(a?.changeTimeouts ?? 0) + (b?.changeTimeouts ?? 0) > 0 ? `, timeouts ${a?.changeTimeouts ?? 0} / ${b?.changeTimeouts ?? 0}` : ''}`;
    add(`P2 p50, ${count(monitors)} (${n})`, percentile(a?.changeMs ?? [], 50), percentile(b?.changeMs ?? [], 50), millis);
    add(`P2 p99, ${count(monitors)}`, percentile(a?.changeMs ?? [], 99), percentile(b?.changeMs ?? [], 99), millis);
  }
  for (const monitors of sizes) {
    add(`configuration size, ${count(monitors)} (uncompressed)`, sizeOf(promop, monitors)?.configBytes ?? null, sizeOf(upstream, monitors)?.configBytes ?? null,
      (bytes) => (bytes === null ? '–' : `${(bytes / 2 ** 20).toFixed(1)} MiB`));
  }
  // Served: the other team's change written (the operator's queue serves others again); settled: the operator's CPU
  // quiet, which for promop includes the bindings it writes or removes in the background.
  for (const monitors of sizes) {
    const a = sizeOf(promop, monitors);
    const b = sizeOf(upstream, monitors);
    if (a?.createdServedMs === undefined && b?.createdServedMs === undefined) continue;
    add(`Prometheus selecting ${count(monitors)} created → others served (from its first config)`, a?.createdServedMs ?? null, b?.createdServedMs ?? null, seconds);
    add(`Prometheus selecting ${count(monitors)} created → operator settled (bindings written)`, a?.createdSettleMs ?? null, b?.createdSettleMs ?? null, seconds);
  }
  for (const [i, deletion] of promop.deletions.entries()) {
    const other = upstream.deletions[i];
    if (deletion.servedMs !== undefined || other?.servedMs !== undefined) {
      add(`Prometheus selecting ${count(deletion.monitors)} deleted → others served`, deletion.servedMs ?? null, other?.servedMs ?? null, seconds);
    }
    add(`Prometheus selecting ${count(deletion.monitors)} deleted → operator settled (bindings written)`, deletion.settleMs, other?.settleMs ?? null, seconds);
  }
  for (const monitors of sizes) add(`P3 RSS, ${count(monitors)}`, sizeOf(promop, monitors)?.rssMiB ?? null, sizeOf(upstream, monitors)?.rssMiB ?? null, mib);
  const largest = count(sizes[sizes.length - 1] ?? 0);
  add(`P3 RSS, ${largest}, after a restart`, promop.restart.rssMiB, upstream.restart.rssMiB, mib);
  add(`P3 RSS, ${largest} + ${count(promop.secrets.count)} Secrets of ${promop.secrets.kib} KiB, after a restart`, promop.secrets.rssMiB, upstream.secrets.rssMiB, mib);
  const delta = (f: OperatorFigures) => (f.secrets.rssMiB === null || f.restart.rssMiB === null ? null : f.secrets.rssMiB - f.restart.rssMiB);
  rows.push({ metric: 'P3 the Secrets\' share', promop: mib(delta(promop)), prometheusOperator: mib(delta(upstream)), ratio: ratio(delta(promop), delta(upstream)) });
  add('restart → settled, with the Secrets', promop.secrets.settleMs, upstream.secrets.settleMs, seconds);
  rows.push({ metric: `P4 writes, ${promop.idle.minutes} idle minutes (Lease renewals apart)`, promop: writes(promop.idle.writes), prometheusOperator: writes(upstream.idle.writes), ratio: ratio(promop.idle.writes.total, upstream.idle.writes.total) });
  rows.push({ metric: `P4 writes, ${promop.restart.minutes} minutes after a restart (Lease renewals apart)`, promop: writes(promop.restart.writes), prometheusOperator: writes(upstream.restart.writes), ratio: ratio(promop.restart.writes.total, upstream.restart.writes.total) });
  const renewals = (f: OperatorFigures) => f.idle.writes.leaseRenewals + f.restart.writes.leaseRenewals;
  rows.push({ metric: `Lease renewals (leader election) in those ${promop.idle.minutes + promop.restart.minutes} minutes`, promop: count(renewals(promop)), prometheusOperator: count(renewals(upstream)), ratio: ratio(renewals(promop), renewals(upstream)) });
  return rows;
}

/** The rows as a Markdown table (what docs/performance.md quotes). */
export function markdownTable(rows: readonly Row[]): string {
  const lines = ['| metric | promop | prometheus-operator | ratio |', '|---|---:|---:|---:|'];
  for (const row of rows) lines.push(`| ${row.metric} | ${row.promop} | ${row.prometheusOperator} | ${row.ratio} |`);
  return lines.join('\n');
}
