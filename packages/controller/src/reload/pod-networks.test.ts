/**
 * Which pod addresses promop may dial: the networks named with --pod-network, or the Nodes' spec.podCIDRs,
 * refreshed when a pod has an address outside them, but never more than once per interval.
 */
import type { V1Node } from '@kubernetes/client-node';
import { pino } from 'pino';
import { FixedPodNetworks, NodePodNetworks, parsePodNetworks, podCidrsOfNodes } from './pod-networks.ts';

const node = (name: string, podCIDRs?: string[], podCIDR?: string): V1Node => ({
  metadata: { name },
  spec: { ...(podCIDRs ? { podCIDRs } : {}), ...(podCIDR ? { podCIDR } : {}) },
});
const silent = pino({ level: 'silent' });

describe('--pod-network', () => {
  it('takes comma-separated CIDRs and single addresses, IPv4 and IPv6', () => {
    expect(parsePodNetworks('10.244.0.0/16, fd00:10::/64,127.0.0.1')).toEqual({ ok: true, networks: ['10.244.0.0/16', 'fd00:10::/64', '127.0.0.1'] });
  });

  it.each([
    ['10.244.0.0/33', '--pod-network: "10.244.0.0/33" has a bad prefix length'],
    ['10.244.0.0/', '--pod-network: "10.244.0.0/" has a bad prefix length'],
    ['10.244.0.0/16/8', '--pod-network: "10.244.0.0/16/8" is not an IP address or CIDR'],
    ['pods.cluster.local', '--pod-network: "pods.cluster.local" is not an IP address or CIDR'],
    ['', '--pod-network needs at least one CIDR, e.g. 10.244.0.0/16'],
  ])('refuses %j with a sentence', (value, message) => {
    expect(parsePodNetworks(value)).toEqual({ ok: false, message });
  });

  it('admits addresses inside the networks and refuses others, naming the flag', async () => {
    const networks = new FixedPodNetworks(['10.244.0.0/16', 'fd00:10::/64']);
    expect(await networks.admit('10.244.3.7')).toEqual({ ok: true });
    expect(await networks.admit('fd00:10::5')).toEqual({ ok: true });
    expect(await networks.admit('10.245.0.1')).toEqual({ ok: false, reason: '10.245.0.1 is outside the pod networks given with --pod-network (10.244.0.0/16, fd00:10::/64)' });
    expect(networks.allowList().check('10.244.9.9', 'ipv4')).toBe(true);
  });
});

describe('pod networks read from the Nodes', () => {
  it('are the spec.podCIDRs of every Node (or the older spec.podCIDR), each once, malformed ones left out', () => {
    const nodes = [node('a', ['10.244.1.0/24', 'fd00:10:0:1::/64']), node('b', undefined, '10.244.2.0/24'), node('c', ['10.244.1.0/24']), node('d'), node('e', ['garbage'])];
    expect(podCidrsOfNodes(nodes)).toEqual(['10.244.1.0/24', '10.244.2.0/24', 'fd00:10:0:1::/64']);
  });

  it('are listed when first needed, and again for an unknown address, at most once per interval', async () => {
    let now = 1_000_000;
    let nodes = [node('a', ['10.244.1.0/24'])];
    let lists = 0;
    const networks = new NodePodNetworks({ listNodes: async () => { lists += 1; return nodes; }, log: silent, now: () => now, minRefreshIntervalMs: 30_000 });

    expect(await networks.admit('10.244.1.5')).toEqual({ ok: true });
    expect(lists).toBe(1);
    expect(await networks.admit('10.244.1.6')).toEqual({ ok: true });
    expect(lists).toBe(1); // known network: no list

    nodes = [...nodes, node('b', ['10.244.2.0/24'])];
    now += 10_000;
    const refused = await networks.admit('10.244.2.5');
    expect(lists).toBe(1); // too soon after the last list
    expect(refused).toEqual({ ok: false, reason: expect.stringContaining("10.244.2.5 is outside the pod networks of the Nodes' spec.podCIDRs (10.244.1.0/24)") });
    expect(!refused.ok && refused.reason).toMatch(/promop run --pod-network/);

    now += 20_000;
    expect(await networks.admit('10.244.2.5')).toEqual({ ok: true }); // a Node joined: listed again
    expect(lists).toBe(2);
    expect(networks.allowList().check('10.244.2.9', 'ipv4')).toBe(true);
  });

  it('list once for several pods asking at the same time', async () => {
    let lists = 0;
    const networks = new NodePodNetworks({ listNodes: async () => { lists += 1; await new Promise((r) => setTimeout(r, 20)); return [node('a', ['10.244.1.0/24'])]; }, log: silent });
    const answers = await Promise.all(['10.244.1.1', '10.244.1.2', '10.244.1.3'].map((ip) => networks.admit(ip)));
    expect(answers).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(lists).toBe(1);
  });

  it('keep what they knew when listing fails, and say so', async () => {
    let now = 0;
    let fail = false;
    const networks = new NodePodNetworks({
      listNodes: async () => { if (fail) throw new Error('connection refused'); return [node('a', ['10.244.1.0/24'])]; },
      log: silent, now: () => now,
    });
    expect(await networks.admit('10.244.1.1')).toEqual({ ok: true });
    fail = true;
    now += 60_000;
    const refused = await networks.admit('10.9.9.9');
    expect(!refused.ok && refused.reason).toMatch(/\(10\.244\.1\.0\/24\); listing Nodes failed: Error: connection refused/);
    expect(await networks.admit('10.244.1.2')).toEqual({ ok: true });
  });

  it('refuse everything while no Node has a pod CIDR', async () => {
    const networks = new NodePodNetworks({ listNodes: async () => [node('a')], log: silent });
    const refused = await networks.admit('10.244.1.1');
    expect(!refused.ok && refused.reason).toMatch(/spec\.podCIDRs \(none\)/);
  });
});
