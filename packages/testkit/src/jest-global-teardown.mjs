/** jest global teardown: stops the shared control plane started by the global setup. */
export default async function globalTeardown() {
  await globalThis.promopTestEnv?.stop();
}
