/**
 * Which Prometheus URLs promop may dial. promop calls Prometheus pods by IP (see prometheus-reloader.ts);
 * it never resolves names, so a hostile or mistaken URL cannot make it reach a host by DNS, and an
 * IP outside the caller's allow-list (in a cluster: the pod CIDR; in tests: 127.0.0.1) is refused
 * before any socket is opened.
 */
import { BlockList, isIP } from 'node:net';

/** Networks promop may call, as CIDRs (`10.244.0.0/16`, `fd00::/8`) or single addresses (`127.0.0.1`). */
export type AllowedNetworks = readonly string[];

/** A URL cleared for use, or why it was refused. */
export type UrlCheck =
  | { ok: true; url: URL }
  | { ok: false; reason: string };

/** One allow-list entry, read: an address or a subnet of one IP family. */
type NetworkEntry = { address: string; family: 'ipv4' | 'ipv6'; prefix?: number };

/**
 * Reads one entry (`10.244.0.0/16`, `fd00::/8`, `127.0.0.1`), or says why it is not one. A value, not a throw:
 * entries also come from users (`promop run --pod-network`) and from Nodes' `spec.podCIDRs`.
 */
export function parseNetwork(network: string): { ok: true; entry: NetworkEntry } | { ok: false; reason: string } {
  const [address, prefix, extra] = network.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return { ok: false, reason: `${JSON.stringify(network)} is not an IP address or CIDR` };
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (prefix === undefined) return { ok: true, entry: { address: address!, family: type } };
  const bits = Number(prefix);
  if (prefix === '' || !Number.isInteger(bits) || bits < 0 || bits > (family === 4 ? 32 : 128)) {
    return { ok: false, reason: `${JSON.stringify(network)} has a bad prefix length` };
  }
  return { ok: true, entry: { address: address!, family: type, prefix: bits } };
}

/**
 * A BlockList (used here as an allow-list) of `networks`. Throws on a malformed entry: callers validate what
 * users wrote with parseNetwork first, so a bad entry here is a bug.
 */
export function allowListOf(networks: AllowedNetworks): BlockList {
  const list = new BlockList();
  for (const network of networks) {
    const parsed = parseNetwork(network);
    if (!parsed.ok) throw new Error(`bug: allow-list entry ${parsed.reason}`);
    const { address, family, prefix } = parsed.entry;
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, prefix, family);
  }
  return list;
}

/** Whether the IP address `ip` is inside `allowed`; false for anything that is not an IP address. */
export function isAllowedAddress(ip: string, allowed: BlockList): boolean {
  const family = isIP(ip);
  return family !== 0 && allowed.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Checks `baseUrl` against the network policy: http(s) only, no credentials in the URL, the host an IP
 * literal (no DNS name, so nothing is resolved) inside `allowed`. Pure: no network use.
 */
export function checkPrometheusUrl(baseUrl: string, allowed: BlockList): UrlCheck {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { ok: false, reason: `${JSON.stringify(baseUrl)} is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `${url.protocol} URLs are not allowed, only http and https` };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'URLs with credentials are not allowed' };
  // WHATWG URL keeps IPv6 hosts in brackets.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) === 0) return { ok: false, reason: `host ${JSON.stringify(host)} is not an IP address; promop calls Prometheus pods by IP only` };
  if (!isAllowedAddress(host, allowed)) return { ok: false, reason: `${host} is outside the allowed networks` };
  return { ok: true, url };
}
