/**
 * The real node leaves nothing behind: not after stop(), and not when the process that owns it is killed with
 * SIGKILL mid-run (no exit handler runs then; the node's watchdog does the teardown). Each case runs a pod first,
 * so there are container processes, mounts, cgroups and a pod network namespace to clean up.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ClusterCli, waitFor } from '../cluster-cli.ts';
import { buildImages, type BuiltImages } from '../images/index.ts';
import { REPO_ROOT } from '@promop/testkit';
import { nodeTraces, startNodeCluster } from './node-cluster.ts';

const POD = `apiVersion: v1
kind: Pod
metadata: {name: app, namespace: default}
spec:
  containers:
  - name: app
    image: localhost/promop/example-app:1.0
    ports: [{containerPort: 8080}]
`;

let images: BuiltImages;
beforeAll(async () => {
  images = await buildImages();
}, 600_000);

async function runPod(kubeconfig: string): Promise<string> {
  const cli = new ClusterCli(kubeconfig);
  await cli.kubectlOk(['apply', '-f', '-'], POD);
  return waitFor('the pod Running with an IP', async () => {
    const pod = await cli.getJson<{ status: { phase?: string; podIP?: string } }>(['pod', 'app', '-n', 'default']);
    return pod.status.phase === 'Running' && pod.status.podIP ? pod.status.podIP : undefined;
  }, 60_000);
}

test('stop() removes every process, mount, cgroup, namespace and file of the node', async () => {
  const node = await startNodeCluster({ sandboxImage: images.pause.name, images: Object.values(images).map((image) => image.archive) });
  let stopped = false;
  try {
    const podIp = await runPod(node.kubeconfigPath);
    // The pod answers through the bridge: pods are really reachable inside the node's namespace.
    const metrics = await node.bridge.request(`http://${podIp}:8080/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('http_requests_total');
    expect(nodeTraces(node.dir, node.netns.name).length).toBeGreaterThan(0);
    await node.stop();
    stopped = true;
    expect(nodeTraces(node.dir, node.netns.name)).toEqual([]);
  } finally {
    if (!stopped) await node.stop();
  }
}, 300_000);

test('when the owner is SIGKILLed, the watchdog removes everything within seconds', async () => {
  const owner = spawn(process.execPath, [join(REPO_ROOT, 'e2e', 'src', 'node', 'run-node.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = await new Promise<{ dir: string; netns: string; kubeconfig: string }>((resolve, reject) => {
    createInterface({ input: owner.stdout! }).once('line', (line) => resolve(JSON.parse(line)));
    owner.once('exit', (code) => reject(new Error(`run-node.ts exited early (${code})`)));
  });
  await runPod(ready.kubeconfig).catch((error) => {
    owner.kill('SIGKILL');
    throw error;
  });
  owner.kill('SIGKILL');
  const started = Date.now();
  await waitFor('no trace of the node left', async () => (nodeTraces(ready.dir, ready.netns).length === 0 ? true : undefined), 60_000, 500)
    .catch((error) => {
      throw new Error(`${(error as Error).message}; left: ${nodeTraces(ready.dir, ready.netns).join(', ')}`);
    });
  process.stderr.write(`[node] teardown after SIGKILL of the owner took ${Date.now() - started} ms\n`);
}, 300_000);
