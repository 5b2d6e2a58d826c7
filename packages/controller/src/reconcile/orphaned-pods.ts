/**
 * The pods a StatefulSet of another operator left running when promop replaced it (statefulset-apply.ts), until
 * each is gone. promop's StatefulSet of the same name cannot create a pod while an orphan holds its name: the
 * StatefulSet controller's attempts fail, and it retries them with a back-off that doubles up to minutes. When the
 * platform then deletes an orphan (docs/migrating.md, one at a time), nothing tells that controller: the orphan is
 * not its pod. So while orphans remain, the reconcile looks again, and when one is gone it touches promop's
 * StatefulSet (an annotation), which makes the controller create the pod now instead of at its next retry. How soon
 * it looks again backs off (ORPHAN_CHECK_INTERVAL_MS doubling to ORPHAN_CHECK_MAX_INTERVAL_MS, from the start again
 * when one is gone): each look is a whole reconcile on the kind's only worker, and how long the user takes to
 * delete the old pods has no bound. Kept in memory: after a restart of promop the controller's own retry still
 * creates the pods, later.
 */
import type { Logger } from 'pino';
import type { ReconcilerChildren } from './reconciler-ports.ts';

/** Annotation promop sets on its StatefulSet when an orphan of the same name is gone (the last one's name and uid). */
export const ORPHAN_GONE_ANNOTATION = 'promop.prometheus.io/orphan-replaced';

/** How long the reconcile waits before it looks again while orphans remain, first and after one is gone. */
export const ORPHAN_CHECK_INTERVAL_MS = 2_000;

/**
 * The longest wait between two looks while no orphan goes: also the longest a deleted orphan's replacement waits
 * to start, which is part of that replica's scrape gap during a takeover.
 */
export const ORPHAN_CHECK_MAX_INTERVAL_MS = 10_000;

interface Orphan {
  namespace: string;
  statefulSet: string;
  pod: string;
  uid: string;
}

/** The orphans of one object, and the wait it was last told before it looks again (0: not told yet). */
interface Followed {
  orphans: Orphan[];
  lastDelayMs: number;
}

export class OrphanedPods {
  readonly #children: Pick<ReconcilerChildren, 'podUid' | 'annotateStatefulSet'>;
  /** Per key of the workload object whose StatefulSet was replaced. */
  readonly #orphans = new Map<string, Followed>();

  constructor(children: Pick<ReconcilerChildren, 'podUid' | 'annotateStatefulSet'>) {
    this.#children = children;
  }

  /**
   * Notes the pods `<statefulSet>-0 … -<replicas - 1>` that exist now: the StatefulSet's about to be replaced (their
   * names and uids stay when they are orphaned). A pod noted already (same name and uid) is not noted twice: a
   * replacement that failed after the delete is tried again, and notes them again.
   */
  async record(key: string, namespace: string, statefulSet: string, replicas: number, log: Logger): Promise<void> {
    const followed = this.#orphans.get(key);
    const held = (pod: string, uid: string) => followed?.orphans.some((each) => each.namespace === namespace && each.pod === pod && each.uid === uid) === true;
    const found: Orphan[] = [];
    for (let ordinal = 0; ordinal < replicas; ordinal += 1) {
      const pod = `${statefulSet}-${ordinal}`;
      const uid = await this.#children.podUid(namespace, pod);
      if (uid && !held(pod, uid)) found.push({ namespace, statefulSet, pod, uid });
    }
    if (found.length === 0) return;
    this.#orphans.set(key, { orphans: [...(followed?.orphans ?? []), ...found], lastDelayMs: 0 });
    log.info({ childName: statefulSet, pods: found.map((orphan) => orphan.pod) }, 'pods of the replaced StatefulSet keep running until they are deleted; promop\'s StatefulSet starts its own as each goes');
  }

  /**
   * Touches the StatefulSet of each orphan of `key` that is gone since the last call. Resolves, while some remain,
   * how long to wait before looking again: ORPHAN_CHECK_INTERVAL_MS first and after one is gone, twice the last
   * wait otherwise, at most ORPHAN_CHECK_MAX_INTERVAL_MS; undefined when none remain.
   */
  async replaceGone(key: string, log: Logger): Promise<number | undefined> {
    const followed = this.#orphans.get(key);
    if (!followed) return undefined;
    const remaining: Orphan[] = [];
    for (const orphan of followed.orphans) {
      if ((await this.#children.podUid(orphan.namespace, orphan.pod)) === orphan.uid) {
        remaining.push(orphan);
        continue;
      }
      await this.#children.annotateStatefulSet(orphan.namespace, orphan.statefulSet, { [ORPHAN_GONE_ANNOTATION]: `${orphan.pod}/${orphan.uid}` });
      log.info({ childName: orphan.statefulSet, pod: orphan.pod }, 'orphaned pod gone: StatefulSet touched so it starts promop\'s pod now');
    }
    if (remaining.length === 0) {
      this.#orphans.delete(key);
      return undefined;
    }
    const oneGone = remaining.length < followed.orphans.length;
    const delayMs = oneGone || followed.lastDelayMs === 0
      ? ORPHAN_CHECK_INTERVAL_MS
      : Math.min(followed.lastDelayMs * 2, ORPHAN_CHECK_MAX_INTERVAL_MS);
    this.#orphans.set(key, { orphans: remaining, lastDelayMs: delayMs });
    return delayMs;
  }

  /** Forgets the orphans of `key` (its object is gone). */
  forget(key: string): void {
    this.#orphans.delete(key);
  }
}
