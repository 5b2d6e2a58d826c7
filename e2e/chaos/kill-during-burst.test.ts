/**
 * Chaos scenario 1: `kill -9` promop at random points during a burst of 500 ServiceMonitor and PrometheusRule
 * changes (creates, updates, deletes), restarting it each time; once the burst ends, promop converges and no change
 * is lost: every live monitor's job carries its latest port, every live rule its latest expression, nothing of a
 * deleted one remains, and a fresh promop finds nothing to write.
 */
import { seededRandom } from './monitor-burst.ts';
import { startScenario, type Scenario } from './scenario.ts';

const SEED = 1;
const CHANGES = 500;
const KILLS = 4;

describe('chaos 1: promop killed with SIGKILL during a burst of changes', () => {
  let scenario: Scenario;

  beforeAll(async () => {
    scenario = await startScenario({ seed: SEED, objects: 20 });
  }, 120_000);

  afterAll(async () => {
    await scenario?.stop();
  });

  it(`loses none of ${CHANGES} changes and converges`, async () => {
    const { burst } = scenario;
    const random = seededRandom(SEED);
    const killAt = new Set(Array.from({ length: KILLS }, (_, k) => Math.floor(((k + random()) * CHANGES) / KILLS)));
    let restarts = 0;
    const burstStarted = Date.now();
    await burst.burst(CHANGES, async (i) => {
      if (!killAt.has(i)) return;
      scenario.promop.kill('SIGKILL');
      await scenario.promop.exited;
      restarts += 1;
      // Started again at once, without waiting for it: the teams keep changing things while it lists and syncs.
      scenario.promop = await scenario.startPromop(`promop-${restarts}`);
    });
    const burstMs = Date.now() - burstStarted;
    const convergedMs = await scenario.untilApplied('every change in the config and rule files', 90_000);
    await scenario.settle();
    process.stdout.write(`chaos 1 (SIGKILL during a burst): ${CHANGES} changes in ${burstMs} ms with ${restarts} kills at changes ${[...killAt].join(', ')}; `
      + `config and rules complete ${convergedMs} ms after the burst (${burst.liveCount('ServiceMonitor')} ServiceMonitors, ${burst.liveCount('PrometheusRule')} PrometheusRules live); `
      + `promop wrote ${scenario.writes().length} times in all\n`);
    expect(restarts).toBe(killAt.size);
  }, 180_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    expect((await scenario.freshCheck('chaos 1')).writes).toEqual([]);
  }, 90_000);
});
