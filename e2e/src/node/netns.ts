/**
 * The network namespace the whole test cluster lives in. It has a loopback interface carrying the node's
 * address and, once pods run, the CNI bridge; it never gets an interface to the outside (no veth to the root
 * namespace, no route out), so nothing a pod or a component does can send a packet beyond this machine's
 * sandbox, whatever address it dials.
 *
 * Programs are started in it with `nsenter --net=<path>`, not `ip netns exec`: the latter also creates a mount
 * namespace with a fresh /sys, which hides the cgroup mounts, and runc then fails with "no cgroup mount found in
 * mountinfo".
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** A network namespace made by {@link createNetworkNamespace}. */
export interface NetworkNamespace {
  /** Name under /run/netns. */
  name: string;
  /** /run/netns/<name>, what `nsenter --net=` takes. */
  path: string;
  /** The node's own address, on the namespace's loopback interface (kube-apiserver advertises it, kubelet reports it). */
  nodeAddress: string;
  /** `[command, ...args]` rewritten to run inside the namespace. */
  wrap(command: string, args: readonly string[]): { command: string; args: string[] };
}

/** The node's address: on `lo` inside the namespace (the kernel has no `dummy` link type). */
export const NODE_ADDRESS = '10.99.0.1';

function ip(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Creates namespace `name` with `lo` up and the node address on it. Throws if it exists already. */
export function createNetworkNamespace(name: string, nodeAddress = NODE_ADDRESS): NetworkNamespace {
  ip(['netns', 'add', name]);
  try {
    ip(['-n', name, 'link', 'set', 'lo', 'up']);
    ip(['-n', name, 'addr', 'add', `${nodeAddress}/32`, 'dev', 'lo']);
  } catch (error) {
    deleteNetworkNamespace(name);
    throw error;
  }
  const path = `/run/netns/${name}`;
  return {
    name,
    path,
    nodeAddress,
    wrap: (command, args) => ({ command: 'nsenter', args: [`--net=${path}`, '--', command, ...args] }),
  };
}

/** Deletes namespace `name` if it exists (the kernel frees it once no process is left in it). */
export function deleteNetworkNamespace(name: string): void {
  if (!existsSync(`/run/netns/${name}`)) return;
  try {
    ip(['netns', 'delete', name]);
  } catch {
    // Already gone, or still mounted by a dying process: teardown-node.sh retries.
  }
}

/** `ip -o addr` and `ip route` of the namespace, for the test that asserts there is no way out. */
export function describeNetworkNamespace(name: string): { links: string[]; addresses: string[]; routes: string[] } {
  const lines = (text: string): string[] => text.split('\n').map((line) => line.trim()).filter(Boolean);
  return {
    links: lines(ip(['-n', name, '-o', 'link', 'show'])),
    addresses: lines(ip(['-n', name, '-o', 'addr', 'show'])),
    routes: [...lines(ip(['-n', name, 'route', 'show', 'table', 'all']))],
  };
}
