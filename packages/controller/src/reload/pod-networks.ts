/**
 * The networks Prometheus pods live in: the allow-list of every address promop dials (url-policy.ts). promop
 * calls pods by the IP the API server reports in `status.podIP`; whoever can write a pod's status could otherwise
 * point promop at any address, so an IP outside the pod networks is refused, never dialled.
 *
 * Two sources. `promop run --pod-network <cidr>[,<cidr>...]` names them (needed when the CNI assigns addresses
 * outside the Nodes' ranges, as AWS VPC CNI or Calico IPAM do). Without it, the Nodes' `spec.podCIDRs` (filled by
 * kube-controller-manager's node IPAM, `--allocate-node-cidrs`): read when first needed, and read again when a pod
 * has an IP outside them (a Node joined), at most every 30 s so a pod with a foreign IP cannot make promop list
 * Nodes in a loop.
 */
import type { BlockList } from 'node:net';
import type { V1Node } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { describeError } from '../kube/index.ts';
import { allowListOf, isAllowedAddress, parseNetwork } from '../prometheus-client/index.ts';

/** Whether an address may be dialled, or why not. */
export type Admission = { ok: true } | { ok: false; reason: string };

/** The networks promop may call Prometheus pods in. */
export interface PodNetworks {
  /** The current allow-list, which the HTTP client checks again right before it dials. */
  allowList(): BlockList;
  /** Whether pod IP `ip` is inside the pod networks (after refreshing them when they may be out of date). */
  admit(ip: string): Promise<Admission>;
}

/** Reads `--pod-network`'s value: comma-separated CIDRs or addresses. A user error is a message. */
export function parsePodNetworks(value: string): { ok: true; networks: string[] } | { ok: false; message: string } {
  const networks = value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (networks.length === 0) return { ok: false, message: '--pod-network needs at least one CIDR, e.g. 10.244.0.0/16' };
  for (const network of networks) {
    const parsed = parseNetwork(network);
    if (!parsed.ok) return { ok: false, message: `--pod-network: ${parsed.reason}` };
  }
  return { ok: true, networks };
}

/** The pod networks named on the command line; they never change. */
export class FixedPodNetworks implements PodNetworks {
  readonly #networks: readonly string[];
  readonly #allowList: BlockList;

  /** Throws for a malformed entry: validate users' input with parsePodNetworks first. */
  constructor(networks: readonly string[]) {
    this.#networks = networks;
    this.#allowList = allowListOf(networks);
  }

  allowList(): BlockList {
    return this.#allowList;
  }

  async admit(ip: string): Promise<Admission> {
    if (isAllowedAddress(ip, this.#allowList)) return { ok: true };
    return { ok: false, reason: `${ip} is outside the pod networks given with --pod-network (${this.#networks.join(', ')})` };
  }
}

/** The valid `spec.podCIDRs` (or the older single `spec.podCIDR`) of `nodes`, sorted, each once. */
export function podCidrsOfNodes(nodes: readonly V1Node[]): string[] {
  const cidrs = new Set<string>();
  for (const node of nodes) {
    const listed = node.spec?.podCIDRs?.length ? node.spec.podCIDRs : node.spec?.podCIDR ? [node.spec.podCIDR] : [];
    for (const cidr of listed) if (parseNetwork(cidr).ok) cidrs.add(cidr);
  }
  return [...cidrs].sort();
}

/** How NodePodNetworks reads Nodes. */
export interface NodePodNetworksOptions {
  /** Lists every Node (the operator: CoreV1Api.listNode). */
  listNodes: () => Promise<readonly V1Node[]>;
  log: Logger;
  /** Least time between two lists (default 30 s). */
  minRefreshIntervalMs?: number;
  /** The clock (tests fix it). */
  now?: () => number;
}

/** The pod networks read from the Nodes' `spec.podCIDRs`. */
export class NodePodNetworks implements PodNetworks {
  readonly #options: NodePodNetworksOptions;
  readonly #now: () => number;
  #cidrs: string[] = [];
  #allowList: BlockList = allowListOf([]);
  #refreshedAt: number | undefined;
  #refreshing: Promise<void> | undefined;
  #lastError: string | undefined;

  constructor(options: NodePodNetworksOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  allowList(): BlockList {
    return this.#allowList;
  }

  async admit(ip: string): Promise<Admission> {
    if (isAllowedAddress(ip, this.#allowList)) return { ok: true };
    const interval = this.#options.minRefreshIntervalMs ?? 30_000;
    // A list in flight (another pod asked first) may well bring this address's network: wait for it.
    if (this.#refreshing) await this.#refreshing;
    else if (this.#refreshedAt === undefined || this.#now() - this.#refreshedAt >= interval) await this.#refresh();
    if (isAllowedAddress(ip, this.#allowList)) return { ok: true };
    const known = this.#cidrs.length > 0 ? this.#cidrs.join(', ') : 'none';
    return {
      ok: false,
      reason: `${ip} is outside the pod networks of the Nodes' spec.podCIDRs (${known})${this.#lastError ? `; listing Nodes failed: ${this.#lastError}` : ''}; ` +
        'when the CNI assigns pod addresses elsewhere, name the networks with promop run --pod-network',
    };
  }

  /** One list at a time: concurrent reloads of several pods wait for the same one. */
  async #refresh(): Promise<void> {
    this.#refreshing ??= (async () => {
      this.#refreshedAt = this.#now();
      try {
        const cidrs = podCidrsOfNodes(await this.#options.listNodes());
        this.#lastError = undefined;
        if (cidrs.join() !== this.#cidrs.join()) this.#options.log.info({ podCIDRs: cidrs }, 'pod networks read from the Nodes');
        this.#cidrs = cidrs;
        this.#allowList = allowListOf(cidrs);
      } catch (error) {
        // Keep what was known: a failed list must not make reachable pods unreachable.
        this.#lastError = describeError(error);
        this.#options.log.warn({ err: this.#lastError }, 'could not list Nodes for their pod networks');
      }
    })().finally(() => {
      this.#refreshing = undefined;
    });
    await this.#refreshing;
  }
}
