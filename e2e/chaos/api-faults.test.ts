/**
 * Chaos scenario 5: the API server answers slowly, then 429, then 500, for a while (a fault proxy between promop
 * and the API server), while teams keep changing monitors. promop backs off — the requests it sends per minute stay
 * under a ceiling, no hot loop — and recovers fully once the faults end: every change in the config, a fresh promop
 * finds nothing to write. Prints the request rate of each phase and the recovery time.
 */
import { requestsBetween, type ProxiedRequest, type ProxyFault } from './fault-proxy.ts';
import { startScenario, type Scenario } from './scenario.ts';

/**
 * At most this many requests per minute while every request fails or crawls. promop keeps about a dozen watches
 * (each retried with a backoff from 1 s doubling to 30 s) and one work queue (per-key backoff), which stay well
 * under this over the 429 phase, which starts with every watch cut. A hot loop would send thousands.
 */
const CEILING_PER_MINUTE = 400;

/**
 * At most this many requests other than watches in the phase where the API server answers everything with 429:
 * the requests in flight when the refusals start, then one probe at a time after a pause doubling from 250 ms
 * (kube/api-backpressure.ts). Without that one pace, a burst's binding writes (ten per pass, each owner retrying from
 * 5 ms) sent over a hundred in such a phase. A 500 does not close the gate (it may be one request's own trouble),
 * so the 500 phase has only the per-minute ceiling.
 */
const CEILING_OF_REFUSED_NON_WATCH_REQUESTS = 25;

const PHASES: { name: string; fault: ProxyFault; ms: number }[] = [
  { name: 'every request delayed 3 s', fault: { kind: 'delay', ms: 3_000 }, ms: 12_000 },
  { name: '429 Too Many Requests', fault: { kind: 'status', code: 429 }, ms: 15_000 },
  { name: '500 Internal Server Error', fault: { kind: 'status', code: 500 }, ms: 15_000 },
];

/** The requests of a phase by method and resource, most frequent first: what to look at when the ceiling is passed. */
function requestMix(requests: readonly ProxiedRequest[]): string {
  const counts = new Map<string, number>();
  for (const request of requests) {
    const path = new URL(request.url, 'https://proxy').pathname;
    // The resource is the segment after the namespace or the group version: /api/v1/namespaces/ns/pods/x → pods.
    const segments = path.split('/').filter(Boolean);
    const namespaced = segments.indexOf('namespaces');
    const resource = namespaced >= 0 && segments.length > namespaced + 2 ? segments[namespaced + 2] : segments[segments[0] === 'api' ? 2 : 3];
    const key = `${request.watch ? 'WATCH' : request.method} ${resource ?? path}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([key, count]) => `${key} ${count}`).join(', ');
}

describe('chaos 5: the API server answers slowly, 429 or 500, for a while', () => {
  let scenario: Scenario;

  beforeAll(async () => {
    scenario = await startScenario({ seed: 5, objects: 10, proxy: true });
  }, 120_000);

  afterAll(async () => {
    await scenario?.stop();
  });

  it('backs off under a request ceiling and recovers fully', async () => {
    const { burst } = scenario;
    const proxy = scenario.proxy!;
    const idleFrom = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const idleRate = (requestsBetween(proxy.requests, idleFrom, Date.now()).length * 60_000) / (Date.now() - idleFrom);
    const figures: string[] = [`idle before the faults: ${Math.round(idleRate)} requests/min`];
    for (const phase of PHASES) {
      const from = Date.now();
      proxy.setFault(phase.fault);
      // Open watches would keep delivering through the fault: cut them, so promop must watch again, and fail.
      const cut = proxy.cutOpenWatches();
      // The teams keep working through the API server directly.
      await burst.burst(10);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, phase.ms - (Date.now() - from))));
      const to = Date.now();
      const seen = requestsBetween(proxy.requests, from, to);
      const perMinute = (seen.length * 60_000) / (to - from);
      const busiest = Math.max(...[0, 1, 2, 3].map((q) => requestsBetween(seen, from + (q * (to - from)) / 4, from + ((q + 1) * (to - from)) / 4).length));
      figures.push(`${phase.name} for ${Math.round((to - from) / 1000)} s, ${cut} watches cut at the start: ${seen.length} requests (${Math.round(perMinute)}/min; busiest quarter ${busiest}): ${requestMix(seen)}`);
      if (perMinute >= CEILING_PER_MINUTE) process.stdout.write(`chaos 5 over the ceiling:\n  ${figures.join('\n  ')}\n`);
      expect(perMinute).toBeLessThan(CEILING_PER_MINUTE);
      if (phase.fault.kind === 'status' && phase.fault.code === 429) expect(seen.filter((request) => !request.watch).length).toBeLessThanOrEqual(CEILING_OF_REFUSED_NON_WATCH_REQUESTS);
    }
    proxy.setFault({ kind: 'none' });
    const recoveredFrom = Date.now();
    const recoveryMs = await scenario.untilApplied('every change in the config after the faults');
    figures.push(`faults over: config complete after ${recoveryMs} ms, ${requestsBetween(proxy.requests, recoveredFrom, Date.now()).length} requests meanwhile`);
    process.stdout.write(`chaos 5 (API faults):\n  ${figures.join('\n  ')}\n`);
  }, 150_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    // Also when the test before failed in the middle of a fault.
    scenario.proxy!.setFault({ kind: 'none' });
    await scenario.settle();
    expect((await scenario.freshCheck('chaos 5')).writes).toEqual([]);
  }, 90_000);
});
