/**
 * A real Kubernetes control plane for tests: etcd + kube-apiserver (RBAC enforced) +
 * kube-controller-manager, on 127.0.0.1 random ports, laid out like controller-runtime's envtest.
 * Usable from jest (see jest-global-setup.ts) and from plain scripts (scripts/control-plane.ts).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { createPki, type Pki } from './pki.ts';
import { freePort, startProcess, stopProcess, waitUntil, type ManagedProcess } from './child-processes.ts';
import { toolPath } from './tools.ts';

/** Ways to talk to a running control plane. */
export interface ClusterAccess {
  /** https://127.0.0.1:<port> */
  apiServerUrl: string;
  /** An admin kubeconfig file (client certificate in system:masters). */
  kubeconfigPath: string;
  /** A client as the admin. */
  kubeConfig(): KubeConfig;
  /** A client that impersonates ServiceAccount `namespace/name` (RBAC applies to it). */
  kubeConfigFor(serviceAccount: { namespace: string; name: string }): KubeConfig;
}

/** A control plane this process started; `stop()` ends every process it started. */
export interface TestEnv extends ClusterAccess {
  /** Working directory: certificates, etcd data, logs. Removed by stop() unless keepDir. */
  dir: string;
  /** The certificates; a node signs its kubelet's client certificate with the same CA. */
  pki: Pki;
  /**
   * An admin kubeconfig for programs running next to the API server: the same file as `kubeconfigPath`, except
   * on a real node, where the control plane lives in the node's network namespace and the others reach it
   * through a forwarder.
   */
  innerKubeconfigPath: string;
  /** PIDs of the processes started (etcd, kube-apiserver, kube-controller-manager). */
  pids(): number[];
  /**
   * Stops `etcd` or `kube-apiserver` (SIGTERM; SIGKILL with `kill`) and starts it again with the same arguments,
   * ports and data directory, as a crash or an upgrade of the control plane would; resolves once it is healthy again.
   * Clients keep their kubeconfigs: only their connections break.
   */
  restart(name: RestartableProcess, options?: { kill?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

/** The control-plane processes {@link TestEnv.restart} can restart. */
export type RestartableProcess = 'etcd' | 'kube-apiserver';

/** Options for {@link startTestEnv}. */
export interface StartOptions {
  /** Also start kube-controller-manager (default true). */
  controllerManager?: boolean;
  /** Keep the working directory after stop(), e.g. to read logs (default false). */
  keepDir?: boolean;
  /** Working directory to use instead of a new temporary one (the real node puts the control plane in its own). */
  dir?: string;
  /** Run the control plane inside a node's network namespace (see node/node-cluster.ts) instead of on 127.0.0.1. */
  network?: ControlPlaneNetwork;
  /** Write the API server's audit log (JSON lines) to this file (`--audit-log-path`); default: no audit log. */
  auditLogPath?: string;
  /**
   * The audit policy (`--audit-policy-file`) when `auditLogPath` is set; default: every request at level Metadata,
   * once when its response is complete (who did what to which object, no bodies).
   */
  auditPolicyFile?: string;
}

/** The default audit policy of {@link StartOptions.auditLogPath}. */
const METADATA_AUDIT_POLICY = [
  'apiVersion: audit.k8s.io/v1',
  'kind: Policy',
  'omitStages: [RequestReceived, ResponseStarted]',
  'rules:',
  '- level: Metadata',
  '',
].join('\n');

/**
 * How a control plane runs inside a real node's network namespace. Its processes are started in the namespace,
 * listen on fixed ports there (nothing else competes for them), and this process reaches them through `forward`.
 */
export interface ControlPlaneNetwork {
  /** `[command, ...args]` rewritten to run inside the namespace. */
  wrap(command: string, args: readonly string[]): { command: string; args: string[] };
  /** Makes `host:port` of the namespace reachable at 127.0.0.1:<the returned port> here. */
  forward(host: string, port: number): Promise<number>;
  /** The node's address: advertised by the API server, the `kubernetes` Service's endpoint. */
  nodeAddress: string;
  apiServerPort: number;
  serviceCidr: string;
  kubernetesServiceIp: string;
  /** Pod addresses; kube-controller-manager hands each Node a /24 of it (Node spec.podCIDRs). */
  clusterCidr: string;
}

/** The controllers a promop test needs: StatefulSets, endpoints, ServiceAccounts, namespace deletion, GC, aggregated ClusterRoles. */
export const CONTROLLERS = [
  'statefulset-controller',
  'endpoints-controller',
  'endpointslice-controller',
  'serviceaccount-token-controller',
  'serviceaccount-controller',
  'namespace-controller',
  'garbage-collector-controller',
  'clusterrole-aggregation-controller',
  'root-ca-certificate-publisher-controller',
];

/**
 * What a real node's workload needs on top: Deployments (the promop chart), a pod CIDR per Node (node-ipam),
 * node-lifecycle, which lifts the not-ready taint the kubelet registers the Node with (no pod schedules before), and
 * the PersistentVolume binder, which binds a Prometheus' claims to the volumes a test creates (the takeover test), and
 * DaemonSets (a PrometheusAgent in DaemonSet mode).
 */
export const NODE_CONTROLLERS = [
  'deployment-controller', 'replicaset-controller', 'node-ipam-controller', 'node-lifecycle-controller', 'pod-garbage-collector-controller',
  'persistentvolume-binder-controller', 'daemonset-controller',
];

/** Starts etcd, kube-apiserver and (by default) kube-controller-manager; resolves once the API server is ready. */
export async function startTestEnv(options: StartOptions = {}): Promise<TestEnv> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'promop-testenv-'));
  mkdirSync(dir, { recursive: true });
  const { network } = options;
  const processes: ManagedProcess[] = [];
  const stop = async (): Promise<void> => {
    for (const managed of [...processes].reverse()) await stopProcess(managed);
    if (!options.keepDir && !options.dir) rmSync(dir, { recursive: true, force: true });
  };
  /** How each process was started, so restart() can start it again the same way. */
  const started = new Map<string, { command: string; args: string[]; logFile: string }>();
  const start = (name: string, command: string, args: string[], logFile: string): ManagedProcess => {
    const wrapped = network ? network.wrap(command, args) : { command, args };
    const managed = startProcess(name, wrapped.command, wrapped.args, logFile);
    processes.push(managed);
    started.set(name, { command, args, logFile });
    return managed;
  };
  try {
    const pki = createPki(dir, network ? {
      servingIps: [network.nodeAddress, network.kubernetesServiceIp],
      servingDnsNames: ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'],
    } : {});
    // In a namespace of our own the well-known ports are free; on the shared loopback they may not be.
    const [etcdPort, etcdPeerPort, apiPort] = network ? [2379, 2380, network.apiServerPort] : [await freePort(), await freePort(), await freePort()];
    const reachable = async (port: number): Promise<number> => (network ? network.forward('127.0.0.1', port) : port);

    const etcd = start('etcd', toolPath('etcd'), [
      '--name=default',
      `--data-dir=${join(dir, 'etcd')}`,
      `--listen-client-urls=http://127.0.0.1:${etcdPort}`,
      `--advertise-client-urls=http://127.0.0.1:${etcdPort}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeerPort}`,
      `--initial-cluster=default=http://127.0.0.1:${etcdPeerPort}`,
      '--unsafe-no-fsync=true', // test data; durability is irrelevant and fsync dominates start-up
      '--log-level=warn',
    ], join(dir, 'etcd.log'));
    const etcdHealthPort = await reachable(etcdPort);
    await waitUntil('etcd', etcd, () => httpGetOk(`http://127.0.0.1:${etcdHealthPort}/health`));

    const apiServerUrl = `https://127.0.0.1:${await reachable(apiPort)}`;
    const innerApiServerUrl = `https://127.0.0.1:${apiPort}`;
    const apiserver = start('kube-apiserver', toolPath('kube-apiserver'), [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`,
      `--cert-dir=${join(dir, 'apiserver-certs')}`,
      `--tls-cert-file=${pki.servingCert}`,
      `--tls-private-key-file=${pki.servingKey}`,
      `--client-ca-file=${pki.caCert}`,
      `--secure-port=${apiPort}`,
      ...(network ? [
        // Pods reach it through the `kubernetes` Service (kube-proxy DNATs to the node address); 0.0.0.0 is
        // the node's namespace only, which has no interface to the outside.
        '--bind-address=0.0.0.0',
        `--advertise-address=${network.nodeAddress}`,
        `--service-cluster-ip-range=${network.serviceCidr}`,
        // The kubelet authenticates as system:node:<name>; kubectl logs/exec need the API server to call it.
        '--authorization-mode=Node,RBAC',
        `--kubelet-client-certificate=${pki.adminCert}`,
        `--kubelet-client-key=${pki.adminKey}`,
        // There is no DNS: reach the kubelet by the node address, not its name.
        '--kubelet-preferred-address-types=InternalIP',
      ] : [
        '--bind-address=127.0.0.1',
        // Without it the server looks for a default route to pick an address, which sandboxes lack.
        '--advertise-address=127.0.0.1',
        // The default/kubernetes Endpoints would hold 127.0.0.1, which Endpoints validation rejects.
        '--endpoint-reconciler-type=none',
        '--service-cluster-ip-range=10.0.0.0/24',
        '--authorization-mode=RBAC',
      ]),
      '--allow-privileged=true',
      // Tokens name the URL pods and promop see; on a node that is the in-cluster one.
      `--service-account-issuer=${network ? `https://${network.kubernetesServiceIp}` : apiServerUrl}/`,
      `--service-account-key-file=${pki.serviceAccountPublicKey}`,
      `--service-account-signing-key-file=${pki.serviceAccountKey}`,
      ...(options.auditLogPath ? [
        `--audit-log-path=${options.auditLogPath}`,
        `--audit-policy-file=${options.auditPolicyFile ?? writeAuditPolicy(dir)}`,
      ] : []),
      '--v=0',
    ], join(dir, 'kube-apiserver.log'));
    const adminAgent = new Agent({
      ca: readFileSync(pki.caCert),
      cert: readFileSync(pki.adminCert),
      key: readFileSync(pki.adminKey),
    });
    await waitUntil('kube-apiserver', apiserver, () => httpsGetOk(`${apiServerUrl}/readyz`, adminAgent), 90_000);

    const kubeconfigPath = join(dir, 'admin.kubeconfig');
    writeFileSync(kubeconfigPath, adminKubeconfig(apiServerUrl, pki), { mode: 0o600 });
    const innerKubeconfigPath = network ? join(dir, 'admin-inner.kubeconfig') : kubeconfigPath;
    if (network) writeFileSync(innerKubeconfigPath, adminKubeconfig(innerApiServerUrl, pki), { mode: 0o600 });

    if (options.controllerManager ?? true) {
      mkdirSync(join(dir, 'kcm'), { recursive: true });
      const kcm = start('kube-controller-manager', toolPath('kube-controller-manager'), [
        `--kubeconfig=${innerKubeconfigPath}`,
        `--controllers=${[...CONTROLLERS, ...(network ? NODE_CONTROLLERS : [])].join(',')}`,
        ...(network ? [
          '--allocate-node-cidrs=true',
          `--cluster-cidr=${network.clusterCidr}`,
          '--node-cidr-mask-size=24',
          `--service-cluster-ip-range=${network.serviceCidr}`,
        ] : []),
        `--service-account-private-key-file=${pki.serviceAccountKey}`,
        `--root-ca-file=${pki.caCert}`,
        '--use-service-account-credentials=false',
        '--leader-elect=false',
        '--bind-address=127.0.0.1',
        '--secure-port=0',
        `--cert-dir=${join(dir, 'kcm')}`,
        '--v=0',
      ], join(dir, 'kube-controller-manager.log'));
      // kcm has no port to poll (secure-port=0); it is ready when the "default" ServiceAccount of
      // the default namespace exists, which its serviceaccount controller creates.
      await waitUntil('kube-controller-manager', kcm, () =>
        httpsGetOk(`${apiServerUrl}/api/v1/namespaces/default/serviceaccounts/default`, adminAgent), 90_000);
    }
    adminAgent.destroy();

    return {
      dir,
      pki,
      innerKubeconfigPath,
      ...clusterAccess(apiServerUrl, kubeconfigPath),
      pids: () => processes.map((p) => p.pid),
      async restart(name, restartOptions = {}) {
        const index = processes.findIndex((p) => p.name === name);
        const how = started.get(name);
        if (index < 0 || !how) throw new Error(`${name} was not started by this control plane`);
        const old = processes[index] as ManagedProcess;
        await stopProcess(old, restartOptions.kill ? 0 : 10_000);
        processes.splice(index, 1);
        const again = start(name, how.command, how.args, how.logFile);
        // Back in its place, so stop() still ends the processes in reverse start order.
        processes.splice(processes.indexOf(again), 1);
        processes.splice(index, 0, again);
        if (name === 'etcd') {
          const port = Number(/--listen-client-urls=http:\/\/127\.0\.0\.1:(\d+)/.exec(how.args.join(' '))?.[1]);
          const healthPort = network ? await network.forward('127.0.0.1', port) : port;
          await waitUntil('etcd', again, () => httpGetOk(`http://127.0.0.1:${healthPort}/health`));
        } else {
          const agent = new Agent({ ca: readFileSync(pki.caCert), cert: readFileSync(pki.adminCert), key: readFileSync(pki.adminKey) });
          try {
            await waitUntil('kube-apiserver', again, () => httpsGetOk(`${apiServerUrl}/readyz`, agent), 90_000);
          } finally {
            agent.destroy();
          }
        }
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Environment variable through which jest's global setup tells tests where the shared control plane is. */
export const SHARED_KUBECONFIG_ENV = 'PROMOP_TEST_KUBECONFIG';

/** `0` tells jest's global setup to start no shared control plane (the lanes whose files start their own: test-lanes.ts). */
export const SHARED_CONTROL_PLANE_ENV = 'PROMOP_TEST_SHARED_CONTROL_PLANE';

/** In a jest test: the control plane jest's global setup started for the whole run. */
export function sharedTestEnv(): ClusterAccess {
  const kubeconfigPath = process.env[SHARED_KUBECONFIG_ENV];
  if (!kubeconfigPath && process.env[SHARED_CONTROL_PLANE_ENV] === '0') {
    throw new Error(`this jest run started no shared control plane (${SHARED_CONTROL_PLANE_ENV}=0): the test belongs in a lane that starts one (packages/testkit/src/test-lanes.ts)`);
  }
  if (!kubeconfigPath) throw new Error(`${SHARED_KUBECONFIG_ENV} is not set: run tests through jest's global setup (pnpm jest)`);
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new Error(`no server in ${kubeconfigPath}`);
  return clusterAccess(server, kubeconfigPath);
}

function clusterAccess(apiServerUrl: string, kubeconfigPath: string): ClusterAccess {
  const kubeConfig = (): KubeConfig => {
    const kc = new KubeConfig();
    kc.loadFromFile(kubeconfigPath);
    return kc;
  };
  return {
    apiServerUrl,
    kubeconfigPath,
    kubeConfig,
    kubeConfigFor({ namespace, name }) {
      const kc = kubeConfig();
      const user = kc.getCurrentUser();
      if (!user) throw new Error('admin kubeconfig has no user');
      // Only Impersonate-User: the API server then adds the ServiceAccount's groups itself.
      kc.users = kc.users.map((u) => (u.name === user.name ? { ...u, impersonateUser: `system:serviceaccount:${namespace}:${name}` } : u));
      return kc;
    },
  };
}

function writeAuditPolicy(dir: string): string {
  const path = join(dir, 'audit-policy.yaml');
  writeFileSync(path, METADATA_AUDIT_POLICY);
  return path;
}

function adminKubeconfig(server: string, pki: Pki): string {
  return kubeconfigYaml(server, pki.caCert, { cert: pki.adminCert, key: pki.adminKey });
}

/** A kubeconfig for `server` (trusting `caCert`) that authenticates with a client certificate. */
export function kubeconfigYaml(server: string, caCert: string, client: { cert: string; key: string }): string {
  const b64 = (file: string): string => readFileSync(file).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: promop-test',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${b64(caCert)}`,
    'users:',
    '- name: admin',
    '  user:',
    `    client-certificate-data: ${b64(client.cert)}`,
    `    client-key-data: ${b64(client.key)}`,
    'contexts:',
    '- name: promop-test',
    '  context: {cluster: promop-test, user: admin}',
    'current-context: promop-test',
    '',
  ].join('\n');
}

async function httpGetOk(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

function httpsGetOk(url: string, agent: Agent): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(url, { agent, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}
