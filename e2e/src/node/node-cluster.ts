/**
 * A real one-node Kubernetes cluster without Docker: the control plane of test-env.ts plus kube-scheduler,
 * containerd 2.x, runc, the CNI bridge, kubelet, kube-proxy and CoreDNS (cluster DNS), all inside one network
 * namespace of our own that has no interface to the outside (netns.ts). Pods run from images imported as OCI archives (images/), so nothing
 * is ever pulled. The test process reaches the API server and pod IPs through netns-bridge.ts.
 *
 * The kubelet and containerd use a few fixed host paths (the kubepods cgroups, /var/lib/kubelet/device-plugins,
 * /var/log/containers, /run/containerd), so one node per machine at a time: a lock file at {@link NODE_LOCK_FILE}
 * guards it and records what teardown-node.sh must remove. The script runs at stop() and, through a watchdog,
 * when the owning process dies without stopping the node.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClientCert, isAlive, startProcess, stopProcess, waitUntil, type ManagedProcess, kubeconfigYaml, startTestEnv, type ClusterAccess, type TestEnv, toolPath } from '@promop/testkit';
import { NamespaceBridge } from './bridge-client.ts';
import { createNetworkNamespace, NODE_ADDRESS, type NetworkNamespace } from './netns.ts';
import {
  API_SERVER_PORT, NODE_NETWORKS, cniConflist, containerdConfig, coreDnsConfig, kubeProxyConfig, kubeletConfig, nodePaths, type NodeLayout,
} from './node-config.ts';

/** The lock that keeps a second node off this machine; also the teardown's list of what to remove. */
export const NODE_LOCK_FILE = '/run/promop-node.lock';
/** The node's name (also its kubelet's `system:node:<name>` identity). */
export const NODE_NAME = 'promop-node';
/** Where Debian's containernetworking-plugins and runc install. */
const CNI_BIN_DIR = '/usr/lib/cni';
const RUNC = '/usr/sbin/runc';
/** Fixed host paths the node's parts create whatever they are configured with; removed at teardown if we made them. */
const FIXED_HOST_PATHS = ['/var/lib/kubelet', '/var/log/containers', '/var/log/pods', '/var/lib/cni', '/run/containerd'];

const HERE = dirname(fileURLToPath(import.meta.url));
const TEARDOWN_SCRIPT = join(HERE, 'teardown-node.sh');

/** A running node cluster. */
export interface NodeCluster extends ClusterAccess {
  dir: string;
  nodeName: string;
  netns: NetworkNamespace;
  /** The way into the node's namespace: pod IPs, Services, the API server. */
  bridge: NamespaceBridge;
  /** The control plane (its `pki` signs more client certificates). */
  controlPlane: TestEnv;
  /** Imports an OCI image archive into the node's containerd (the name is the archive's). */
  importImage(archive: string): void;
  /** PIDs of every process this node started directly. */
  pids(): number[];
  /** Stops everything and removes every trace (processes, mounts, cgroups, namespace, files, the lock). */
  stop(): Promise<void>;
}

/** Options of {@link startNodeCluster}. */
export interface NodeClusterOptions {
  /** The pause image's name; its archive must be among `images`. */
  sandboxImage: string;
  /** OCI image archives to import before the kubelet starts. */
  images: readonly string[];
  /** Keep the node's directory (logs) after stop() — the namespace and processes still go. */
  keepDir?: boolean;
  /** Log progress lines (default: nothing). */
  log?: (line: string) => void;
  /** How long to wait while another process' node holds the machine (default 15 minutes). */
  lockWaitMs?: number;
  /** The API server's audit log (startTestEnv's `auditLogPath`): the chaos scenarios count promop's writes in it. */
  auditLogPath?: string;
}

/** What a node needs from the host; a missing piece fails early with a sentence that says how to get it. */
export function nodePrerequisites(): string[] {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('root (network namespaces, mounts and cgroups)');
  for (const [path, what] of [
    [RUNC, 'runc (apt-get install runc)'],
    [join(CNI_BIN_DIR, 'bridge'), 'the CNI plugins (apt-get install containernetworking-plugins)'],
    ['/usr/sbin/iptables', 'iptables (apt-get install iptables)'],
    ['/usr/bin/nsenter', 'nsenter (util-linux)'],
  ] as const) {
    if (!existsSync(path)) missing.push(what);
  }
  return missing;
}

/** Starts the node cluster; resolves once the Node is Ready with a pod CIDR. */
export async function startNodeCluster(options: NodeClusterOptions): Promise<NodeCluster> {
  const log = options.log ?? (() => {});
  const missing = nodePrerequisites();
  if (missing.length > 0) throw new Error(`a test node needs: ${missing.join('; ')} (scripts/system-deps.sh installs the packages)`);
  const started = Date.now();
  const netnsName = `promop-node-${process.pid}`;
  const dir = await acquireNode(netnsName, options.lockWaitMs ?? 15 * 60_000, log);

  const processes: ManagedProcess[] = [];
  let controlPlane: TestEnv | undefined;
  let bridge: NamespaceBridge | undefined;
  const watchdog = startTeardownWatchdog();
  const stop = async (): Promise<void> => {
    // Node parts first (they would recreate what the control plane tells them), then the control plane.
    for (const managed of [...processes].reverse()) await stopProcess(managed, 5_000);
    await controlPlane?.stop();
    await bridge?.close();
    if (options.keepDir) copyLogs(dir);
    execFileSync('bash', [TEARDOWN_SCRIPT, NODE_LOCK_FILE], { stdio: 'ignore' });
    try {
      process.kill(watchdog, 'SIGKILL');
    } catch {
      // Already gone.
    }
  };

  try {
    const netns = createNetworkNamespace(netnsName, NODE_ADDRESS);
    const layout: NodeLayout = {
      dir, nodeName: NODE_NAME, nodeAddress: netns.nodeAddress, cniBinDir: CNI_BIN_DIR, sandboxImage: options.sandboxImage, runcPath: RUNC,
    };
    const paths = nodePaths(layout);
    const inNode = (name: string, command: string, args: string[], env?: NodeJS.ProcessEnv): ManagedProcess => {
      const wrapped = netns.wrap(command, args);
      const managed = startProcess(name, wrapped.command, wrapped.args, join(dir, `${name}.log`), env);
      processes.push(managed);
      return managed;
    };

    // The door in, first: every readiness check below goes through it.
    const bridgeNetworks = ['127.0.0.0/8', `${netns.nodeAddress}/32`, NODE_NETWORKS.clusterCidr, NODE_NETWORKS.serviceCidr];
    const bridgeProcess = inNode('netns-bridge', process.execPath, [join(HERE, 'netns-bridge.ts'), paths.bridgeSocket, bridgeNetworks.join(',')]);
    await waitUntil('netns-bridge', bridgeProcess, async () => existsSync(paths.bridgeSocket), 10_000);
    const door = new NamespaceBridge(paths.bridgeSocket);
    bridge = door;

    controlPlane = await startTestEnv({
      dir: join(dir, 'control-plane'),
      ...(options.auditLogPath ? { auditLogPath: options.auditLogPath } : {}),
      network: {
        wrap: netns.wrap,
        forward: async (host, port) => (await door.forward({ host, port })).port,
        nodeAddress: netns.nodeAddress,
        apiServerPort: API_SERVER_PORT,
        serviceCidr: NODE_NETWORKS.serviceCidr,
        kubernetesServiceIp: NODE_NETWORKS.kubernetesServiceIp,
        clusterCidr: NODE_NETWORKS.clusterCidr,
      },
    });
    log(`control plane ready in ${Date.now() - started} ms`);

    // containerd, with our shim and the host's runc on PATH.
    for (const path of [paths.containerdRoot, paths.containerdState, paths.cniConfDir, paths.cniDataDir, paths.podLogsDir, paths.volumePluginDir, paths.kubeletCertDir]) {
      mkdirSync(path, { recursive: true });
    }
    writeFileSync(paths.containerdConfig, containerdConfig(layout));
    writeFileSync(join(paths.cniConfDir, '10-promop.conflist'), cniConflist(layout));
    const nodeEnv = { ...process.env, PATH: `${dirname(toolPath('containerd'))}:/usr/sbin:/usr/bin:/sbin:/bin` };
    const containerd = inNode('containerd', toolPath('containerd'), ['--config', paths.containerdConfig], nodeEnv);
    await waitUntil('containerd', containerd, async () => ctrOk(paths.containerdSocket), 30_000);
    const importImage = (archive: string): void => {
      execFileSync(toolPath('ctr'), ['--address', paths.containerdSocket, '--namespace', 'k8s.io', 'images', 'import', '--all-platforms', archive], { stdio: ['ignore', 'ignore', 'pipe'] });
    };
    for (const archive of options.images) importImage(archive);
    log(`containerd ready, ${options.images.length} images imported in ${Date.now() - started} ms`);

    // kubelet, as system:node:<name> so the Node authorizer and NodeRestriction treat it as the real thing.
    const kubeletCert = createClientCert(controlPlane.dir, 'kubelet', `system:node:${NODE_NAME}`, ['system:nodes']);
    const kubeletKubeconfig = join(dir, 'kubelet.kubeconfig');
    writeFileSync(kubeletKubeconfig, kubeconfigYaml(`https://127.0.0.1:${API_SERVER_PORT}`, controlPlane.pki.caCert, kubeletCert), { mode: 0o600 });
    writeFileSync(paths.kubeletConfig, kubeletConfig(layout, controlPlane.pki));
    inNode('kubelet', toolPath('kubelet'), [
      `--config=${paths.kubeletConfig}`,
      `--kubeconfig=${kubeletKubeconfig}`,
      `--root-dir=${paths.kubeletRoot}`,
      `--cert-dir=${paths.kubeletCertDir}`,
      `--node-ip=${netns.nodeAddress}`,
      `--hostname-override=${NODE_NAME}`,
      '--v=1',
    ], nodeEnv);
    inNode('kube-scheduler', toolPath('kube-scheduler'), [
      `--kubeconfig=${controlPlane.innerKubeconfigPath}`,
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      '--secure-port=0',
      '--v=0',
    ]);
    writeFileSync(paths.kubeProxyConfig, kubeProxyConfig(layout, controlPlane.innerKubeconfigPath));
    inNode('kube-proxy', toolPath('kube-proxy'), [`--config=${paths.kubeProxyConfig}`, '--v=0'], nodeEnv);
    // Cluster DNS: StatefulSet pods find their peers by name (an Alertmanager mesh does), as in any cluster.
    writeFileSync(paths.coreDnsConfig, coreDnsConfig(layout, controlPlane.innerKubeconfigPath));
    inNode('coredns', toolPath('coredns'), ['-conf', paths.coreDnsConfig]);

    // Asynchronous on purpose: kubectl reaches the API server through the forwarder in this very process, so a
    // synchronous child would block the event loop that forwards its connection.
    const kubectl = (args: string[]): Promise<string> => new Promise((resolve, reject) => {
      execFile(toolPath('kubectl'), [`--kubeconfig=${controlPlane!.kubeconfigPath}`, ...args], { encoding: 'utf8', timeout: 10_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    });
    const kubelet = processes.find((p) => p.name === 'kubelet')!;
    await waitUntil('kubelet (Node Ready with a pod CIDR)', kubelet, async () => {
      try {
        const node = JSON.parse(await kubectl(['get', 'node', NODE_NAME, '-o', 'json'])) as {
          spec?: { podCIDR?: string }; status?: { conditions?: { type: string; status: string }[] };
        };
        return Boolean(node.spec?.podCIDR) && node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
      } catch {
        return false;
      }
    }, 90_000);
    log(`node ${NODE_NAME} Ready in ${Date.now() - started} ms`);

    const env = controlPlane;
    return {
      apiServerUrl: env.apiServerUrl,
      kubeconfigPath: env.kubeconfigPath,
      kubeConfig: env.kubeConfig,
      kubeConfigFor: env.kubeConfigFor,
      dir,
      nodeName: NODE_NAME,
      netns,
      bridge: door,
      controlPlane: env,
      importImage,
      pids: () => [...env.pids(), ...processes.map((p) => p.pid)],
      stop,
    };
  } catch (error) {
    try {
      await stop();
    } catch {
      // Report the start-up failure, not the clean-up's.
    }
    throw error;
  }
}

/** A new node directory with the machine's lock taken; waits while another live process holds the lock. */
async function acquireNode(netnsName: string, waitMs: number, log: (line: string) => void): Promise<string> {
  const deadline = Date.now() + waitMs;
  for (let said = false; ; said = true) {
    const dir = mkdtempSync('/tmp/promop-node-');
    try {
      takeNodeLock(dir, netnsName);
      return dir;
    } catch (error) {
      if (!(error instanceof NodeBusyError) || Date.now() > deadline) throw error;
      if (!said) log(`${error.message}; waiting`);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
}

/** The machine's node is someone else's right now. */
export class NodeBusyError extends Error {}

/**
 * Takes the machine's node lock, or throws when a live process holds it. A lock whose owner is gone is a node
 * that was not cleaned up (its watchdog was killed too): tear that one down first.
 */
function takeNodeLock(dir: string, netnsName: string): void {
  if (existsSync(NODE_LOCK_FILE)) {
    const owner = /owner_pid=(\d+)/.exec(readFileSync(NODE_LOCK_FILE, 'utf8'))?.[1];
    if (owner && isAlive(Number(owner))) {
      rmSync(dir, { recursive: true, force: true });
      throw new NodeBusyError(`another test node is running on this machine (pid ${owner}, ${NODE_LOCK_FILE}); one node per machine at a time`);
    }
    execFileSync('bash', [TEARDOWN_SCRIPT, NODE_LOCK_FILE], { stdio: 'ignore' });
  }
  const created = FIXED_HOST_PATHS.filter((path) => !existsSync(path));
  writeFileSync(NODE_LOCK_FILE, [
    `owner_pid=${process.pid}`,
    `node_dir=${dir}`,
    `netns=${netnsName}`,
    `created_paths="${created.join(' ')}"`,
    '',
  ].join('\n'), { flag: 'wx' });
}

/** A detached shell that runs the teardown as soon as this process is gone; stop() kills it after tearing down. */
function startTeardownWatchdog(): number {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; exec bash ${JSON.stringify(TEARDOWN_SCRIPT)} ${NODE_LOCK_FILE}`;
  const child = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid!;
}

/**
 * Whatever a node with working directory `dir` and namespace `netnsName` may have left on this machine: the lock,
 * the namespace, mounts under its directory, kubepods cgroups, processes mentioning its directory, the directory.
 * Empty after a clean teardown; the tests assert that.
 */
export function nodeTraces(dir: string, netnsName: string): string[] {
  const traces: string[] = [];
  if (existsSync(NODE_LOCK_FILE)) traces.push(`lock ${NODE_LOCK_FILE}`);
  if (existsSync(`/run/netns/${netnsName}`)) traces.push(`network namespace ${netnsName}`);
  if (existsSync(dir)) traces.push(`directory ${dir}`);
  for (const line of readFileSync('/proc/mounts', 'utf8').split('\n')) {
    const mountPoint = line.split(' ')[1];
    if (mountPoint?.startsWith(dir)) traces.push(`mount ${mountPoint}`);
  }
  for (const hierarchy of ['cpu', 'memory', 'pids', 'systemd', 'unified', '.']) {
    const path = join('/sys/fs/cgroup', hierarchy, 'kubepods');
    if (existsSync(path)) traces.push(`cgroup ${path}`);
  }
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(dir) && Number(pid) !== process.pid) traces.push(`process ${pid}: ${cmdline.slice(0, 120)}`);
    } catch {
      // Exited while we looked.
    }
  }
  return traces;
}


function ctrOk(socket: string): boolean {
  if (!existsSync(socket)) return false;
  try {
    execFileSync(toolPath('ctr'), ['--address', socket, 'version'], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/** Logs survive a kept directory only if copied before the teardown removes the node's directory. */
function copyLogs(dir: string): void {
  const keep = `${dir}-logs`;
  mkdirSync(keep, { recursive: true });
  // Components' logs, and the pods' (promop's own among them) under pod-logs/<namespace>_<pod>_<uid>/.
  execFileSync('sh', ['-c', `cp ${JSON.stringify(dir)}/*.log ${JSON.stringify(dir)}/control-plane/*.log ${JSON.stringify(keep)}/ 2>/dev/null; cp -r ${JSON.stringify(dir)}/pod-logs ${JSON.stringify(keep)}/ 2>/dev/null || true`]);
  process.stderr.write(`[node] logs kept in ${keep}\n`);
}
