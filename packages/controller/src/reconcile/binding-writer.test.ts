import { pino } from 'pino';
import { BindingWriter, type BindingPass } from './binding-writer.ts';
import type { ProcessOutcome } from './work-queue.ts';

/** A pass that records its start and ends when the test says, with `outcome`. */
function heldPass(name: string, log: string[], outcome: ProcessOutcome = 'done'): { pass: BindingPass; release: () => void } {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    pass: async () => {
      log.push(`start ${name}`);
      await released;
      log.push(`end ${name}`);
      return outcome;
    },
    release,
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

function writer(requeued: { key: string; delayMs: number }[] = []): BindingWriter {
  return new BindingWriter({ requeue: (key, delayMs) => requeued.push({ key, delayMs }), log: pino({ level: 'silent' }) });
}

describe('the binding writer', () => {
  it('runs one pass per owner at a time and, of the passes handed meanwhile, only the newest', async () => {
    const bindings = writer();
    const log: string[] = [];
    const [a, b, c] = ['A', 'B', 'C'].map((name) => heldPass(name, log));
    bindings.hand('monitoring/main', a!.pass);
    await tick();
    bindings.hand('monitoring/main', b!.pass);
    bindings.hand('monitoring/main', c!.pass);
    await tick();
    expect(log).toEqual(['start A']);
    a!.release();
    c!.release();
    await bindings.settled('monitoring/main');
    expect(log).toEqual(['start A', 'end A', 'start C', 'end C']);
    expect(bindings.busy('monitoring/main')).toBe(false);
  });

  it('tells the running pass it is superseded once a newer one waits', async () => {
    const bindings = writer();
    const seen: boolean[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    bindings.hand('monitoring/main', async (superseded) => {
      seen.push(superseded());
      await released;
      seen.push(superseded());
      return 'done';
    });
    await tick();
    bindings.hand('monitoring/main', async () => 'done');
    release();
    await bindings.settled();
    expect(seen).toEqual([false, true]);
  });

  it('runs the passes of different owners independently', async () => {
    const bindings = writer();
    const log: string[] = [];
    const main = heldPass('main', log);
    const other = heldPass('other', log);
    bindings.hand('monitoring/main', main.pass);
    bindings.hand('team-a/other', other.pass);
    other.release();
    await bindings.settled('team-a/other');
    expect(log).toEqual(['start main', 'start other', 'end other']);
    main.release();
    await bindings.settled();
  });

  it('requeues the key after a failed pass with a backoff that grows until a pass completes', async () => {
    const requeued: { key: string; delayMs: number }[] = [];
    const bindings = writer(requeued);
    const key = 'monitoring/main';
    bindings.hand(key, async () => 'retry');
    await bindings.settled(key);
    bindings.hand(key, async () => {
      throw new Error('forbidden');
    });
    await bindings.settled(key);
    expect(requeued).toEqual([{ key, delayMs: 5 }, { key, delayMs: 10 }]);
    bindings.hand(key, async () => 'done');
    await bindings.settled(key);
    bindings.hand(key, async () => 'retry');
    await bindings.settled(key);
    expect(requeued).toEqual([{ key, delayMs: 5 }, { key, delayMs: 10 }, { key, delayMs: 5 }]);
  });

  it('after stop, drops the waiting pass, ignores new ones, and resolves once the running one ended', async () => {
    const bindings = writer();
    const log: string[] = [];
    const running = heldPass('running', log);
    const waiting = heldPass('waiting', log);
    bindings.hand('monitoring/main', running.pass);
    await tick();
    bindings.hand('monitoring/main', waiting.pass);
    let stopped = false;
    const stopping = bindings.stop().then(() => {
      stopped = true;
    });
    await tick();
    expect(stopped).toBe(false);
    running.release();
    waiting.release();
    await stopping;
    bindings.hand('monitoring/main', heldPass('late', log).pass);
    await tick();
    expect(log).toEqual(['start running', 'end running']);
    expect(bindings.busy('monitoring/main')).toBe(false);
  });
});
