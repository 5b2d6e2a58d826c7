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
import { toPrometheusYaml } from '../yaml-output.ts';
import {
  INLINE_SCRAPE_JOBS_MAX_BYTES, SCRAPE_FILE_MAX_BYTES, homeSlot, packScrapeJobs, scrapeFile, scrapeFileBytes, type RenderedJob, type ScrapeFileLimits,
} from './scrape-config-files.ts';
import { substituteShard } from './sharding.ts';
import type { RenderMemo } from '../render-memo.ts';

/** prometheus.yaml per shard and the scrape files each names (empty lists when inline). */
export interface ShardConfigs {
  configs: string[];
  scrapeFiles: ScrapeFile[][];
}

/** How the shards' files are laid out. */
export interface ShardLayoutOptions {
  /** Prometheus reads `scrape_config_files` (2.43+). */
  scrapeConfigFiles: boolean;
  /** The key of the scrape file names' HMAC (the Prometheus' uid). */
  hashKey: string;
  /** Test only: other limits than the real ones. */
  limits?: Limits;
  /** The YAML of jobs rendered by previous calls, kept (render-memo.ts). */
  memo?: RenderMemo;
}

/** The slots, the size of a file and the most generated jobs kept inline. */
type Limits = ScrapeFileLimits & { inlineMaxBytes: number };

/**
 * Renders every shard of `config`, whose `scrape_configs` starts with the generated jobs (`owners[i]` is the
 * monitor of job i) followed by the hand-written ones. With several shards `config` carries the `$(SHARD)`
 * placeholder, replaced per shard; with one shard the generated jobs were rendered for shard 0 already and are not
 * copied (for 10,000 monitors the copy would cost more than rendering them). A problem: the generated jobs do not
 * fit into the scrape files.
 */
export function renderShardConfigs(
  config: Record<string, unknown>,
  shards: number,
  owners: readonly string[],
  options: ShardLayoutOptions,
): { ok: true; value: ShardConfigs } | { ok: false; problem: FieldProblem } {
  const limits = options.limits ?? { slots: SCRAPE_FILE_SLOTS, maxFileBytes: SCRAPE_FILE_MAX_BYTES, inlineMaxBytes: INLINE_SCRAPE_JOBS_MAX_BYTES };
  const homes = options.scrapeConfigFiles ? homeSlots(owners, limits.slots, options.memo) : [];
  const result: ShardConfigs = { configs: [], scrapeFiles: [] };
  for (let shard = 0; shard < shards; shard += 1) {
    const shardConfig = shards > 1 ? substituteShard(config, shard) : singleShardConfig(config, owners.length);
    const rendered = options.scrapeConfigFiles
      ? renderShard(shardConfig, homes, limits, options.hashKey, options.memo && { memo: options.memo, key: `${options.hashKey}|${shard}` })
      : { ok: true as const, config: toPrometheusYaml(shardConfig), scrapeFiles: [] };
    if (!rendered.ok) return rendered;
    result.configs.push(rendered.config);
    result.scrapeFiles.push(rendered.scrapeFiles);
  }
  return { ok: true, value: result };
}

/** The home slot of each generated job, hashing each monitor once (its jobs are adjacent). */
function homeSlots(owners: readonly string[], slots: number, memo: RenderMemo | undefined): number[] {
  const homes: number[] = new Array<number>(owners.length);
  const home = memo ? memo.homeSlots(slots, homeSlot) : (owner: string) => homeSlot(owner, slots);
  for (let index = 0; index < owners.length; index += 1) {
    const owner = owners[index]!;
    homes[index] = index > 0 && owners[index - 1] === owner ? homes[index - 1]! : home(owner);
  }
  return homes;
}

type Job = Record<string, unknown>;

/** A slot's jobs serialised, with the text's UTF-8 size. */
interface SlotText {
  text: string;
  bytes: number;
}

const EMPTY_SLOT: SlotText = { text: '', bytes: 0 };

/**
 * One shard's files. Fast path: each slot's jobs serialised together; when every slot fits (the rule far from
 * capacity) that is the packing, since packScrapeJobs moves nothing then. Otherwise each job is serialised alone
 * and packScrapeJobs decides. A sequence serialises as its items one after the other, so both paths write the
 * same bytes.
 */
function renderShard(config: Record<string, unknown>, homes: readonly number[], limits: Limits, hashKey: string, kept: { memo: RenderMemo; key: string } | undefined):
  { ok: true; config: string; scrapeFiles: ScrapeFile[] } | { ok: false; problem: FieldProblem } {
  const jobs = config.scrape_configs as Job[];
  // Each slot's jobs, in order: the parts of its text, compared by identity with the previous call's (kept).
  const bySlot: Job[][] = Array.from({ length: limits.slots }, () => []);
  for (let index = 0; index < homes.length; index += 1) bySlot[homes[index]!]!.push(jobs[index]!);
  // With a memo (`kept`) a slot whose jobs are the very objects of the previous call keeps its text, and the text
  // kept keeps its file (the name's HMAC of up to 1 MiB included); otherwise each job is serialised alone, once for
  // as long as its monitor does not change (a sequence is its items' texts one after the other). Without, each
  // slot at once, which is faster for a single call.
  const memo = kept?.memo;
  const jobText = (job: Job) => (memo ? memo.yaml(job, (value) => toPrometheusYaml([value])) : toPrometheusYaml([job]));
  // Each text with its UTF-8 size, kept together: measuring 64 unchanged texts of up to 1 MiB again on every change
  // cost 19 ms at 10,000 monitors.
  const measured = (text: string): SlotText => ({ text, bytes: Buffer.byteLength(text) });
  const slotTexts = bySlot.map((slotJobs, slot) => {
    if (slotJobs.length === 0) return EMPTY_SLOT;
    if (!kept) return measured(toPrometheusYaml(slotJobs));
    return kept.memo.sequence(`text|${kept.key}|${slot}`, slotJobs, () => measured(slotJobs.map(jobText).join('')));
  });
  if (slotTexts.reduce((sum, slotText) => sum + slotText.bytes, 0) <= limits.inlineMaxBytes) return { ok: true, config: toPrometheusYaml(config), scrapeFiles: [] };

  let scrapeFiles: ScrapeFile[];
  if (slotTexts.every((slotText) => scrapeFileBytes(slotText.bytes) <= limits.maxFileBytes)) {
    const file = (slotJobs: readonly Job[], slot: number) => scrapeFile(slot, slotTexts[slot]!.text, slotJobs.map(jobName), hashKey);
    // A kept text was made for this slot and key (hashKey and shard), from these jobs: its file follows from it.
    scrapeFiles = bySlot.flatMap((slotJobs, slot) => {
      if (slotJobs.length === 0) return [];
      return [kept ? kept.memo.derived(slotTexts[slot]!, () => file(slotJobs, slot)) : file(slotJobs, slot)];
    });
  } else {
    const rendered: RenderedJob[] = homes.map((home, index) => {
      const text = jobText(jobs[index]!);
      return { home, name: jobName(jobs[index]!), text, bytes: Buffer.byteLength(text) };
    });
    const packing = packScrapeJobs(rendered, limits);
    if (!packing.ok) return { ok: false, problem: { path: 'spec', message: `${packing.reason}; select fewer monitors or spread them over several Prometheus objects` } };
    scrapeFiles = packing.slots.flatMap((slotJobs, slot) => (slotJobs.length === 0 ? [] : [
      scrapeFile(slot, slotJobs.map((job) => job.text).join(''), slotJobs.map((job) => job.name), hashKey),
    ]));
  }
  const main = withScrapeConfigFiles(config, scrapeFiles.map((file) => `${CONFIG_DIR}/${file.name}`), jobs.slice(homes.length));
  return { ok: true, config: toPrometheusYaml(main), scrapeFiles };
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

/** The one shard's config: `$(SHARD)` replaced by 0 everywhere but in the generated jobs, which have 0 already. */
function singleShardConfig(config: Record<string, unknown>, generatedJobs: number): Record<string, unknown> {
  const single: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (key !== 'scrape_configs') single[key] = substituteShard(value, 0);
    else {
      const jobs = value as unknown[];
      single[key] = [...jobs.slice(0, generatedJobs), ...substituteShard(jobs.slice(generatedJobs), 0)];
    }
  }
  return single;
}
