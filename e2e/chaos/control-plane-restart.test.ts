/**
 * Chaos scenario 2: kube-apiserver restarts, then etcd is killed and restarted, each while promop reconciles a
 * batch of changes. The same promop process recovers its watches (it is not restarted): the changes made after each
 * restart reach the config, it ends converged, and a fresh promop finds nothing to write. Prints the downtime of
 * each restart and the time to converge after it.
 */
import { writesBy } from './audit-log.ts';
import { startChaosCluster, type ChaosCluster } from './chaos-cluster.ts';
import { freshPromopWrites } from './convergence.ts';
import { MonitorBurst } from './monitor-burst.ts';
import { startPromop, type PromopProcess } from './promop-process.ts';
import { configText, isReconciled, rulesText } from './rendered-state.ts';
import { until, untilSettled } from './settle.ts';

describe('chaos 2: kube-apiserver, then etcd, restarted in the middle of reconciling', () => {
  let cluster: ChaosCluster;
  let promop: PromopProcess | undefined;
  let burst: MonitorBurst;
  let user: string;

  beforeAll(async () => {
    cluster = await startChaosCluster();
    burst = new MonitorBurst(cluster.custom, 2);
    await burst.seed(10);
    const identity = await cluster.identity('promop');
    user = identity.user;
    promop = await startPromop({ name: 'promop', kubeconfigPath: identity.kubeconfigPath, dir: cluster.env.dir });
    await promop.untilReady();
    await until('the first config', async () => burst.differences(await configText(cluster.core), await rulesText(cluster.core)).length === 0, 60_000);
    await untilSettled(promop, { activity: () => writesBy(cluster.auditLogPath, user).length });
  }, 120_000);

  afterAll(async () => {
    await promop?.stop();
    await cluster?.stop();
  });

  it('recovers its watches without a restart and converges after each', async () => {
    const figures: string[] = [];
    for (const { name, kill } of [{ name: 'kube-apiserver', kill: false }, { name: 'etcd', kill: true }] as const) {
      // A batch of changes, and the restart while promop works on them.
      await burst.burst(15);
      const down = Date.now();
      await cluster.env.restart(name, { kill });
      const downMs = Date.now() - down;
      // Changes after the restart arrive only through watches that recovered.
      await burst.burst(15);
      let last: string[] = [];
      const convergedMs = await until(`every change in the config after the ${name} restart`, async () => {
        last = burst.differences(await configText(cluster.core), await rulesText(cluster.core));
        return last.length === 0 && (await isReconciled(cluster.custom));
      }, 90_000).catch((error: Error) => {
        throw new Error(`${error.message}; still different: ${last.slice(0, 10).join('; ')}\n${promop?.logTail(15)}`);
      });
      figures.push(`${name} ${kill ? 'killed' : 'stopped'} and back in ${downMs} ms; every change in the config ${convergedMs} ms later`);
    }
    process.stdout.write(`chaos 2 (control plane restarts):\n  ${figures.join('\n  ')}\n  same promop process throughout (pid ${promop!.pid})\n`);
    expect(await Promise.race([promop!.exited, new Promise((resolve) => setTimeout(() => resolve('running'), 100))])).toBe('running');
  }, 240_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    await untilSettled(promop!, { activity: () => writesBy(cluster.auditLogPath, user).length });
    await promop?.stop();
    const fresh = await freshPromopWrites(cluster);
    process.stdout.write(`chaos 2: fresh promop settled in ${fresh.settledMs} ms, ${fresh.writes.length} writes\n`);
    expect(fresh.writes).toEqual([]);
  }, 90_000);
});
