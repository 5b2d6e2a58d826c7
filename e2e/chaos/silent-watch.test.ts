/**
 * Chaos scenario 3: the watches go silent — the connection stays open and nothing more arrives, no event and no
 * bookmark (the fault proxy keeps the sockets and drops what the API server sends). promop notices from the silence
 * itself: a watch quiet for longer than WATCH_IDLE_MS (120 s; the API server sends a bookmark about once a minute)
 * is taken for dead and resumed from its last resourceVersion (packages/controller/src/kube/watched-cache.ts,
 * raw-api.ts). The changes made meanwhile reach the config within that bound, without a restart; a fresh promop
 * finds nothing to write. Prints the time to repair.
 */
import { writesBy } from './audit-log.ts';
import { startChaosCluster, type ChaosCluster } from './chaos-cluster.ts';
import { freshPromopWrites } from './convergence.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';
import { MonitorBurst } from './monitor-burst.ts';
import { startPromop, type PromopProcess } from './promop-process.ts';
import { configText, isReconciled, rulesText } from './rendered-state.ts';
import { until, untilSettled } from './settle.ts';

/** promop's idle bound for a watch (watched-cache.ts), plus a resume after a 1 s backoff and a reconcile. */
const REPAIR_BOUND_MS = 120_000 + 20_000;

describe('chaos 3: every watch silently stops delivering', () => {
  let cluster: ChaosCluster;
  let proxy: FaultProxy;
  let promop: PromopProcess | undefined;
  let burst: MonitorBurst;
  let user: string;

  beforeAll(async () => {
    cluster = await startChaosCluster();
    proxy = await startFaultProxy(cluster.env);
    burst = new MonitorBurst(cluster.custom, 3);
    await burst.seed(5);
    const identity = await cluster.identity('promop', proxy.url);
    user = identity.user;
    promop = await startPromop({ name: 'promop', kubeconfigPath: identity.kubeconfigPath, dir: cluster.env.dir });
    await promop.untilReady();
    await until('the first config', async () => burst.differences(await configText(cluster.core), await rulesText(cluster.core)).length === 0, 60_000);
    await untilSettled(promop, { activity: () => writesBy(cluster.auditLogPath, user).length });
  }, 120_000);

  afterAll(async () => {
    await promop?.stop();
    await proxy?.close();
    await cluster?.stop();
  });

  it('notices the silence and catches up within its idle bound, without a restart', async () => {
    const silenced = proxy.silenceOpenWatches();
    const silencedAt = Date.now();
    expect(silenced).toBeGreaterThanOrEqual(5);
    await burst.burst(20);
    let last: string[] = [];
    const repairMs = await until('the changes made during the silence in the config', async () => {
      last = burst.differences(await configText(cluster.core), await rulesText(cluster.core));
      return last.length === 0 && (await isReconciled(cluster.custom));
    }, REPAIR_BOUND_MS).catch((error: Error) => {
      throw new Error(`${error.message}; still different: ${last.slice(0, 10).join('; ')}\n${promop?.logTail(10)}`);
    });
    const rewatched = proxy.requests.filter((r) => r.watch && r.at > silencedAt).length;
    process.stdout.write(`chaos 3 (silent watches): ${silenced} watches silenced; the 20 changes made then were in the config ${Math.round((Date.now() - silencedAt) / 1000)} s after the silence began `
      + `(${repairMs} ms after the last change); ${rewatched} watches opened again meanwhile; same promop process (pid ${promop!.pid})\n`);
    expect(rewatched).toBeGreaterThanOrEqual(silenced);
    // The same process did it: no restart.
    expect(await Promise.race([promop!.exited, new Promise((resolve) => setTimeout(() => resolve('running'), 100))])).toBe('running');
  }, REPAIR_BOUND_MS + 30_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    await untilSettled(promop!, { activity: () => writesBy(cluster.auditLogPath, user).length });
    await promop?.stop();
    const fresh = await freshPromopWrites(cluster);
    process.stdout.write(`chaos 3: fresh promop settled in ${fresh.settledMs} ms, ${fresh.writes.length} writes\n`);
    expect(fresh.writes).toEqual([]);
  }, 90_000);
});
