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
  /** PIDs of the processes started (etcd, kube-apiserver, kube-controller-manager). */
  pids(): number[];
  stop(): Promise<void>;
}

/** Options for {@link startTestEnv}. */
export interface StartOptions {
  /** Also start kube-controller-manager (default true). */
  controllerManager?: boolean;
  /** Keep the working directory after stop(), e.g. to read logs (default false). */
  keepDir?: boolean;
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

/** Starts etcd, kube-apiserver and (by default) kube-controller-manager; resolves once the API server is ready. */
export async function startTestEnv(options: StartOptions = {}): Promise<TestEnv> {
  const dir = mkdtempSync(join(tmpdir(), 'promop-testenv-'));
  const processes: ManagedProcess[] = [];
  const stop = async (): Promise<void> => {
    for (const managed of [...processes].reverse()) await stopProcess(managed);
    if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const pki = createPki(dir);
    const [etcdPort, etcdPeerPort, apiPort] = [await freePort(), await freePort(), await freePort()];

    const etcd = startProcess('etcd', toolPath('etcd'), [
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
    processes.push(etcd);
    await waitUntil('etcd', etcd, () => httpGetOk(`http://127.0.0.1:${etcdPort}/health`));

    const apiServerUrl = `https://127.0.0.1:${apiPort}`;
    const apiserver = startProcess('kube-apiserver', toolPath('kube-apiserver'), [
      `--etcd-servers=http://127.0.0.1:${etcdPort}`,
      `--cert-dir=${join(dir, 'apiserver-certs')}`,
      `--tls-cert-file=${pki.servingCert}`,
      `--tls-private-key-file=${pki.servingKey}`,
      `--client-ca-file=${pki.caCert}`,
      `--secure-port=${apiPort}`,
      '--bind-address=127.0.0.1',
      // Without it the server looks for a default route to pick an address, which sandboxes lack.
      '--advertise-address=127.0.0.1',
      // The default/kubernetes Endpoints would hold 127.0.0.1, which Endpoints validation rejects.
      '--endpoint-reconciler-type=none',
      '--service-cluster-ip-range=10.0.0.0/24',
      '--allow-privileged=true',
      '--authorization-mode=RBAC',
      `--service-account-issuer=${apiServerUrl}/`,
      `--service-account-key-file=${pki.serviceAccountPublicKey}`,
      `--service-account-signing-key-file=${pki.serviceAccountKey}`,
      '--v=0',
    ], join(dir, 'kube-apiserver.log'));
    processes.push(apiserver);
    const adminAgent = new Agent({
      ca: readFileSync(pki.caCert),
      cert: readFileSync(pki.adminCert),
      key: readFileSync(pki.adminKey),
    });
    await waitUntil('kube-apiserver', apiserver, () => httpsGetOk(`${apiServerUrl}/readyz`, adminAgent), 90_000);

    const kubeconfigPath = join(dir, 'admin.kubeconfig');
    writeFileSync(kubeconfigPath, adminKubeconfig(apiServerUrl, pki), { mode: 0o600 });

    if (options.controllerManager ?? true) {
      mkdirSync(join(dir, 'kcm'), { recursive: true });
      const kcm = startProcess('kube-controller-manager', toolPath('kube-controller-manager'), [
        `--kubeconfig=${kubeconfigPath}`,
        `--controllers=${CONTROLLERS.join(',')}`,
        `--service-account-private-key-file=${pki.serviceAccountKey}`,
        `--root-ca-file=${pki.caCert}`,
        '--use-service-account-credentials=false',
        '--leader-elect=false',
        '--bind-address=127.0.0.1',
        '--secure-port=0',
        `--cert-dir=${join(dir, 'kcm')}`,
        '--v=0',
      ], join(dir, 'kube-controller-manager.log'));
      processes.push(kcm);
      // kcm has no port to poll (secure-port=0); it is ready when the "default" ServiceAccount of
      // the default namespace exists, which its serviceaccount controller creates.
      await waitUntil('kube-controller-manager', kcm, () =>
        httpsGetOk(`${apiServerUrl}/api/v1/namespaces/default/serviceaccounts/default`, adminAgent), 90_000);
    }
    adminAgent.destroy();

    return {
      dir,
      ...clusterAccess(apiServerUrl, kubeconfigPath),
      pids: () => processes.map((p) => p.pid),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Environment variable through which jest's global setup tells tests where the shared control plane is. */
export const SHARED_KUBECONFIG_ENV = 'PROMOP_TEST_KUBECONFIG';

/** In a jest test: the control plane jest's global setup started for the whole run. */
export function sharedTestEnv(): ClusterAccess {
  const kubeconfigPath = process.env[SHARED_KUBECONFIG_ENV];
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

function adminKubeconfig(server: string, pki: Pki): string {
  const b64 = (file: string): string => readFileSync(file).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: promop-test',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${b64(pki.caCert)}`,
    'users:',
    '- name: admin',
    '  user:',
    `    client-certificate-data: ${b64(pki.adminCert)}`,
    `    client-key-data: ${b64(pki.adminKey)}`,
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
