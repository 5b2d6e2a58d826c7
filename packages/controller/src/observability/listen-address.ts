/**
 * The `host:port` form of listen addresses, as Go programs (and so Kubernetes users) write them: `:8080` means
 * every interface, `127.0.0.1:0` loopback on a free port, `[::1]:8080` IPv6.
 */

/** A parsed listen address; `host` undefined means every interface. */
export interface ListenAddress {
  host: string | undefined;
  port: number;
}

/** The in-cluster default: every interface, so the kubelet's probes and Prometheus' scrapes reach the pod IP. */
export const DEFAULT_LISTEN_ADDRESS = ':8080';

/** Parses `address`; throws on a malformed one (it comes from promop's flags: report and exit). */
export function parseListenAddress(address: string): ListenAddress {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(address);
  const port = Number(match?.[3]);
  if (match === null || port > 65_535) throw new Error(`listen address ${JSON.stringify(address)} is not host:port (e.g. :8080 or 127.0.0.1:8080)`);
  const host = match[1] ?? match[2];
  return { host: host === '' ? undefined : host, port };
}
