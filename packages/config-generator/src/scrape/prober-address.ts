/**
 * A Probe's `prober.url` is not a URL: Prometheus puts it into `__address__`, so it must be `host` or `host:port`
 * (the scheme has a field of its own). prometheus-operator rejects anything else; so does promop, with the same
 * notion of a host (an IP address or a DNS name, underscores allowed) and of a port (1-65535).
 */
import { isIP } from 'node:net';

// A DNS name as the Go validator prometheus-operator uses reads it: labels of letters, digits, `_` and `-`, not
// starting with `-`, at most 63 characters, optionally ending with `.` or `_`.
const DNS_NAME = /^([a-zA-Z0-9_][a-zA-Z0-9_-]{0,62})(\.[a-zA-Z0-9_][a-zA-Z0-9_-]{0,62})*[._]?$/;

/** Why `address` cannot be a prober address, or undefined when it is `host` or `host:port`. */
export function proberAddressError(address: string): string | undefined {
  const split = splitHostPort(address);
  if (!split) return isHost(address) ? undefined : `invalid host "${address}"`;
  if (!isHost(split.host)) return `invalid host "${split.host}"`;
  if (!/^[0-9]+$/.test(split.port) || Number(split.port) < 1 || Number(split.port) > 65535) return `invalid port "${split.port}"`;
  return undefined;
}

function isHost(host: string): boolean {
  // A zone (fe80::1%eth0) is not an address Go's ParseIP reads.
  if (isIP(host) !== 0) return !host.includes('%');
  return host !== '' && host.replace(/\./g, '').length <= 255 && DNS_NAME.test(host);
}

/** Go's net.SplitHostPort: undefined where it fails (no port, or an IPv6 address without brackets). */
function splitHostPort(address: string): { host: string; port: string } | undefined {
  const colon = address.lastIndexOf(':');
  if (colon < 0) return undefined;
  let host: string;
  if (address.startsWith('[')) {
    const end = address.indexOf(']');
    if (end < 0 || end + 1 !== colon) return undefined;
    host = address.slice(1, end);
  } else {
    host = address.slice(0, colon);
    if (host.includes(':')) return undefined;
  }
  if (host.includes('[') || host.includes(']')) return undefined;
  return { host, port: address.slice(colon + 1) };
}
