/**
 * Starts a real node (node-cluster.ts) with the images built here and keeps it until SIGINT/SIGTERM: for a person
 * who wants a cluster with real pods (`node e2e/src/node/run-node.ts`), and for the test that kills the owner of
 * a node and checks its watchdog cleans up. Prints one JSON line when Ready: `{dir, netns, kubeconfig}`.
 */
import { buildImages } from '../images/index.ts';
import { startNodeCluster } from './node-cluster.ts';

const images = await buildImages();
const node = await startNodeCluster({
  sandboxImage: images.pause.name,
  images: Object.values(images).map((image) => image.archive),
  log: (line) => process.stderr.write(`[node] ${line}\n`),
});
process.stdout.write(`${JSON.stringify({ dir: node.dir, netns: node.netns.name, kubeconfig: node.kubeconfigPath })}\n`);
const stop = async (): Promise<void> => {
  await node.stop();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
setInterval(() => {}, 1 << 30);
