/**
 * promop's own metrics (what an operator of promop alerts on): reconcile results and latency, how many monitors
 * and rules it selected or rejected, how reloads of Prometheus end and how long a written config takes to be
 * loaded, the work queue depth, readiness.
 *
 * Every label value the controller can set is initialised to zero up front, so a rate() or an alert on
 * `promop_reload_total{outcome="rejected"}` works before the first rejection (a series that appears only on
 * its first increment hides that increment from rate()).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ReloadOutcomeKind } from '../prometheus-client/reload-and-verify.ts';

/** How one reconcile ended: done, failed (requeued with backoff), or stopped on bad user input (status says why, no retry loop). */
export type ReconcileResult = 'success' | 'error' | 'invalid';

/** The custom resources promop selects for a Prometheus. */
export type ManagedKind = 'ServiceMonitor' | 'PodMonitor' | 'PrometheusRule';

/** Counts for one kind under one Prometheus. */
export interface ManagedCounts {
  selected: number;
  rejected: number;
}

const RECONCILE_RESULTS: readonly ReconcileResult[] = ['success', 'error', 'invalid'];
const MANAGED_KINDS: readonly ManagedKind[] = ['ServiceMonitor', 'PodMonitor', 'PrometheusRule'];
const RELOAD_OUTCOMES: readonly ReloadOutcomeKind[] = ['verified', 'stale', 'rejected', 'unreachable', 'refused', 'failed'];

/** Options of createOperatorMetrics. */
export interface OperatorMetricsOptions {
  /** Also export the Node.js process metrics (`process_*`, `nodejs_*`). Default true; tests may turn it off. */
  processMetrics?: boolean;
}

/** The operator's metrics on a registry of their own (never prom-client's global one, so tests stay independent). */
export class OperatorMetrics {
  /** The registry `/metrics` serves. */
  readonly registry = new Registry();
  readonly #reconciles: Counter<'result'>;
  readonly #reconcileDuration: Histogram<'result'>;
  readonly #managed: Gauge<'kind' | 'state'>;
  readonly #reloads: Counter<'outcome'>;
  readonly #applyToLoaded: Histogram;
  readonly #kubeletWait: Histogram;
  readonly #queueDepth: Gauge;
  readonly #ready: Gauge;
  readonly #leader: Gauge;
  // Per Prometheus object (`namespace/name`): the gauge is their sum, so one reconcile updates its own share.
  readonly #managedByPrometheus = new Map<string, Map<ManagedKind, ManagedCounts>>();

  constructor(options: OperatorMetricsOptions = {}) {
    const registers = [this.registry];
    this.#reconciles = new Counter({ name: 'promop_reconcile_total', help: 'Reconciles of Prometheus objects, by result.', labelNames: ['result'], registers });
    this.#reconcileDuration = new Histogram({
      name: 'promop_reconcile_duration_seconds',
      help: 'Time a reconcile took, including waiting for Prometheus to load the new config.',
      labelNames: ['result'],
      // Up to two minutes: a reconcile may wait for the kubelet to update mounted files (about a minute).
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
      registers,
    });
    this.#managed = new Gauge({ name: 'promop_managed_resources', help: 'Monitors and rules considered for Prometheus objects, selected or rejected (invalid).', labelNames: ['kind', 'state'], registers });
    this.#reloads = new Counter({ name: 'promop_reload_total', help: 'Reload-and-verify attempts on Prometheus pods, by outcome.', labelNames: ['outcome'], registers });
    // From promop's write of a shard's files to the moment every ready replica was verified to run them: the
    // operator's share of "ServiceMonitor applied → scraped". The kubelet's share (its volume refresh) is kept
    // apart, because it dominates when the pod-annotation nudge (reload/shard-reloader.ts) does not work.
    const applyBuckets = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 45, 60, 90, 120];
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
    this.#queueDepth = new Gauge({ name: 'promop_workqueue_depth', help: 'Keys waiting in the reconcile work queue.', registers });
    this.#ready = new Gauge({ name: 'promop_ready', help: '1 when the operator is ready (caches synced, leader or standby settled), else 0.', registers });
    this.#leader = new Gauge({ name: 'promop_leader', help: '1 while this replica holds the leader Lease (or runs without leader election) and reconciles, else 0.', registers });

    for (const result of RECONCILE_RESULTS) {
      this.#reconciles.labels(result).inc(0);
      this.#reconcileDuration.zero({ result });
    }
    for (const kind of MANAGED_KINDS) for (const state of ['selected', 'rejected']) this.#managed.labels(kind, state).set(0);
    for (const outcome of RELOAD_OUTCOMES) this.#reloads.labels(outcome).inc(0);
    this.#queueDepth.set(0);
    this.#ready.set(0);
    this.#leader.set(0);
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** One reconcile ended with `result` after `durationSeconds`. */
  recordReconcile(result: ReconcileResult, durationSeconds: number): void {
    this.#reconciles.labels(result).inc();
    this.#reconcileDuration.labels(result).observe(durationSeconds);
  }

  /** The counts for `kind` under the Prometheus `prometheusKey` (`namespace/name`) after its latest reconcile. */
  setManagedResources(prometheusKey: string, kind: ManagedKind, counts: ManagedCounts): void {
    let kinds = this.#managedByPrometheus.get(prometheusKey);
    if (kinds === undefined) this.#managedByPrometheus.set(prometheusKey, (kinds = new Map()));
    kinds.set(kind, { ...counts });
    this.#refreshManaged();
  }

  /** The Prometheus `prometheusKey` is gone: its monitors and rules no longer count. */
  forgetPrometheus(prometheusKey: string): void {
    if (this.#managedByPrometheus.delete(prometheusKey)) this.#refreshManaged();
  }

  /** One reloadAndVerify ended with `outcome`. */
  recordReload(outcome: ReloadOutcomeKind): void {
    this.#reloads.labels(outcome).inc();
  }

  /**
   * A shard's written files were verified in every ready replica `applyToLoadedSeconds` after the write, of which
   * `kubeletWaitSeconds` went by before the files were in the pods.
   */
  recordConfigLoaded(applyToLoadedSeconds: number, kubeletWaitSeconds: number): void {
    this.#applyToLoaded.observe(applyToLoadedSeconds);
    this.#kubeletWait.observe(kubeletWaitSeconds);
  }

  /** The work queue now holds `depth` keys. */
  setWorkqueueDepth(depth: number): void {
    this.#queueDepth.set(depth);
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

  #refreshManaged(): void {
    for (const kind of MANAGED_KINDS) {
      let selected = 0;
      let rejected = 0;
      for (const kinds of this.#managedByPrometheus.values()) {
        selected += kinds.get(kind)?.selected ?? 0;
        rejected += kinds.get(kind)?.rejected ?? 0;
      }
      this.#managed.labels(kind, 'selected').set(selected);
      this.#managed.labels(kind, 'rejected').set(rejected);
    }
  }
}
