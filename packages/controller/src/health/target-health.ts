/**
 * Per monitor object, how its scrape targets fare in one Prometheus: from GET /api/v1/targets?state=active of one
 * replica per shard (each shard scrapes its own share of the targets, so the counts add up), the active, up, down
 * and not-yet-scraped targets and the most frequent scrape error among the down ones, redacted (redact-error.ts).
 * Pure: the health reporter (health-reporter.ts) reads the endpoints and writes what this computes.
 *
 * An object whose targets were all discovered but none scraped yet (a Prometheus just started, or just loaded it)
 * gets no summary: nothing is known of it, and the reporter writes nothing for it, so its binding keeps what it said
 * (a restart costs no write, and the first write is the answer).
 *
 * A scrape pool is the job name the generator gave the object (`scrape/*.ts` of @promop/config-generator):
 * `serviceMonitor/<namespace>/<name>/<endpoint>`, `podMonitor/<namespace>/<name>/<endpoint>`,
 * `probe/<namespace>/<name>`, `scrapeConfig/<namespace>/<name>`. Namespaces and names cannot hold `/`, so the pool
 * names its object exactly; a pool of another form (the platform's `additionalScrapeConfigs`) belongs to no object.
 */
import type { ScrapeKind } from '@promop/crds';
import { ErrorTally } from './error-tally.ts';

/** One active target as GET /api/v1/targets reports it (the fields read). */
export interface ActiveTarget {
  scrapePool: string;
  /** `up`, `down` or `unknown` (not scraped yet). */
  health: string;
  lastError?: string;
}

/** The `data` of GET /api/v1/targets (the fields read). */
export interface TargetsAnswer {
  activeTargets: readonly ActiveTarget[];
}

/** The condition reason of a monitor's Healthy condition. */
export type TargetsReason = 'TargetsUp' | 'TargetsDown' | 'NoTargets';

/** The targets of one monitor object in one Prometheus. */
export interface TargetsSummary {
  active: number;
  up: number;
  down: number;
  unknown: number;
  /** The most frequent kind of error among the down targets (errorKind), as one redacted example. */
  lastError?: string;
  /** How many down targets have an error of that kind. */
  lastErrorCount?: number;
}

/** The form of each kind's job names (see the file comment). */
const JOB_NAMES: Record<ScrapeKind, { prefix: string; endpointIndex: boolean }> = {
  ServiceMonitor: { prefix: 'serviceMonitor', endpointIndex: true },
  PodMonitor: { prefix: 'podMonitor', endpointIndex: true },
  Probe: { prefix: 'probe', endpointIndex: false },
  ScrapeConfig: { prefix: 'scrapeConfig', endpointIndex: false },
};

/** The scrape pool (job name) the generator gives endpoint `endpoint` of an object (Probe, ScrapeConfig: their one). */
export function scrapePoolOf(kind: ScrapeKind, namespace: string, name: string, endpoint = 0): string {
  const { prefix, endpointIndex } = JOB_NAMES[kind];
  return endpointIndex ? `${prefix}/${namespace}/${name}/${endpoint}` : `${prefix}/${namespace}/${name}`;
}

/** A monitor object: `<kind>/<namespace>/<name>`. */
export function monitorKey(kind: ScrapeKind, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** The monitor object whose job `scrapePool` is, as monitorKey; undefined for a pool of no object. */
export function monitorOfScrapePool(scrapePool: string): string | undefined {
  const parts = scrapePool.split('/');
  for (const [kind, { prefix, endpointIndex }] of Object.entries(JOB_NAMES) as [ScrapeKind, (typeof JOB_NAMES)[ScrapeKind]][]) {
    if (parts[0] !== prefix) continue;
    if (parts.length !== (endpointIndex ? 4 : 3)) return undefined;
    const [, namespace, name, index] = parts;
    if (!namespace || !name || (endpointIndex && !/^\d+$/.test(index ?? ''))) return undefined;
    return monitorKey(kind, namespace, name);
  }
  return undefined;
}

/** Mutable tallies of one object while the answers are read. */
interface Tally {
  active: number;
  up: number;
  down: number;
  unknown: number;
  /** The down targets' errors. */
  errors: ErrorTally;
}

/** What one Prometheus says of the targets of its monitor objects, by object key (monitorKey). */
export interface TargetsReport {
  /** The objects at least one of whose targets was scraped. */
  summaries: Map<string, TargetsSummary>;
  /** The objects with active targets none of which was scraped yet: nothing is known of them (file comment). */
  notScrapedYet: Set<string>;
}

/**
 * The targets of every monitor object that has at least one, summed over `answers` (one per shard); objects in
 * neither part of the result have no active target in this Prometheus.
 */
export function summariseTargets(answers: readonly TargetsAnswer[]): TargetsReport {
  const tallies = new Map<string, Tally>();
  for (const answer of answers) {
    for (const target of answer.activeTargets) {
      const key = monitorOfScrapePool(target.scrapePool);
      if (key === undefined) continue;
      let tally = tallies.get(key);
      if (!tally) tallies.set(key, (tally = { active: 0, up: 0, down: 0, unknown: 0, errors: new ErrorTally() }));
      tally.active += 1;
      if (target.health === 'up') tally.up += 1;
      else if (target.health === 'down') {
        tally.down += 1;
        tally.errors.add(target.lastError);
      } else tally.unknown += 1;
    }
  }
  const summaries = new Map<string, TargetsSummary>();
  const notScrapedYet = new Set<string>();
  for (const [key, { errors, ...counts }] of tallies) {
    if (counts.up === 0 && counts.down === 0) {
      notScrapedYet.add(key);
      continue;
    }
    const top = errors.mostFrequent();
    summaries.set(key, top ? { ...counts, lastError: top.example, lastErrorCount: top.count } : counts);
  }
  return { summaries, notScrapedYet };
}

/** A monitor with no active target in this Prometheus (none discovered, or all dropped by relabelling). */
export const NO_TARGETS: TargetsSummary = { active: 0, up: 0, down: 0, unknown: 0 };

/**
 * What `report` says of monitor `key`: its summary, NO_TARGETS when it has no active target, undefined when nothing
 * is known of it yet (see the file comment).
 */
export function targetsOf(report: TargetsReport, key: string): TargetsSummary | undefined {
  return report.notScrapedYet.has(key) ? undefined : report.summaries.get(key) ?? NO_TARGETS;
}

/** How the message of a NoTargets condition starts; the reason promop found (no-targets-reason.ts) follows it. */
const NO_TARGETS_MESSAGE = 'no active target: ';
/** The reason of a NoTargets condition when promop found none more precise. */
const NO_TARGETS_GENERAL_REASON = 'service discovery found none, or relabelling dropped them all';

/**
 * The Healthy condition of a monitor with `summary` (one summariseTargets made, or NO_TARGETS): its status, reason
 * and a one-line message; without targets, the message says `noTargetsReason` (no-targets-reason.ts) when promop
 * found one.
 */
export function targetsCondition(summary: TargetsSummary, noTargetsReason?: string): { status: 'True' | 'False'; reason: TargetsReason; message: string } {
  const { active, up, down, unknown } = summary;
  if (active === 0) return { status: 'False', reason: 'NoTargets', message: `${NO_TARGETS_MESSAGE}${noTargetsReason ?? NO_TARGETS_GENERAL_REASON}` };
  const waiting = unknown > 0 ? `, ${unknown} not scraped yet` : '';
  if (down === 0) return { status: 'True', reason: 'TargetsUp', message: `${up}/${active} up${waiting}` };
  const error = summary.lastError ? `; ${summary.lastErrorCount ?? 1} with: ${summary.lastError}` : '';
  return { status: 'False', reason: 'TargetsDown', message: `${down === active ? 'all' : `${down} of`} ${active} down (${up}/${active} up${waiting})${error}` };
}

/** The reason promop found that a NoTargets condition's `message` (targetsCondition) carries; undefined for none. */
export function noTargetsReasonOf(message: string | undefined): string | undefined {
  if (!message?.startsWith(NO_TARGETS_MESSAGE)) return undefined;
  const reason = message.slice(NO_TARGETS_MESSAGE.length);
  return reason === NO_TARGETS_GENERAL_REASON ? undefined : reason;
}
