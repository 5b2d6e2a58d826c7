/**
 * The reloader of `promop run`, one for both programs: makes every ready pod of a Prometheus shard (the
 * ConfigReloader), of an Alertmanager (`reloadAlertmanager`, alertmanager-pod-set.ts) or of a ThanosRuler
 * (`reloadThanosRuler`, thanos-ruler-pod-set.ts) run the files promop wrote, and reports which pods
 * do. For each pod of the set (label selector of its StatefulSet, from the pod cache):
 *
 * 1. **Nudge the kubelet** (kubelet-nudge.ts): each pod gets the annotation `promop.prometheus.io/config-hash` with
 *    the files' hash, so the kubelet copies them now rather than on its next periodic sync.
 * 2. **Reload and verify** each Running, Ready pod with an IP inside the pod networks, in parallel:
 *    POST /-/reload at `http://<pod IP>:9090`, then compare the loaded config and rules with what was written,
 *    repeating while the kubelet has not caught up (prometheus-client/reload-and-verify.ts); for Alertmanager
 *    the same at port 9093, compared through its configuration hash (prometheus-client/alertmanager-reload.ts).
 *    An IP outside the pod networks is refused and never dialled.
 * 3. **Remember** each verified pod (uid, IP, hash): no pod that already runs the files is called again; a
 *    restarted pod (new uid), a new IP or a new hash is.
 *
 * **Beside the work queue.** Steps 1–3 run in a job per set of pods, not in the reconcile: `reload` says at once
 * how the set stands (loaded, reloading, or failed) and starts the job when there is work. A reconcile therefore
 * writes the next config as soon as it is rendered, instead of waiting seconds for the kubelet and a reload of
 * thousands of jobs while the changes made meanwhile queue up. Newer files supersede the job for older ones: it
 * starts no further attempt, its outcome is dropped (never reported as a failure), and the job for the newer files
 * starts when it ended, so a pod has one reload in flight at most. Every round of a job ends with the context's
 * `onRoundEnd` (the reconciler requeues its key, and the next reconcile's status says what the round found). A
 * round with failures is followed by a backoff (1 s doubling up to 2 minutes) before the failed pods are tried
 * again; a pod that is new, restarted or became ready ends the wait.
 *
 * Pods that are not Running and Ready are reported pending, not failed: they read the current files when
 * the program starts (pod-set.ts says how a set stands). Timing (the P5 figure's operator part): from the write that changed the shard's files to the
 * moment every ready pod was verified, and of that the part until the files were seen in the pods (the kubelet's
 * share) as opposed to the final reload and check itself.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { describeError, type PodAnnotator } from '../kube/index.ts';
import { abortableDelay, prometheusPodUrl, type PodConfigVerifier, type ReloadOutcomeKind } from '../prometheus-client/index.ts';
import { RELOADING_REASON, type ConfigReloader, type ExpectedShardFiles, type ReloadContext, type ReloadResult } from '../reconcile/config-reloader.ts';
import { workloadKey } from '../reconcile/key.ts';
import { PROMETHEUS_PORT, configForNode, daemonSetSelectorLabels, routePrefix, workloadKind, type PrometheusWorkload } from '../workload/index.ts';
import { isDaemonSetAgent } from '@promop/config-generator';
import { KubeletNudge } from './kubelet-nudge.ts';
import type { PodNetworks } from './pod-networks.ts';
import { configTiming, needsCall, podName, recordFailure, standingOf, type PodSet, type PodSetReloadResult, type SetMemory } from './pod-set.ts';
import { podCallability, podsOfShard, podsWithLabels } from './shard-pods.ts';
import { thanosRulerPodSet, type ThanosRulerPods } from './thanos-ruler-pod-set.ts';
import { alertmanagerPodSet, type AlertmanagerPods } from './alertmanager-pod-set.ts';


/** The wait before a job tries its failed pods again: 1 s, doubling up to 2 minutes. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 120_000;

/** What the reloader records (OperatorMetrics implements it). */
export interface ReloadMetrics {
  /** One pod's reload-and-verify ended with `outcome` after `durationSeconds` (0: not called). */
  recordReload(outcome: ReloadOutcomeKind, durationSeconds: number): void;
  /** When the oldest change of `key` not yet reconciled was seen; kept with the files it caused. */
  changeSeenAt(key: string): number | undefined;
  /** The files written for a set were verified in every ready pod (see #recordTiming), caused by a change seen at `changeSeenAt`. */
  recordConfigLoaded(applyToLoadedSeconds: number, kubeletWaitSeconds: number, changeSeenAt: number | undefined): void;
  /** Whether every ready pod of the shard runs its newest files. */
  setShardConfigLoaded(prometheusKey: string, shard: number, loaded: boolean): void;
}

/** Where a ShardReloader reads and writes. */
export interface ShardReloaderOptions {
  /** Pods promop manages (ClusterCaches.pods). */
  pods: { list(namespace?: string): readonly V1Pod[] };
  annotator: PodAnnotator;
  verifier: PodConfigVerifier;
  networks: PodNetworks;
  metrics: ReloadMetrics;
  /**
   * Test only: the port a pod's Prometheus listens on (default 9090, the container port). Tests without a kubelet
   * run one Prometheus per fake pod on 127.0.0.1, each on a port of its own.
   */
  prometheusPortOf?: (pod: V1Pod) => number;
  /** Test only: the same for an Alertmanager pod (default 9093). */
  alertmanagerPortOf?: (pod: V1Pod) => number;
  /** Test only: the same for a thanos rule pod (default 10902). */
  thanosRulerPortOf?: (pod: V1Pod) => number;
  /** The clock, in ms (tests fix it). */
  now?: () => number;
  /** The wait before a failed round is tried again; resolves early once `signal` aborts (tests play it). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The ConfigReloader that reloads the pods of a shard over HTTP. */
export class ShardReloader implements ConfigReloader {
  readonly #options: ShardReloaderOptions;
  readonly #now: () => number;
  readonly #wait: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Set key → index → memory of its newest files. */
  readonly #memory = new Map<string, Map<number, SetMemory>>();
  readonly #nudge: KubeletNudge;
  #stopped = false;

  constructor(options: ShardReloaderOptions) {
    this.#options = options;
    this.#nudge = new KubeletNudge(options.annotator);
    this.#now = options.now ?? Date.now;
    this.#wait = options.wait ?? ((ms, signal) => abortableDelay(ms, signal));
  }

  async reload(prometheus: PrometheusWorkload, shard: number, expected: ExpectedShardFiles, context: ReloadContext): Promise<ReloadResult> {
    const { namespace, name } = prometheus.metadata;
    const kind = workloadKind(prometheus);
    // HTTPS when the Prometheus serves it (spec.web.tlsConfig): expected.tls says how to verify and authenticate.
    const scheme = expected.tls ? 'https' : 'http';
    const baseUrlOf = (ip: string, pod: V1Pod) => prometheusPodUrl(ip, this.#options.prometheusPortOf?.(pod) ?? PROMETHEUS_PORT, routePrefix(prometheus.spec ?? {}), scheme);
    const result = this.#reloadSet({
      key: workloadKey(kind, namespace, name), index: shard, program: 'Prometheus', namespace, hash: expected.hash, writtenAt: context.writtenAt,
      log: context.log.child({ shard }), ...(context.onRoundEnd ? { onRoundEnd: context.onRoundEnd } : {}),
      // A DaemonSet agent's pods carry upstream's DaemonSet labels, without a shard number.
      listPods: () => (isDaemonSetAgent(prometheus)
        ? podsWithLabels(this.#options.pods.list(namespace), daemonSetSelectorLabels(name))
        : podsOfShard(this.#options.pods.list(namespace), name, shard, kind)),
      // Prometheus listens on the pod's 127.0.0.1 only; upstream reaches it from a sidecar, promop has none.
      ...(prometheus.spec?.listenLocal === true ? { notCallable: 'spec.listenLocal: Prometheus is not reachable from promop; it loads new files only when it restarts' } : {}),
      request: (ip, pod) => ({
        baseUrl: baseUrlOf(ip, pod),
        // A DaemonSet agent's pod reads its node's copy, with the node's name in place of the placeholder.
        expectedConfigText: isDaemonSetAgent(prometheus) ? configForNode(expected.configText, pod.spec?.nodeName ?? '') : expected.configText,
        // An agent loads no rules, and its API has no rules endpoint (it answers an error): nothing to compare.
        ...(kind === 'PrometheusAgent' ? {} : { expectedRuleFiles: expected.ruleFiles }),
        ...(expected.scrapeFileJobs !== undefined ? { expectedScrapeFileJobs: expected.scrapeFileJobs } : {}),
        ...(expected.tls ? { tls: expected.tls } : {}),
      }),
    });
    return { ...result, status: { shardID: String(shard), ...result.status } };
  }

  /**
   * Makes every ready pod of an Alertmanager run `configText` (alertmanager-reload.ts proves it by Alertmanager's
   * own hash of the file), as `reload` does for a Prometheus shard: the same nudge, memory, network check, timing
   * and job. Unlike `reload` it waits until the job's round for these files ended: an Alertmanager's configuration
   * changes seldom, and its reconcile reports the outcome (loaded or failed, never reloading).
   */
  async reloadAlertmanager(alertmanager: AlertmanagerPods, configText: string, hash: string, context: ReloadContext): Promise<PodSetReloadResult> {
    return this.#reloadUntilRoundEnd(alertmanagerPodSet(alertmanager, configText, hash, context, { pods: this.#options.pods, portOf: this.#options.alertmanagerPortOf }));
  }

  /**
   * Makes every ready pod of a ThanosRuler evaluate `ruleFiles` (path in the pod → text; thanos-ruler-pod-set.ts
   * says how), as reloadAlertmanager does for an Alertmanager, waiting for the round.
   */
  async reloadThanosRuler(thanosRuler: ThanosRulerPods, ruleFiles: Readonly<Record<string, string>>, context: ReloadContext): Promise<PodSetReloadResult> {
    return this.#reloadUntilRoundEnd(thanosRulerPodSet(thanosRuler, ruleFiles, context, { pods: this.#options.pods, portOf: this.#options.thanosRulerPortOf }));
  }

  /** Forgets `key` (workloadKey of a Prometheus or agent that is gone, or alertmanagerReloadKey): its jobs stop. */
  forget(key: string): void {
    for (const memory of this.#memory.get(key)?.values() ?? []) memory.superseded.abort();
    this.#memory.delete(key);
    this.#nudge.forget(`${key}#`);
  }

  /**
   * Resolves once no job is in a round: each has ended, or waits before trying its failed pods again (for tests:
   * the operator never waits for its jobs, except through stop()).
   */
  async settled(): Promise<void> {
    for (;;) {
      const busy = [...this.#memory.values()].flatMap((sets) => [...sets.values()]).filter((memory) => memory.job && !memory.retrying);
      if (busy.length === 0) return;
      await Promise.race(busy.map((memory) => this.#roundEnd(memory)));
    }
  }

  /** Stops every job (the operator stops, or lost its leadership) and resolves once they ended; no job starts after. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const jobs = [...this.#memory.values()].flatMap((sets) => [...sets.values()]).flatMap((memory) => {
      memory.superseded.abort();
      return memory.job ? [memory.job] : [];
    });
    this.#memory.clear();
    this.#nudge.forget(undefined);
    await Promise.all(jobs);
  }

  /** #reloadSet, then wait while the job's round for these files is under way (its outcome is the answer). */
  async #reloadUntilRoundEnd(set: PodSet): Promise<PodSetReloadResult> {
    let result = this.#reloadSet(set);
    const memory = this.#memory.get(set.key)?.get(set.index);
    while (result.state === 'reloading' && memory?.job && !memory.superseded.signal.aborted) {
      await this.#roundEnd(memory);
      result = this.#standing(memory);
    }
    return result;
  }

  /** Says how the set stands with its newest files, and starts (or wakes) the job that makes its pods run them. */
  #reloadSet(set: PodSet): PodSetReloadResult {
    const memory = this.#memoryOf(set);
    memory.set = set;
    // Level-based like the rest: every pod of the set (a pod created after the files were written too) is
    // nudged until it carries their hash.
    if (!this.#stopped && this.#nudge.unnudged(memory, set.listPods()).length > 0) {
      this.#nudge.soon(`${set.key}#${set.index}`, () => (this.#stopped ? undefined : this.#memory.get(set.key)?.get(set.index)));
    }
    const standing = this.#standing(memory);
    const underWay = standing.status.pendingReplicas?.some((pod) => pod.reason === RELOADING_REASON) ?? false;
    if (!this.#stopped && (underWay || standing.state === 'failed')) this.#startJob(memory, underWay);
    return standing;
  }

  /** The memory of the set's newest files; a new hash starts one afresh and supersedes the job of the old files. */
  #memoryOf(set: PodSet): SetMemory {
    let sets = this.#memory.get(set.key);
    if (!sets) this.#memory.set(set.key, (sets = new Map()));
    const old = sets.get(set.index);
    if (old?.hash === set.hash) return old;
    old?.superseded.abort();
    // New files: no pod is known to run them. Without a write by this process (promop restarted, the files
    // were written by its predecessor) there is no start time to measure from.
    const seen = [set.writtenAt ? this.#options.metrics.changeSeenAt(set.key) : undefined, old && !old.timed ? old.changeSeenAt : undefined].filter((at) => at !== undefined);
    const memory: SetMemory = {
      hash: set.hash, writtenAt: set.writtenAt?.getTime(), changeSeenAt: seen.length > 0 ? Math.min(...seen) : undefined,
      timed: set.writtenAt === undefined, verified: new Map(), failed: new Map(), annotated: new Set(),
      set, superseded: new AbortController(), job: undefined, retrying: undefined, failedRounds: 0, roundEnded: [],
    };
    sets.set(set.index, memory);
    // The old job ends after its attempt in flight; the new one starts then (one reload in flight per pod).
    if (old?.job) memory.job = this.#run(memory, old.job);
    return memory;
  }

  #startJob(memory: SetMemory, newWork: boolean): void {
    if (!memory.job) {
      memory.job = this.#run(memory, undefined);
      return;
    }
    // A pod that is new, restarted or became ready is not made to wait for the failed ones' backoff.
    if (newWork) memory.retrying?.wake.abort();
  }

  /**
   * The job: rounds of nudging, reloading and verifying every callable pod not yet verified, until none is left
   * or newer files supersede these. Each round ends with `onRoundEnd`; a round with failures is followed by a
   * backoff. Never rejects.
   */
  async #run(memory: SetMemory, after: Promise<void> | undefined): Promise<void> {
    const signal = memory.superseded.signal;
    try {
      await after;
      for (;;) {
        if (signal.aborted) return;
        const { set } = memory;
        const pods = set.listPods();
        const todo = set.notCallable === undefined ? pods.filter((pod) => needsCall(memory, pod)) : [];
        if (todo.length === 0) return;
        await this.#nudge.annotate(memory, pods);
        await Promise.all(todo.map((pod) => this.#reloadPod(set, pod, memory, signal)));
        if (signal.aborted) return;
        const standing = this.#standing(memory);
        this.#recordTiming(memory, standing, set.log);
        this.#endRound(memory);
        set.onRoundEnd?.();
        if (standing.state !== 'failed') {
          memory.failedRounds = 0;
          continue;
        }
        memory.failedRounds += 1;
        const wake = new AbortController();
        memory.retrying = { wake };
        await this.#wait(Math.min(RETRY_BASE_MS * 2 ** (memory.failedRounds - 1), RETRY_MAX_MS), AbortSignal.any([signal, wake.signal]));
        memory.retrying = undefined;
      }
    } catch (error) {
      // Only a bug gets here (the verifier and the annotator do not throw): say so, and let a later reconcile start again.
      memory.set.log.error({ err: describeError(error) }, 'bug: the reload job failed');
    } finally {
      // Runs in the same turn as the `return` above, so a reconcile never sees a job that will not look at its pods.
      memory.job = undefined;
      memory.retrying = undefined;
      this.#endRound(memory);
    }
  }

  #endRound(memory: SetMemory): void {
    const waiting = memory.roundEnded.splice(0);
    for (const resolve of waiting) resolve();
  }

  #roundEnd(memory: SetMemory): Promise<void> {
    return new Promise((resolve) => memory.roundEnded.push(resolve));
  }

  /** How the set stands now (pod-set.ts), also as the metric of whether a shard's pods run their newest files. */
  #standing(memory: SetMemory): PodSetReloadResult {
    const result = standingOf(memory);
    if (memory.set.program === 'Prometheus') this.#options.metrics.setShardConfigLoaded(memory.set.key, memory.set.index, result.state === 'loaded');
    return result;
  }

  /** Reloads and verifies one pod, and remembers how it ended (nothing when newer files superseded these meanwhile). */
  async #reloadPod(set: PodSet, pod: V1Pod, memory: SetMemory, signal: AbortSignal): Promise<void> {
    const name = podName(pod);
    const callability = podCallability(pod, set.program);
    if (!callability.callable) return;
    const uid = pod.metadata?.uid ?? '';
    const admission = await this.#options.networks.admit(callability.ip);
    if (signal.aborted) return;
    if (!admission.ok) {
      this.#options.metrics.recordReload('refused', 0);
      return recordFailure(memory, name, uid, callability.ip, { outcome: 'refused', attempts: 0, elapsedMs: 0, reason: admission.reason });
    }
    const outcome = await this.#options.verifier.reloadAndVerify({ ...set.request(callability.ip, pod), signal });
    // Superseded: the outcome is about files no longer wanted; neither reported nor counted.
    if (signal.aborted) return;
    this.#options.metrics.recordReload(outcome.outcome, outcome.elapsedMs / 1000);
    if (outcome.outcome !== 'verified') return recordFailure(memory, name, uid, callability.ip, outcome);
    const verifiedAt = this.#now();
    memory.failed.delete(name);
    memory.verified.set(name, { uid, ip: callability.ip, verifiedAt, filesSeenAt: verifiedAt - outcome.verifyMs });
    set.log.debug({ pod: name, attempts: outcome.attempts, elapsedMs: outcome.elapsedMs }, 'pod verified');
  }

  /** Records how long the files took to be loaded everywhere, once per write, when every ready pod runs them. */
  #recordTiming(memory: SetMemory, standing: PodSetReloadResult, log: Logger): void {
    if (memory.timed || standing.state !== 'loaded' || memory.writtenAt === undefined) return;
    const verified = (standing.status.loadedReplicas ?? []).map((pod) => memory.verified.get(pod)).filter((v) => v !== undefined);
    memory.timed = true;
    // No ready pod: nothing was loaded by a running Prometheus, so there is nothing to time (pods starting later
    // read the files at start; their start-up time is not promop's).
    if (verified.length === 0) return;
    const timing = configTiming(memory.writtenAt, verified);
    this.#options.metrics.recordConfigLoaded(timing.applyToLoadedMs / 1000, timing.kubeletWaitMs / 1000, memory.changeSeenAt);
    log.info({ configHash: memory.hash, replicas: verified.length, ...timing }, 'written config loaded by every ready replica');
  }
}
