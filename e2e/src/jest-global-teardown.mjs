/** jest global teardown: stops the shared control plane started by the global setup. */
import type { TestEnv } from './test-env.ts';

export default async function globalTeardown(): Promise<void> {
  await (globalThis as { promopTestEnv?: TestEnv }).promopTestEnv?.stop();
}
