/**
 * Make one Prometheus load the config promop wrote, and prove it did.
 *
 * promop has no reloader sidecar: it writes the config Secret and rule ConfigMaps, the kubelet copies them into
 * the pod's volumes some time later (its sync period, a minute by default, plus cache TTLs), and nothing tells
 * promop when. So it polls: POST /-/reload (Prometheus re-reads whatever is on disk now), then compare what
 * Prometheus reports as loaded with what promop expects (loaded-config-comparison.ts, rule-groups-comparison.ts).
 *
 * When the jobs live in scrape files, the loaded config shows prometheus.yaml only: the list of files, each named
 * by a hash of its content. Equal lists prove Prometheus was told to read exactly the expected version of every
 * file (a stale version has another name and is not listed); what they cannot prove is that each listed file was
 * on disk, because Prometheus skips a missing one silently. So every job of the scrape files must also be among
 * the loaded jobs (loaded-scrape-jobs.ts). Together: the expected jobs, with the expected content, and no others.
 * Equal → verified. Different → the kubelet has not caught up yet: wait (exponential backoff) and try again,
 * until the deadline → stale. Every attempt is bounded by the client's timeouts and the number of attempts by
 * the deadline, so this always returns.
 */
import { compareLoadedConfig } from './loaded-config-comparison.ts';
import type { PrometheusClient, PrometheusError } from './prometheus-client.ts';
import { compareLoadedRules, type ExpectedRuleFiles } from './rule-groups-comparison.ts';

/** What happened, for the controller's status, events and `promop_reload_total{outcome}`. */
export type ReloadOutcome =
  /**
   * Prometheus runs exactly the expected config (and rule files, when given). `verifyMs` is the successful attempt
   * alone (POST /-/reload and reading back what was loaded); `elapsedMs - verifyMs` is the time spent waiting for
   * the files to reach the pod (the kubelet), as seen from here.
   */
  | { outcome: 'verified'; attempts: number; elapsedMs: number; verifyMs: number; lastConfigTime?: string }
  /** Reloads succeed but Prometheus still runs something else at the deadline: most likely the kubelet has not updated the files yet. Retry later. */
  | { outcome: 'stale'; attempts: number; elapsedMs: number; difference: string }
  /** Prometheus refused the files on disk (and keeps running the previous config): `reason` is its answer. */
  | { outcome: 'rejected'; attempts: number; elapsedMs: number; reason: string }
  /** No connection, or no answer in time. */
  | { outcome: 'unreachable'; attempts: number; elapsedMs: number; reason: string }
  /** The URL is outside the allowed networks; nothing was sent. A promop bug or misconfiguration. */
  | { outcome: 'refused'; attempts: number; elapsedMs: number; reason: string }
  /** Any other answer, e.g. 403 when `--web.enable-lifecycle` is missing. */
  | { outcome: 'failed'; attempts: number; elapsedMs: number; reason: string };

/** The possible `outcome` values. */
export type ReloadOutcomeKind = ReloadOutcome['outcome'];

// An outcome before the attempt count and elapsed time are added (Omit distributed over the union).
type OutcomeWithoutCounts = ReloadOutcome extends infer O ? (O extends ReloadOutcome ? Omit<O, 'attempts' | 'elapsedMs'> : never) : never;

/** What to reload and verify. */
export interface ReloadAndVerifyOptions {
  client: PrometheusClient;
  /** The config file text promop wrote (the generator's output for this shard). */
  expectedConfigText: string;
  /** The complete set of rule files, by the path Prometheus sees; omitted: rules are not verified. */
  expectedRuleFiles?: ExpectedRuleFiles;
  /** The jobs of the scrape files the config names; omitted when the jobs are inline (the config shows them). */
  expectedScrapeFileJobs?: readonly string[];
  /** Give up (stale) after this long. Allow for the kubelet's sync period: about 90 s in a cluster. */
  timeoutMs: number;
  /** First wait between attempts; doubles up to maxDelayMs. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Aborted when newer files were written for the pod: no attempt starts after that (the one in flight ends), and
   * the outcome is stale. The caller drops it.
   */
  signal?: AbortSignal;
}

/** One attempt's answer: how the reload ended, or what the pod still runs differently (try again). */
export type AttemptResult = OutcomeWithoutCounts | { outcome: 'pending'; difference: string };

/**
 * Runs `attempt` (one reload and check; `attemptStarted` is when it began, for `verifyMs`) until it ends or
 * `timeoutMs` passes (stale, with the last difference), waiting between attempts with a backoff that doubles
 * from `initialDelayMs` to `maxDelayMs`: the kubelet has not written the new files yet, or promop wrote newer ones
 * since. Both programs' reloads poll this way.
 */
export async function reloadUntilLoaded(
  options: Pick<ReloadAndVerifyOptions, 'timeoutMs' | 'initialDelayMs' | 'maxDelayMs' | 'signal'>,
  attempt: (attemptStarted: number) => Promise<AttemptResult>,
): Promise<ReloadOutcome> {
  const started = Date.now();
  const deadline = started + options.timeoutMs;
  let delay = options.initialDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 5_000;
  let attempts = 0;
  const end = (result: OutcomeWithoutCounts): ReloadOutcome => ({ ...result, attempts, elapsedMs: Date.now() - started }) as ReloadOutcome;
  const { signal } = options;
  for (;;) {
    attempts += 1;
    const result = await attempt(Date.now());
    if (result.outcome !== 'pending') return end(result);
    const superseded = () => end({ outcome: 'stale', difference: `superseded by newer files (${result.difference})` });
    if (signal?.aborted) return superseded();
    if (Date.now() + delay >= deadline) return end({ outcome: 'stale', difference: result.difference });
    await abortableDelay(delay, signal);
    if (signal?.aborted) return superseded();
    delay = Math.min(delay * 2, maxDelay);
  }
}

/** Resolves after `ms`, or as soon as `signal` is aborted. */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Reloads `client`'s Prometheus until it runs the expected files or `timeoutMs` passes. Never throws for Prometheus' answers. */
export async function reloadAndVerify(options: ReloadAndVerifyOptions): Promise<ReloadOutcome> {
  const { client, expectedConfigText, expectedRuleFiles, expectedScrapeFileJobs } = options;
  return reloadUntilLoaded(options, async (attemptStarted) => {
    const reload = await client.reload();
    if (!reload.ok) {
      if (reload.error.kind === 'http' && reload.error.status === 500) return rejection(client, reload.error.body);
      return errorOutcome(reload.error);
    }
    // Superseded during the reload: what it loaded cannot be the newest files, so reading it back is wasted work
    // for a Prometheus that is about to reload again.
    if (options.signal?.aborted) return { outcome: 'pending', difference: 'newer files were written during the reload' };
    const runtime = await client.runtimeInfo();
    if (!runtime.ok) return errorOutcome(runtime.error);
    const loaded = await client.loadedConfig();
    if (!loaded.ok) return errorOutcome(loaded.error);
    const config = compareLoadedConfig(expectedConfigText, loaded.value);
    if (!config.equal) {
      return { outcome: 'pending', difference: `the loaded config differs at ${config.path || '(root)'}: expected ${config.expected}, loaded ${config.loaded}` };
    }
    if (expectedScrapeFileJobs !== undefined) {
      const jobs = await client.loadedScrapeJobs();
      if (!jobs.ok) return errorOutcome(jobs.error);
      const missing = expectedScrapeFileJobs.filter((job) => !jobs.value.has(job));
      if (missing.length > 0) {
        return { outcome: 'pending', difference: `${missing.length} of the ${expectedScrapeFileJobs.length} jobs of the scrape files are not loaded, e.g. ${missing[0]}: a scrape file the config names was not on disk` };
      }
    }
    if (expectedRuleFiles !== undefined) {
      const groups = await client.ruleGroups();
      if (!groups.ok) return errorOutcome(groups.error);
      const rules = compareLoadedRules(expectedRuleFiles, groups.value);
      if (!rules.equal) return { outcome: 'pending', difference: `the loaded rules differ: ${rules.reason}` };
    }
    return { outcome: 'verified', verifyMs: Date.now() - attemptStarted, lastConfigTime: runtime.value.lastConfigTime };
  });
}

/**
 * A 500 from /-/reload: Prometheus refused the files. Confirmed through runtimeinfo (reloadConfigSuccess false),
 * so that an unrelated server error is not reported as a bad config.
 */
async function rejection(client: PrometheusClient, body: string): Promise<{ outcome: 'rejected' | 'failed'; reason: string }> {
  const reason = body === '' ? 'Prometheus refused the configuration without a reason' : body;
  const runtime = await client.runtimeInfo();
  if (runtime.ok && runtime.value.reloadConfigSuccess) return { outcome: 'failed', reason: `reload answered 500 but Prometheus reports success: ${reason}` };
  return { outcome: 'rejected', reason };
}

/** The outcome of a call that failed with `error` (both programs' clients). */
export function errorOutcome(error: PrometheusError): { outcome: 'unreachable' | 'refused' | 'failed'; reason: string } {
  switch (error.kind) {
    case 'network': return { outcome: 'unreachable', reason: error.message };
    case 'refused': return { outcome: 'refused', reason: error.message };
    default: return { outcome: 'failed', reason: error.message };
  }
}
