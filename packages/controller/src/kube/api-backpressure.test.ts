/**
 * ApiBackpressure alone (pure, a fixed clock where the order matters), then RawApi with it against a plain HTTP
 * server on 127.0.0.1 that answers 429 for a while: what is checked is how many requests promop's loops send while
 * refused, and that they all go once the server answers — the client's pacing, not anything of the Kubernetes API
 * (the chaos scenario 5, e2e/chaos/api-faults.test.ts, runs it against a real API server behind a fault proxy).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiBackpressure, FIRST_PAUSE_MS, LONGEST_PAUSE_MS, LONGEST_RETRY_AFTER_MS, isPushbackStatus, pauseAfter, retryAfterMs } from './api-backpressure.ts';
import { RawApi } from './raw-api.ts';

describe('the pause', () => {
  it('doubles from the first pause to the longest, and a longer Retry-After wins up to its own ceiling', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 30].map((n) => pauseAfter(n))).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000, 5_000, 5_000]);
    expect(pauseAfter(1, 3_000)).toBe(3_000);
    expect(pauseAfter(6, 1_000)).toBe(LONGEST_PAUSE_MS);
    expect(retryAfterMs('2')).toBe(2_000);
    expect(retryAfterMs(['1'])).toBe(1_000);
    expect(retryAfterMs('86400')).toBe(LONGEST_RETRY_AFTER_MS);
    expect(retryAfterMs('Wed, 21 Oct 2026 07:28:00 GMT')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('counts 429 and the 502/503/504 of an overloaded or unavailable server as pushback, not a 500 or what the request got wrong', () => {
    expect([429, 502, 503, 504].every(isPushbackStatus)).toBe(true);
    // A 500 may be one request's own (a namespace's admission webhook failing): not a reason to slow every team.
    expect([200, 201, 400, 403, 404, 409, 410, 422, 500, 501].some(isPushbackStatus)).toBe(false);
  });
});

describe('ApiBackpressure', () => {
  it('lets everything through while the server answers', async () => {
    const gate = new ApiBackpressure();
    const admissions = await Promise.all(Array.from({ length: 20 }, () => gate.admit()));
    for (const admission of admissions) admission.done({ kind: 'answered' });
    expect(gate.closed).toBe(false);
  });

  it('after pushback sends one probe at a time after the pause, and opens for everyone at the first answer', async () => {
    let now = 0;
    const events: string[] = [];
    const gate = new ApiBackpressure({ now: () => now, listener: { closed: (cause, ms) => events.push(`closed ${cause} ${ms}`), reopened: (n) => events.push(`reopened after ${n}`) } });
    // Three requests in flight when the server starts refusing: one failure counts, not three.
    const inFlight = await Promise.all([gate.admit(), gate.admit(), gate.admit()]);
    for (const admission of inFlight) admission.done({ kind: 'pushback', cause: '429' });
    expect(gate.closed).toBe(true);
    expect(events).toEqual([`closed 429 ${FIRST_PAUSE_MS}`]);

    // Five callers wait; once the pause is over exactly one of them goes.
    const admitted: number[] = [];
    const waiting = Array.from({ length: 5 }, (_, index) => gate.admit().then((admission) => {
      admitted.push(index);
      return admission;
    }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(admitted).toEqual([]);
    now = FIRST_PAUSE_MS;
    await new Promise((resolve) => setTimeout(resolve, FIRST_PAUSE_MS + 50));
    expect(admitted).toHaveLength(1);
    const probe = await waiting[admitted[0]!]!;

    // The probe is refused again: the next pause is twice as long, still one at a time.
    probe.done({ kind: 'pushback', cause: '429' });
    now += 2 * FIRST_PAUSE_MS;
    await new Promise((resolve) => setTimeout(resolve, 2 * FIRST_PAUSE_MS + 50));
    expect(admitted).toHaveLength(2);

    // The second probe is answered: every waiting request goes at once.
    (await waiting[admitted[1]!]!).done({ kind: 'answered' });
    await Promise.all(waiting);
    expect(admitted).toHaveLength(5);
    expect(gate.closed).toBe(false);
    expect(events).toEqual([`closed 429 ${FIRST_PAUSE_MS}`, 'reopened after 2']);
  });

  it('an outcome that says nothing (the caller aborted) neither opens nor escalates, and frees the probe slot', async () => {
    let now = 0;
    const gate = new ApiBackpressure({ now: () => now });
    (await gate.admit()).done({ kind: 'pushback', cause: '503' });
    now = FIRST_PAUSE_MS;
    const probe = await gate.admit();
    probe.done({ kind: 'unknown' });
    expect(gate.closed).toBe(true);
    // The next one may probe at once (the pause was not extended).
    const next = await gate.admit();
    next.done({ kind: 'answered' });
    expect(gate.closed).toBe(false);
  });

  it('a caller whose signal aborts while it waits stops waiting with the abort', async () => {
    const gate = new ApiBackpressure({ now: () => 0 });
    (await gate.admit()).done({ kind: 'pushback', cause: '503' });
    const controller = new AbortController();
    const waiting = gate.admit(controller.signal);
    controller.abort(new Error('the reconcile was cancelled'));
    await expect(waiting).rejects.toThrow('the reconcile was cancelled');
  });
});

describe('RawApi with ApiBackpressure against a server answering 429', () => {
  let server: Server;
  let refusing = true;
  let requests = 0;
  /** A namespace whose every write the server answers 500 (its admission webhook is broken). */
  const BROKEN_NAMESPACE = '/namespaces/broken-team/';
  let kc: KubeConfig;

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests += 1;
      request.resume();
      if (request.url?.includes(BROKEN_NAMESPACE)) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ kind: 'Status', code: 500, reason: 'InternalError', message: 'Internal error occurred: failed calling webhook' }));
        return;
      }
      if (refusing) {
        response.writeHead(429, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ kind: 'Status', code: 429, reason: 'TooManyRequests', message: 'slow down' }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** Twenty loops, each retrying its write with its own backoff from 5 ms doubling (the work queue's), until it succeeds. */
  async function twentyRetryingLoops(api: RawApi): Promise<void> {
    await Promise.all(Array.from({ length: 20 }, async (_, index) => {
      for (let failures = 0; ; failures += 1) {
        try {
          await api.patch(`/api/v1/namespaces/team/configmaps/c${index}`, {}, 'application/merge-patch+json');
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, Math.min(5 * 2 ** failures, 1_000)));
        }
      }
    }));
  }

  it('sends a handful of requests in two seconds of refusals where the loops alone send hundreds, and all succeed after', async () => {
    const REFUSED_MS = 2_000;
    const measure = async (api: RawApi) => {
      refusing = true;
      requests = 0;
      const done = twentyRetryingLoops(api);
      await new Promise((resolve) => setTimeout(resolve, REFUSED_MS));
      const whileRefused = requests;
      refusing = false;
      const started = Date.now();
      await done;
      api.close();
      return { whileRefused, recoveredMs: Date.now() - started };
    };
    const unpaced = await measure(new RawApi(kc));
    const paced = await measure(new RawApi(kc, { backpressure: new ApiBackpressure() }));
    process.stdout.write(`20 retrying loops, ${REFUSED_MS} ms of 429: ${unpaced.whileRefused} requests without the gate, ${paced.whileRefused} with it (all done ${paced.recoveredMs} ms after the server answered)\n`);
    // Without the gate each loop retries about eight times in two seconds: 20 loops, well over a hundred requests.
    expect(unpaced.whileRefused).toBeGreaterThan(100);
    // With it: the first wave (in flight together), then probes after 250, 500 and 1000 ms.
    expect(paced.whileRefused).toBeLessThanOrEqual(20 + 4);
    // Recovery: the next probe (at most the longest pause so far) opens the gate and every loop's write goes.
    expect(paced.recoveredMs).toBeLessThan(2 * LONGEST_PAUSE_MS);
  }, 30_000);

  it('does not slow one team\'s writes because another team\'s all fail with 500 (a broken webhook of its namespace)', async () => {
    refusing = false;
    const gate = new ApiBackpressure();
    const api = new RawApi(kc, { backpressure: gate });
    let stop = false;
    const failing = Promise.all(Array.from({ length: 4 }, async (_, index) => {
      while (!stop) {
        await api.patch(`/api/v1${BROKEN_NAMESPACE}configmaps/c${index}`, {}, 'application/merge-patch+json').catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }));
    const latencies: number[] = [];
    for (let write = 0; write < 20; write += 1) {
      const started = Date.now();
      await api.patch('/api/v1/namespaces/healthy-team/configmaps/c', {}, 'application/merge-patch+json');
      latencies.push(Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    stop = true;
    await failing;
    api.close();
    expect(gate.closed).toBe(false);
    // Without the 500 exclusion the healthy team's writes waited behind pauses of up to seconds.
    expect(Math.max(...latencies)).toBeLessThan(FIRST_PAUSE_MS);
  }, 30_000);
});
