/**
 * The apply of one StatefulSet of a workload (a Prometheus shard, an Alertmanager, a ThanosRuler), with the two
 * cases where an apply alone cannot make it match, each handled by deleting the StatefulSet without its pods
 * (propagationPolicy Orphan) first: a StatefulSet of the same name that another operator created for the same
 * object (a takeover from prometheus-operator), and a change the API server refuses because the field is fixed at
 * creation (volumeClaimTemplates, serviceName, selector). The pods of a replaced foreign StatefulSet are followed
 * until they are gone (orphaned-pods.ts). One per reconciler: the keys are that reconciler's object keys.
 */
import type { V1StatefulSet } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { isImmutableStatefulSetChange } from '../kube/child-writer.ts';
import { MANAGED_BY } from '../workload/index.ts';
import { nameOf } from './child-metadata.ts';
import { OrphanedPods } from './orphaned-pods.ts';
import type { ReconcilerChildren } from './reconciler-ports.ts';

/** What replacing a StatefulSet needs of the API server. */
export type StatefulSetApplyChildren = Pick<ReconcilerChildren,
  'statefulSetUid' | 'statefulSetIdentity' | 'deleteStatefulSetKeepingPods' | 'untilStatefulSetGone' | 'podUid' | 'annotateStatefulSet'>;

/**
 * Writes `body` over `cached` (undefined: creates it, or writes over what the API server holds); the reconciler's
 * own write, so that one that skips up-to-date StatefulSets (child-writes.ts) keeps doing so.
 */
export type StatefulSetWrite = (body: V1StatefulSet, cached: V1StatefulSet | undefined) => Promise<V1StatefulSet>;

export class StatefulSetApply {
  readonly #children: StatefulSetApplyChildren;
  /** The kind of the owning object, named in the log lines. */
  readonly #ownerKind: string;
  /** Pods of replaced StatefulSets of other operators, until they are gone. */
  readonly #orphans: OrphanedPods;

  constructor(children: StatefulSetApplyChildren, ownerKind: string) {
    this.#children = children;
    this.#ownerKind = ownerKind;
    this.#orphans = new OrphanedPods(children);
  }

  /**
   * Applies `statefulSet` of object `key` with `write`, `cached` being promop's StatefulSet of that name as its
   * cache holds it. A change the API server refuses because the field is fixed at creation is made by deleting the
   * StatefulSet with propagationPolicy Orphan, waiting until it is gone, and creating it again: the pods keep
   * running and the new StatefulSet adopts them (same selector). prometheus-operator deletes it in the foreground
   * instead, which deletes the pods too (docs/compatibility.md). Returns the StatefulSet as stored.
   */
  async apply(key: string, statefulSet: V1StatefulSet, cached: V1StatefulSet | undefined, write: StatefulSetWrite, log: Logger): Promise<V1StatefulSet> {
    const children = this.#children;
    const namespace = statefulSet.metadata?.namespace ?? '';
    const name = nameOf(statefulSet);
    if (!cached) await this.#replaceForeign(key, statefulSet, log);
    try {
      return await write(statefulSet, cached);
    } catch (error) {
      if (!isImmutableStatefulSetChange(error)) throw error;
      const uid = await children.statefulSetUid(namespace, name);
      if (uid) {
        await children.deleteStatefulSetKeepingPods(namespace, name, uid);
        await children.untilStatefulSetGone(namespace, name, uid);
      }
      log.info({ child: 'StatefulSet', childName: name, previousUid: uid }, 'StatefulSet deleted (pods orphaned, not deleted) to change a field fixed at creation; creating it again');
      return write(statefulSet, undefined);
    }
  }

  /**
   * Deletes, without its pods, a StatefulSet of this name that another operator created for the same object:
   * prometheus-operator's, when promop takes a cluster over from it (its managed-by label is not promop's, and the
   * object owns it). Applied over instead, it would keep the other manager's fields merged into promop's template
   * (server-side apply leaves fields it does not own: the config-reloader containers, their volumes), which the API
   * server refuses, and its pod selector cannot change anyway. Its pods keep running; they carry the other
   * operator's labels, so the StatefulSet promop creates next does not adopt them, and the platform replaces them
   * one at a time (docs/migrating.md). Looked up only while promop's cache holds no StatefulSet of that name, that
   * is before promop created one; a StatefulSet the object does not own is left to the apply, whose refusal is
   * reported in status.
   */
  async #replaceForeign(key: string, statefulSet: V1StatefulSet, log: Logger): Promise<void> {
    const children = this.#children;
    const namespace = statefulSet.metadata?.namespace ?? '';
    const name = nameOf(statefulSet);
    const existing = await children.statefulSetIdentity(namespace, name);
    if (!existing || existing.managedBy === MANAGED_BY) return;
    const owner = statefulSet.metadata?.ownerReferences?.[0]?.uid;
    if (!owner || !existing.ownerUids.includes(owner)) return;
    // Noted before the delete: when the wait after it fails, the retry finds the StatefulSet gone and would not
    // note them, and promop's pods of their names would wait for the StatefulSet controller's back-off.
    await this.#orphans.record(key, namespace, name, existing.replicas, log);
    await children.deleteStatefulSetKeepingPods(namespace, name, existing.uid);
    await children.untilStatefulSetGone(namespace, name, existing.uid);
    log.info({ child: 'StatefulSet', childName: name, previousUid: existing.uid, previousManager: existing.managedBy ?? '(none)' },
      `StatefulSet another operator created for this ${this.#ownerKind} deleted (pods orphaned, not deleted); creating promop's`);
  }

  /**
   * Makes promop's StatefulSets start the pods whose names orphans of a replaced StatefulSet held, as soon as those
   * are gone; resolves, while orphans remain, in how many milliseconds to reconcile again (a back-off:
   * orphaned-pods.ts), undefined when none remain.
   */
  replaceGoneOrphans(key: string, log: Logger): Promise<number | undefined> {
    return this.#orphans.replaceGone(key, log);
  }

  /** Forgets the orphans of object `key` (it is gone). */
  forget(key: string): void {
    this.#orphans.forget(key);
  }
}
