/**
 * The steps of the used-by story that both the end-to-end test (used-by-story.test.ts) and the demo
 * (scripts/demo.ts) take: install promop with Helm, apply the examples, and ask the running Prometheus what it
 * scrapes and fires. Everything goes through kubectl, helm and the API server's pod proxy, so it works on any
 * cluster (the real node here, kind elsewhere).
 */
import { join } from 'node:path';
import type { KubeConfig } from '@kubernetes/client-node';
import { ClusterCli } from './cluster-cli.ts';
import { queryPrometheus, rawGet, podProxyPath } from './kube-raw.ts';
import { REPO_ROOT } from '@promop/testkit';
import { WEBHOOK_RECEIVER_IMAGE } from './images/image-names.ts';

/** The examples the story applies, as a user would: namespaces, the platform's Prometheus, team-a, team-b. */
export const EXAMPLES = join(REPO_ROOT, 'examples', 'team-monitoring');
export const PROMOP_NS = 'promop-system';
export const MONITORING = 'monitoring';
/** The example Prometheus' name; its first pod is `prometheus-main-0`. */
export const PROMETHEUS = 'main';
export const FIRST_POD = `prometheus-${PROMETHEUS}-0`;

/** The pod (and Service) that records the notifications Alertmanager delivers, for the tests to read back. */
export const WEBHOOK_RECEIVER = 'webhook-receiver';

/** The webhook receiver's Pod and Service in `namespace` (port 8080, `/healthz` for readiness), as objects to apply. */
export function webhookReceiverObjects(namespace: string): Record<string, unknown>[] {
  return [
    {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: WEBHOOK_RECEIVER, namespace, labels: { app: WEBHOOK_RECEIVER } },
      spec: {
        securityContext: { runAsNonRoot: true, runAsUser: 65534, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [{
          name: 'receiver', image: WEBHOOK_RECEIVER_IMAGE, imagePullPolicy: 'IfNotPresent',
          ports: [{ name: 'http', containerPort: 8080 }],
          readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 1 },
          securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        }],
      },
    },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: WEBHOOK_RECEIVER, namespace }, spec: { selector: { app: WEBHOOK_RECEIVER }, ports: [{ name: 'http', port: 8080, targetPort: 'http' }] } },
  ];
}

/** `helm install promop charts/promop` with `image` (`repository:tag`, already on the node), waiting for Ready. */
export async function installPromop(cli: ClusterCli, image: string, extraArgs: readonly string[] = []): Promise<void> {
  const cut = image.lastIndexOf(':');
  const install = await cli.helm([
    'install', 'promop', join(REPO_ROOT, 'charts', 'promop'), '--namespace', PROMOP_NS, '--create-namespace',
    '--set', `image.repository=${image.slice(0, cut)}`, '--set', `image.tag=${image.slice(cut + 1)}`, '--set', 'image.pullPolicy=Never',
    ...extraArgs, '--wait', '--timeout', '3m',
  ]);
  if (install.code !== 0) throw new Error(`helm install failed (${install.code}): ${install.stderr.trim()}`);
}

/** The Prometheus pods' names, sorted. */
export async function prometheusPods(cli: ClusterCli): Promise<{ name: string; uid: string; ready: boolean; image: string; restarts: number }[]> {
  const list = await cli.getJson<{ items: PodJson[] }>(['pods', '-n', MONITORING, '-l', `operator.prometheus.io/name=${PROMETHEUS}`]);
  return list.items.map((pod) => ({
    name: pod.metadata.name,
    uid: pod.metadata.uid,
    ready: pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
    image: pod.spec.containers.find((c) => c.name === 'prometheus')?.image ?? '',
    restarts: pod.status?.containerStatuses?.reduce((sum, c) => sum + c.restartCount, 0) ?? 0,
  })).sort((a, b) => a.name.localeCompare(b.name));
}

export interface PodJson {
  metadata: { name: string; uid: string };
  spec: { containers: { name: string; image: string }[] };
  status?: { conditions?: { type: string; status: string }[]; containerStatuses?: { restartCount: number }[] };
}

/** `up{namespace="team-a"} == 1` in pod `pod`. */
export async function teamATargetUp(kc: KubeConfig, pod: string): Promise<boolean> {
  const result = await queryPrometheus(kc, MONITORING, pod, 'up{namespace="team-a"} == 1');
  return (result?.length ?? 0) > 0;
}

export async function teamAAlertFiring(kc: KubeConfig, pod: string): Promise<boolean> {
  const result = await queryPrometheus(kc, MONITORING, pod, 'ALERTS{alertname="CheckoutErrorsHigh",alertstate="firing"}');
  return (result?.length ?? 0) > 0;
}

/** The config a Prometheus pod runs now (its /api/v1/status/config). */
export async function loadedConfig(kc: KubeConfig, pod: string): Promise<string> {
  const response = await rawGet(kc, podProxyPath(MONITORING, pod, 9090, 'api/v1/status/config'));
  if (response.status !== 200) return '';
  return (JSON.parse(response.body) as { data: { yaml: string } }).data.yaml;
}

