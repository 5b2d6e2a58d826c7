/**
 * The configuration files of the test node's parts — containerd, the CNI network, kubelet, kube-proxy — as pure
 * functions of a {@link NodeLayout}. Each key that is not a default says why; the facts behind them are in
 * shared/reference/real-node.md (what failed on these machines without it).
 */
import { join } from 'node:path';

/** The node's networks. Everything lives in the node's own network namespace, so these never meet a real network. */
export const NODE_NETWORKS = {
  /** Pod IPs (kube-controller-manager's nodeipam gives the node the first /24 of it). */
  clusterCidr: '10.244.0.0/16',
  /** The node's share; the CNI bridge's host-local range must equal what nodeipam assigns. */
  podCidr: '10.244.0.0/24',
  /** ClusterIPs; the `kubernetes` Service gets the first address. */
  serviceCidr: '10.96.0.0/16',
  kubernetesServiceIp: '10.96.0.1',
} as const;

/** Port of the API server inside the namespace (a namespace of our own: no other program competes for it). */
export const API_SERVER_PORT = 6443;

/** Where one node keeps its files. */
export interface NodeLayout {
  /** The node's working directory (removed at teardown). */
  dir: string;
  nodeName: string;
  nodeAddress: string;
  /** Directory of the CNI plugins (Debian's containernetworking-plugins: /usr/lib/cni). */
  cniBinDir: string;
  /** The pause image containerd starts every pod sandbox from (imported, never pulled). */
  sandboxImage: string;
  /** runc. */
  runcPath: string;
}

/** Paths derived from a layout: one place, so config files and teardown agree. */
export function nodePaths(layout: NodeLayout) {
  const { dir } = layout;
  return {
    containerdRoot: join(dir, 'containerd', 'root'),
    containerdState: join(dir, 'containerd', 'state'),
    containerdSocket: join(dir, 'containerd', 'containerd.sock'),
    containerdConfig: join(dir, 'containerd', 'config.toml'),
    cniConfDir: join(dir, 'cni', 'net.d'),
    cniDataDir: join(dir, 'cni', 'ipam'),
    kubeletRoot: join(dir, 'kubelet'),
    kubeletConfig: join(dir, 'kubelet-config.yaml'),
    kubeletCertDir: join(dir, 'kubelet-pki'),
    podLogsDir: join(dir, 'pod-logs'),
    volumePluginDir: join(dir, 'volume-plugins'),
    kubeProxyConfig: join(dir, 'kube-proxy-config.yaml'),
    coreDnsConfig: join(dir, 'Corefile'),
    bridgeSocket: join(dir, 'bridge.sock'),
  };
}

/** containerd 2.x (config version 3): its own root, state and socket; the CRI plugin set up for this sandbox. */
export function containerdConfig(layout: NodeLayout): string {
  const paths = nodePaths(layout);
  return `version = 3
root = ${JSON.stringify(paths.containerdRoot)}
state = ${JSON.stringify(paths.containerdState)}
# Nothing here uses them; each would otherwise claim a fixed path or probe the host.
disabled_plugins = ["io.containerd.nri.v1.nri", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.devmapper", "io.containerd.tracing.processor.v1.otlp", "io.containerd.internal.v1.tracing"]

[grpc]
  address = ${JSON.stringify(paths.containerdSocket)}

[ttrpc]
  address = ${JSON.stringify(`${paths.containerdSocket}.ttrpc`)}

[debug]
  level = "warn"

[plugins]
  [plugins.'io.containerd.internal.v1.opt']
    path = ${JSON.stringify(join(layout.dir, 'containerd', 'opt'))}

  [plugins.'io.containerd.cri.v1.images']
    snapshotter = "overlayfs"
    # Images are imported from archives built here; there is no registry to pull from.
    [plugins.'io.containerd.cri.v1.images'.pinned_images]
      sandbox = ${JSON.stringify(layout.sandboxImage)}

  [plugins.'io.containerd.cri.v1.runtime']
    # root here lacks CAP_SYS_RESOURCE: lowering a process' oom_score_adj fails and every sandbox with it.
    restrict_oom_score_adj = true
    disable_apparmor = true
    # Pod network namespaces under our state dir instead of the fixed /var/run/netns: teardown finds them all.
    netns_mounts_under_state_dir = true
    [plugins.'io.containerd.cri.v1.runtime'.containerd]
      default_runtime_name = "runc"
      [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins.'io.containerd.cri.v1.runtime'.containerd.runtimes.runc.options]
          BinaryName = ${JSON.stringify(layout.runcPath)}
          # No systemd runs here; the kubelet uses the cgroupfs driver too.
          SystemdCgroup = false
    [plugins.'io.containerd.cri.v1.runtime'.cni]
      bin_dirs = [${JSON.stringify(layout.cniBinDir)}]
      conf_dir = ${JSON.stringify(paths.cniConfDir)}

  [plugins.'io.containerd.grpc.v1.cri']
    # kubectl logs/exec/port-forward go API server → kubelet → this server; loopback of the node's namespace.
    stream_server_address = "127.0.0.1"
    stream_server_port = "0"
`;
}

/**
 * The pod network: one Linux bridge in the node's namespace, pods on it with host-local addresses. No masquerade
 * (there is nowhere to masquerade to); hairpin so a pod reaches itself through a Service.
 */
export function cniConflist(layout: NodeLayout): string {
  return `${JSON.stringify({
    cniVersion: '1.0.0',
    name: 'promop-test',
    plugins: [
      {
        type: 'bridge',
        bridge: 'cni0',
        isGateway: true,
        ipMasq: false,
        hairpinMode: true,
        ipam: {
          type: 'host-local',
          dataDir: nodePaths(layout).cniDataDir,
          ranges: [[{ subnet: NODE_NETWORKS.podCidr }]],
          routes: [{ dst: '0.0.0.0/0' }],
        },
      },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  }, null, 2)}\n`;
}

/** KubeletConfiguration (YAML is a superset of JSON, so JSON it is). */
export function kubeletConfig(layout: NodeLayout, pki: { caCert: string }): string {
  const paths = nodePaths(layout);
  return `${JSON.stringify({
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    containerRuntimeEndpoint: `unix://${paths.containerdSocket}`,
    imageServiceEndpoint: `unix://${paths.containerdSocket}`,
    // No systemd; and this kernel has cgroup v1, which 1.35+ refuses unless told otherwise.
    cgroupDriver: 'cgroupfs',
    failCgroupV1: false,
    failSwapOn: false,
    authentication: {
      anonymous: { enabled: false },
      webhook: { enabled: true },
      x509: { clientCAFile: pki.caCert },
    },
    authorization: { mode: 'Webhook' },
    address: layout.nodeAddress,
    healthzBindAddress: '127.0.0.1',
    readOnlyPort: 0,
    // Cluster DNS is CoreDNS on the node's address (coreDnsConfig); pods get no resolv.conf from the host (whose
    // resolvers are outside the sandbox), so a name outside the cluster resolves nowhere.
    resolvConf: '',
    clusterDNS: [layout.nodeAddress],
    clusterDomain: CLUSTER_DOMAIN,
    // Imported images can never be pulled again: never collect them.
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    // A shared build machine's disk may be fuller than the defaults like; only evict when truly out of space.
    evictionHard: { 'memory.available': '100Mi', 'nodefs.available': '1%', 'imagefs.available': '1%', 'nodefs.inodesFree': '1%' },
    podLogsDir: paths.podLogsDir,
    volumePluginDir: paths.volumePluginDir,
    // Left at its default (1m) on purpose: promop must make mounted config changes fast itself (it annotates the
    // pods after a write), as on any real cluster.
    syncFrequency: '1m',
    serializeImagePulls: false,
    registerNode: true,
    maxPods: 110,
    // Fast status for tests: the node reports Ready within a second or two.
    nodeStatusUpdateFrequency: '5s',
    shutdownGracePeriod: '0s',
  }, null, 2)}\n`;
}

/** The cluster's DNS domain: `<pod>.<service>.<namespace>.svc.cluster.local`, as every Kubernetes distribution's. */
export const CLUSTER_DOMAIN = 'cluster.local';

/**
 * CoreDNS' Corefile: the cluster's names from the API server (its kubernetes plugin), served on the node's address,
 * port 53, where the kubelet points every pod. No forward plugin: a name outside the cluster is never asked of
 * anybody (there is nobody to ask in the sandbox, and nothing may leave it).
 */
export function coreDnsConfig(layout: NodeLayout, kubeconfigPath: string): string {
  return [
    '.:53 {',
    `    bind ${layout.nodeAddress}`,
    '    errors',
    `    kubernetes ${CLUSTER_DOMAIN} in-addr.arpa ip6.arpa {`,
    `        kubeconfig ${kubeconfigPath}`,
    '        pods insecure',
    '        fallthrough in-addr.arpa ip6.arpa',
    '        ttl 5',
    '    }',
    '    cache 5',
    '}',
    '',
  ].join('\n');
}

/** KubeProxyConfiguration: iptables mode inside the node's namespace, so Services (the `kubernetes` one too) work. */
export function kubeProxyConfig(layout: NodeLayout, kubeconfigPath: string): string {
  return `${JSON.stringify({
    apiVersion: 'kubeproxy.config.k8s.io/v1alpha1',
    kind: 'KubeProxyConfiguration',
    mode: 'iptables',
    clientConnection: { kubeconfig: kubeconfigPath },
    hostnameOverride: layout.nodeName,
    bindAddress: layout.nodeAddress,
    healthzBindAddress: '127.0.0.1:10256',
    metricsBindAddress: '127.0.0.1:10249',
    clusterCIDR: NODE_NETWORKS.clusterCidr,
    // Leave the conntrack sysctls alone: they are per-host, not per-namespace, and not ours to change.
    conntrack: { maxPerCore: 0, min: 0, tcpEstablishedTimeout: '0s', tcpCloseWaitTimeout: '0s' },
  }, null, 2)}\n`;
}
