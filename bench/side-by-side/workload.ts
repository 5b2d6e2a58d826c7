/**
 * The objects both operators are measured with, all in monitoring.coreos.com/v1 as both accept them:
 * ServiceMonitor `app-<i>` in namespace `team-<i mod 1,000>` (labelled `monitored=true`), two endpoints each (one with relabelings and an interval, one with a path and a metric
 * relabeling, as in bench/render.bench.ts), and Prometheus objects in `monitoring` selecting them through a label
 * selector and a namespace label selector. No Services: neither operator reads them (Prometheus discovers the
 * endpoints itself), so they would only cost requests.
 */
import { BenchApi, inParallel } from './api-client.ts';

/** Monitors are spread over this many namespaces (fewer while there are fewer monitors). */
export const TEAM_NAMESPACES = 1_000;
/** Jobs per ServiceMonitor: one per endpoint. */
export const ENDPOINTS_PER_MONITOR = 2;
export const PROMETHEUS_NAMESPACE = 'monitoring';
export const BULK_SECRETS_NAMESPACE = 'bulk';
/** Requests in flight while creating objects. */
const CREATE_CONCURRENCY = 24;

const GROUP_VERSION = 'monitoring.coreos.com/v1';
const monitorsPath = (namespace: string) => `/apis/${GROUP_VERSION}/namespaces/${namespace}/servicemonitors`;
const prometheusesPath = `/apis/${GROUP_VERSION}/namespaces/${PROMETHEUS_NAMESPACE}/prometheuses`;

export const teamNamespace = (monitor: number): string => `team-${monitor % TEAM_NAMESPACES}`;
export const monitorName = (monitor: number): string => `app-${monitor}`;

/**
 * The endpoints of a monitor; `marker` is the replacement of its second relabeling, the value a change sets and
 * the benchmark then looks for in the configuration.
 */
export function monitorEndpoints(marker: string): unknown[] {
  return [
    {
      port: 'web',
      interval: '30s',
      relabelings: [
        { sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node_name', action: 'replace' },
        { targetLabel: 'bench_revision', replacement: marker, action: 'replace' },
      ],
    },
    { port: 'metrics', path: '/internal/metrics', metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'go_gc_.*', action: 'drop' }] },
  ];
}

/** Creates `monitoring`, the bulk Secrets' namespace and (as they are needed) the team namespaces and monitors. */
export class Workload {
  readonly #api: BenchApi;
  #namespaces = 0;
  #monitors = 0;

  constructor(api: BenchApi) {
    this.#api = api;
  }

  get monitorCount(): number {
    return this.#monitors;
  }

  async createBaseNamespaces(): Promise<void> {
    for (const name of [PROMETHEUS_NAMESPACE, BULK_SECRETS_NAMESPACE]) await this.#api.json('POST', '/api/v1/namespaces', { metadata: { name } });
  }

  /** Adds ServiceMonitors (and the namespaces they need) until there are `count`. */
  async growTo(count: number): Promise<void> {
    const namespaces = Math.min(count, TEAM_NAMESPACES);
    const newNamespaces = Array.from({ length: Math.max(0, namespaces - this.#namespaces) }, (_, i) => this.#namespaces + i);
    await inParallel(newNamespaces, CREATE_CONCURRENCY, async (index) => {
      await this.#api.json('POST', '/api/v1/namespaces', { metadata: { name: `team-${index}`, labels: { monitored: 'true' } } });
    });
    this.#namespaces = Math.max(this.#namespaces, namespaces);
    const newMonitors = Array.from({ length: Math.max(0, count - this.#monitors) }, (_, i) => this.#monitors + i);
    await inParallel(newMonitors, CREATE_CONCURRENCY, async (index) => {
      await this.#api.json('POST', monitorsPath(teamNamespace(index)), {
        apiVersion: GROUP_VERSION,
        kind: 'ServiceMonitor',
        metadata: { name: monitorName(index), labels: { release: 'bench' } },
        spec: { selector: { matchLabels: { app: 'bench' } }, endpoints: monitorEndpoints('initial') },
      });
    });
    this.#monitors = Math.max(this.#monitors, count);
  }

  /** Sets the marker of monitor `index` (a JSON merge patch replaces the endpoints list whole). */
  async changeMonitor(index: number, marker: string): Promise<void> {
    await this.#api.json('PATCH', `${monitorsPath(teamNamespace(index))}/${monitorName(index)}`, { spec: { endpoints: monitorEndpoints(marker) } }, { contentType: 'application/merge-patch+json' });
  }

  /** A Prometheus selecting every benchmark monitor. No kubelet runs, so its pods never start (for both operators). */
  async createPrometheus(name: string): Promise<void> {
    await this.#api.json('POST', prometheusesPath, {
      apiVersion: GROUP_VERSION,
      kind: 'Prometheus',
      metadata: { name },
      spec: {
        replicas: 1,
        serviceMonitorSelector: { matchLabels: { release: 'bench' } },
        serviceMonitorNamespaceSelector: { matchLabels: { monitored: 'true' } },
      },
    });
  }

  /**
   * Deletes a Prometheus and then what it owns in its namespace. No garbage collector runs here (no
   * kube-controller-manager, which would cost CPU both operators share), so the benchmark removes the children.
   */
  async deletePrometheus(name: string): Promise<void> {
    const prometheus = await this.#api.json<{ metadata: { uid: string } }>('GET', `${prometheusesPath}/${name}`);
    await this.#api.json('DELETE', `${prometheusesPath}/${name}`);
    for (const kind of ['/api/v1/namespaces/monitoring/secrets', '/api/v1/namespaces/monitoring/configmaps', '/api/v1/namespaces/monitoring/services', '/apis/apps/v1/namespaces/monitoring/statefulsets']) {
      const list = await this.#api.json<{ items: { metadata: { name: string; ownerReferences?: { uid: string }[] } }[] }>('GET', kind);
      const owned = list.items.filter((item) => item.metadata.ownerReferences?.some((owner) => owner.uid === prometheus.metadata.uid));
      await inParallel(owned, CREATE_CONCURRENCY, async (item) => {
        await this.#api.json('DELETE', `${kind}/${item.metadata.name}`, undefined, { accepted: [200, 202, 404] });
      });
    }
  }

  /** `count` Secrets of `kib` KiB each that nothing references. */
  async createBulkSecrets(count: number, kib: number): Promise<void> {
    const value = Buffer.alloc(kib * 1024, 'x').toString('base64');
    await inParallel(Array.from({ length: count }, (_, i) => i), 16, async (index) => {
      await this.#api.json('POST', `/api/v1/namespaces/${BULK_SECRETS_NAMESPACE}/secrets`, { metadata: { name: `bulk-${index}` }, type: 'Opaque', data: { blob: value } });
    });
  }
}
