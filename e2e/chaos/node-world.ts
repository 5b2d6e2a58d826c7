/**
 * The chaos world on the real node (node/node-cluster.ts), for the scenarios that judge Prometheus itself (7, 9):
 * the same CRDs, identities, audit log and `monitoring/main` Prometheus as chaos-cluster.ts, but the Prometheus runs
 * as a real pod (the image built here, a ServiceAccount that may discover targets), each team namespace runs the
 * example app as a pod behind a Service `example`, and promop runs as a process inside the node's network
 * namespace, where the pods it reloads are reachable (its /metrics is forwarded out through the bridge).
 *
 * From outside, the test asks Prometheus what it runs through its own API (`prometheusApi`): the loaded config,
 * the targets and their last scrape, the rules. `monitoringIntact` is the "no team's monitoring lost".
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RbacAuthorizationV1Api, type V1Pod } from '@kubernetes/client-node';
import { DEFAULT_IMAGES_DIR, imageRecipes } from '../src/images/index.ts';
import { buildCachedImage } from '../src/images/image-cache.ts';
import { startNodeCluster, type NodeCluster } from '../src/node/node-cluster.ts';
import { API_SERVER_PORT } from '../src/node/node-config.ts';
import { MONITORING, PROMETHEUS, TEAMS, prepareChaosWorld, type ChaosCluster } from './chaos-cluster.ts';
import { startPromop, type PromopNetwork, type PromopProcess } from './promop-process.ts';
import { until } from './settle.ts';

/** The first (and only) Prometheus pod. */
export const PROMETHEUS_POD = `prometheus-${PROMETHEUS}-0`;
/** Each team's app: a Pod and a Service of this name, label `app: example`, port `metrics` (8080). */
export const APP = 'example';
/** Prometheus' scrape and rule evaluation interval in the node world. */
export const SCRAPE_INTERVAL_MS = 10_000;

/** The Prometheus pod as the API server and the node know it. */
export interface PrometheusPod {
  ip: string;
  uid: string;
  ready: boolean;
  restarts: number;
  /** containerd's id of the prometheus container. */
  containerId: string;
}

/** A running node world; see the module comment. */
export interface NodeWorld {
  cluster: ChaosCluster;
  node: NodeCluster;
  /** Starts a promop process (identity `name`) in the node's namespace. */
  startPromop(name: string, options?: { inspect?: boolean }): Promise<{ promop: PromopProcess; user: string }>;
  /** The first Prometheus pod, or the one named `name` (another replica). */
  prometheusPod(name?: string): Promise<PrometheusPod>;
  /**
   * GET `path` of a Prometheus pod's HTTP API (the first pod's, or `pod`'s); the `data` of a JSON answer. Throws on
   * any other status than 200.
   */
  prometheusApi<T>(path: string, pod?: string): Promise<T>;
  /** The text of Prometheus' own /metrics. */
  prometheusMetrics(): Promise<string>;
  stop(): Promise<void>;
}

/** Starts the node world; resolves once every team's app pod runs. */
export async function startNodeWorld(options: { prometheusSpec?: Record<string, unknown> } = {}): Promise<NodeWorld> {
  const recipes = imageRecipes();
  const [pause, prometheusImage, exampleApp] = await Promise.all(
    [recipes.pause, recipes.prometheus, recipes.exampleApp].map((recipe) => buildCachedImage(recipe, DEFAULT_IMAGES_DIR)),
  );
  const dir = mkdtempSync(join(tmpdir(), 'promop-chaos-node-'));
  const auditLogPath = join(dir, 'audit.log');
  let node: NodeCluster;
  try {
    node = await startNodeCluster({
      sandboxImage: pause!.name,
      images: [pause!.archive, prometheusImage!.archive, exampleApp!.archive],
      auditLogPath,
      keepDir: process.env.PROMOP_CHAOS_KEEP === '1',
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const network: PromopNetwork = {
    wrap: node.netns.wrap,
    reach: async (port) => (await node.bridge.forward({ host: '127.0.0.1', port })).port,
  };
  const version = prometheusImage!.name.slice(prometheusImage!.name.lastIndexOf(':') + 1);
  const cluster = await prepareChaosWorld({
    env: node.controlPlane,
    auditLogPath,
    stop: async () => {
      await node.stop();
      if (process.env.PROMOP_CHAOS_KEEP !== '1') rmSync(dir, { recursive: true, force: true });
    },
    prometheusSpec: {
      version,
      serviceAccountName: 'prometheus',
      scrapeInterval: `${SCRAPE_INTERVAL_MS / 1000}s`,
      evaluationInterval: `${SCRAPE_INTERVAL_MS / 1000}s`,
      ...options.prometheusSpec,
    },
    // promop runs in the node's namespace, where the API server listens on the node's ports.
    promopServer: `https://127.0.0.1:${API_SERVER_PORT}`,
    promopNetwork: network,
  });
  try {
    await prometheusDiscoveryRights(cluster);
    for (const namespace of TEAMS) await runApp(cluster, namespace, exampleApp!.name);
    await until('every team\'s app pod Running', async () => {
      for (const namespace of TEAMS) {
        const pod = await cluster.core.readNamespacedPod({ namespace, name: APP });
        if (!pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')) return false;
      }
      return true;
    }, 120_000);
  } catch (error) {
    await cluster.stop();
    throw error;
  }

  const prometheusPod = async (name = PROMETHEUS_POD): Promise<PrometheusPod> => {
    const pod = await cluster.core.readNamespacedPod({ namespace: MONITORING, name });
    const container = pod.status?.containerStatuses?.find((c) => c.name === 'prometheus');
    return {
      ip: pod.status?.podIP ?? '',
      uid: pod.metadata?.uid ?? '',
      ready: pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
      restarts: container?.restartCount ?? 0,
      containerId: (container?.containerID ?? '').replace(/^containerd:\/\//, ''),
    };
  };
  const get = async (path: string, name = PROMETHEUS_POD): Promise<string> => {
    const { ip } = await prometheusPod(name);
    if (!ip) throw new Error(`${name} has no IP yet`);
    const response = await node.bridge.request(`http://${ip}:9090${path}`, { timeoutMs: 15_000 });
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${response.body.slice(0, 300)}`);
    return response.body;
  };
  return {
    cluster,
    node,
    async startPromop(name, options) {
      const { kubeconfigPath, user } = await cluster.identity(name);
      const promop = await startPromop({ name, kubeconfigPath, dir: cluster.env.dir, network, ...options });
      return { promop, user };
    },
    prometheusPod,
    prometheusApi: async <T>(path: string, pod?: string) => (JSON.parse(await get(path, pod)) as { data: T }).data,
    prometheusMetrics: () => get('/metrics'),
    stop: () => cluster.stop(),
  };
}

/** The ServiceAccount `monitoring/prometheus` with the rights Kubernetes service discovery needs. */
async function prometheusDiscoveryRights(cluster: ChaosCluster): Promise<void> {
  const rbac = cluster.admin.makeApiClient(RbacAuthorizationV1Api);
  await cluster.core.createNamespacedServiceAccount({ namespace: MONITORING, body: { metadata: { name: 'prometheus' } } });
  await rbac.createClusterRole({
    body: {
      metadata: { name: 'chaos-prometheus' },
      rules: [
        { apiGroups: [''], resources: ['services', 'endpoints', 'pods'], verbs: ['get', 'list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['get', 'list', 'watch'] },
      ],
    },
  });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: 'chaos-prometheus' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'chaos-prometheus' },
      subjects: [{ kind: 'ServiceAccount', name: 'prometheus', namespace: MONITORING }],
    },
  });
}

/** The example app as Pod + Service `example` in `namespace`. */
async function runApp(cluster: ChaosCluster, namespace: string, image: string): Promise<void> {
  const pod: V1Pod = {
    metadata: { name: APP, labels: { app: APP } },
    spec: {
      automountServiceAccountToken: false,
      containers: [{ name: 'app', image, imagePullPolicy: 'Never', ports: [{ name: 'metrics', containerPort: 8080 }], readinessProbe: { httpGet: { path: '/healthz', port: 'metrics' }, periodSeconds: 2 } }],
    },
  };
  // The namespace's default ServiceAccount, which pod admission requires, comes from a controller a moment later.
  await until(`${namespace}/${APP} pod created`, async () => {
    await cluster.core.createNamespacedPod({ namespace, body: pod });
    return true;
  }, 30_000);
  await cluster.core.createNamespacedService({
    namespace,
    body: { metadata: { name: APP, labels: { app: APP } }, spec: { selector: { app: APP }, ports: [{ name: 'metrics', port: 8080, targetPort: 'metrics' }] } },
  });
}

/** Active targets as Prometheus reports them. */
export interface ActiveTarget {
  scrapePool: string;
  health: string;
  lastScrape: string;
  lastError: string;
  labels: Record<string, string>;
}

/** What {@link monitoringIntact} checks. */
export interface MonitoringExpectation {
  /** Scrape pools (jobs) that must each have at least one target, every one up. */
  jobs: readonly string[];
  /** Alert rule names that must be loaded. */
  alerts: readonly string[];
  /** Every target's last scrape must be after this time (ms since the epoch): scraping goes on. */
  scrapedAfter: number;
}

/**
 * "No team's monitoring lost", asked of Prometheus itself: every expected job has targets, all up and scraped after
 * `scrapedAfter`, and every expected alert rule is loaded. Waits up to `timeoutMs` (a scrape interval or two);
 * resolves with the counts, or throws naming the first few jobs or alerts that fall short.
 */
export async function monitoringIntact(world: NodeWorld, expected: MonitoringExpectation, timeoutMs = 45_000): Promise<{ targets: number; alerts: number }> {
  let problems: string[] = [];
  let counts = { targets: 0, alerts: 0 };
  await until('every selected target scraped and every alert rule loaded', async () => {
    const { activeTargets } = await world.prometheusApi<{ activeTargets: ActiveTarget[] }>('/api/v1/targets?state=active');
    const groups = await world.prometheusApi<{ groups: { rules: { name: string; type: string }[] }[] }>('/api/v1/rules?type=alert');
    const byPool = new Map<string, ActiveTarget[]>();
    for (const target of activeTargets) byPool.set(target.scrapePool, [...(byPool.get(target.scrapePool) ?? []), target]);
    const loadedAlerts = new Set(groups.groups.flatMap((group) => group.rules.map((rule) => rule.name)));
    problems = [];
    for (const job of expected.jobs) {
      const targets = byPool.get(job) ?? [];
      if (targets.length === 0) problems.push(`${job}: no target`);
      for (const target of targets) {
        if (target.health !== 'up') problems.push(`${job}: target ${target.health} (${target.lastError})`);
        else if (Date.parse(target.lastScrape) <= expected.scrapedAfter) problems.push(`${job}: not scraped since ${new Date(expected.scrapedAfter).toISOString()}`);
      }
    }
    for (const alert of expected.alerts) if (!loadedAlerts.has(alert)) problems.push(`alert ${alert} not loaded`);
    counts = { targets: expected.jobs.reduce((sum, job) => sum + (byPool.get(job)?.length ?? 0), 0), alerts: expected.alerts.length };
    return problems.length === 0;
  }, timeoutMs).catch((error: Error) => {
    throw new Error(`${error.message}: ${problems.length} problems, e.g. ${problems.slice(0, 8).join('; ')}`);
  });
  return counts;
}

/**
 * The host pid of the Prometheus process in the pod's container: the process whose cgroup names the container
 * and whose command is prometheus (the node shares this machine's pid namespace view from the root).
 */
export function prometheusHostPid(containerId: string): number {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cgroup`, 'utf8').includes(containerId)) continue;
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'prometheus') return Number(pid);
    } catch {
      // Exited while we looked.
    }
  }
  throw new Error(`no prometheus process in container ${containerId}`);
}

/** Resident memory of a process, in bytes (VmRSS). */
export function residentBytes(pid: number): number {
  const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kib) * 1024;
}
