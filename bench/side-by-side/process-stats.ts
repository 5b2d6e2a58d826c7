/**
 * What an operator process costs, read from /proc: resident memory and CPU time (every thread, so a Go
 * program's goroutines and Node's worker threads count), and "settled": its CPU time stopped growing.
 */
import { readFileSync } from 'node:fs';
import { sleep } from './api-client.ts';

const CLOCK_TICKS_PER_SECOND = 100;

/** VmRSS of `pid` in MiB. */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
}

/** User + system CPU time of `pid` in seconds. */
export function cpuSeconds(pid: number): number {
  // Fields after the command name, which is in parentheses and may contain spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** How to decide that a process has settled. */
export interface QuietOptions {
  /** The trailing window in which it must have used at most `maxCpuSeconds`. */
  windowMs: number;
  maxCpuSeconds: number;
  /** Give up after this long (the process is then reported as not settled). */
  timeoutMs: number;
}

/** The settle rule for RSS and idle measurements: at most 0.1 s of CPU in 5 s. */
export const SETTLED: QuietOptions = { windowMs: 5_000, maxCpuSeconds: 0.1, timeoutMs: 20 * 60_000 };
/** Between two ServiceMonitor changes: at most 30 ms of CPU in 1 s, waiting no more than 10 s. */
export const BETWEEN_CHANGES: QuietOptions = { windowMs: 1_000, maxCpuSeconds: 0.03, timeoutMs: 10_000 };

/**
 * The same rule with room for a sampling profiler (`--cpu-prof`), which costs about 1.2 % of a core while the
 * process is idle (every 10 ms): 2 % of the window is added to what counts as quiet.
 */
export function allowingProfiler(options: QuietOptions): QuietOptions {
  return { ...options, maxCpuSeconds: options.maxCpuSeconds + 0.02 * (options.windowMs / 1_000) };
}

/**
 * Resolves once `pid` used at most `maxCpuSeconds` of CPU over the last `windowMs` (sampled every 100 ms):
 * `settled` says whether that happened before the timeout, `atMs` is `performance.now()` at the start of that
 * quiet window (when its work ended).
 */
export async function waitUntilQuiet(pid: number, options: QuietOptions): Promise<{ settled: boolean; atMs: number }> {
  const started = performance.now();
  const samples: { at: number; cpu: number }[] = [{ at: started, cpu: cpuSeconds(pid) }];
  for (;;) {
    await sleep(100);
    const now = performance.now();
    samples.push({ at: now, cpu: cpuSeconds(pid) });
    while (samples.length > 2 && (samples[1] as { at: number }).at <= now - options.windowMs) samples.shift();
    const oldest = samples[0] as { at: number; cpu: number };
    const newest = samples[samples.length - 1] as { at: number; cpu: number };
    if (now - oldest.at >= options.windowMs && newest.cpu - oldest.cpu <= options.maxCpuSeconds) return { settled: true, atMs: oldest.at };
    if (now - started > options.timeoutMs) return { settled: false, atMs: now };
  }
}

/** The median of `count` RSS samples taken `intervalMs` apart. */
export async function medianRssMiB(pid: number, count = 5, intervalMs = 1_000): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0) await sleep(intervalMs);
    samples.push(rssMiB(pid));
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}
