/**
 * The local demo: promop doing its main job on a real one-node cluster started here (no Docker needed). It builds
 * the images, starts the node (kubelet, containerd, kube-proxy and the control plane, in a network namespace of
 * their own), installs promop with Helm, applies examples/team-monitoring, waits until team-a's target is up, its
 * alert fires and the platform's Alertmanager (two replicas) delivers it to team-a's pager through team-a's
 * AlertmanagerConfig, then prints what to look at and keeps running until Ctrl-C, which removes everything.
 *
 * Run it with `bash scripts/demo.sh` (sets up Node, dependencies and the tools first) or `pnpm demo`.
 * `--exit-after-ready` stops once the story is shown (used to capture the README's transcript). `--thanos` also gives
 * the platform's Prometheus the Thanos sidecar (`spec.thanos`) and runs a Thanos Query pod in front of it, as a
 * platform would (e2e/src/thanos-query.ts), and prints Query's address too; it costs the seconds of one Prometheus
 * roll and a Query pod.
 */
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { ClusterCli, waitFor } from '../e2e/src/cluster-cli.ts';
import { buildImages } from '../e2e/src/images/index.ts';
import { queryPrometheus, rawGet } from '../e2e/src/kube-raw.ts';
import { startNodeCluster } from '../e2e/src/node/node-cluster.ts';
import {
  EXAMPLES, FIRST_POD, MONITORING, installPromop, teamAAlertFiring, teamATargetUp,
} from '../e2e/src/story.ts';
import { THANOS_QUERY, THANOS_QUERY_HTTP_PORT, thanosQueryPod } from '../e2e/src/thanos-query.ts';
import { toolPath } from '@promop/testkit';

const say = (line: string): void => void process.stdout.write(`${line}\n`);
const began = Date.now();
const withThanos = process.argv.includes('--thanos');
const elapsed = (): string => `${((Date.now() - began) / 1000).toFixed(1)} s`;

say('promop demo: building images (cached after the first run)...');
const images = await buildImages();
say(`  ${Object.values(images).map((image) => image.name).join(', ')}`);

say('starting a real node: control plane, containerd, kubelet, kube-proxy, CoreDNS in their own network namespace...');
const node = await startNodeCluster({
  sandboxImage: images.pause.name,
  images: Object.values(images).map((image) => image.archive),
  log: (line) => say(`  ${line}`),
});
let stopping = false;
const stop = async (code = 0): Promise<never> => {
  if (!stopping) {
    stopping = true;
    say('\nstopping: removing the node, its pods and every file it made...');
    await node.stop();
    say('done.');
  }
  process.exit(code);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());

try {
  const cli = new ClusterCli(node.kubeconfigPath);
  const kc = new KubeConfig();
  kc.loadFromFile(node.kubeconfigPath);

  say(`[${elapsed()}] helm install promop charts/promop (image ${images.promop.name})...`);
  await installPromop(cli, images.promop.name);
  say(`[${elapsed()}] promop is Ready. Applying examples/team-monitoring (platform Prometheus and Alertmanager, team-a with its pager, team-b)...`);
  for (const file of ['namespaces.yaml', 'prometheus.yaml', 'team-a.yaml', 'team-b.yaml', 'alerting.yaml']) {
    await cli.kubectlOk(['apply', '-f', join(EXAMPLES, file)]);
  }
  // The platform's Prometheus sends to its Alertmanager and labels the teams' alerts with their namespace (the
  // command alerting.yaml gives).
  await cli.kubectlOk(['patch', 'prometheus', 'main', '-n', MONITORING, '--type=merge', '-p', JSON.stringify({
    spec: {
      enforcedNamespaceLabel: 'namespace', alerting: { alertmanagers: [{ namespace: MONITORING, name: 'alertmanager-operated', port: 'web' }] },
      ...(withThanos ? { thanos: {} } : {}),
    },
  })]);
  if (withThanos) await cli.kubectlOk(['apply', '-f', '-'], JSON.stringify(thanosQueryPod({ namespace: MONITORING, image: images.thanos.name })));
  await waitFor('team-a\'s target up', async () => ((await teamATargetUp(kc, FIRST_POD)) ? true : undefined), 300_000, 1000);
  say(`[${elapsed()}] team-a's target is up: up{namespace="team-a"} == 1`);
  await waitFor('team-a\'s alert firing', async () => ((await teamAAlertFiring(kc, FIRST_POD)) ? true : undefined), 300_000, 250);
  const firingSeenAt = Date.now();
  say(`[${elapsed()}] team-a's alert CheckoutErrorsHigh is firing`);
  const page = await waitFor('team-a\'s pager notified', async () => {
    const response = await rawGet(kc, `/api/v1/namespaces/team-a/services/pager:8080/proxy/received`).catch(() => undefined);
    const received = response?.status === 200 ? JSON.parse(response.body) as { receivedAt: string; body: { externalURL: string; alerts: { labels: Record<string, string> }[] } }[] : [];
    return received.find((each) => each.body.alerts.some((alert) => alert.labels.alertname === 'CheckoutErrorsHigh'));
  }, 300_000, 250);
  const sender = new URL(page.body.externalURL).hostname;
  say(`[${elapsed()}] team-a's pager got CheckoutErrorsHigh{namespace="${page.body.alerts[0]?.labels.namespace}"} from ${sender}, through team-a's AlertmanagerConfig: firing → delivered ${((Date.parse(page.receivedAt) - firingSeenAt) / 1000).toFixed(1)} s`);

  let thanosLines = '';
  if (withThanos) {
    await waitFor('Thanos Query answering team-a\'s up', async () => {
      const answer = await queryPrometheus(kc, MONITORING, THANOS_QUERY, 'up{namespace="team-a"}', THANOS_QUERY_HTTP_PORT).catch(() => undefined);
      return answer && answer.length > 0 ? true : undefined;
    }, 120_000, 1000);
    say(`[${elapsed()}] Thanos Query answers up{namespace="team-a"} through the sidecar promop added (spec.thanos)`);
    const query = await node.bridge.forward(async () => {
      const pod = await cli.getJson<{ status: { podIP?: string } }>(['pod', THANOS_QUERY, '-n', MONITORING]);
      if (!pod.status.podIP) throw new Error('no pod IP yet');
      return { host: pod.status.podIP, port: THANOS_QUERY_HTTP_PORT };
    });
    thanosLines = `
Thanos Query's HTTP API (every Prometheus pod's sidecar, found through the governing Service): http://127.0.0.1:${query.port}
  curl -s 'http://127.0.0.1:${query.port}/api/v1/query?query=up'
  curl -s 'http://127.0.0.1:${query.port}/api/v1/stores'
`;
  }

  // Prometheus' HTTP API on this machine's loopback, following the pod if it is replaced.
  const forward = await node.bridge.forward(async () => {
    const pod = await cli.getJson<{ status: { podIP?: string } }>(['pod', FIRST_POD, '-n', MONITORING]);
    if (!pod.status.podIP) throw new Error('no pod IP yet');
    return { host: pod.status.podIP, port: 9090 };
  });
  const kubectl = toolPath('kubectl');
  const table = await cli.kubectlOk(['get', 'prom,smon,promrule,am,amcfg', '-A']);
  const rejected = await cli.getJson<{ status?: { bindings?: { conditions?: { type: string; message?: string }[] }[] } }>(['servicemonitor', 'search', '-n', 'team-b']);
  const reason = rejected.status?.bindings?.[0]?.conditions?.find((c) => c.type === 'Accepted')?.message ?? '(not yet reported)';

  say(`
promop is running its main job (ready in ${elapsed()}).

$ kubectl get prom,smon,promrule,am,amcfg -A
${table.trimEnd()}

Rejected: team-b/search — ${reason}
(team-a's monitoring is unaffected: its target is up, its alert fires and reaches its pager.)

Prometheus' HTTP API: http://127.0.0.1:${forward.port}
  curl -s 'http://127.0.0.1:${forward.port}/api/v1/query?query=up'
  curl -s 'http://127.0.0.1:${forward.port}/api/v1/alerts'
${thanosLines}
The cluster:
  export KUBECONFIG=${node.kubeconfigPath}
  ${kubectl} get pods -A
  ${kubectl} describe servicemonitor search -n team-b
  ${kubectl} get --raw /api/v1/namespaces/team-a/services/pager:8080/proxy/received
  ${kubectl} logs -n promop-system deploy/promop

Press Ctrl-C to stop; the node, its pods and every file it made are removed.`);
  if (process.argv.includes('--exit-after-ready')) await stop();
  setInterval(() => {}, 1 << 30);
} catch (error) {
  say(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  await stop(1);
}
