/**
 * The nudge that makes the kubelet copy new files into a pod now. The kubelet refreshes a mounted Secret or
 * ConfigMap volume only when it syncs the pod: periodically (`--sync-frequency`, one minute by default, plus its
 * cache TTL) or when the pod object changes. Measured: after a write, the new file appears in the pod after up to a
 * minute on its own, and about a second after any update of the pod. So each pod of a set gets the annotation
 * `promop.prometheus.io/config-hash: <hash of the files>` as soon as the hash differs from the one it carries. Only
 * the pod's own metadata is patched, never the StatefulSet's pod template: a template change would roll every pod.
 */
import type { V1Pod } from '@kubernetes/client-node';
import { describeError, type PodAnnotator } from '../kube/index.ts';
import { podIdentity, podName, type SetMemory } from './pod-set.ts';
import { CONFIG_HASH_ANNOTATION, needsConfigHash } from './shard-pods.ts';

/**
 * The least time between two nudges of a set's pods. New files are nudged at once, before the reload under way
 * ends, so that the kubelet copies them meanwhile; under a stream of writes, the pods get at most four writes a
 * second, the last with the newest hash.
 */
const NUDGE_INTERVAL_MS = 250;

/** Nudges the pods of each set for its newest files, at most every NUDGE_INTERVAL_MS per set. */
export class KubeletNudge {
  readonly #annotator: PodAnnotator;
  /** Set id → when its pods were last nudged, and the nudge due if one is. */
  readonly #nudges = new Map<string, { lastAt: number; due: ReturnType<typeof setTimeout> | undefined }>();

  constructor(annotator: PodAnnotator) {
    this.#annotator = annotator;
  }

  /**
   * Nudges every pod of the set `id` (not-ready and listenLocal ones too: they read the files when they start) for
   * the files `newest()` gives when the nudge runs: now, or NUDGE_INTERVAL_MS after the last nudge. Nothing when it
   * gives none (the set was forgotten, the reloader stopped).
   */
  soon(id: string, newest: () => SetMemory | undefined): void {
    let nudge = this.#nudges.get(id);
    if (!nudge) this.#nudges.set(id, (nudge = { lastAt: Number.NEGATIVE_INFINITY, due: undefined }));
    if (nudge.due !== undefined) return;
    const run = (): void => {
      nudge.due = undefined;
      nudge.lastAt = performance.now();
      const memory = newest();
      if (memory) void this.annotate(memory, memory.set.listPods());
    };
    const wait = nudge.lastAt + NUDGE_INTERVAL_MS - performance.now();
    if (wait <= 0) return run();
    nudge.due = setTimeout(run, wait);
    nudge.due.unref();
  }

  /** Forgets the sets whose id starts with `prefix` (every set without one), cancelling their nudges due. */
  forget(prefix: string | undefined): void {
    for (const [id, nudge] of this.#nudges) {
      if (prefix !== undefined && !id.startsWith(prefix)) continue;
      clearTimeout(nudge.due);
      this.#nudges.delete(id);
    }
  }

  /** The pods of `pods` without the hash of `memory` that this process has not annotated (or is annotating) with it. */
  unnudged(memory: SetMemory, pods: readonly V1Pod[]): V1Pod[] {
    return pods.filter((pod) => needsConfigHash(pod, memory.hash) && !memory.annotated.has(podIdentity(pod)));
  }

  /**
   * Sets the config-hash annotation on every pod that lacks this hash and that this process has not annotated with
   * it yet (the cache may not show that write yet).
   */
  async annotate(memory: SetMemory, pods: readonly V1Pod[]): Promise<void> {
    const { namespace, log } = memory.set;
    const annotated: string[] = [];
    const due = this.unnudged(memory, pods);
    for (const pod of due) memory.annotated.add(podIdentity(pod));
    await Promise.all(due.map(async (pod) => {
      try {
        if (await this.#annotator.annotate(namespace, podName(pod), CONFIG_HASH_ANNOTATION, memory.hash)) annotated.push(podName(pod));
      } catch (error) {
        memory.annotated.delete(podIdentity(pod));
        // Only a delay: without the nudge the kubelet still refreshes the files on its periodic sync.
        log.warn({ pod: podName(pod), err: describeError(error) }, 'could not annotate the pod; the kubelet will update its files on its next periodic sync');
      }
    }));
    if (annotated.length > 0) log.info({ pods: annotated.sort(), configHash: memory.hash }, 'pods annotated with the new config hash, so the kubelet updates their files now');
  }
}
