/**
 * The convergence check, made general: after a scenario, a freshly started promop (a new process, a new
 * identity) computes the config Secrets, rule ConfigMaps, StatefulSets and statuses from the same objects. If the
 * promop that lived through the faults left them exactly so, the fresh one finds nothing to change: the audit log
 * holds no write by its identity once it has reconciled and gone quiet.
 */
import type { ChaosCluster } from './chaos-cluster.ts';
import { writesBy } from './audit-log.ts';
import { startPromop } from './promop-process.ts';
import { untilSettled } from './settle.ts';

let freshCount = 0;

/** What the fresh promop did. */
export interface FreshPromopResult {
  /** Its writes (`verb resource namespace/name`): empty when the world had converged. */
  writes: string[];
  /** From its start to settled, in ms. */
  settledMs: number;
}

/**
 * Starts a fresh promop against `cluster` (direct, no proxy), waits until it has reconciled and settled, stops
 * it and returns its writes. The promop under test must be stopped first, or the two would both reconcile.
 */
export async function freshPromopWrites(cluster: ChaosCluster): Promise<FreshPromopResult> {
  freshCount += 1;
  const { kubeconfigPath, user } = await cluster.identity(`fresh-${freshCount}`);
  const started = Date.now();
  const fresh = await startPromop({ name: `fresh-${freshCount}`, kubeconfigPath, dir: cluster.env.dir, ...(cluster.promopNetwork ? { network: cluster.promopNetwork } : {}) });
  try {
    await fresh.untilReady();
    await untilSettled(fresh, { activity: () => writesBy(cluster.auditLogPath, user).length });
    return { writes: writesBy(cluster.auditLogPath, user), settledMs: Date.now() - started };
  } finally {
    await fresh.stop();
  }
}
