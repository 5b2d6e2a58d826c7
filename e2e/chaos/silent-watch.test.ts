/**
 * Chaos scenario 3: the watches go silent — the connection stays open and nothing more arrives, no event and no
 * bookmark (the fault proxy keeps the sockets and drops what the API server sends). promop notices from the silence
 * itself: a watch quiet for longer than WATCH_IDLE_MS (120 s; the API server sends a bookmark about once a minute)
 * is taken for dead and resumed from its last resourceVersion (packages/controller/src/kube/watched-cache.ts,
 * raw-api.ts). The changes made meanwhile reach the config within that bound, without a restart; a fresh promop
 * finds nothing to write. Prints the time to repair.
 */
import { startScenario, type Scenario } from './scenario.ts';

/** promop's idle bound for a watch (watched-cache.ts), plus a resume after a 1 s backoff and a reconcile. */
const REPAIR_BOUND_MS = 120_000 + 20_000;

describe('chaos 3: every watch silently stops delivering', () => {
  let scenario: Scenario;

  beforeAll(async () => {
    scenario = await startScenario({ seed: 3, objects: 5, proxy: true });
  }, 120_000);

  afterAll(async () => {
    await scenario?.stop();
  });

  it('notices the silence and catches up within its idle bound, without a restart', async () => {
    const proxy = scenario.proxy!;
    const silenced = proxy.silenceOpenWatches();
    const silencedAt = Date.now();
    expect(silenced).toBeGreaterThanOrEqual(5);
    await scenario.burst.burst(20);
    const repairMs = await scenario.untilApplied('the changes made during the silence in the config', REPAIR_BOUND_MS);
    // Every silenced watch is opened again within the bound, counted from the silence: each has its own idle timer,
    // so a watch of a kind the changes did not touch may still be waiting out its bound when the config is complete.
    const reopened = () => proxy.requests.filter((r) => r.watch && r.at > silencedAt).length;
    while (reopened() < silenced && Date.now() < silencedAt + REPAIR_BOUND_MS) await new Promise((resolve) => setTimeout(resolve, 500));
    const rewatched = reopened();
    process.stdout.write(`chaos 3 (silent watches): ${silenced} watches silenced; the 20 changes made then were in the config ${Math.round((Date.now() - silencedAt) / 1000)} s after the silence began `
      + `(${repairMs} ms after the last change); ${rewatched} watches opened again meanwhile; same promop process (pid ${scenario.promop.pid})\n`);
    expect(rewatched).toBeGreaterThanOrEqual(silenced);
    // The same process did it: no restart.
    expect(await Promise.race([scenario.promop.exited, new Promise((resolve) => setTimeout(() => resolve('running'), 100))])).toBe('running');
  }, REPAIR_BOUND_MS + 30_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    await scenario.settle();
    expect((await scenario.freshCheck('chaos 3')).writes).toEqual([]);
  }, 90_000);
});
