/**
 * The operator: caches → work queues → PrometheusReconcilers, wired in sample-controller's shape: one work queue
 * and one reconciler per kind (Prometheus, PrometheusAgent), sharing the caches, the writers and the reloader. `start()` waits
 * until every cache has listed (so the first reconcile sees the whole cluster, not a partial one that would
 * render a config without some monitors), then starts the workers; `stop()` stops watches, timers, workers,
 * binding writers and reload jobs and leaves everything promop created in place: stopping the operator never stops a Prometheus.
 * The reconciler's ConfigReloader is the ShardReloader (reload/): it reloads and verifies the pods of each shard
 * over HTTP, beside the work queues, and requeues a key when a round of that work has news for its status.
 * A workload of another program has a controller of its own (alertmanager/alertmanager-controller.ts: its queue,
 * reconciler and enqueue handlers) built from the same shared parts.
 */
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, KINDS, PLURALS, PROMETHEUS_WORKLOAD_KINDS } from '@promop/crds';
import { pino, type Logger } from 'pino';
import {
  ApiBackpressure, ApiPodAnnotator, ChildWriter, EventRecorder, RawApi, ReferencedObjects, StatusWriter, createClusterCaches, describeError, isNotFound, namespacedPath, startClusterCaches,
  stopClusterCaches, writeGatedAccess,
  type ClusterCaches, type KubeAccess, type NamespaceScope,
} from './kube/index.ts';
import { podTopologyLabelsReader, type KubernetesVersionInfo } from './kube/pod-topology-labels.ts';
import { HealthReporter } from './health/health-reporter.ts';
import { apiObjectLister } from './health/no-targets-facts.ts';
import { MeteredRawApi, OperatorMetrics, recordedReconcile } from './observability/index.ts';
import { PrometheusReloader } from './prometheus-client/index.ts';
import type { ClientCertificate } from './prometheus-client/pod-tls.ts';
import { AlertmanagerController } from './alertmanager/alertmanager-controller.ts';
import { ThanosRulerController } from './thanos-ruler/thanos-ruler-controller.ts';
import { PrometheusReconciler, WorkQueue, enqueueEveryPrometheus, enqueueOnChanges, objectKey, splitKey, workloadKey } from './reconcile/index.ts';
import type { WorkloadKind } from './workload/index.ts';
import { FixedPodNetworks, NodePodNetworks, ShardReloader, type PodNetworks } from './reload/index.ts';

/** Options of an Operator. */
export interface OperatorOptions {
  /**
   * Whom the operator talks to the API server as: promop's Kubeconfig (kube/kubeconfig.ts) in `promop run`, or
   * client-node's KubeConfig in tests (both have what RawApi needs).
   */
  kubeConfig: KubeAccess;
  /** Structured logs (default: pino to stdout at info). */
  log?: Logger;
  /**
   * The networks Prometheus pods have addresses in (`promop run --pod-network`); promop dials no other address.
   * Default: the Nodes' `spec.podCIDRs` (see reload/pod-networks.ts).
   */
  podNetworks?: readonly string[];
  /** Where the operator records its metrics (default: a registry of its own that nobody serves). */
  metrics?: OperatorMetrics;
  /** How long to wait for one pod to load the written files before calling it stale (default 90 s, see prometheus-reloader.ts). */
  reloadTimeoutMs?: number;
  /**
   * Test only: the port of a pod's Prometheus (default 9090, the container port). Tests without a kubelet run one
   * Prometheus per hand-made pod on 127.0.0.1, each on a port of its own; nothing else should set it.
   */
  prometheusPortOf?: (pod: V1Pod) => number;
  /** Test only: the same for an Alertmanager pod (default 9093). */
  alertmanagerPortOf?: (pod: V1Pod) => number;
  /** Test only: the same for a thanos rule pod (default 10902). */
  thanosRulerPortOf?: (pod: V1Pod) => number;
  /** Workers of the work queue: 1 or 2 (default 1). */
  workers?: 1 | 2;
  /** Period of the full relist of every cache (default 5 minutes). */
  relistIntervalMs?: number;
  /** Label selector of the Prometheus and PrometheusAgent objects to manage (default all). */
  prometheusSelector?: string;
  /** Label selector of the Alertmanager objects to manage (`--alertmanager-instance-selector`; default all). */
  alertmanagerSelector?: string;
  /** Label selector of the ThanosRuler objects to manage (`--thanos-ruler-instance-selector`; default all). */
  thanosRulerSelector?: string;
  /** The namespaces to watch and write in (`--namespaces`, `--deny-namespaces`; default all). */
  scope?: NamespaceScope;
  /** Field selector of the Secrets promop reads (`--secret-field-selector`; default: no token or Helm Secrets). */
  secretFieldSelector?: string;
  /** Label selector of the Secrets promop reads (`--secret-label-selector`; default all). */
  secretLabelSelector?: string;
  /** Period of the resync that enqueues every Prometheus even without a change (default 5 minutes). */
  resyncIntervalMs?: number;
  /**
   * Period of the health reporter's reads of every Prometheus' targets and rules (`promop run --health-interval`,
   * default 30 s; 0 turns it off). See health/health-reporter.ts.
   */
  healthIntervalMs?: number;
  /** promop's client certificate for Prometheus pods that ask for one (`promop run --prometheus-client-cert/-key`). */
  prometheusClientCertificate?: () => ClientCertificate | undefined;
  /** Test only: the least time between two health writes of one object (default one minute). */
  healthMinWriteIntervalMs?: number;
  /**
   * Test only: how soon a Prometheus or Alertmanager whose spec.serviceName names no Service governing its pods is
   * reconciled again (default CUSTOM_SERVICE_RECHECK_MS, workload/governing-service.ts).
   */
  customServiceRecheckMs?: number;
  /**
   * Asked before every request of the writers (children, status, Events, pod annotations); false refuses it
   * locally (kube/write-gate.ts). `promop run` passes the leader elector's isLeader. Default: always true.
   */
  mayWrite?: () => boolean;
}

/** Asks the API server (not the cache) whether the `kind` `namespace/name` exists; see ReconcilerDependencies. */
async function prometheusExists(api: RawApi, kind: WorkloadKind, namespace: string, name: string): Promise<boolean> {
  try {
    await api.getJson(namespacedPath(`/apis/${GROUP}/${API_VERSIONS[kind]}`, namespace, PLURALS[kind], name));
    return true;
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}

/** The least time from a reconcile of one Prometheus that wrote files to its next (WorkQueue's minIntervalMs). */
const RECONCILE_MIN_INTERVAL_MS = 1_000;

/** One value per workload kind of the Prometheus family (each has a work queue and a reconciler of its own). */
function perWorkloadKind<T>(make: (kind: WorkloadKind) => T): Record<WorkloadKind, T> {
  return Object.fromEntries(PROMETHEUS_WORKLOAD_KINDS.map((kind) => [kind, make(kind)])) as Record<WorkloadKind, T>;
}

/** A running (or stopped) promop operator. */
export class Operator {
  readonly #options: OperatorOptions;
  readonly #log: Logger;
  readonly #api: RawApi;
  /** The writers' requests (gated by leadership). */
  readonly #writes: RawApi;
  readonly #caches: ClusterCaches;
  readonly #referenced: ReferencedObjects;
  /** One work queue and one reconciler per kind. */
  readonly #queues: Readonly<Record<WorkloadKind, WorkQueue>>;
  readonly #reconcilers: Readonly<Record<WorkloadKind, PrometheusReconciler>>;
  /** Reloads the pods of every Prometheus shard and Alertmanager, beside the work queues. */
  readonly #reloader: ShardReloader;
  /** Alertmanagers: a queue and reconciler of their own. */
  readonly #alertmanagers: AlertmanagerController;
  /** ThanosRulers: a queue and reconciler of their own. */
  readonly #thanosRulers: ThanosRulerController;
  readonly #podClient: PrometheusReloader;
  readonly #metrics: OperatorMetrics;
  /** Reads targets and rules from the pods and writes each object's health (none when the interval is 0). */
  readonly #health: HealthReporter | undefined;
  #resyncTimer: NodeJS.Timeout | undefined;
  #started = false;

  constructor(options: OperatorOptions) {
    this.#options = options;
    this.#log = options.log ?? pino();
    const kc = options.kubeConfig;
    const metrics = (this.#metrics = options.metrics ?? new OperatorMetrics({ processMetrics: false }));
    // Every list and watch of the caches is counted (promop_list_operations_total, promop_watch_operations_total).
    // The caches' RawApi also serves the reads outside them (the Prometheus existence check, the Node list).
    // One pace for the caches' reads and the writers' requests while the API server pushes back (api-backpressure.ts).
    const backpressure = new ApiBackpressure({
      listener: {
        closed: (cause, pauseMs) => this.#log.warn({ cause, pauseMs }, 'the API server pushes back; one request at a time until it answers'),
        reopened: (failedProbes) => this.#log.info({ failedProbes }, 'the API server answers again; requests resume'),
      },
    });
    this.#api = new MeteredRawApi(kc, metrics.cacheRequests, { backpressure });
    // The writers share one RawApi, one keep-alive agent: no TLS handshake per write. With leader election every
    // request of theirs first asks whether this replica still leads (kube/write-gate.ts).
    const writes = (this.#writes = new RawApi(options.mayWrite ? writeGatedAccess(kc, options.mayWrite) : kc, { backpressure }));
    this.#caches = createClusterCaches(this.#api, this.#log, {
      ...(options.relistIntervalMs === undefined ? {} : { relistIntervalMs: options.relistIntervalMs }),
      ...(options.prometheusSelector === undefined ? {} : { prometheusSelector: options.prometheusSelector }),
      ...(options.alertmanagerSelector === undefined ? {} : { alertmanagerSelector: options.alertmanagerSelector }),
      ...(options.thanosRulerSelector === undefined ? {} : { thanosRulerSelector: options.thanosRulerSelector }),
      ...(options.scope === undefined ? {} : { scope: options.scope }),
      ...(options.secretFieldSelector === undefined ? {} : { secretFieldSelector: options.secretFieldSelector }),
      ...(options.secretLabelSelector === undefined ? {} : { secretLabelSelector: options.secretLabelSelector }),
    });
    const prometheuses = this.#caches.prometheuses;
    metrics.countPrometheusObjects(() => prometheuses.list());
    this.#referenced = new ReferencedObjects({ secrets: this.#caches.secrets, configMaps: this.#caches.configMaps, api: this.#api });
    const queue = (kind: WorkloadKind) => new WorkQueue({
      workers: options.workers ?? 1,
      // Under a stream of changes (a deploy touching hundreds of monitors, a team's automation), each reconcile of
      // a Prometheus renders and writes its whole config: one a second that wrote files folds every change of its
      // window; a single change, and one after a reconcile that wrote nothing, still start at once.
      minIntervalMs: (key) => (this.#reconcilers[kind].wroteFiles(key) ? RECONCILE_MIN_INTERVAL_MS : 0),
      onError: (key, error, failures) => this.#log.error({ prometheus: key, kind, failures, err: describeError(error) }, 'reconcile failed; retrying with backoff'),
      metrics: metrics.workQueue,
    });
    this.#queues = perWorkloadKind(queue);
    // The reloader of `promop run`: pods from the cache, pod networks from the flag or the Nodes, HTTP to Prometheus.
    const api = this.#api;
    const networks: PodNetworks = options.podNetworks
      ? new FixedPodNetworks(options.podNetworks)
      : new NodePodNetworks({ listNodes: async () => (await api.getJson<{ items: V1Node[] }>('/api/v1/nodes')).items, log: this.#log });
    this.#podClient = new PrometheusReloader({
      allowedNetworks: () => networks.allowList(),
      ...(options.reloadTimeoutMs === undefined ? {} : { timeoutMs: options.reloadTimeoutMs }),
      ...(options.prometheusClientCertificate ? { clientCertificate: options.prometheusClientCertificate } : {}),
    });
    const reloader = this.#reloader = new ShardReloader({
      pods: this.#caches.pods,
      annotator: new ApiPodAnnotator(writes),
      verifier: this.#podClient,
      networks,
      metrics,
      ...(options.prometheusPortOf ? { prometheusPortOf: options.prometheusPortOf } : {}),
      ...(options.alertmanagerPortOf ? { alertmanagerPortOf: options.alertmanagerPortOf } : {}),
      ...(options.thanosRulerPortOf ? { thanosRulerPortOf: options.thanosRulerPortOf } : {}),
    });
    const children = new ChildWriter(writes);
    const status = new StatusWriter(writes);
    const events = new EventRecorder(writes);
    const podTopologyLabels = podTopologyLabelsReader(() => api.getJson<KubernetesVersionInfo>('/version'));
    const reconciler = (kind: WorkloadKind) => new PrometheusReconciler({
      kind,
      podTopologyLabels,
      caches: this.#caches,
      referenced: this.#referenced,
      children,
      status,
      prometheusExists: (namespace, name) => prometheusExists(api, kind, namespace, name),
      // A failed binding write (written beside the queue, binding-writer.ts) retries the whole reconcile.
      requeue: (key, delayMs) => this.#queues[kind].addAfter(key, delayMs),
      events,
      reloader,
      log: this.#log,
      metrics,
      ...(options.customServiceRecheckMs === undefined ? {} : { customServiceRecheckMs: options.customServiceRecheckMs }),
    });
    this.#reconcilers = perWorkloadKind(reconciler);
    const podClient = this.#podClient;
    this.#health = options.healthIntervalMs === 0 ? undefined : new HealthReporter({
      caches: this.#caches, client: (baseUrl, tls) => podClient.client(baseUrl, tls), networks, status, events, log: this.#log.child({ component: 'health' }),
      // Services and Pods of a monitor without targets, to say why (promop's caches hold only its own).
      listObjects: apiObjectLister((path, request) => api.getJson(path, request)),
      seesEveryNamespace: options.scope?.kind !== 'only',
      podTls: (kind, namespace, name) => this.#reconcilers[kind].podTls(objectKey(namespace, name)),
      ...(options.healthIntervalMs === undefined ? {} : { intervalMs: options.healthIntervalMs }),
      ...(options.healthMinWriteIntervalMs === undefined ? {} : { minWriteIntervalMs: options.healthMinWriteIntervalMs }),
      ...(options.prometheusPortOf ? { prometheusPortOf: options.prometheusPortOf } : {}),
    });
    this.#alertmanagers = new AlertmanagerController({
      caches: this.#caches,
      // The Secrets the Alertmanagers read (their configSecrets, their AlertmanagerConfigs' references): an instance of their own.
      referenced: new ReferencedObjects({ secrets: this.#caches.secrets, configMaps: this.#caches.configMaps, api: this.#api }),
      children, reloader, status, events, metrics, log: this.#log,
      ...(options.customServiceRecheckMs === undefined ? {} : { customServiceRecheckMs: options.customServiceRecheckMs }),
    });
    this.#thanosRulers = new ThanosRulerController({
      caches: this.#caches,
      referenced: new ReferencedObjects({ secrets: this.#caches.secrets, configMaps: this.#caches.configMaps, api: this.#api }),
      children, reloader, status, events, metrics, log: this.#log,
    });
  }

  /** Lists and watches everything, then starts reconciling. Rejects (and cleans up) when a cache cannot list. */
  async start(): Promise<void> {
    await this.startCaches();
    this.startReconciling();
  }

  /**
   * Lists and watches everything without reconciling: a stand-by replica's caches stay warm (changes only queue
   * keys) so it can reconcile as soon as it becomes the leader. Rejects when a cache cannot list.
   */
  async startCaches(): Promise<void> {
    if (this.#started) throw new Error('bug: Operator started twice');
    this.#started = true;
    enqueueOnChanges(this.#caches, this.#queues, this.#referenced);
    this.#alertmanagers.watch();
    this.#thanosRulers.watch();
    // A deleted (or no longer selected) Prometheus or agent takes its per-Prometheus series with it.
    for (const kind of PROMETHEUS_WORKLOAD_KINDS) {
      this.#caches[KINDS[kind].list].onChange((workload: { metadata: { namespace: string; name: string } }, change) => {
        if (change === 'delete') this.#metrics.forgetPrometheus(workloadKey(kind, workload.metadata.namespace, workload.metadata.name));
      });
    }
    await startClusterCaches(this.#caches);
    this.#log.info({ prometheuses: this.#caches.prometheuses.list().length, prometheusAgents: this.#caches.prometheusAgents.list().length }, 'caches synced');
  }

  /** Starts the workers (after startCaches): from now on this operator writes. Only the leader calls it. */
  startReconciling(): void {
    this.#log.info({ prometheuses: this.#caches.prometheuses.list().length, prometheusAgents: this.#caches.prometheusAgents.list().length }, 'reconciling');
    // Everything, once: a new leader must not rely on the keys its stand-by time happened to queue.
    enqueueEveryPrometheus(this.#caches, this.#queues);
    this.#alertmanagers.start();
    this.#thanosRulers.start();
    for (const kind of PROMETHEUS_WORKLOAD_KINDS) {
      this.#queues[kind].start(recordedReconcile(this.#metrics, (key) => this.#reconcilers[kind].reconcile(key), {
        // Debug only: how often a key is reconciled (one change should cost one reconcile) and how long it takes.
        onReconciled: (key, outcome, ms) => this.#log.debug({ prometheus: key, kind, outcome, ms: Math.round(ms) }, 'reconciled'),
        metricsKey: (key) => {
          const { namespace, name } = splitKey(key);
          return workloadKey(kind, namespace, name);
        },
      }));
    }
    // A level-based controller can always reconcile again; a periodic resync repairs anything a missed event
    // left behind (and refreshes Available while pods come and go).
    this.#resyncTimer = setInterval(() => {
      enqueueEveryPrometheus(this.#caches, this.#queues);
      this.#alertmanagers.enqueueEvery();
      this.#thanosRulers.enqueueEvery();
    }, this.#options.resyncIntervalMs ?? 5 * 60_000);
    this.#resyncTimer.unref();
    this.#health?.start();
  }

  /**
   * Stops reconciling for good (leadership lost): no reconcile and no binding write starts after this call;
   * resolves once the reconcile and the binding writes in progress ended. The caches keep running until stop().
   */
  async stopReconciling(): Promise<void> {
    clearInterval(this.#resyncTimer);
    await this.#shutdownQueues();
  }

  /**
   * Stops the work queues, the binding writers and the reload jobs at once: no binding write or reload starts after
   * this call, even while a reconcile in progress finishes; what it hands the writer or the reloader then is
   * dropped, and the next leader or start does it. Resolves once the reconciles, binding writes and reload
   * attempts in progress ended.
   */
  async #shutdownQueues(): Promise<void> {
    await Promise.all([
      this.#reloader.stop(),
      this.#health?.stop(),
      ...PROMETHEUS_WORKLOAD_KINDS.flatMap((kind) => [this.#queues[kind].shutdown(), this.#reconcilers[kind].stopBindingWrites()]),
      this.#alertmanagers.stop(),
      this.#thanosRulers.stop(),
    ]);
  }

  /** Stops watching and reconciling; waits for the reconcile and the binding writes in progress. Children stay. */
  async stop(): Promise<void> {
    clearInterval(this.#resyncTimer);
    await stopClusterCaches(this.#caches);
    await this.#shutdownQueues();
    await this.#podClient.close();
    this.#api.close();
    this.#writes.close();
    this.#log.info('stopped');
  }
}
