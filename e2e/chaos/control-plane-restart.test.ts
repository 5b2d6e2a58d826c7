/**
 * Chaos scenario 2: kube-apiserver restarts, then etcd is killed and restarted, each while promop reconciles a
 * batch of changes. The same promop process recovers its watches (it is not restarted): the changes made after each
 * restart reach the config, it ends converged, and a fresh promop finds nothing to write. Prints the downtime of
 * each restart and the time to converge after it.
 */
import { startScenario, type Scenario } from './scenario.ts';

describe('chaos 2: kube-apiserver, then etcd, restarted in the middle of reconciling', () => {
  let scenario: Scenario;

  beforeAll(async () => {
    scenario = await startScenario({ seed: 2, objects: 10 });
  }, 120_000);

  afterAll(async () => {
    await scenario?.stop();
  });

  it('recovers its watches without a restart and converges after each', async () => {
    const { cluster, burst } = scenario;
    const figures: string[] = [];
    for (const { name, kill } of [{ name: 'kube-apiserver', kill: false }, { name: 'etcd', kill: true }] as const) {
      // A batch of changes, and the restart while promop works on them.
      await burst.burst(15);
      const down = Date.now();
      await cluster.env.restart(name, { kill });
      const downMs = Date.now() - down;
      // Changes after the restart arrive only through watches that recovered.
      await burst.burst(15);
      const convergedMs = await scenario.untilApplied(`every change in the config after the ${name} restart`, 90_000);
      figures.push(`${name} ${kill ? 'killed' : 'stopped'} and back in ${downMs} ms; every change in the config ${convergedMs} ms later`);
    }
    process.stdout.write(`chaos 2 (control plane restarts):\n  ${figures.join('\n  ')}\n  same promop process throughout (pid ${scenario.promop.pid})\n`);
    expect(await Promise.race([scenario.promop.exited, new Promise((resolve) => setTimeout(() => resolve('running'), 100))])).toBe('running');
  }, 240_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    await scenario.settle();
    expect((await scenario.freshCheck('chaos 2')).writes).toEqual([]);
  }, 90_000);
});
