/**
 * Chaos scenario 6: two promop replicas with leader election; the leader is SIGKILLed in the middle of a burst of
 * changes. The stand-by takes over once the Lease expires (its duration plus a retry period or two: the stand-by
 * judges expiry by the last renewal it saw), and there are never two writers: in the audit log, every write of the
 * new leader comes after the last write of the old one. Prints the take-over time.
 */
import { DEFAULT_LEASE_DURATION_MS, DEFAULT_RETRY_PERIOD_MS } from '@promop/controller/kube';
import { actingUser, readAuditLog, WRITE_VERBS, type AuditEvent } from './audit-log.ts';
import { startChaosCluster, type ChaosCluster } from './chaos-cluster.ts';
import { freshPromopWrites } from './convergence.ts';
import { MonitorBurst } from './monitor-burst.ts';
import { startPromop, type PromopProcess } from './promop-process.ts';
import { configText, isReconciled, rulesText } from './rendered-state.ts';
import { until, untilSettled } from './settle.ts';

/** Lease expiry seen from the stand-by, its next attempt, and room for a loaded machine. */
const TAKE_OVER_BOUND_MS = DEFAULT_LEASE_DURATION_MS + 2 * DEFAULT_RETRY_PERIOD_MS + 4_000;

const isLeader = async (replica: PromopProcess): Promise<boolean> => (await replica.metrics())?.get('promop_leader') === 1;

/** Writes by `user` other than to its Lease, with the time the API server received them (µs precision). */
function writesOf(events: AuditEvent[], user: string): { at: string; what: string }[] {
  return events
    .filter((e) => WRITE_VERBS.has(e.verb) && actingUser(e) === user && e.objectRef?.resource !== 'leases' && (e.responseStatus?.code ?? 0) < 400)
    .map((e) => ({ at: e.requestReceivedTimestamp ?? '', what: `${e.verb} ${e.objectRef?.resource}/${e.objectRef?.name}` }));
}

describe('chaos 6: two replicas, the leader SIGKILLed during a burst', () => {
  let cluster: ChaosCluster;
  const replicas: PromopProcess[] = [];
  let burst: MonitorBurst;
  const users = new Map<PromopProcess, string>();

  beforeAll(async () => {
    cluster = await startChaosCluster();
    burst = new MonitorBurst(cluster.custom, 6);
    await burst.seed(10);
    for (const name of ['replica-a', 'replica-b']) {
      const identity = await cluster.identity(name);
      const replica = await startPromop({ name, kubeconfigPath: identity.kubeconfigPath, dir: cluster.env.dir, leaderElect: true, args: ['--leader-election-id', 'chaos'] });
      replicas.push(replica);
      users.set(replica, identity.user);
      // The first one leads before the second starts, so which one leads is known.
      await replica.untilReady();
      if (replicas.length === 1) await until('replica-a leads', () => isLeader(replica), 30_000);
    }
    await until('the first config', async () => burst.differences(await configText(cluster.core), await rulesText(cluster.core)).length === 0, 60_000);
  }, 120_000);

  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await cluster?.stop();
  });

  it('the stand-by takes over within the lease time, and never writes while the leader does', async () => {
    const [leader, standBy] = replicas as [PromopProcess, PromopProcess];
    expect(await isLeader(leader)).toBe(true);
    expect(await isLeader(standBy)).toBe(false);
    let killedAt = 0;
    let takeOver: Promise<number> | undefined;
    // Paced (about 25 s in all), so changes keep coming before, during and after the take-over.
    await burst.burst(120, async (i) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      if (i !== 30) return;
      leader.kill('SIGKILL');
      killedAt = Date.now();
      takeOver = until('the stand-by leads', () => isLeader(standBy), TAKE_OVER_BOUND_MS + 10_000);
    });
    const takeOverMs = await takeOver!;
    const convergedMs = await until('every change in the config', async () =>
      burst.differences(await configText(cluster.core), await rulesText(cluster.core)).length === 0 && (await isReconciled(cluster.custom)), 60_000);

    const events = readAuditLog(cluster.auditLogPath);
    const oldWrites = writesOf(events, users.get(leader) as string);
    const newWrites = writesOf(events, users.get(standBy) as string);
    const lastOld = oldWrites.map((w) => w.at).sort().at(-1) ?? '';
    const firstNew = newWrites.map((w) => w.at).sort()[0] ?? '';
    process.stdout.write(`chaos 6 (leader SIGKILLed mid-burst): stand-by leads ${takeOverMs} ms after the kill (bound ${TAKE_OVER_BOUND_MS} ms); `
      + `old leader ${oldWrites.length} writes, last at ${lastOld}; new leader ${newWrites.length} writes, first at ${firstNew}; every change in the config ${convergedMs} ms after the burst\n`);
    expect(takeOverMs).toBeLessThan(TAKE_OVER_BOUND_MS);
    expect(oldWrites.length).toBeGreaterThan(0);
    expect(newWrites.length).toBeGreaterThan(0);
    // Never two writers: the new leader's first write comes after the old one's last (ISO timestamps sort as text).
    expect(firstNew > lastOld).toBe(true);
    expect(new Date(firstNew).getTime()).toBeGreaterThanOrEqual(killedAt - 1_000);
  }, 150_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    // The config can be complete while the new leader's binding pass is still writing statuses (passes run beside
    // the work queue); stopping it then drops the rest, and the fresh promop would find them to write. Settled
    // means its queue is empty and its writes (its Lease renewals, every retry period, apart) have been quiet for
    // the settle window.
    const newLeader = replicas[1] as PromopProcess;
    await untilSettled(newLeader, { activity: () => writesOf(readAuditLog(cluster.auditLogPath), users.get(newLeader) as string).length });
    for (const replica of replicas) await replica.stop();
    const fresh = await freshPromopWrites(cluster);
    process.stdout.write(`chaos 6: fresh promop settled in ${fresh.settledMs} ms, ${fresh.writes.length} writes\n`);
    expect(fresh.writes).toEqual([]);
  }, 90_000);
});
