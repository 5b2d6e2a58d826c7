import { backoffDelay, WorkQueue, type ProcessOutcome } from './work-queue.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check` is true (polling every 2 ms), or fails after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(2);
  }
}

describe('the work queue', () => {
  let queue: WorkQueue;
  afterEach(async () => queue.shutdown());

  it('processes a key added many times before a worker took it only once', async () => {
    queue = new WorkQueue();
    const seen: string[] = [];
    for (let i = 0; i < 5; i += 1) queue.add('monitoring/main');
    queue.add('team-a/other');
    expect(queue.length).toBe(2);
    queue.start(async (key) => { seen.push(key); return 'done'; });
    await until(() => seen.length === 2);
    await sleep(20);
    expect(seen).toEqual(['monitoring/main', 'team-a/other']);
  });

  it('lets timers run between processings that await nothing (a reconcile that writes nothing)', async () => {
    queue = new WorkQueue();
    let calls = 0;
    let callsWhenTimerRan: number | undefined;
    // The Lease renewal is such a timer: it must not wait for a run of reconciles that each queue the next.
    setTimeout(() => { callsWhenTimerRan = calls; }, 0);
    queue.start(async (key) => {
      calls += 1;
      if (calls < 200) queue.add(key);
      return 'done';
    });
    queue.add('monitoring/main');
    await until(() => calls === 200);
    expect(callsWhenTimerRan).toBeLessThan(200);
  });

  it('folds the adds of one event handler into one processing, even with an idle worker waiting', async () => {
    queue = new WorkQueue();
    const seen: string[] = [];
    queue.start(async (key) => { seen.push(key); return 'done'; });
    // A monitor's change: every Prometheus, then the Prometheus objects of its bindings (the same key).
    queue.add('monitoring/main');
    queue.add('monitoring/main');
    await until(() => seen.length === 1);
    await sleep(20);
    expect(seen).toEqual(['monitoring/main']);
  });

  it('never gives one key to two workers, and processes it again when it was added meanwhile', async () => {
    queue = new WorkQueue({ workers: 2 });
    let active = 0;
    let maxActive = 0;
    let calls = 0;
    let release: () => void = () => {};
    const firstCallBlocked = new Promise<void>((resolve) => { release = resolve; });
    queue.start(async () => {
      calls += 1;
      active += 1;
      maxActive = Math.max(maxActive, active);
      if (calls === 1) await firstCallBlocked;
      active -= 1;
      return 'done';
    });
    queue.add('monitoring/main');
    await until(() => calls === 1);
    // Added three times while being processed: one more run afterwards, not three, and not in parallel.
    queue.add('monitoring/main');
    queue.add('monitoring/main');
    queue.add('monitoring/main');
    await sleep(20);
    expect(calls).toBe(1);
    release();
    await until(() => calls === 2);
    await sleep(20);
    expect(calls).toBe(2);
    expect(maxActive).toBe(1);
  });

  it('runs different keys in parallel up to the number of workers', async () => {
    queue = new WorkQueue({ workers: 2 });
    let active = 0;
    let maxActive = 0;
    let done = 0;
    queue.start(async () => {
      active += 1;
      maxActive = Math.max(maxActive, active);
      await sleep(20);
      active -= 1;
      done += 1;
      return 'done';
    });
    for (const key of ['a/1', 'a/2', 'a/3', 'a/4']) queue.add(key);
    await until(() => done === 4);
    expect(maxActive).toBe(2);
  });

  it('retries a failing key with a doubling delay and forgets the failures once it succeeds', async () => {
    queue = new WorkQueue({ baseDelayMs: 10 });
    const times: number[] = [];
    const outcomes: ProcessOutcome[] = ['retry', 'retry', 'retry', 'done'];
    queue.start(async () => {
      times.push(Date.now());
      return outcomes[times.length - 1] ?? 'done';
    });
    queue.add('monitoring/main');
    await until(() => times.length === 4);
    const gaps = times.slice(1).map((time, i) => time - times[i]!);
    // 10, 20, 40 ms; timers fire late, never early.
    expect(gaps[0]).toBeGreaterThanOrEqual(9);
    expect(gaps[1]).toBeGreaterThanOrEqual(19);
    expect(gaps[2]).toBeGreaterThanOrEqual(39);
    expect(queue.failures('monitoring/main')).toBe(0);
  });

  it('treats a throw as a retry and reports it', async () => {
    const errors: [string, number][] = [];
    let calls = 0;
    const onError = (key: string, _error: unknown, failures: number) => { errors.push([key, failures]); };
    queue = new WorkQueue({ baseDelayMs: 1, onError });
    queue.start(async () => {
      calls += 1;
      if (calls < 3) throw new Error('boom');
      return 'done';
    });
    queue.add('monitoring/main');
    await until(() => calls === 3);
    expect(errors).toEqual([['monitoring/main', 1], ['monitoring/main', 2]]);
  });

  it('keeps backoff per key: one failing key does not delay another', async () => {
    queue = new WorkQueue({ baseDelayMs: 1_000 });
    const seen: string[] = [];
    queue.start(async (key) => { seen.push(key); return key === 'bad/one' ? 'retry' : 'done'; });
    queue.add('bad/one');
    queue.add('good/one');
    await until(() => seen.length === 2);
    expect(queue.failures('bad/one')).toBe(1);
    expect(queue.failures('good/one')).toBe(0);
  });

  it('cancels pending retries on shutdown and ignores later adds', async () => {
    queue = new WorkQueue({ baseDelayMs: 60_000 });
    let calls = 0;
    queue.start(async () => { calls += 1; return 'retry'; });
    queue.add('monitoring/main');
    await until(() => calls === 1);
    await queue.shutdown();
    queue.add('monitoring/main');
    await sleep(10);
    expect(calls).toBe(1);
    // jest would report the 60 s timer as an open handle if shutdown left it.
  });

  it('queues a key after the delay addAfter asks for, without counting a failure, and not after shutdown', async () => {
    queue = new WorkQueue();
    const seen: string[] = [];
    queue.start(async (key) => { seen.push(key); return 'done'; });
    queue.addAfter('monitoring/main', 30);
    await sleep(10);
    expect(seen).toEqual([]);
    await until(() => seen.length === 1);
    expect(queue.failures('monitoring/main')).toBe(0);
    await queue.shutdown();
    queue.addAfter('monitoring/main', 1);
    await sleep(20);
    expect(seen).toEqual(['monitoring/main']);
  });

  it('keeps one pending delay per key, the one due first: a long one never holds back a shorter one', async () => {
    queue = new WorkQueue();
    const seen: number[] = [];
    const started = Date.now();
    queue.start(async () => { seen.push(Date.now() - started); return 'done'; });
    // A failed binding write's long backoff, then a failed reconcile's short retry of the same key.
    queue.addAfter('monitoring/main', 60_000);
    queue.addAfter('monitoring/main', 20);
    await until(() => seen.length === 1);
    expect(seen[0]).toBeLessThan(5_000);
    // And the other way round: a later request does not push back the earlier one.
    queue.addAfter('monitoring/other', 20);
    queue.addAfter('monitoring/other', 60_000);
    await until(() => seen.length === 2);
    expect(seen[1]).toBeLessThan(5_000);
  });
});

describe('the work queue metrics', () => {
  let queue: WorkQueue;
  afterEach(async () => queue.shutdown());

  it('with a minimum interval, holds a key added during or just after its processing until the interval passed, folding every add meanwhile; other keys and a quiet key do not wait', async () => {
    queue = new WorkQueue({ minIntervalMs: 150 });
    const started: { key: string; at: number }[] = [];
    const t0 = Date.now();
    queue.start(async (key) => {
      started.push({ key, at: Date.now() - t0 });
      await sleep(10);
      return 'done';
    });
    queue.add('monitoring/main');
    await until(() => started.length === 1);
    // Added during the processing and right after it: folded into one processing, 150 ms after the first ended.
    queue.add('monitoring/main');
    await sleep(30);
    queue.add('monitoring/main');
    queue.add('monitoring/main');
    // Another key is not held by this one's interval.
    queue.add('team-a/other');
    await until(() => started.length === 3);
    await sleep(250);
    expect(started.map((s) => s.key)).toEqual(['monitoring/main', 'team-a/other', 'monitoring/main']);
    expect(started[1]!.at).toBeLessThan(100);
    expect(started[2]!.at - started[0]!.at).toBeGreaterThanOrEqual(150);
    // Long after its last processing, a key is processed at once.
    await sleep(200);
    const before = Date.now() - t0;
    queue.add('monitoring/main');
    await until(() => started.length === 4);
    expect(started[3]!.at - before).toBeLessThan(100);
  });

  it('asks a function for the interval when a processing ends: a key whose processing it answers 0 for is not held', async () => {
    let holdNext = true;
    queue = new WorkQueue({ minIntervalMs: () => (holdNext ? 150 : 0) });
    const started: number[] = [];
    const t0 = Date.now();
    queue.start(async () => {
      started.push(Date.now() - t0);
      return 'done';
    });
    queue.add('monitoring/main');
    await until(() => started.length === 1);
    await sleep(5);
    holdNext = false;
    queue.add('monitoring/main');
    await until(() => started.length === 2);
    // Held: the first processing asked for 150 ms.
    expect(started[1]! - started[0]!).toBeGreaterThanOrEqual(140);
    await sleep(5);
    queue.add('monitoring/main');
    await until(() => started.length === 3);
    // Not held: the second processing's answer was 0.
    expect(started[2]! - started[1]!).toBeLessThan(100);
  });

  it('with a minimum interval, drops a held key on shutdown', async () => {
    queue = new WorkQueue({ minIntervalMs: 100 });
    const seen: string[] = [];
    queue.start(async (key) => { seen.push(key); return 'done'; });
    queue.add('monitoring/main');
    await until(() => seen.length === 1);
    await sleep(5);
    queue.add('monitoring/main');
    await queue.shutdown();
    await sleep(150);
    expect(seen).toEqual(['monitoring/main']);
  });

  it('count adds (folded ones not), retries and depth, time each wait from the add and each piece of work, and hand the add time to the worker', async () => {
    let clock = 1_000;
    const recorded = { adds: 0, retries: 0, depths: [] as number[], queued: [] as number[], worked: [] as number[], processing: 0, delayed: 0, mostProcessing: 0, mostDelayed: 0 };
    queue = new WorkQueue({
      now: () => clock,
      baseDelayMs: 1,
      metrics: {
        added: () => { recorded.adds += 1; },
        retried: () => { recorded.retries += 1; },
        depth: (keys) => recorded.depths.push(keys),
        queued: (seconds) => recorded.queued.push(seconds),
        worked: (seconds) => recorded.worked.push(seconds),
        processing: (change) => { recorded.processing += change; recorded.mostProcessing = Math.max(recorded.mostProcessing, recorded.processing); },
        delayed: (change) => { recorded.delayed += change; recorded.mostDelayed = Math.max(recorded.mostDelayed, recorded.delayed); },
      },
    });
    queue.add('monitoring/main');
    queue.add('monitoring/main');
    queue.add('team-a/apps');
    expect(recorded).toMatchObject({ adds: 2, depths: [1, 2] });
    clock = 1_250;
    const handed: [string, number][] = [];
    let calls = 0;
    queue.start(async (key, addedAt) => {
      handed.push([key, addedAt]);
      calls += 1;
      clock += 500;
      return calls === 1 ? 'retry' : 'done';
    });
    await until(() => calls === 3);
    await until(() => recorded.worked.length === 3);
    expect(handed.slice(0, 2)).toEqual([['monitoring/main', 1_000], ['team-a/apps', 1_000]]);
    expect(recorded.retries).toBe(1);
    // The retry is one more add, 1 ms after the first failure, taken when the clock said so.
    expect(recorded.adds).toBe(3);
    expect(recorded.queued.slice(0, 2)).toEqual([0.25, 0.75]);
    expect(recorded.worked).toEqual([0.5, 0.5, 0.5]);
    expect(recorded.depths.at(-1)).toBe(0);
    // One worker: one key processed at a time; the failed one waited for its retry time; nothing left in either.
    await until(() => recorded.processing === 0);
    expect(recorded).toMatchObject({ mostProcessing: 1, mostDelayed: 1, delayed: 0 });
  });
});

describe('the backoff', () => {
  it('starts at 5 ms, doubles, and stops at 1000 s like client-go', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n))).toEqual([5, 10, 20, 40]);
    expect(backoffDelay(18)).toBe(655_360);
    expect(backoffDelay(19)).toBe(1_000_000);
    expect(backoffDelay(5_000)).toBe(1_000_000);
  });
});
