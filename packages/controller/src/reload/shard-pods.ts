/**
 * Which pods belong to a shard and which of them can be asked to reload (pure). Only a Running pod whose Ready
 * condition is True and that has an IP is called: the others have no Prometheus serving yet, and they do not need
 * a reload, since Prometheus reads the files on the volume as they are when it starts.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { shardSelectorLabels, type WorkloadKind } from '../workload/index.ts';

/** Annotation promop sets on each pod of a shard: the hash of the files written for the shard. */
export const CONFIG_HASH_ANNOTATION = 'promop.prometheus.io/config-hash';

/** Why a pod is not called; also the `reason` of its `status.configStatus[].pendingReplicas` entry. */
export type NotCallableReason = 'Terminating' | 'NotRunning' | 'NotReady' | 'NoPodIP';

/** A pod that can be called at `ip`, or why it cannot. */
export type PodCallability =
  | { callable: true; ip: string }
  | { callable: false; reason: NotCallableReason; message: string };

/** The pods of shard `shard` of Prometheus (or agent, with `kind`) `prometheusName` among `pods` (one namespace), by name. */
export function podsOfShard(pods: readonly V1Pod[], prometheusName: string, shard: number, kind: WorkloadKind = 'Prometheus'): V1Pod[] {
  return podsWithLabels(pods, shardSelectorLabels(prometheusName, shard, kind));
}

/** The pods among `pods` that carry every label of `selector`, by name. */
export function podsWithLabels(pods: readonly V1Pod[], selector: Readonly<Record<string, string>>): V1Pod[] {
  const wanted = Object.entries(selector);
  return pods
    .filter((pod) => wanted.every(([key, value]) => pod.metadata?.labels?.[key] === value))
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
}

/** Whether `pod` can be asked to reload now; `program` names what it runs in the messages. */
export function podCallability(pod: V1Pod, program: 'Prometheus' | 'Alertmanager' | 'Thanos Ruler' = 'Prometheus'): PodCallability {
  if (pod.metadata?.deletionTimestamp) return { callable: false, reason: 'Terminating', message: 'the pod is being deleted' };
  const phase = pod.status?.phase;
  if (phase !== 'Running') return { callable: false, reason: 'NotRunning', message: `the pod is ${phase ?? 'without a phase'}; it reads the current files when it starts` };
  const ready = pod.status?.conditions?.find((condition) => condition.type === 'Ready');
  if (ready?.status !== 'True') return { callable: false, reason: 'NotReady', message: `${program} is not ready; it reads the current files when it starts` };
  const ip = pod.status?.podIP;
  if (!ip) return { callable: false, reason: 'NoPodIP', message: 'the pod has no IP yet' };
  return { callable: true, ip };
}

/**
 * Whether `pod` should get the config-hash annotation `hash`: every pod of the shard that does not carry it yet,
 * except one being deleted. Not-ready pods too: a pod crash-looping on an old config gets the new files before
 * its next start.
 */
export function needsConfigHash(pod: V1Pod, hash: string): boolean {
  return !pod.metadata?.deletionTimestamp && pod.metadata?.annotations?.[CONFIG_HASH_ANNOTATION] !== hash;
}
