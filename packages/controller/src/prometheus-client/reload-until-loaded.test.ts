/**
 * The polling loop both programs' reloads share, without a server: it stops starting attempts once newer files
 * supersede the ones it waits for, instead of polling to its deadline.
 */
import { reloadUntilLoaded } from './reload-and-verify.ts';

describe('reloadUntilLoaded', () => {
  it('starts no attempt after its signal is aborted, even in the middle of a wait, and ends stale naming why', async () => {
    const superseded = new AbortController();
    let attempts = 0;
    const started = Date.now();
    const ending = reloadUntilLoaded({ timeoutMs: 60_000, initialDelayMs: 10_000, signal: superseded.signal }, async () => {
      attempts += 1;
      return { outcome: 'pending', difference: 'the loaded config differs at scrape_configs' };
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    superseded.abort();
    const outcome = await ending;
    expect(attempts).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcome).toMatchObject({ outcome: 'stale', attempts: 1 });
  });

  it('ends with the attempt in flight when aborted during it', async () => {
    const superseded = new AbortController();
    let attempts = 0;
    const outcome = await reloadUntilLoaded({ timeoutMs: 60_000, initialDelayMs: 10, signal: superseded.signal }, async () => {
      attempts += 1;
      superseded.abort();
      return { outcome: 'pending', difference: 'the loaded config differs at scrape_configs' };
    });
    expect(attempts).toBe(1);
    expect(outcome).toMatchObject({ outcome: 'stale', difference: 'superseded by newer files (the loaded config differs at scrape_configs)' });
  });

  it('without a signal, polls until the attempt ends', async () => {
    let attempts = 0;
    const outcome = await reloadUntilLoaded({ timeoutMs: 60_000, initialDelayMs: 1 }, async () => {
      attempts += 1;
      return attempts < 3 ? { outcome: 'pending', difference: 'not yet' } : { outcome: 'verified', verifyMs: 1 };
    });
    expect(outcome).toMatchObject({ outcome: 'verified', attempts: 3 });
  });
});
