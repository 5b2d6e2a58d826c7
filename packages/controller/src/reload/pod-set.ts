/**
 * One set of pods that must all run the same files (a Prometheus shard, or an Alertmanager's pods), what the
 * reloader knows of them for the set's newest files, and how the set stands from that: which pods run the files,
 * which are pending and why, which failed. Pure over the pods in the cache and the memory; the ShardReloader
 * (shard-reloader.ts) runs the jobs that fill the memory.
 */
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { AlertmanagerReloadRequest, ReloadOutcome, ReloadOutcomeKind, ReloadRequest, ThanosRulerReloadRequest } from '../prometheus-client/index.ts';
import { RELOADING_REASON, type ShardConfigStatus } from '../reconcile/config-reloader.ts';
import { podCallability } from './shard-pods.ts';

/** Which replicas run the written files (a shard's `status.configStatus` entry without its shardID). */
export type LoadedConfigStatus = Omit<ShardConfigStatus, 'shardID'>;

/** How one set of pods stands (see ReloadResult). */
export type PodSetReloadResult =
  | { state: 'loaded' | 'reloading'; status: LoadedConfigStatus }
  | { state: 'failed'; message: string; status: LoadedConfigStatus };

/** One set of pods that must all run the same files: a Prometheus shard, or an Alertmanager's pods. */
export interface PodSet {
  /** Where the memory of verified pods lives: workloadKey, or `Alertmanager:namespace/name`. */
  key: string;
  /** The shard (0 for an Alertmanager). */
  index: number;
  program: 'Prometheus' | 'Alertmanager' | 'Thanos Ruler';
  namespace: string;
  /** The pods of the set now (listed again every round: pods come, go and become ready meanwhile). */
  listPods(): readonly V1Pod[];
  hash: string;
  writtenAt: Date | undefined;
  /** Why no pod of the set can be called (listenLocal), if so: every ready pod is then pending with this message. */
  notCallable?: string;
  /** The request that reloads and verifies the pod at `ip`. */
  request(ip: string, pod: V1Pod): ReloadRequest | AlertmanagerReloadRequest | ThanosRulerReloadRequest;
  /** Called when a round of the job ends (not when it was superseded). */
  onRoundEnd?: () => void;
  log: Logger;
}

/** A pod verified to run a set's files. */
export interface VerifiedPod {
  uid: string;
  ip: string;
  /** When its final, successful reload attempt started: by then the kubelet had written the files. */
  filesSeenAt: number;
  verifiedAt: number;
}

/** What is known about one set's newest files, and the job making its pods run them. */
export interface SetMemory {
  hash: string;
  /** When promop wrote these files, if this process did. */
  writtenAt: number | undefined;
  /**
   * When the change that caused them was seen (ReloadMetrics.changeSeenAt when written): the oldest of those not
   * yet loaded, since files that supersede others carry their changes too.
   */
  changeSeenAt: number | undefined;
  /** The timing of these files was recorded (or there was nothing to time). */
  timed: boolean;
  /** By pod name. */
  verified: Map<string, VerifiedPod>;
  /** By pod name: the last failure of a pod (with the uid and IP it had), until it is verified. */
  failed: Map<string, { uid: string; ip: string; failure: PodFailure }>;
  /** The pods (`name/uid`) this process annotated with this hash, or is annotating. */
  annotated: Set<string>;
  /** The newest description of the set. */
  set: PodSet;
  /** Aborted when newer files replace these, or the set is forgotten: its job starts no further attempt. */
  superseded: AbortController;
  /** The job for these files while it runs; it runs after the job of the files these replaced has ended. */
  job: Promise<void> | undefined;
  /** The job waits before trying its failed pods again; aborting `wake` ends the wait. */
  retrying: { wake: AbortController } | undefined;
  failedRounds: number;
  /** Resolved when the job's current round (or the job) ends. */
  roundEnded: (() => void)[];
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

/** Whether `pod` is to be called: ready, with an IP, and not known to run the files in its current incarnation. */
export function needsCall(memory: SetMemory, pod: V1Pod): boolean {
  const callability = podCallability(pod, memory.set.program);
  if (!callability.callable) return false;
  const known = memory.verified.get(podName(pod));
  return !(known && known.uid === (pod.metadata?.uid ?? '') && known.ip === callability.ip);
}

/**
 * How the set stands now, from the pods in the cache and what the job found. Pods gone from the set are forgotten
 * on the way.
 */
export function standingOf(memory: SetMemory): PodSetReloadResult {
  const { set } = memory;
  const pods = set.listPods();
  const present = new Set(pods.map(podName));
  for (const name of memory.verified.keys()) if (!present.has(name)) memory.verified.delete(name);
  for (const name of memory.failed.keys()) if (!present.has(name)) memory.failed.delete(name);
  const states = pods.map((pod) => podState(memory, pod));
  const failures = states.filter((s): s is PodFailure => s.state === 'failed');
  const loadedReplicas = states.filter((s) => s.state === 'loaded').map((s) => s.pod);
  const pendingReplicas = states.flatMap((s) => (s.state === 'loaded' ? [] : [{ pod: s.pod, reason: s.reason, message: s.message }]));
  // Empty lists are left out (see the CRD schema: server-side apply would drop them and fail validation).
  const status: LoadedConfigStatus = {
    configHash: set.hash,
    ...(loadedReplicas.length > 0 ? { loadedReplicas } : {}),
    ...(pendingReplicas.length > 0 ? { pendingReplicas } : {}),
  };
  return failures.length > 0
    ? { state: 'failed', message: failures.map((f) => `pod ${f.pod}: ${f.message}`).join('; '), status }
    : { state: pendingReplicas.some((p) => p.reason === RELOADING_REASON) ? 'reloading' : 'loaded', status };
}

function podState(memory: SetMemory, pod: V1Pod): PodState {
  const name = podName(pod);
  const callability = podCallability(pod, memory.set.program);
  if (!callability.callable) return { pod: name, state: 'pending', reason: callability.reason, message: callability.message };
  if (memory.set.notCallable !== undefined) return { pod: name, state: 'pending', reason: 'ListenLocal', message: memory.set.notCallable };
  const uid = pod.metadata?.uid ?? '';
  const same = (known: { uid: string; ip: string } | undefined) => known !== undefined && known.uid === uid && known.ip === callability.ip;
  if (same(memory.verified.get(name))) return { pod: name, state: 'loaded' };
  const failed = memory.failed.get(name);
  if (same(failed)) return failed!.failure;
  return { pod: name, state: 'pending', reason: RELOADING_REASON, message: `promop is reloading it with config ${memory.hash}` };
}

/** Remembers that the pod `name` (`uid`, at `ip`) did not come to run the files, and why. */
export function recordFailure(memory: SetMemory, name: string, uid: string, ip: string, outcome: Exclude<ReloadOutcome, { outcome: 'verified' }>): void {
  memory.verified.delete(name);
  const failure: PodFailure = { pod: name, state: 'failed', reason: FAILURE_REASONS[outcome.outcome], message: failureMessage(outcome, memory.set.program) };
  memory.failed.set(name, { uid, ip, failure });
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

export function podName(pod: V1Pod): string {
  return pod.metadata?.name ?? '';
}

/** A pod's name and uid: a pod recreated under the same name is another pod. */
export function podIdentity(pod: V1Pod): string {
  return `${podName(pod)}/${pod.metadata?.uid ?? ''}`;
}
