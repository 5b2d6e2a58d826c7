/**
 * StatefulSetApply's takeover of another operator's StatefulSet and the following of its orphaned pods, against
 * a fake of the few API calls it makes (the API-server behaviour is statefulset-replacement.apiserver.test.ts).
 */
import type { V1StatefulSet } from '@kubernetes/client-node';
import { pino } from 'pino';
import type { StatefulSetIdentity } from '../kube/child-writer.ts';
import { ORPHAN_CHECK_INTERVAL_MS, ORPHAN_CHECK_MAX_INTERVAL_MS, ORPHAN_GONE_ANNOTATION } from './orphaned-pods.ts';
import { StatefulSetApply, type StatefulSetApplyChildren } from './statefulset-apply.ts';

const KEY = 'monitoring/main';
const NAME = 'alertmanager-main';
const log = pino({ level: 'silent' });

/** The API server as the collaborator sees it: one foreign StatefulSet, its pods, and the calls made. */
function fakeServer() {
  const state = {
    foreign: { uid: 'uid-po-sts', managedBy: 'prometheus-operator', ownerUids: ['uid-main'], replicas: 2 } as StatefulSetIdentity | undefined,
    pods: new Map([[`${NAME}-0`, 'uid-po-0'], [`${NAME}-1`, 'uid-po-1']]),
    annotations: [] as string[],
    deletes: 0,
    /** The wait after the delete fails this many more times (a timeout). */
    waitFailures: 0,
  };
  const children: StatefulSetApplyChildren = {
    statefulSetUid: async () => state.foreign?.uid,
    statefulSetIdentity: async () => state.foreign,
    deleteStatefulSetKeepingPods: async () => {
      state.deletes += 1;
      state.foreign = undefined;
    },
    untilStatefulSetGone: async () => {
      if (state.waitFailures > 0) {
        state.waitFailures -= 1;
        throw new Error(`StatefulSet monitoring/${NAME} still exists 60000 ms after its deletion`);
      }
    },
    podUid: async (_namespace, name) => state.pods.get(name),
    annotateStatefulSet: async (_namespace, _name, annotations) => (state.annotations.push(String(annotations[ORPHAN_GONE_ANNOTATION])), true),
  };
  return { state, children };
}

const desired: V1StatefulSet = {
  metadata: { namespace: 'monitoring', name: NAME, ownerReferences: [{ apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager', name: 'main', uid: 'uid-main' }] },
};
const write = async (body: V1StatefulSet) => body;

describe('StatefulSetApply', () => {
  it('follows the orphans of a replaced foreign StatefulSet when the wait after its delete failed and the retry finds it gone', async () => {
    const { state, children } = fakeServer();
    const apply = new StatefulSetApply(children, 'Alertmanager');
    state.waitFailures = 1;
    await expect(apply.apply(KEY, desired, undefined, write, log)).rejects.toThrow('still exists');
    expect(state.deletes).toBe(1);
    // The work queue's retry: the foreign StatefulSet is gone now, promop's is created.
    await expect(apply.apply(KEY, desired, undefined, write, log)).resolves.toBe(desired);
    expect(state.deletes).toBe(1);
    await expect(apply.replaceGoneOrphans(KEY, log)).resolves.toBe(ORPHAN_CHECK_INTERVAL_MS);
    state.pods.delete(`${NAME}-0`);
    await expect(apply.replaceGoneOrphans(KEY, log)).resolves.toBe(ORPHAN_CHECK_INTERVAL_MS);
    expect(state.annotations).toEqual([`${NAME}-0/uid-po-0`]);
  });

  it('notes a pod once when the replacement is tried again while the StatefulSet is still there', async () => {
    const { state, children } = fakeServer();
    // The delete went through but the StatefulSet is still being finalized: the retry deletes it again.
    children.deleteStatefulSetKeepingPods = async () => { state.deletes += 1; };
    const apply = new StatefulSetApply(children, 'Alertmanager');
    state.waitFailures = 1;
    await expect(apply.apply(KEY, desired, undefined, write, log)).rejects.toThrow('still exists');
    await expect(apply.apply(KEY, desired, undefined, write, log)).resolves.toBe(desired);
    expect(state.deletes).toBe(2);
    state.pods.delete(`${NAME}-1`);
    await expect(apply.replaceGoneOrphans(KEY, log)).resolves.toBe(ORPHAN_CHECK_INTERVAL_MS);
    // Touched once for the one pod, not once per time it was noted.
    expect(state.annotations).toEqual([`${NAME}-1/uid-po-1`]);
    state.pods.delete(`${NAME}-0`);
    await expect(apply.replaceGoneOrphans(KEY, log)).resolves.toBeUndefined();
    expect(state.annotations).toEqual([`${NAME}-1/uid-po-1`, `${NAME}-0/uid-po-0`]);
  });

  it('looks again later and later while no orphan goes, and soon again after one went', async () => {
    const { state, children } = fakeServer();
    const apply = new StatefulSetApply(children, 'Alertmanager');
    await apply.apply(KEY, desired, undefined, write, log);
    const delays: (number | undefined)[] = [];
    for (let look = 0; look < 7; look += 1) delays.push(await apply.replaceGoneOrphans(KEY, log));
    expect(delays).toEqual([2_000, 4_000, 8_000, ORPHAN_CHECK_MAX_INTERVAL_MS, ORPHAN_CHECK_MAX_INTERVAL_MS, ORPHAN_CHECK_MAX_INTERVAL_MS, ORPHAN_CHECK_MAX_INTERVAL_MS]);
    expect(ORPHAN_CHECK_MAX_INTERVAL_MS).toBe(10_000);
    expect(ORPHAN_CHECK_INTERVAL_MS).toBe(2_000);
    state.pods.delete(`${NAME}-0`);
    await expect(apply.replaceGoneOrphans(KEY, log)).resolves.toBe(ORPHAN_CHECK_INTERVAL_MS);
    await expect(apply.replaceGoneOrphans(KEY, log)).resolves.toBe(2 * ORPHAN_CHECK_INTERVAL_MS);
    // A pod of the name that is not the orphan (promop's, made after it went) ends the following.
    state.pods.set(`${NAME}-1`, 'uid-promop-1');
    await expect(apply.replaceGoneOrphans(KEY, log)).resolves.toBeUndefined();
    await expect(apply.replaceGoneOrphans(KEY, log)).resolves.toBeUndefined();
    expect(state.annotations).toEqual([`${NAME}-0/uid-po-0`, `${NAME}-1/uid-po-1`]);
  });
});
