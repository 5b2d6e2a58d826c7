/**
 * Starts the local control plane (etcd, kube-apiserver with RBAC, kube-controller-manager) from
 * the binaries in .tools/bin, installs promop's CRDs, and keeps it running until Ctrl-C; every
 * process it started stops with it. Run it with `pnpm control-plane` (`--keep` keeps its working directory).
 */
import { crdManifests } from '@promop/crds';
import { applyCrds, startTestEnv, toolPath } from '@promop/testkit';

const env = await startTestEnv({ keepDir: process.argv.includes('--keep') });
try {
  await applyCrds(env.kubeConfig());
} catch (error) {
  await env.stop();
  throw error;
}
let kubectl = 'kubectl';
try {
  kubectl = toolPath('kubectl');
} catch {
  // Fall back to the user's kubectl.
}
process.stdout.write(`
promop local control plane is running (RBAC enforced): ${env.apiServerUrl}
promop's CRDs (${crdManifests().map((crd) => crd.spec.names.kind).join(', ')}) are installed.

  export KUBECONFIG=${env.kubeconfigPath}
  ${kubectl} api-resources --api-group=monitoring.coreos.com
  ${kubectl} apply -f examples/team-monitoring/
  ${kubectl} get prometheuses,servicemonitors,prometheusrules -A

Render what promop would configure for those objects, with a verdict per resource:

  pnpm promop render -f examples/team-monitoring -o /tmp/promop-demo

Logs and certificates: ${env.dir}
Press Ctrl-C to stop; every process started here stops with it.
`);
const stop = async (): Promise<void> => {
  process.stdout.write('\nstopping the control plane...\n');
  await env.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
if (process.argv.includes('--exit-after-start')) await stop();
setInterval(() => {}, 1 << 30);
