/**
 * How the reconciler makes a Prometheus shard load what was just written. The reconciler applies the config
 * Secrets, rule ConfigMaps and TLS assets, then calls `reload(prometheus, shard, expected, context)` for every
 * shard on every reconcile: level-based, like the rest of the reconcile. The call does not wait for the pods: it
 * says how the shard stands with `expected` (loaded, reloading, failed) and leaves the work to the
 * implementation (reload/shard-reloader.ts), which runs it beside the work queue and calls `context.onRoundEnd`
 * when it has news, so the reconciler requeues the key and the status catches up. It remembers which pod was
 * verified to run which files, so a shard whose pods already run `expected` costs no request to Prometheus; a pod
 * that is new, restarted, became Ready, got a new IP, or failed before is reloaded and verified. Everything
 * Prometheus-specific lives behind this seam: finding the shard's pods, nudging the kubelet, POST `/-/reload`,
 * verifying what was loaded. The reconciler never talks HTTP.
 */
import type { PrometheusStatus } from '@promop/crds';
import type { PrometheusWorkload } from '../workload/index.ts';
import type { Logger } from 'pino';
import type { ExpectedRuleFiles } from '../prometheus-client/index.ts';
import type { PodTls } from '../prometheus-client/pod-tls.ts';

/** What every pod of one shard must run: the files promop wrote for it. */
export interface ExpectedShardFiles {
  /** The shard's prometheus.yaml, as written to its config Secret (the generator's `configs[shard]`). */
  configText: string;
  /** Every rule file of the Prometheus, by the path Prometheus reads it from (all shards load all rule files). */
  ruleFiles: ExpectedRuleFiles;
  /**
   * The jobs of the scrape files `configText` names in `scrape_config_files`, undefined when the jobs are inline.
   * Prometheus' loaded config shows the list of files but not their jobs, so each of these must be reported loaded
   * too (a listed file not yet on disk is skipped by Prometheus without an error).
   */
  scrapeFileJobs?: readonly string[];
  /**
   * Short keyed hash of config, rule files and TLS assets (expected-shard-files.ts): the pods' config-hash
   * annotation and `status.configStatus[].configHash`.
   */
  hash: string;
  /** How to call the pods when they serve HTTPS (reconcile/pod-tls-of.ts); undefined: plain HTTP. */
  tls?: PodTls;
}

/** What the reconcile knows besides the files. */
export interface ReloadContext {
  /** When this reconcile wrote changed files for the shard; undefined when it wrote nothing (for the timing metrics). */
  writtenAt?: Date;
  /** The reconcile's logger (carries the Prometheus). */
  log: Logger;
  /** Called when the work started by this call (or a later one for the same files) has news: requeue the key. */
  onRoundEnd?: () => void;
}

/**
 * The reason of a ready replica being reloaded now: in its `pendingReplicas` entry, and of Reconciled=Unknown
 * meanwhile.
 */
export const RELOADING_REASON = 'Reloading';

/** One shard's entry of `status.configStatus`. */
export type ShardConfigStatus = NonNullable<PrometheusStatus['configStatus']>[number];

/**
 * How a shard stands with the files just written, and its replicas as status reports them. `loaded`: every ready
 * replica runs them. `reloading`: promop is reloading some ready replica and has not seen it fail. `failed`: some
 * ready replica could not be made to run the files (refused, unreachable, rejected, stale): Reconciled=False with
 * reason ReloadFailed and `message`; the reloader tries again with a backoff of its own. Replicas that are not
 * ready are pending but neither reloading nor failed: they read the current files when they start.
 */
export type ReloadResult =
  | { state: 'loaded' | 'reloading'; status: ShardConfigStatus }
  | { state: 'failed'; message: string; status: ShardConfigStatus };

/** Makes a Prometheus shard run the files promop wrote. Must not throw for an unreachable Prometheus. */
export interface ConfigReloader {
  /** Returns without waiting for the pods (see above). */
  reload(prometheus: PrometheusWorkload, shard: number, expected: ExpectedShardFiles, context: ReloadContext): Promise<ReloadResult>;
  /** The Prometheus `namespace/name` is gone: drop what was remembered about its pods. */
  forget(key: string): void;
}
