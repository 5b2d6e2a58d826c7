/**
 * Runs an async step for every item with at most `limit` in flight. Used where one reconcile writes many small
 * independent objects (the bindings of every selected monitor): one at a time, 1,000 status writes take tens of
 * seconds; all at once, they would be a burst the API server's priority and fairness throttles anyway.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, step: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next] as T;
      next += 1;
      try {
        await step(item);
      } catch (error) {
        // The first error wins; the other workers finish their current step and stop taking new ones.
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
}
