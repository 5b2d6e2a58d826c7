/**
 * promop's own metrics (what an operator of promop alerts on; docs/operations.md has the table and the
 * prometheus-operator equivalents): reconciles and their latency, the work queue (as client-go's `workqueue_*`),
 * the list and watch requests of the caches, the monitors and rules each Prometheus selected or rejected, the size
 * of each shard's configuration, how reloads of Prometheus end and how long a change takes to be loaded,
 * readiness and leadership.
 *
 * Every metric here is recorded by the running operator (`promop run`); a metric nothing records would be a lie.
 * Every label value known up front is initialised to zero, so a rate() or an alert on
 * `promop_reload_total{outcome="rejected"}` works before the first rejection (a series that appears only on its
 * first increment hides that increment from rate()). Per-Prometheus series appear at its first reconcile and go
 * with it (forgetPrometheus).
 */
import type { GeneratorOutput } from '@promop/config-generator';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ReloadOutcomeKind } from '../prometheus-client/reload-and-verify.ts';
import { CacheRequestRecorder, WorkQueueRecorder, type CacheRequestMetrics, type WorkQueueMetrics } from './queue-and-cache-metrics.ts';
import { configBytesPerShard, managedCounts, MANAGED_KINDS, type ManagedCounts, type ManagedKind } from './generator-output-metrics.ts';

/** How one reconcile ended: done, asked for a retry (a reload failed, a 409), or threw (retried with backoff). */
export type ReconcileResult = 'success' | 'retry' | 'error';

const RECONCILE_RESULTS: readonly ReconcileResult[] = ['success', 'retry', 'error'];
const RELOAD_OUTCOMES: readonly ReloadOutcomeKind[] = ['verified', 'stale', 'rejected', 'unreachable', 'refused', 'failed'];

/** Options of createOperatorMetrics. */
export interface OperatorMetricsOptions {
  /** Also export the Node.js process metrics (`process_*`, `nodejs_*`). Default true; tests may turn it off. */
  processMetrics?: boolean;
  /** The clock in ms (tests fix it). */
  now?: () => number;
}

/** What promop_prometheus_reconciled reads: a Prometheus object's Reconciled condition. */
export interface ReconciledObject {
  status?: { conditions?: readonly { type: string; status: string }[] } | undefined;
}

const RECONCILED_STATES = ['True', 'False', 'Unknown'] as const;

/** The operator's metrics on a registry of their own (never prom-client's global one, so tests stay independent). */
export class OperatorMetrics {
  /** The registry `/metrics` serves. */
  readonly registry = new Registry();
  /** What the reconcile work queues record. */
  readonly workQueue: WorkQueueMetrics = new WorkQueueRecorder(this.registry);
  /** What the caches record of their list and watch requests. */
  readonly cacheRequests: CacheRequestMetrics = new CacheRequestRecorder(this.registry);
  readonly #now: () => number;
  readonly #reconciles: Counter<'result'>;
  readonly #reconcileDuration: Histogram<'result'>;
  readonly #managed: Gauge<'prometheus' | 'kind' | 'state'>;
  readonly #configBytes: Gauge<'prometheus' | 'shard'>;
  readonly #shardLoaded: Gauge<'prometheus' | 'shard'>;
  readonly #reloads: Counter<'outcome'>;
  readonly #reloadDuration: Histogram<'outcome'>;
  readonly #applyToLoaded: Histogram;
  readonly #kubeletWait: Histogram;
  readonly #changeToLoaded: Histogram;
  readonly #ready: Gauge;
  readonly #leader: Gauge;
  /** The Prometheus objects promop manages (the cache), read at each scrape for promop_prometheus_reconciled. */
  #prometheusObjects: (() => readonly ReconciledObject[]) | undefined;
  /** Per Prometheus key, the shards that have series (config bytes, loaded), so a removed shard's series go. */
  readonly #shardsWithSeries = new Map<string, Set<number>>();
  /** Per Prometheus key, when the oldest change not yet fully reconciled was seen (work queue add time, ms). */
  readonly #changeSeenAt = new Map<string, number>();

  constructor(options: OperatorMetricsOptions = {}) {
    this.#now = options.now ?? Date.now;
    const registers = [this.registry];
    this.#reconciles = new Counter({ name: 'promop_reconcile_total', help: 'Reconciles of workload objects (Prometheus, PrometheusAgent, Alertmanager), by result: success, retry (asked to be retried: a reload failed, a conflict), error (threw; retried with backoff).', labelNames: ['result'], registers });
    this.#reconcileDuration = new Histogram({
      name: 'promop_reconcile_duration_seconds',
      help: 'Time a reconcile took, including reloading Prometheus and waiting for it to load the new config.',
      labelNames: ['result'],
      // Up to two minutes: a reconcile may wait for the kubelet to update mounted files (about a minute).
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });



    this.#managed = new Gauge({ name: 'promop_managed_resources', help: 'Monitors and rules each Prometheus selects, by kind and state: selected (valid, in its config) or rejected (invalid, left out).', labelNames: ['prometheus', 'kind', 'state'], registers });
    this.#configBytes = new Gauge({ name: 'promop_config_bytes', help: 'Size of the configuration generated for each shard: prometheus.yaml and its scrape files, in bytes.', labelNames: ['prometheus', 'shard'], registers });
    this.#shardLoaded = new Gauge({ name: 'promop_shard_config_loaded', help: '1 when every ready replica of the shard was verified to run the written config at the last reconcile, 0 when a reload failed.', labelNames: ['prometheus', 'shard'], registers });

    this.#reloads = new Counter({ name: 'promop_reload_total', help: 'Reload-and-verify attempts on Prometheus and Alertmanager pods, by outcome.', labelNames: ['outcome'], registers });
    this.#reloadDuration = new Histogram({
      name: 'promop_reload_duration_seconds',
      help: 'Time one reload-and-verify of a pod took (reloads repeated until the kubelet updated its files included), by outcome.',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 90, 120],
      registers,
    });
    // From promop's write of a shard's files to the moment every ready replica was verified to run them: the
    // operator's share of "ServiceMonitor applied → scraped". The kubelet's share (its volume refresh) is kept
    // apart, because it dominates when the pod-annotation nudge (reload/shard-reloader.ts) does not work.
    const applyBuckets = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 45, 60, 90, 120, 300];
    this.#applyToLoaded = new Histogram({
      name: 'promop_config_apply_to_loaded_seconds',
      help: 'Time from writing a shard\'s config Secret / rule ConfigMaps / TLS assets to the config verified as loaded in every ready replica of the shard.',
      buckets: applyBuckets,
      registers,
    });
    this.#kubeletWait = new Histogram({
      name: 'promop_config_kubelet_wait_seconds',
      help: 'Of promop_config_apply_to_loaded_seconds, the time until the written files were first seen loaded (waiting for the kubelet to update the mounted volumes), before the final reload and check.',
      buckets: applyBuckets,
      registers,
    });
    this.#changeToLoaded = new Histogram({
      name: 'promop_config_change_to_loaded_seconds',
      help: 'Time from promop seeing a change (the Prometheus key queued by a watch event, a resync or the start) to the config it caused verified as loaded in every ready replica of the shard; includes queueing, rendering, retries and the kubelet.',
      buckets: applyBuckets,
      registers,
    });
    this.#ready = new Gauge({ name: 'promop_ready', help: '1 when the operator is ready (caches synced, leader or standby settled), else 0.', registers });
    const objects = () => this.#prometheusObjects?.() ?? [];
    new Gauge({
      name: 'promop_prometheus_reconciled',
      help: 'Prometheus objects promop manages, by the status of their Reconciled condition (False: a broken spec, a reload that failed; Unknown: none yet), read from the cache at scrape time.',
      labelNames: ['status'],
      registers,
      collect() {
        const counts = new Map<string, number>(RECONCILED_STATES.map((state) => [state, 0]));
        for (const object of objects()) {
          const status = object.status?.conditions?.find((c) => c.type === 'Reconciled')?.status;
          const state = status === 'True' || status === 'False' ? status : 'Unknown';
          counts.set(state, (counts.get(state) ?? 0) + 1);
        }
        for (const [state, count] of counts) this.labels(state).set(count);
      },
    });
    this.#leader = new Gauge({ name: 'promop_leader', help: '1 while this replica holds the leader Lease (or runs without leader election) and reconciles, else 0.', registers });

    for (const result of RECONCILE_RESULTS) {
      this.#reconciles.labels(result).inc(0);
      this.#reconcileDuration.zero({ result });
    }
    for (const outcome of RELOAD_OUTCOMES) {
      this.#reloads.labels(outcome).inc(0);
      this.#reloadDuration.zero({ outcome });
    }
    this.#ready.set(0);
    this.#leader.set(0);
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** One reconcile of `prometheusKey` ended with `result` after `durationSeconds`; success closes its pending change. */
  recordReconcile(result: ReconcileResult, durationSeconds: number, prometheusKey?: string): void {
    this.#reconciles.labels(result).inc();
    this.#reconcileDuration.labels(result).observe(durationSeconds);
    if (result === 'success' && prometheusKey !== undefined) this.#changeSeenAt.delete(prometheusKey);
  }

  /**
   * A reconcile of `prometheusKey` starts for a change seen at `seenAtMs` (its work queue add). The oldest change
   * not yet reconciled successfully is kept: a retry after a failed reload still counts from the original change.
   */
  reconcileStarting(prometheusKey: string, seenAtMs: number): void {
    if (!this.#changeSeenAt.has(prometheusKey)) this.#changeSeenAt.set(prometheusKey, seenAtMs);
  }

  /** The counts for every kind under the Prometheus `prometheusKey` (`namespace/name`) after its latest render. */
  setManagedResources(prometheusKey: string, counts: ReadonlyMap<ManagedKind, ManagedCounts>): void {
    for (const kind of MANAGED_KINDS) {
      const { selected, rejected } = counts.get(kind) ?? { selected: 0, rejected: 0 };
      this.#managed.labels(prometheusKey, kind, 'selected').set(selected);
      this.#managed.labels(prometheusKey, kind, 'rejected').set(rejected);
    }
  }

  /**
   * What one render of `prometheusKey` selected and rejected, and (when it rendered, so the config is written) the
   * size of each shard's configuration. A Prometheus that failed to render keeps its last config, and its bytes.
   */
  recordGenerated(prometheusKey: string, output: Pick<GeneratorOutput, 'ok' | 'verdicts' | 'configs' | 'scrapeFiles'>): void {
    this.setManagedResources(prometheusKey, managedCounts(output.verdicts));
    if (output.ok) this.setConfigBytes(prometheusKey, configBytesPerShard(output));
  }

  /** The size of each shard's generated configuration (index = shard); shards beyond the list lose their series. */
  setConfigBytes(prometheusKey: string, bytesPerShard: readonly number[]): void {
    const shards = this.#shards(prometheusKey);
    for (const shard of shards) {
      if (shard < bytesPerShard.length) continue;
      this.#configBytes.remove(prometheusKey, String(shard));
      this.#shardLoaded.remove(prometheusKey, String(shard));
      shards.delete(shard);
    }
    bytesPerShard.forEach((bytes, shard) => {
      this.#configBytes.labels(prometheusKey, String(shard)).set(bytes);
      shards.add(shard);
    });
  }

  /** Whether every ready replica of the shard runs its written config after this reconcile's reload. */
  setShardConfigLoaded(prometheusKey: string, shard: number, loaded: boolean): void {
    this.#shardLoaded.labels(prometheusKey, String(shard)).set(loaded ? 1 : 0);
    this.#shards(prometheusKey).add(shard);
  }

  /** The Prometheus `prometheusKey` is gone (or no longer managed): its series go. */
  forgetPrometheus(prometheusKey: string): void {
    for (const kind of MANAGED_KINDS) for (const state of ['selected', 'rejected']) this.#managed.remove(prometheusKey, kind, state);
    for (const shard of this.#shardsWithSeries.get(prometheusKey) ?? []) {
      this.#configBytes.remove(prometheusKey, String(shard));
      this.#shardLoaded.remove(prometheusKey, String(shard));
    }
    this.#shardsWithSeries.delete(prometheusKey);
    this.#changeSeenAt.delete(prometheusKey);
  }

  /** One reloadAndVerify ended with `outcome` after `durationSeconds` (0 when the pod was not called at all). */
  recordReload(outcome: ReloadOutcomeKind, durationSeconds = 0): void {
    this.#reloads.labels(outcome).inc();
    this.#reloadDuration.labels(outcome).observe(durationSeconds);
  }

  /**
   * When the oldest change of `prometheusKey` not yet reconciled successfully was seen (reconcileStarting), in
   * this registry's clock: the reloader keeps it with the files that change caused, which are loaded after the
   * reconcile that wrote them ended.
   */
  changeSeenAt(prometheusKey: string): number | undefined {
    return this.#changeSeenAt.get(prometheusKey);
  }

  /**
   * A shard's written files were verified in every ready replica `applyToLoadedSeconds` after the write, of which
   * `kubeletWaitSeconds` went by before the files were in the pods; with `changeSeenAt` (changeSeenAt() when the
   * files were written), also observes the time since the change that caused them was seen.
   */
  recordConfigLoaded(applyToLoadedSeconds: number, kubeletWaitSeconds: number, changeSeenAt?: number): void {
    this.#applyToLoaded.observe(applyToLoadedSeconds);
    this.#kubeletWait.observe(kubeletWaitSeconds);
    if (changeSeenAt !== undefined) this.#changeToLoaded.observe(Math.max(0, this.#now() - changeSeenAt) / 1000);
  }

  /** Where promop_prometheus_reconciled counts from at each scrape (the operator's Prometheus cache). */
  countPrometheusObjects(list: () => readonly ReconciledObject[]): void {
    this.#prometheusObjects = list;
  }

  /** Whether the operator is ready (mirrors /readyz). */
  setReady(ready: boolean): void {
    this.#ready.set(ready ? 1 : 0);
  }

  /** Whether this replica leads (and so reconciles and writes). */
  setLeader(leader: boolean): void {
    this.#leader.set(leader ? 1 : 0);
  }

  /** The exposition text of every metric. */
  async metricsText(): Promise<string> {
    return this.registry.metrics();
  }

  #shards(prometheusKey: string): Set<number> {
    let shards = this.#shardsWithSeries.get(prometheusKey);
    if (!shards) this.#shardsWithSeries.set(prometheusKey, (shards = new Set()));
    return shards;
  }
}
