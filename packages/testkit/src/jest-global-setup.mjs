/**
 * jest global setup: one control plane for the whole run, shared by every suite that needs a
 * Kubernetes API. Tests reach it with `sharedTestEnv()`; each works in namespaces of its own.
 *
 * Plain JavaScript on purpose: jest imports global setup with Node's own loader, which runs the
 * TypeScript modules below by type stripping (ts-jest output would import `.js` files that do
 * not exist).
 */
import { startTestEnv, SHARED_CONTROL_PLANE_ENV, SHARED_KUBECONFIG_ENV } from './test-env.ts';

export default async function globalSetup() {
  // scripts/test-all.sh's node and quiet lanes: their files start the control planes they need.
  if (process.env[SHARED_CONTROL_PLANE_ENV] === '0') return;
  const started = Date.now();
  const env = await startTestEnv();
  // Workers are forked after global setup, so they inherit this variable.
  process.env[SHARED_KUBECONFIG_ENV] = env.kubeconfigPath;
  globalThis.promopTestEnv = env;
  process.stderr.write(`\n[test-env] control plane ready at ${env.apiServerUrl} in ${Date.now() - started} ms\n`);
}
