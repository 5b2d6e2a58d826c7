/**
 * The reloader of `promop run`, one for both programs: makes every ready pod of a Prometheus shard (the
 * ConfigReloader) or of an Alertmanager (`reloadAlertmanager`) run the files promop wrote, and reports which pods
 * do. For each pod of the set (label selector of its StatefulSet, from the pod cache):
 *
 * 1. **Nudge the kubelet.** The kubelet refreshes a mounted Secret or ConfigMap volume only when it syncs the pod:
 *    periodically (`--sync-frequency`, one minute by default, plus its cache TTL) or when the pod object changes.
 *    Measured: after a write, the new file appears in the pod after up to a minute on its own, and about a second
 *    after any update of the pod. So each pod of the shard gets the annotation `promop.prometheus.io/config-hash:
 *    <hash of the files>` as soon as the hash differs from the one it carries. Only the pod's own metadata is
 *    patched, never the StatefulSet's pod template: a template change would roll every pod.
 * 2. **Reload and verify** each Running, Ready pod with an IP inside the pod networks, in parallel:
 *    POST /-/reload at `http://<pod IP>:9090`, then compare the loaded config and rules with what was written,
 *    repeating while the kubelet has not caught up (prometheus-client/reload-and-verify.ts); for Alertmanager
 *    the same at port 9093, compared through its configuration hash (prometheus-client/alertmanager-reload.ts).
 *    An IP outside the pod networks is refused and never dialled.
 * 3. **Remember** each verified pod (uid, IP, hash): the next reconcile calls no pod that already runs the files;
 *    a restarted pod (new uid), a new IP, a new hash or an earlier failure calls it again.
 *
 * Pods that are not Running and Ready are reported pending, not failed: they read the current files when
 * the program starts. Timing (the P5 figure's operator part): from the write that changed the shard's files to the
 * moment every ready pod was verified, and of that the part until the files were seen in the pods (the kubelet's
 * share) as opposed to the final reload and check itself.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { describeError, type PodAnnotator } from '../kube/index.ts';
import {
  prometheusPodUrl, type AlertmanagerReloadRequest, type PodConfigVerifier, type ReloadOutcome, type ReloadOutcomeKind, type ReloadRequest,
} from '../prometheus-client/index.ts';
import type { ConfigReloader, ExpectedShardFiles, ReloadContext, ReloadResult, ShardConfigStatus } from '../reconcile/config-reloader.ts';
import { workloadKey } from '../reconcile/key.ts';
import { PROMETHEUS_PORT, routePrefix, workloadKind, type PrometheusWorkload } from '../workload/index.ts';
import type { PodNetworks } from './pod-networks.ts';
import { CONFIG_HASH_ANNOTATION, needsConfigHash, podCallability, podsOfShard, podsWithLabels } from './shard-pods.ts';

/** The port of Alertmanager's web listener in its pods. */
const ALERTMANAGER_PORT = 9093;

/** What the reloader records (OperatorMetrics implements it). */
export interface ReloadMetrics {
  /** One pod's reload-and-verify ended with `outcome` after `durationSeconds` (0: not called). */
  recordReload(outcome: ReloadOutcomeKind, durationSeconds: number): void;
  /** The files written for a shard of `prometheusKey` were verified in every ready pod (see #recordTiming). */
  recordConfigLoaded(applyToLoadedSeconds: number, kubeletWaitSeconds: number, prometheusKey: string): void;
  /** After this reload, whether every ready pod of the shard runs its files. */
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
  /** The clock, in ms (tests fix it). */
  now?: () => number;
}

/** The pods of an Alertmanager: its metadata and the fields that decide how to call them. */
export interface AlertmanagerPods {
  metadata: { namespace: string; name: string };
  spec?: { listenLocal?: boolean; routePrefix?: string };
  /** The labels of its pods (alertmanagerSelectorLabels). */
  selectorLabels: Readonly<Record<string, string>>;
}

/** Which replicas run the written files (a shard's `status.configStatus` entry without its shardID). */
export type LoadedConfigStatus = Omit<ShardConfigStatus, 'shardID'>;

/** What reloading one set of pods ended with (see ReloadResult). */
export type PodSetReloadResult =
  | { ok: true; status: LoadedConfigStatus }
  | { ok: false; message: string; status: LoadedConfigStatus };

/** One set of pods that must all run the same files: a Prometheus shard, or an Alertmanager's pods. */
interface PodSet {
  /** Where the memory of verified pods lives: workloadKey, or `Alertmanager:namespace/name`. */
  key: string;
  /** The shard (0 for an Alertmanager). */
  index: number;
  program: 'Prometheus' | 'Alertmanager';
  namespace: string;
  pods: readonly V1Pod[];
  hash: string;
  writtenAt: Date | undefined;
  /** Why no pod of the set can be called (listenLocal), if so: every ready pod is then pending with this message. */
  notCallable?: string;
  /** The request that reloads and verifies the pod at `ip`. */
  request(ip: string, pod: V1Pod): ReloadRequest | AlertmanagerReloadRequest;
  log: Logger;
}

/** A pod verified to run a shard's files. */
interface VerifiedPod {
  uid: string;
  ip: string;
  /** When its final, successful reload attempt started: by then the kubelet had written the files. */
  filesSeenAt: number;
  verifiedAt: number;
}

/** What is known about one shard's current files. */
interface ShardMemory {
  hash: string;
  /** When promop wrote these files, if this process did. */
  writtenAt: number | undefined;
  /** The timing of these files was recorded (or there was nothing to time). */
  timed: boolean;
  /** By pod name. */
  verified: Map<string, VerifiedPod>;
}

/** How one pod stands. */
type PodState =
  | { pod: string; state: 'loaded' }
  | { pod: string; state: 'pending'; reason: string; message: string }
  | PodFailure;

/** A ready pod that could not be made to run the files. */
interface PodFailure {
  pod: string;
  state: 'failed';
  reason: string;
  message: string;
}

const FAILURE_REASONS: Record<Exclude<ReloadOutcomeKind, 'verified'>, string> = {
  stale: 'Stale',
  rejected: 'Rejected',
  unreachable: 'Unreachable',
  refused: 'Refused',
  failed: 'ReloadFailed',
};

/** The ConfigReloader that reloads the pods of a shard over HTTP. */
export class ShardReloader implements ConfigReloader {
  readonly #options: ShardReloaderOptions;
  readonly #now: () => number;
  /** Prometheus key → shard → memory. */
  readonly #memory = new Map<string, Map<number, ShardMemory>>();

  constructor(options: ShardReloaderOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  async reload(prometheus: PrometheusWorkload, shard: number, expected: ExpectedShardFiles, context: ReloadContext): Promise<ReloadResult> {
    const { namespace, name } = prometheus.metadata;
    const kind = workloadKind(prometheus);
    const key = workloadKey(kind, namespace, name);
    const baseUrlOf = (ip: string, pod: V1Pod) => prometheusPodUrl(ip, this.#options.prometheusPortOf?.(pod) ?? PROMETHEUS_PORT, routePrefix(prometheus.spec ?? {}));
    const result = await this.#reloadPods({
      key, index: shard, program: 'Prometheus', namespace, hash: expected.hash, writtenAt: context.writtenAt, log: context.log.child({ shard }),
      pods: podsOfShard(this.#options.pods.list(namespace), name, shard, kind),
      // Prometheus listens on the pod's 127.0.0.1 only; upstream reaches it from a sidecar, promop has none.
      ...(prometheus.spec?.listenLocal === true ? { notCallable: 'spec.listenLocal: Prometheus is not reachable from promop; it loads new files only when it restarts' } : {}),
      request: (ip, pod) => ({
        baseUrl: baseUrlOf(ip, pod),
        expectedConfigText: expected.configText,
        // An agent loads no rules, and its API has no rules endpoint (it answers an error): nothing to compare.
        ...(kind === 'PrometheusAgent' ? {} : { expectedRuleFiles: expected.ruleFiles }),
        ...(expected.scrapeFileJobs !== undefined ? { expectedScrapeFileJobs: expected.scrapeFileJobs } : {}),
      }),
    });
    this.#options.metrics.setShardConfigLoaded(key, shard, result.ok);
    const status: ShardConfigStatus = { shardID: String(shard), ...result.status };
    return result.ok ? { ok: true, status } : { ok: false, message: result.message, status };
  }

  /**
   * Makes every ready pod of an Alertmanager run `configText` (alertmanager-reload.ts proves it by Alertmanager's
   * own hash of the file), as `reload` does for a Prometheus shard: the same nudge, memory, network check and timing.
   */
  async reloadAlertmanager(alertmanager: AlertmanagerPods, configText: string, hash: string, context: ReloadContext): Promise<PodSetReloadResult> {
    const { namespace, name } = alertmanager.metadata;
    const spec = alertmanager.spec ?? {};
    return this.#reloadPods({
      key: alertmanagerReloadKey(namespace, name), index: 0, program: 'Alertmanager', namespace, hash, writtenAt: context.writtenAt, log: context.log,
      pods: podsWithLabels(this.#options.pods.list(namespace), alertmanager.selectorLabels),
      // Alertmanager then listens on the pod's 127.0.0.1 only: a new configuration rolls the pods instead.
      ...(spec.listenLocal === true ? { notCallable: 'spec.listenLocal: Alertmanager is not reachable from promop; a new configuration restarts the pods' } : {}),
      request: (ip, pod) => ({
        program: 'alertmanager',
        baseUrl: prometheusPodUrl(ip, this.#options.alertmanagerPortOf?.(pod) ?? ALERTMANAGER_PORT, spec.routePrefix || '/'),
        expectedConfigText: configText,
      }),
    });
  }

  /** Nudges, reloads and verifies the pods of one set, then reports which run its files. */
  async #reloadPods(set: PodSet): Promise<PodSetReloadResult> {
    const memory = this.#shardMemory(set.key, set.index, set.hash, set.writtenAt);
    const present = new Set(set.pods.map(podName));
    for (const pod of memory.verified.keys()) if (!present.has(pod)) memory.verified.delete(pod);

    await this.#annotate(set.namespace, set.pods, set.hash, set.log);
    const states = await Promise.all(set.pods.map((pod) => this.#reloadPod(set, pod, memory, set.log)));

    const failures = states.filter((s): s is PodFailure => s.state === 'failed');
    this.#recordTiming(set.key, memory, states, failures.length === 0, set.log);
    const loadedReplicas = states.filter((s) => s.state === 'loaded').map((s) => s.pod);
    const pendingReplicas = states.flatMap((s) => (s.state === 'loaded' ? [] : [{ pod: s.pod, reason: s.reason, message: s.message }]));
    // Empty lists are left out (see the CRD schema: server-side apply would drop them and fail validation).
    const status: LoadedConfigStatus = {
      configHash: set.hash,
      ...(loadedReplicas.length > 0 ? { loadedReplicas } : {}),
      ...(pendingReplicas.length > 0 ? { pendingReplicas } : {}),
    };
    if (failures.length === 0) return { ok: true, status };
    return { ok: false, message: failures.map((f) => `pod ${f.pod}: ${f.message}`).join('; '), status };
  }

  /** Forgets `key`: workloadKey of a Prometheus or agent that is gone. */
  forget(key: string): void {
    this.#memory.delete(key);
  }

  /** The memory of this shard, started afresh when the files changed. */
  #shardMemory(key: string, shard: number, hash: string, writtenAt: Date | undefined): ShardMemory {
    let shards = this.#memory.get(key);
    if (!shards) this.#memory.set(key, (shards = new Map()));
    let memory = shards.get(shard);
    if (memory?.hash !== hash) {
      // New files: no pod is known to run them. Without a write by this process (promop restarted, the files
      // were written by its predecessor) there is no start time to measure from.
      memory = { hash, writtenAt: writtenAt?.getTime(), timed: writtenAt === undefined, verified: new Map() };
      shards.set(shard, memory);
    }
    return memory;
  }

  /** Sets the config-hash annotation on every pod that lacks this hash (see the module comment for why). */
  async #annotate(namespace: string, pods: readonly V1Pod[], hash: string, log: Logger): Promise<void> {
    const annotated: string[] = [];
    await Promise.all(pods.filter((pod) => needsConfigHash(pod, hash)).map(async (pod) => {
      try {
        if (await this.#options.annotator.annotate(namespace, podName(pod), CONFIG_HASH_ANNOTATION, hash)) annotated.push(podName(pod));
      } catch (error) {
        // Only a delay: without the nudge the kubelet still refreshes the files on its periodic sync.
        log.warn({ pod: podName(pod), err: describeError(error) }, 'could not annotate the pod; the kubelet will update its files on its next periodic sync');
      }
    }));
    if (annotated.length > 0) log.info({ pods: annotated.sort(), configHash: hash }, 'pods annotated with the new config hash, so the kubelet updates their files now');
  }

  async #reloadPod(set: PodSet, pod: V1Pod, memory: ShardMemory, log: Logger): Promise<PodState> {
    const name = podName(pod);
    const callability = podCallability(pod, set.program);
    if (!callability.callable) return { pod: name, state: 'pending', reason: callability.reason, message: callability.message };
    if (set.notCallable !== undefined) return { pod: name, state: 'pending', reason: 'ListenLocal', message: set.notCallable };
    const uid = pod.metadata?.uid ?? '';
    const known = memory.verified.get(name);
    if (known && known.uid === uid && known.ip === callability.ip) return { pod: name, state: 'loaded' };

    const admission = await this.#options.networks.admit(callability.ip);
    if (!admission.ok) {
      this.#options.metrics.recordReload('refused', 0);
      return { pod: name, state: 'failed', reason: FAILURE_REASONS.refused, message: `not called: ${admission.reason}` };
    }
    const outcome = await this.#options.verifier.reloadAndVerify(set.request(callability.ip, pod));
    this.#options.metrics.recordReload(outcome.outcome, outcome.elapsedMs / 1000);
    if (outcome.outcome === 'verified') {
      const verifiedAt = this.#now();
      memory.verified.set(name, { uid, ip: callability.ip, verifiedAt, filesSeenAt: verifiedAt - outcome.verifyMs });
      log.debug({ pod: name, attempts: outcome.attempts, elapsedMs: outcome.elapsedMs }, 'pod verified');
      return { pod: name, state: 'loaded' };
    }
    return { pod: name, state: 'failed', reason: FAILURE_REASONS[outcome.outcome], message: failureMessage(outcome, set.program) };
  }

  /** Records how long the files took to be loaded everywhere, once per write, when every ready pod runs them. */
  #recordTiming(key: string, memory: ShardMemory, states: readonly PodState[], noFailures: boolean, log: Logger): void {
    if (memory.timed || !noFailures || memory.writtenAt === undefined) return;
    const verified = states.flatMap((s) => (s.state === 'loaded' ? [memory.verified.get(s.pod)] : [])).filter((v) => v !== undefined);
    memory.timed = true;
    // No ready pod: nothing was loaded by a running Prometheus, so there is nothing to time (pods starting later
    // read the files at start; their start-up time is not promop's).
    if (verified.length === 0) return;
    const timing = configTiming(memory.writtenAt, verified);
    this.#options.metrics.recordConfigLoaded(timing.applyToLoadedMs / 1000, timing.kubeletWaitMs / 1000, key);
    log.info({ configHash: memory.hash, replicas: verified.length, ...timing }, 'written config loaded by every ready replica');
  }
}

/** Where the reloader remembers an Alertmanager's pods: apart from any Prometheus of the same name. */
export function alertmanagerReloadKey(namespace: string, name: string): string {
  return `Alertmanager:${namespace}/${name}`;
}

/**
 * From the write to the last pod verified (`applyToLoadedMs`); of that, until the last pod had the files
 * (`kubeletWaitMs`, measured to the start of its successful attempt, so it is an upper bound) and the final
 * reload and check (`reloadMs`).
 */
export function configTiming(writtenAt: number, verified: readonly { filesSeenAt: number; verifiedAt: number }[]): { applyToLoadedMs: number; kubeletWaitMs: number; reloadMs: number } {
  const applyToLoadedMs = Math.max(0, ...verified.map((v) => v.verifiedAt - writtenAt));
  const kubeletWaitMs = Math.min(applyToLoadedMs, Math.max(0, ...verified.map((v) => v.filesSeenAt - writtenAt)));
  return { applyToLoadedMs, kubeletWaitMs, reloadMs: applyToLoadedMs - kubeletWaitMs };
}

function failureMessage(outcome: Exclude<ReloadOutcome, { outcome: 'verified' }>, program: PodSet['program']): string {
  switch (outcome.outcome) {
    case 'stale': return `the files were not loaded within ${Math.round(outcome.elapsedMs / 1000)} s (${outcome.attempts} reloads): ${outcome.difference}`;
    case 'rejected': return `${program} refused the configuration: ${outcome.reason}`;
    case 'refused': return `not called: ${outcome.reason}`;
    default: return outcome.reason;
  }
}

function podName(pod: V1Pod): string {
  return pod.metadata?.name ?? '';
}
