/**
 * The pods a StatefulSet of another operator left running when promop replaced it (statefulset-apply.ts), until
 * each is gone. promop's StatefulSet of the same name cannot create a pod while an orphan holds its name: the
 * StatefulSet controller's attempts fail, and it retries them with a back-off that doubles up to minutes. When the
 * platform then deletes an orphan (docs/migrating.md, one at a time), nothing tells that controller: the orphan is
 * not its pod. So while orphans remain, the reconcile looks again every few seconds, and when one is gone it
 * touches promop's StatefulSet (an annotation), which makes the controller create the pod now instead of at its
 * next retry. Kept in memory: after a restart of promop the controller's own retry still creates the pods, later.
 */
import type { Logger } from 'pino';
import type { ReconcilerChildren } from './reconciler-ports.ts';

/** Annotation promop sets on its StatefulSet when an orphan of the same name is gone (the last one's name and uid). */
export const ORPHAN_GONE_ANNOTATION = 'promop.prometheus.io/orphan-replaced';

/** How long the reconcile waits before it looks again while orphans remain. */
export const ORPHAN_CHECK_INTERVAL_MS = 2_000;

interface Orphan {
  namespace: string;
  statefulSet: string;
  pod: string;
  uid: string;
}

export class OrphanedPods {
  readonly #children: Pick<ReconcilerChildren, 'podUid' | 'annotateStatefulSet'>;
  /** Per key of the object (Prometheus, Alertmanager, ThanosRuler) whose StatefulSet was replaced. */
  readonly #orphans = new Map<string, Orphan[]>();

  constructor(children: Pick<ReconcilerChildren, 'podUid' | 'annotateStatefulSet'>) {
    this.#children = children;
  }

  /** Notes the pods `<statefulSet>-0 … -<replicas - 1>` that exist now: the replaced StatefulSet's. */
  async record(key: string, namespace: string, statefulSet: string, replicas: number, log: Logger): Promise<void> {
    const found: Orphan[] = [];
    for (let ordinal = 0; ordinal < replicas; ordinal += 1) {
      const pod = `${statefulSet}-${ordinal}`;
      const uid = await this.#children.podUid(namespace, pod);
      if (uid) found.push({ namespace, statefulSet, pod, uid });
    }
    if (found.length === 0) return;
    this.#orphans.set(key, [...(this.#orphans.get(key) ?? []), ...found]);
    log.info({ childName: statefulSet, pods: found.map((orphan) => orphan.pod) }, 'pods of the replaced StatefulSet keep running until they are deleted; promop\'s StatefulSet then starts its own at once');
  }

  /**
   * Touches the StatefulSet of each orphan of `key` that is gone since the last call; resolves true while some
   * remain (look again in ORPHAN_CHECK_INTERVAL_MS).
   */
  async replaceGone(key: string, log: Logger): Promise<boolean> {
    const orphans = this.#orphans.get(key);
    if (!orphans) return false;
    const remaining: Orphan[] = [];
    for (const orphan of orphans) {
      if ((await this.#children.podUid(orphan.namespace, orphan.pod)) === orphan.uid) {
        remaining.push(orphan);
        continue;
      }
      await this.#children.annotateStatefulSet(orphan.namespace, orphan.statefulSet, { [ORPHAN_GONE_ANNOTATION]: `${orphan.pod}/${orphan.uid}` });
      log.info({ childName: orphan.statefulSet, pod: orphan.pod }, 'orphaned pod gone: StatefulSet touched so it starts promop\'s pod now');
    }
    if (remaining.length > 0) this.#orphans.set(key, remaining);
    else this.#orphans.delete(key);
    return remaining.length > 0;
  }

  /** Forgets the orphans of `key` (its object is gone). */
  forget(key: string): void {
    this.#orphans.delete(key);
  }
}
