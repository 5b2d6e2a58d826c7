/**
 * Chaos scenario 1: `kill -9` promop at random points during a burst of 500 ServiceMonitor and PrometheusRule
 * changes (creates, updates, deletes), restarting it each time; once the burst ends, promop converges and no change
 * is lost: every live monitor's job carries its latest port, every live rule its latest expression, nothing of a
 * deleted one remains, and a fresh promop finds nothing to write.
 */
import { writesBy } from './audit-log.ts';
import { startChaosCluster, type ChaosCluster } from './chaos-cluster.ts';
import { freshPromopWrites } from './convergence.ts';
import { MonitorBurst, seededRandom } from './monitor-burst.ts';
import { startPromop, type PromopProcess } from './promop-process.ts';
import { configText, isReconciled, rulesText } from './rendered-state.ts';
import { until, untilSettled } from './settle.ts';

const SEED = 1;
const CHANGES = 500;
const KILLS = 4;

describe('chaos 1: promop killed with SIGKILL during a burst of changes', () => {
  let cluster: ChaosCluster;
  let promop: PromopProcess | undefined;
  let burst: MonitorBurst;
  let identity: { kubeconfigPath: string; user: string };
  let restarts = 0;

  const start = () => startPromop({ name: `promop-${restarts}`, kubeconfigPath: identity.kubeconfigPath, dir: cluster.env.dir });

  beforeAll(async () => {
    cluster = await startChaosCluster();
    burst = new MonitorBurst(cluster.custom, SEED);
    await burst.seed(20);
    identity = await cluster.identity('promop');
    promop = await start();
    await promop.untilReady();
    await until('the first config', async () => burst.differences(await configText(cluster.core), await rulesText(cluster.core)).length === 0, 60_000);
  }, 120_000);

  afterAll(async () => {
    await promop?.stop();
    await cluster?.stop();
  });

  it(`loses none of ${CHANGES} changes and converges`, async () => {
    const random = seededRandom(SEED);
    const killAt = new Set(Array.from({ length: KILLS }, (_, k) => Math.floor(((k + random()) * CHANGES) / KILLS)));
    const burstStarted = Date.now();
    await burst.burst(CHANGES, async (i) => {
      if (!killAt.has(i) || !promop) return;
      promop.kill('SIGKILL');
      await promop.exited;
      restarts += 1;
      // Started again at once, without waiting for it: the teams keep changing things while it lists and syncs.
      promop = await start();
    });
    const burstMs = Date.now() - burstStarted;
    const burstEnded = Date.now();
    let last: string[] = [];
    const convergedMs = await until('every change in the config and rule files', async () => {
      last = burst.differences(await configText(cluster.core), await rulesText(cluster.core));
      return last.length === 0 && (await isReconciled(cluster.custom));
    }, 90_000).catch((error: Error) => {
      throw new Error(`${error.message}; still different: ${last.slice(0, 10).join('; ')}`);
    });
    await untilSettled(promop!, { activity: () => writesBy(cluster.auditLogPath, identity.user).length });
    process.stdout.write(`chaos 1 (SIGKILL during a burst): ${CHANGES} changes in ${burstMs} ms with ${restarts} kills at changes ${[...killAt].join(', ')}; `
      + `config and rules complete ${convergedMs} ms after the burst (${burst.liveCount('ServiceMonitor')} ServiceMonitors, ${burst.liveCount('PrometheusRule')} PrometheusRules live); `
      + `promop wrote ${writesBy(cluster.auditLogPath, identity.user).length} times in all\n`);
    expect(restarts).toBe(killAt.size);
    expect(Date.now() - burstEnded).toBeLessThan(90_000);
  }, 180_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    await promop?.stop();
    const fresh = await freshPromopWrites(cluster);
    process.stdout.write(`chaos 1: fresh promop settled in ${fresh.settledMs} ms, ${fresh.writes.length} writes\n`);
    expect(fresh.writes).toEqual([]);
  }, 90_000);
});
