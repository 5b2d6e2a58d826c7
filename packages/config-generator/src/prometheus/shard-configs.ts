/**
 * The files of each shard: prometheus.yaml, and the scrape files it names when the generated jobs are too many to
 * stay inline (scrape-config-files.ts). Every shard has every job (sharding is a relabeling), so each shard gets
 * its own copy with its number written in, and its own set of scrape files.
 *
 * Inline (as prometheus-operator writes it) when Prometheus is older than 2.43 or the generated jobs take at most
 * INLINE_SCRAPE_JOBS_MAX_BYTES; otherwise prometheus.yaml keeps everything else (global, rule_files, alerting,
 * remote storage, the hand-written additionalScrapeConfigs) and lists the scrape files by absolute path, in slot
 * order. Prometheus reads the main file's jobs first, then each listed file in order, so its job order is
 * deterministic too.
 */
import type { FieldProblem, ScrapeFile } from '../model.ts';
import { CONFIG_DIR, SCRAPE_FILE_SLOTS } from '../pod-layout.ts';
import { jobSegments, toPrometheusYaml } from '../yaml-output.ts';
import {
  INLINE_SCRAPE_JOBS_MAX_BYTES, SCRAPE_FILE_COUNTS, SCRAPE_FILE_HEADER, SCRAPE_FILE_MAX_BYTES, SCRAPE_FILE_MAX_PLAIN_BYTES, SCRAPE_FILE_TARGET_BYTES, fileCount, homeSlot, packScrapeJobs, scrapeFile,
  type RenderedJob, type ScrapeFileLimits,
} from './scrape-config-files.ts';
import { sharedItemsSaving, sharedItemsText } from './scrape-file-text.ts';
import type { TopologySharding } from '../scrape/sharding.ts';
import { substituteShard } from './sharding.ts';
import { callCache, type RenderCache } from '../render-memo.ts';

/** prometheus.yaml per shard and the scrape files each names (empty lists when inline). */
export interface ShardConfigs {
  configs: string[];
  scrapeFiles: ScrapeFile[][];
  /** Monitors left out because their jobs do not fit into one scrape file; each is rejected alone. */
  oversized: OversizedMonitor[];
}

/**
 * A monitor whose jobs take more than one scrape file holds (`maxBytes`): measured job by job in order, its jobs
 * passed the limit at `job` (`jobBytes` of YAML alone), the `measured`th of its `jobs`, with `bytes` of YAML up to
 * and including it. The rest of its jobs were not serialised: a monitor with thousands of endpoints costs no more
 * than one file's worth.
 */
export interface OversizedMonitor {
  owner: string;
  job: string;
  jobBytes: number;
  bytes: number;
  measured: number;
  jobs: number;
  maxBytes: number;
  /** Where the monitor's jobs go: one scrape file, or prometheus.yaml itself (Prometheus before 2.43). */
  into: 'scrape file' | 'prometheus.yaml';
}

/** How the shards' files are laid out. */
export interface ShardLayoutOptions {
  /** Prometheus reads `scrape_config_files` (2.43+). */
  scrapeConfigFiles: boolean;
  /** The key of the scrape file names' HMAC (the Prometheus' uid). */
  hashKey: string;
  /** Topology sharding: each shard's zone and position in it are written into its files too. */
  topology?: TopologySharding;
  /** Test only: other limits than the real ones. */
  limits?: Limits;
  /** The YAML of jobs and the files rendered by previous calls (a RenderMemo), or by this call alone (the default). */
  cache?: RenderCache;
}

/**
 * The sub-slots (`slots`, the most files there can be), the size of a file, the most generated jobs kept inline, and
 * the file counts with the size a file is aimed at (scrape-config-files.ts); without counts, all `slots` are used.
 */
type Limits = ScrapeFileLimits & { inlineMaxBytes: number; fileCounts?: readonly number[]; targetFileBytes?: number; maxPlainFileBytes?: number };

/**
 * Renders every shard of `config`, whose `scrape_configs` starts with the generated jobs (`owners[i]` is the
 * monitor of job i) followed by the hand-written ones. With several shards `config` carries the `$(SHARD)`
 * placeholder, replaced per shard; with one shard the generated jobs were rendered for shard 0 already and are not
 * copied (for 10,000 monitors the copy would cost more than rendering them). A monitor whose jobs alone take more
 * than one scrape file holds is left out and listed in `oversized` (its verdict is the caller's), so one team's
 * oversized monitor does not keep every other team's change from being written. A problem (of the Prometheus):
 * the generated jobs together do not fit into the scrape files.
 */
export function renderShardConfigs(
  config: Record<string, unknown>,
  shards: number,
  owners: readonly string[],
  options: ShardLayoutOptions,
): { ok: true; value: ShardConfigs } | { ok: false; problem: FieldProblem } {
  const cache = options.cache ?? callCache();
  const limits: Limits = options.limits ?? {
    slots: SCRAPE_FILE_SLOTS, maxFileBytes: SCRAPE_FILE_MAX_BYTES, inlineMaxBytes: INLINE_SCRAPE_JOBS_MAX_BYTES, fileCounts: SCRAPE_FILE_COUNTS, targetFileBytes: SCRAPE_FILE_TARGET_BYTES,
    maxPlainFileBytes: SCRAPE_FILE_MAX_PLAIN_BYTES,
  };
  const oversized: OversizedMonitor[] = [];
  let generated = { config, owners };
  // A monitor found oversized in one shard is left out of every shard, and the shards are rendered again without
  // it; each pass removes at least one monitor, and only a configuration holding one pays for a second pass.
  for (;;) {
    const rendered = renderShards(generated.config, shards, generated.owners, options.scrapeConfigFiles, { cache, hashKey: options.hashKey }, limits, options.topology);
    if (rendered.ok !== 'oversized') {
      // Every shard's texts were asked for; the rest belongs to a layout no longer used.
      cache.forgetUnusedSequences();
      return rendered.ok ? { ok: true, value: { ...rendered.value, oversized } } : rendered;
    }
    oversized.push(...rendered.monitors);
    generated = withoutOwners(generated.config, generated.owners, new Set(rendered.monitors.map((monitor) => monitor.owner)));
  }
}

/** Every shard's files, or the monitors whose jobs do not fit into one scrape file (in some shard). */
function renderShards(config: Record<string, unknown>, shards: number, owners: readonly string[], scrapeConfigFiles: boolean, files: FileCache, limits: Limits, topology?: TopologySharding):
  { ok: true; value: Omit<ShardConfigs, 'oversized'> } | { ok: false; problem: FieldProblem } | { ok: 'oversized'; monitors: OversizedMonitor[] } {
  const homes = scrapeConfigFiles ? homeSlots(owners, limits.slots, files.cache) : [];
  const result: Omit<ShardConfigs, 'oversized'> = { configs: [], scrapeFiles: [] };
  for (let shard = 0; shard < shards; shard += 1) {
    const shardConfig = shards > 1 ? substituteShard(config, shard, shards, topology) : singleShardConfig(config, owners.length, topology);
    const rendered = scrapeConfigFiles ? renderShard(shardConfig, owners, homes, limits, files, shard) : renderInline(shardConfig, owners, limits);
    if (rendered.ok !== true) return rendered;
    result.configs.push(rendered.config);
    result.scrapeFiles.push(rendered.scrapeFiles);
  }
  return { ok: true, value: result };
}

/**
 * One shard of a Prometheus that keeps every job in prometheus.yaml (before 2.43): a monitor whose jobs alone take
 * more than a scrape file holds cannot fit into the config Secret beside anything else either, so it is left out
 * the same way, rather than making the Secret too large for every team.
 */
function renderInline(config: Record<string, unknown>, owners: readonly string[], limits: Limits):
  { ok: true; config: string; scrapeFiles: ScrapeFile[] } | { ok: 'oversized'; monitors: OversizedMonitor[] } {
  const jobs = config.scrape_configs as Job[];
  const monitors = oversizedMonitors(jobs, owners, limits.maxFileBytes - Buffer.byteLength(SCRAPE_FILE_HEADER), serialisedJob, 'prometheus.yaml');
  if (monitors.length > 0) return { ok: 'oversized', monitors };
  return { ok: true, config: toPrometheusYaml(config), scrapeFiles: [] };
}

/** `config` and `owners` without the generated jobs of `left` (the hand-written jobs after them stay). */
function withoutOwners(config: Record<string, unknown>, owners: readonly string[], left: ReadonlySet<string>): { config: Record<string, unknown>; owners: string[] } {
  const jobs = config.scrape_configs as Job[];
  const kept = owners.flatMap((owner, index) => (left.has(owner) ? [] : [index]));
  return {
    config: { ...config, scrape_configs: [...kept.map((index) => jobs[index]!), ...jobs.slice(owners.length)] },
    owners: kept.map((index) => owners[index]!),
  };
}

/**
 * The home slot of each generated job, hashing each monitor once. With a memo, a job whose owner is the one at the
 * same position last time keeps its home without a lookup (20,000 of them per change).
 */
function homeSlots(owners: readonly string[], slots: number, cache: RenderCache): number[] {
  return cache.atPositions(`homes|${slots}`, owners, '', cache.homeSlots(slots, homeSlot));
}

/** Where a shard's texts and files are kept, and the key of their names' HMAC (with the shard, the key they are kept under). */
interface FileCache {
  cache: RenderCache;
  hashKey: string;
}

type Job = Record<string, unknown>;

/** One job serialised (jobSegments: items apart, so a file can share the repeated ones), with its plain UTF-8 size. */
interface JobText {
  segments: readonly string[];
  bytes: number;
}

/** A file's jobs serialised, with their plain UTF-8 size. */
interface FileJobs {
  jobs: readonly JobText[];
  bytes: number;
}

/** A sub-slot's jobs, also with the size of the file they make alone, repeated items shared (scrape-file-text.ts). */
interface SlotText extends FileJobs {
  writtenBytes: number;
}

const EMPTY_SLOT: SlotText = { jobs: [], bytes: 0, writtenBytes: 0 };

function serialisedJob(job: Job): JobText {
  const segments = jobSegments(job);
  let bytes = 0;
  for (const segment of segments) bytes += Buffer.byteLength(segment);
  return { segments, bytes };
}

function slotTextOf(jobs: readonly JobText[]): SlotText {
  let bytes = 0;
  for (const job of jobs) bytes += job.bytes;
  return { jobs, bytes, writtenBytes: bytes - sharedItemsSaving(jobs.map((job) => job.segments)) };
}

/** A file's jobs (laid out by sub-slots or packed) as written: each repeated item once, then aliases (scrape-file-text.ts). */
function fileText(jobs: readonly Pick<JobText, 'segments'>[]): string {
  return sharedItemsText(jobs.map((job) => job.segments));
}

/**
 * One shard's files. Each job is serialised alone (with a memo: once for as long as its monitor does not change) and
 * each sub-slot's jobs gathered (with a memo: kept while they are the same job objects). Their plain size decides
 * whether they stay inline; the size of their files with repeated items shared (scrape-file-text.ts) decides the
 * number of files n, and file f is sub-slots f, f + n, f + 2n, ... one after the other. When every file fits (far
 * from capacity) that is the layout, since packScrapeJobs moves nothing then. Otherwise the number of files the
 * plain size calls for, which is at least n, and if a file is still over the limit packScrapeJobs decides on the
 * plain sizes (an upper bound of the written ones), given the same jobs in the same order, so both write the same
 * bytes where both apply.
 */
function renderShard(
  config: Record<string, unknown>,
  owners: readonly string[],
  homes: readonly number[],
  limits: Limits,
  { cache, hashKey }: FileCache,
  shard: number,
): { ok: true; config: string; scrapeFiles: ScrapeFile[] } | { ok: false; problem: FieldProblem } | { ok: 'oversized'; monitors: OversizedMonitor[] } {
  const key = `${hashKey}|${shard}`;
  const jobs = config.scrape_configs as Job[];
  const bySubSlot: Job[][] = Array.from({ length: limits.slots }, () => []);
  for (let index = 0; index < homes.length; index += 1) bySubSlot[homes[index]!]!.push(jobs[index]!);
  // With a memo each job keeps its text for as long as it is the same object, a sub-slot whose jobs are the very
  // objects of the previous call keeps its texts, a file whose sub-slots are the same objects keeps its jobs, and
  // those keep their file (the shared items' text and the name's HMAC included); without one, the texts measured for
  // the monitors' sizes are still kept for the files, for this call.
  // Each text is kept with its UTF-8 size: otherwise every change would measure every unchanged text (up to 1 MiB
  // each) again, work in proportion to the whole configuration rather than to the change.
  const jobText = (job: Job): JobText => cache.serialised(job, serialisedJob);
  const monitors = oversizedMonitors(jobs, owners, limits.maxFileBytes - Buffer.byteLength(SCRAPE_FILE_HEADER), jobText, 'scrape file');
  if (monitors.length > 0) return { ok: 'oversized', monitors };
  const subSlotTexts = bySubSlot.map((subSlotJobs, subSlot) => {
    if (subSlotJobs.length === 0) return EMPTY_SLOT;
    return cache.sequence(`text|${key}|${subSlot}`, subSlotJobs, () => slotTextOf(subSlotJobs.map(jobText)));
  });
  const jobsBytes = subSlotTexts.reduce((sum, slotText) => sum + slotText.bytes, 0);
  if (jobsBytes <= limits.inlineMaxBytes) return { ok: true, config: toPrometheusYaml(config), scrapeFiles: [] };

  const countFor = (bytes: number) => (limits.fileCounts ? fileCount(bytes, limits.fileCounts, limits.targetFileBytes ?? Infinity) : limits.slots);
  const writtenCount = countFor(subSlotTexts.reduce((sum, slotText) => sum + slotText.writtenBytes, 0));
  const plainCount = countFor(jobsBytes);
  // The capacity is measured plain (what all files hold written out), so it does not depend on how much the jobs
  // share; past it only packing runs, and says why they do not fit.
  const withinCapacity = jobsBytes <= limits.slots * (limits.maxFileBytes - Buffer.byteLength(SCRAPE_FILE_HEADER));
  let scrapeFiles = !withinCapacity ? undefined : filesByCount(writtenCount) ?? (plainCount !== writtenCount ? filesByCount(plainCount) : undefined);
  if (!scrapeFiles) {
    const fileJobs = jobsByFile(plainCount);
    const rendered: RenderedJob[] = fileJobs.flatMap((slotJobs, home) => slotJobs.map((job) => {
      const { segments, bytes } = jobText(job);
      return { home, name: jobName(job), segments, bytes };
    }));
    const packing = packScrapeJobs(rendered, { slots: plainCount, maxFileBytes: limits.maxFileBytes });
    if (!packing.ok) return { ok: false, problem: { path: 'spec', message: `${packing.reason}; select fewer monitors or spread them over several Prometheus objects` } };
    scrapeFiles = packing.slots.flatMap((slotJobs, slot) => (slotJobs.length === 0 ? [] : [
      scrapeFile(slot, fileText(slotJobs), slotJobs.map((job) => job.name), hashKey),
    ]));
  }

  /** Sub-slots f, f + files, f + 2 files, ... of `items`, for file f. */
  function gathered<T>(items: readonly T[], files: number, file: number): T[] {
    const parts: T[] = [];
    for (let subSlot = file; subSlot < items.length; subSlot += files) parts.push(items[subSlot]!);
    return parts;
  }

  /** Each file's jobs when there are `files` files. With every sub-slot a file of its own (the largest configurations), the sub-slots are the files. */
  function jobsByFile(files: number): Job[][] {
    return files === limits.slots ? bySubSlot : Array.from({ length: files }, (_, file) => gathered(bySubSlot, files, file).flat());
  }

  /**
   * The files when there are `files` of them, or undefined when one of them is over the limit, written or plain
   * (SCRAPE_FILE_MAX_PLAIN_BYTES: what Prometheus' YAML reader accepts of aliases).
   */
  function filesByCount(files: number): ScrapeFile[] | undefined {
    const fileJobs = jobsByFile(files);
    const slotTexts = files === limits.slots ? subSlotTexts : Array.from({ length: files }, (_, file): FileJobs => {
      const parts = gathered(subSlotTexts, files, file).filter((part) => part.bytes > 0);
      if (parts.length === 0) return EMPTY_SLOT;
      // Always a new object, even for one part: the file derived from a text object is named after its slot.
      const join = (): FileJobs => ({ jobs: parts.flatMap((part) => part.jobs), bytes: parts.reduce((sum, part) => sum + part.bytes, 0) });
      return cache.sequence(`file|${key}|${files}|${file}`, parts, join);
    });
    const file = (slotJobs: readonly Job[], slot: number) => scrapeFile(slot, fileText(slotTexts[slot]!.jobs), slotJobs.map(jobName), hashKey);
    const result: ScrapeFile[] = [];
    for (const [slot, slotJobs] of fileJobs.entries()) {
      if (slotJobs.length === 0) continue;
      if (slotTexts[slot]!.bytes > (limits.maxPlainFileBytes ?? Infinity)) return undefined;
      // A kept text was made for this slot and key (hashKey and shard), from these jobs: its file follows from it.
      const made = cache.derived(slotTexts[slot]!, () => file(slotJobs, slot));
      if (Buffer.byteLength(made.text) > limits.maxFileBytes) return undefined;
      result.push(made);
    }
    return result;
  }

  const main = withScrapeConfigFiles(config, scrapeFiles.map((file) => `${CONFIG_DIR}/${file.name}`), jobs.slice(homes.length));
  return { ok: true, config: toPrometheusYaml(main), scrapeFiles };
}

/**
 * The monitors whose jobs (adjacent in `jobs`, `owners[i]` the monitor of job i) take more than `maxBytes` of
 * plain YAML. Prometheus could load such a job, but it cannot reach Prometheus: all of a monitor's jobs are placed
 * in its home file, and no file holds more. Measured monitor by monitor and stopping at the job that passes the
 * limit, so a hostile monitor's thousands of jobs are never all serialised.
 */
function oversizedMonitors(
  jobs: readonly Job[], owners: readonly string[], maxBytes: number, jobText: (job: Job) => JobText, into: OversizedMonitor['into'],
): OversizedMonitor[] {
  const found: OversizedMonitor[] = [];
  let first = 0;
  while (first < owners.length) {
    const owner = owners[first]!;
    let end = first + 1;
    while (end < owners.length && owners[end] === owner) end += 1;
    let bytes = 0;
    for (let index = first; index < end; index += 1) {
      const jobBytes = jobText(jobs[index]!).bytes;
      bytes += jobBytes;
      if (bytes > maxBytes) {
        found.push({ owner, job: jobName(jobs[index]!), jobBytes, bytes, measured: index - first + 1, jobs: end - first, maxBytes, into });
        break;
      }
    }
    first = end;
  }
  return found;
}

function jobName(job: Job): string {
  return String(job.job_name);
}

/**
 * `config` with `scrape_config_files` where `scrape_configs` was (Prometheus' own key order) and only the
 * hand-written jobs left in `scrape_configs` (the key is dropped when there are none).
 */
function withScrapeConfigFiles(config: Record<string, unknown>, files: string[], handWritten: unknown[]): Record<string, unknown> {
  const main: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (key !== 'scrape_configs') {
      main[key] = value;
      continue;
    }
    main.scrape_config_files = files;
    if (handWritten.length > 0) main.scrape_configs = handWritten;
  }
  return main;
}

/** The one shard's config: the placeholders replaced for shard 0 everywhere but in the generated jobs, which have shard 0's values already. */
function singleShardConfig(config: Record<string, unknown>, generatedJobs: number, topology: TopologySharding | undefined): Record<string, unknown> {
  const single: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (key !== 'scrape_configs') single[key] = substituteShard(value, 0, 1, topology);
    else {
      const jobs = value as unknown[];
      single[key] = [...jobs.slice(0, generatedJobs), ...substituteShard(jobs.slice(generatedJobs), 0, 1, topology)];
    }
  }
  return single;
}
