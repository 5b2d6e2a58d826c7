/**
 * The set-up of the API-server tests that run the operator against real Prometheus processes, with the kubelet
 * played by the test: the test's namespaces on the shared control plane (CRDs applied), the operator's
 * least-privilege identity, hand-made Pod objects reported Running at 127.0.0.1, each run by a real Prometheus on
 * 127.0.0.1 whose files a FakeKubelet refreshes when the Pod object changes, and the operator itself.
 *
 * The caller builds the operator (the kit knows no promop package, so it takes anything with `start`/`stop`) and
 * passes `portOf` as its pod-port override: every hand-made pod's Prometheus listens on a port of its own.
 * `stop()` undoes everything, the operator first so that nothing reloads a Prometheus that is going away.
 */
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi, PatchStrategy, setHeaderOptions, type KubeConfig, type V1PolicyRule, type V1Pod } from '@kubernetes/client-node';
import { applyCrds } from './apply-crds.ts';
import { eventually } from './eventually.ts';
import { FakeKubelet, PLACEHOLDER_CONFIG, type FakeKubeletOptions } from './fake-kubelet.ts';
import { startPrometheus, type PrometheusProcess, type PrometheusStartOptions } from './prometheus-process.ts';
import { serviceAccountIdentity } from './service-account-identity.ts';
import { sharedTestEnv } from './test-env.ts';

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** The port a real pod's Prometheus serves on: what the operator calls for a pod the test set no port for. */
const PROMETHEUS_POD_PORT = 9090;

export interface PrometheusPodsFixtureOptions {
  /** Unique per test file: names the operator's ClusterRole and ClusterRoleBinding (cluster-wide) and the temporary directory. */
  identity: string;
  /** The namespace of the operator's ServiceAccount `promop` (created). */
  operatorNamespace: string;
  /** The namespaces of the test's objects and pods (created). */
  namespaces: string[];
  /** The operator's ClusterRole: the controller's tests pass OPERATOR_CLUSTER_ROLE_RULES, the rules the chart installs. */
  operatorRules: readonly V1PolicyRule[];
}

/** A hand-made Pod object, as the kubelet would report it. */
export interface HandMadePodOptions {
  namespace: string;
  /** Without an ordinal, so the StatefulSet controller does not adopt the pod. Unique within the fixture. */
  name: string;
  /** The labels of the workload whose pod it plays (its shard selector). */
  labels: Record<string, string>;
  /** Reported Ready (default true). */
  ready?: boolean;
  /** The pod's IP (default 127.0.0.1). */
  ip?: string;
}

/** A hand-made pod run by a real Prometheus. */
export interface PrometheusPodOptions extends HandMadePodOptions {
  /** The config Secret whose `prometheus.yaml` the kubelet copies into the Prometheus' config file. */
  configSecret: string;
  /** Rule ConfigMaps the kubelet copies where the pod mounts them; `stop()` removes what it copied. */
  ruleFiles?: FakeKubeletOptions['ruleFiles'];
  /** How the Prometheus serves (HTTPS with a web config); plain HTTP by default. */
  serving?: PrometheusStartOptions;
}

/** A running hand-made pod: its Prometheus, its kubelet and the port the operator is told to call. */
export interface PrometheusPod {
  name: string;
  prometheus: PrometheusProcess;
  kubelet: FakeKubelet;
  port: number;
  /** The file the Prometheus reads and the kubelet writes. */
  configFile: string;
}

/** What the fixture starts and stops: promop's Operator, which the kit cannot import. */
export interface StartableOperator {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export class PrometheusPodsFixture {
  /** A system:masters client, for the test's own reads and writes. */
  readonly admin: KubeConfig;
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  /** Whom the operator talks as: ServiceAccount `promop` bound to exactly `operatorRules`. */
  readonly operatorKubeConfig: KubeConfig;
  /** A temporary directory for the test's files (config files, certificates); removed by `stop()`. */
  readonly dir: string;
  readonly #ports = new Map<string, number>();
  readonly #pods: PrometheusPod[] = [];
  readonly #ruleFiles: NonNullable<FakeKubeletOptions['ruleFiles']>[] = [];
  #operator: StartableOperator | undefined;

  private constructor(admin: KubeConfig, operatorKubeConfig: KubeConfig, dir: string) {
    this.admin = admin;
    this.core = admin.makeApiClient(CoreV1Api);
    this.custom = admin.makeApiClient(CustomObjectsApi);
    this.operatorKubeConfig = operatorKubeConfig;
    this.dir = dir;
  }

  /** Applies the committed CRDs and creates the namespaces and the operator's identity on the shared control plane. */
  static async start(options: PrometheusPodsFixtureOptions): Promise<PrometheusPodsFixture> {
    const admin = sharedTestEnv().kubeConfig();
    const core = admin.makeApiClient(CoreV1Api);
    await applyCrds(admin);
    for (const name of [options.operatorNamespace, ...options.namespaces]) await core.createNamespace({ body: { metadata: { name } } });
    const operatorKubeConfig = await serviceAccountIdentity(admin, {
      namespace: options.operatorNamespace, serviceAccount: 'promop', clusterRole: options.identity, rules: options.operatorRules,
    });
    return new PrometheusPodsFixture(admin, operatorKubeConfig, mkdtempSync(join(tmpdir(), `${options.identity}-`)));
  }

  /**
   * Starts a real Prometheus with a placeholder config at `<dir>/<name>.yaml`, creates its Pod object with the status
   * the kubelet would report, and starts the pod's FakeKubelet. The operator is told the Prometheus' port (`portOf`).
   */
  async startPrometheusPod(options: PrometheusPodOptions): Promise<PrometheusPod> {
    const { namespace, name, configSecret, ruleFiles } = options;
    if (ruleFiles) {
      // The kubelet writes where the pod mounts the files: fail here, plainly, when the test cannot write there.
      mkdirSync(ruleFiles.directory, { recursive: true });
      accessSync(ruleFiles.directory, constants.W_OK);
      this.#ruleFiles.push(ruleFiles);
    }
    const configFile = join(this.dir, `${name}.yaml`);
    writeFileSync(configFile, PLACEHOLDER_CONFIG);
    const prometheus = await startPrometheus(configFile, { POD_NAME: name }, options.serving);
    const kubelet = new FakeKubelet({ core: this.core, namespace, pod: name, configSecret, configFile, ...(ruleFiles ? { ruleFiles } : {}) });
    const pod: PrometheusPod = { name, prometheus, kubelet, port: Number(new URL(prometheus.url).port), configFile };
    this.#pods.push(pod);
    this.setPort(name, pod.port);
    await this.createPod(options);
    kubelet.start();
    return pod;
  }

  /** Creates a Pod object nobody runs (retrying until the namespace's default ServiceAccount exists) and reports its status. */
  async createPod(options: HandMadePodOptions): Promise<void> {
    const { namespace, name, labels } = options;
    const body: V1Pod = {
      metadata: { name, labels },
      spec: { automountServiceAccountToken: false, containers: [{ name: 'prometheus', image: 'quay.io/prometheus/prometheus:v3.16.0' }] },
    };
    await eventually(() => this.core.createNamespacedPod({ namespace, body }), () => true);
    await this.setPodStatus(namespace, name, { ready: options.ready ?? true, ip: options.ip ?? '127.0.0.1' });
  }

  /** What the kubelet would report for pod `name`: Running, Ready or not, at `ip`. */
  async setPodStatus(namespace: string, name: string, status: { ready: boolean; ip: string }): Promise<void> {
    await this.core.patchNamespacedPodStatus({
      namespace, name,
      body: { status: { phase: 'Running', podIP: status.ip, podIPs: [{ ip: status.ip }], conditions: [{ type: 'Ready', status: status.ready ? 'True' : 'False' }] } },
    }, MERGE_PATCH);
  }

  /** Has the operator call pod `name` on `port` from now on (a pod started here is called on its Prometheus' port). */
  setPort(name: string, port: number): void {
    this.#ports.set(name, port);
  }

  /** The operator's pod-port override: the port set for the pod, else the port a real pod's Prometheus serves on. */
  readonly portOf = (pod: V1Pod): number => this.#ports.get(pod.metadata?.name ?? '') ?? PROMETHEUS_POD_PORT;

  /** Starts `operator` (built as `operatorKubeConfig`, with `portOf`); `stop()` stops it before anything else. */
  async startOperator<T extends StartableOperator>(operator: T): Promise<T> {
    this.#operator = operator;
    await operator.start();
    return operator;
  }

  /** Stops the operator, the kubelets and the Prometheus processes, and removes the files the fixture wrote. */
  async stop(): Promise<void> {
    await this.#operator?.stop();
    for (const pod of this.#pods) pod.kubelet.stop();
    await Promise.all(this.#pods.map((pod) => pod.prometheus.stop()));
    rmSync(this.dir, { recursive: true, force: true });
    for (const { directory, configMapPrefix } of this.#ruleFiles) {
      for (const entry of existsSync(directory) ? readdirSync(directory) : []) {
        if (entry.startsWith(configMapPrefix)) rmSync(join(directory, entry), { recursive: true, force: true });
      }
    }
  }
}
