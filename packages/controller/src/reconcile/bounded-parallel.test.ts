import { forEachBounded } from './bounded-parallel.ts';

describe('forEachBounded', () => {
  it('runs every item with at most `limit` in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachBounded(Array.from({ length: 50 }, (_, i) => i), 4, async (item) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, item % 3));
      seen.push(item);
      inFlight -= 1;
    });
    expect(most).toBe(4);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('rejects with the first error and starts no new item after it', async () => {
    const started: number[] = [];
    await expect(forEachBounded([1, 2, 3, 4, 5, 6], 2, async (item) => {
      started.push(item);
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (item === 2) throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(started.length).toBeLessThan(6);
  });

  it('does nothing for no items', async () => {
    await expect(forEachBounded([], 8, async () => { throw new Error('never'); })).resolves.toBeUndefined();
  });
});
