/**
 * Polling for the API-server tests: the operator acts asynchronously (watch → queue → reconcile), so a test waits
 * until what it expects is visible, up to a deadline, and then asserts on the last value it read. Asserting on the
 * value (rather than failing inside the poll) keeps jest's diff of what was there instead.
 */

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reads with `read` until `check` accepts the value or `timeoutMs` passes; returns the last value either way. A
 * throwing `read` (a 404 before the object exists) counts as "not yet".
 */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let value: T | undefined;
    try {
      value = await read();
      if (check(value)) return value;
    } catch {
      // Not there yet: keep polling.
    }
    if (Date.now() > deadline) return value ?? (await read());
    await sleep(intervalMs);
  }
}
