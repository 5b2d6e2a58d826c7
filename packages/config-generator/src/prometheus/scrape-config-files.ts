/**
 * Spreading generated scrape jobs over the files prometheus.yaml names in `scrape_config_files` (Prometheus 2.43+),
 * so a configuration of any size fits into Secrets of at most 1 MiB without a reloader sidecar to gunzip it.
 *
 * **Stable assignment.** Every monitor has a home among SCRAPE_FILE_SLOTS sub-slots, a hash of its kind, namespace
 * and name modulo their number; all its jobs go there. A configuration uses as many files as its size calls for
 * (fileCount: 4, 16, 64 or 256, each dividing the next, so file `f` of `n` gathers the sub-slots `f`, `f + n`,
 * `f + 2n`, ...): small configurations keep a few files, large ones many small ones, and a change to one monitor
 * changes one file and leaves the others byte-identical (and their Secrets untouched). When the size crosses from
 * one count to the next, every file is rewritten once. A slot whose own jobs exceed SCRAPE_FILE_MAX_BYTES keeps the
 * longest prefix that fits and passes the rest on to the next slot's free room, and so on, wrapping around once;
 * that only happens when the whole configuration nears the capacity, and then a change may touch two files.
 *
 * **Content-addressed names.** A file is named after its slot and a hash of its text, and prometheus.yaml lists the
 * names (no glob). So prometheus.yaml changes whenever any file does, Prometheus can never load a stale version of
 * a file (the stale one has another name), and never two files with the same job (only the listed versions are
 * read). What remains is a listed file not yet on disk, whose jobs are then missing: the reload verification
 * checks that every expected job is loaded. The hash is an HMAC keyed with the Prometheus' uid, because the names
 * are shown on Prometheus' configuration page to anyone who can reach it, while the files hold basic-auth
 * passwords inline: a plain hash would let a reader test password guesses offline.
 *
 * **Shared items.** A file's text writes each repeated relabeling (or other list item) once and aliases it after that
 * (scrape-file-text.ts); sizes here are the plain text's, an upper bound of the written one.
 */
import { createHash, createHmac } from 'node:crypto';
import type { ScrapeFile } from '../model.ts';
import { scrapeFileName } from '../pod-layout.ts';

/** The first Prometheus version that reads `scrape_config_files`. */
export const SCRAPE_CONFIG_FILES_SINCE = '2.43.0';

/**
 * Generated jobs up to this many bytes stay inline in prometheus.yaml: small configurations look exactly like
 * prometheus-operator's, and Prometheus' configuration page keeps showing every job (it shows only the main file).
 * Above it (about 55 two-endpoint ServiceMonitors) rewriting the whole file on every change stops being cheap, so
 * the jobs move to scrape files, where a change rewrites one file.
 */
export const INLINE_SCRAPE_JOBS_MAX_BYTES = 256 * 1024;

/**
 * The numbers of scrape files a configuration may be spread over, smallest first; each divides the next and the
 * last is SCRAPE_FILE_SLOTS. The smallest whose files average at most SCRAPE_FILE_TARGET_BYTES is used.
 */
export const SCRAPE_FILE_COUNTS: readonly number[] = [4, 16, 64, 256];

/**
 * The size a scrape file is aimed at. A change rewrites one file, and its cost (the write, the API server storing
 * it, every watcher receiving it, the kubelet updating the volume) grows with the file, and so does the time from
 * the ServiceMonitor's update to the new file in the Secret (P2, docs/performance.md). Smaller files mean more
 * Secrets, so the count grows in steps with the configuration.
 */
export const SCRAPE_FILE_TARGET_BYTES = 128 * 1024;

/**
 * The most bytes one scrape file holds. A Secret holds 1 MiB of data; 900 KiB leaves room for a file to grow by a
 * few monitors before its jobs spill into the next slot.
 */
export const SCRAPE_FILE_MAX_BYTES = 900 * 1024;

/**
 * The most plain bytes (repeated items written out) one scrape file may stand for. Prometheus reads a file with
 * gopkg.in/yaml.v2, which refuses a document whose nodes come mostly from aliases once it is large: up to 400,000
 * decoded nodes 99 % may, beyond that the share allowed falls. A plain byte is at least a ninth of a decoded node
 * (Prometheus' own decoders read some nodes twice), so 3 MiB stays under 400,000 whatever the file shares.
 */
export const SCRAPE_FILE_MAX_PLAIN_BYTES = 3 * 1024 * 1024;

/** The line every scrape file starts with; the jobs follow as a YAML sequence. */
export const SCRAPE_FILE_HEADER = 'scrape_configs:\n';

const HEADER_BYTES = Buffer.byteLength(SCRAPE_FILE_HEADER);

/**
 * The most plain YAML one monitor's jobs may take: what one scrape file holds besides its header. All of a
 * monitor's jobs go into its home file, so a monitor over it could only be written by pushing others' jobs out.
 */
export const MONITOR_JOBS_MAX_BYTES = SCRAPE_FILE_MAX_BYTES - HEADER_BYTES;

/** Hex characters of the content hash in a file name: 64 bits, plenty to tell one version of a file from the next. */
const NAME_HASH_CHARS = 16;

/** One generated job, serialised alone as a sequence item (`- job_name: ...`). */
export interface RenderedJob {
  /** The home slot of its monitor (homeSlot). */
  home: number;
  name: string;
  /** Its text, cut by jobSegments (yaml-output.ts) so a file can share repeated items. */
  segments: readonly string[];
  /** UTF-8 bytes of its plain text (the segments joined), at least what it takes in a file. */
  bytes: number;
}

/** How many slots there are and how much each file may hold (parameters so tests can use small ones). */
export interface ScrapeFileLimits {
  slots: number;
  maxFileBytes: number;
}

/** The jobs of each slot in file order, or why they do not fit. */
export type ScrapeJobPacking =
  | { ok: true; slots: RenderedJob[][] }
  | { ok: false; reason: string };

/**
 * How many files `jobsBytes` of generated jobs are spread over: the first of `counts` whose files average at most
 * `targetBytes`, or the last.
 */
export function fileCount(jobsBytes: number, counts: readonly number[], targetBytes: number): number {
  return counts.find((count) => jobsBytes <= count * targetBytes) ?? counts[counts.length - 1]!;
}

/** The home slot of a monitor (`owner` is `<kind>/<namespace>/<name>`): the first four bytes of sha256(`owner`) modulo `slots`. */
export function homeSlot(owner: string, slots: number): number {
  return createHash('sha256').update(owner).digest().readUInt32BE(0) % slots;
}

/**
 * Puts every job into a slot, keeping each slot's file (header included) within `limits.maxFileBytes`: first each
 * slot's own jobs (the longest prefix that fits), then what earlier slots passed on, in order; what is left after
 * the last slot goes, job by job, into the first slot with room. Deterministic: only the order of `jobs` and
 * their home slots decide.
 */
export function packScrapeJobs(jobs: readonly RenderedJob[], limits: ScrapeFileLimits): ScrapeJobPacking {
  const room = limits.maxFileBytes - HEADER_BYTES;
  const tooLarge = jobs.find((job) => job.bytes > room);
  if (tooLarge) return { ok: false, reason: `job ${tooLarge.name} alone is ${kib(tooLarge.bytes)}, more than a scrape file holds (${kib(room)})` };

  const own: RenderedJob[][] = Array.from({ length: limits.slots }, () => []);
  for (const job of jobs) own[job.home]!.push(job);
  const slots: RenderedJob[][] = Array.from({ length: limits.slots }, () => []);
  const used: number[] = new Array<number>(limits.slots).fill(0);
  const fill = (slot: number, candidates: readonly RenderedJob[]): RenderedJob[] => {
    let taken = 0;
    while (taken < candidates.length && used[slot]! + candidates[taken]!.bytes <= room) {
      used[slot]! += candidates[taken]!.bytes;
      slots[slot]!.push(candidates[taken]!);
      taken += 1;
    }
    return candidates.slice(taken);
  };

  let passedOn: RenderedJob[] = [];
  for (let slot = 0; slot < limits.slots; slot += 1) {
    const ownLeft = fill(slot, own[slot]!);
    passedOn = [...fill(slot, passedOn), ...ownLeft];
  }
  for (const job of passedOn) {
    const slot = used.findIndex((bytes) => bytes + job.bytes <= room);
    if (slot < 0) {
      const total = jobs.reduce((sum, each) => sum + each.bytes, 0);
      return { ok: false, reason: `the ${jobs.length} generated scrape jobs are ${mib(total)}, more than the ${limits.slots} scrape files of ${kib(limits.maxFileBytes)} promop mounts hold` };
    }
    used[slot]! += job.bytes;
    slots[slot]!.push(job);
  }
  return { ok: true, slots };
}

/** The scrape file of `slot` holding `jobsText` (the jobs as a YAML sequence), named by an HMAC of its text keyed with `hashKey`. */
export function scrapeFile(slot: number, jobsText: string, jobNames: string[], hashKey: string): ScrapeFile {
  const text = SCRAPE_FILE_HEADER + jobsText;
  const hash = createHmac('sha256', hashKey).update(text).digest('hex').slice(0, NAME_HASH_CHARS);
  return { slot, name: scrapeFileName(slot, hash), text, jobNames };
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function mib(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MiB`;
}
