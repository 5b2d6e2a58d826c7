/**
 * A KubeConfig whose clients reuse their connections. client-node 2.x builds a new undici Agent for every request
 * (`applySecurityAuthentication` → `createDispatcher`), so every child apply, status write and Event opened a TLS
 * connection of its own: a handshake's CPU on both ends and extra round trips on the path of each config change
 * (measured in a CPU profile of `promop run` with 1,000 ServiceMonitors: connecting took as much CPU as writing).
 * Here one Agent (keep-alive) serves every request made with the same TLS material; when that material changes
 * (a client certificate rotated by an exec plugin or a file), a new Agent is made and the old one is closed once
 * its requests finished. Headers (bearer tokens that rotate) are still set per request by client-node.
 *
 * `createDispatcher` is private in client-node's types (2.0.1, pinned in package.json); the apiserver test checks
 * that requests share one connection, so an upgrade that renames it fails there instead of silently reconnecting.
 *
 * The same clients ask for uncompressed responses (`Accept-Encoding: identity`; fetch asks for gzip by default):
 * the API server gzips every response over 128 KiB, and each write of a scrape file Secret answers with the whole
 * object — at 10,000 monitors 64 responses of 800 KB that the API server compressed and promop inflated again, CPU
 * on both ends of a loopback or in-cluster connection (profiled: 0.35 s of promop's 7 s for a first config), to save
 * bytes that cost nothing there.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { Dispatcher } from 'undici';

type CreateDispatcher = (cluster: unknown, agentOptions: unknown) => Dispatcher | undefined;
type DispatcherOptionsOf = (cluster: unknown, agentOptions: unknown) => unknown;

/** How many connections the shared dispatchers opened (tests). */
export interface ConnectionStats {
  connections: number;
}

/** `kc` with one keep-alive dispatcher per TLS identity for every client made from it (and from gates over it). */
export function sharedConnectionsKubeConfig(kc: KubeConfig, stats?: ConnectionStats): KubeConfig {
  const shared = Object.create(kc) as KubeConfig;
  const authenticate = kc.applySecurityAuthentication;
  shared.applySecurityAuthentication = async function (context) {
    await authenticate.call(this, context);
    context.setHeaderParam('Accept-Encoding', 'identity');
  };
  const internals = kc as unknown as { createDispatcher?: CreateDispatcher; createDispatcherOptions: DispatcherOptionsOf };
  const create = internals.createDispatcher;
  if (typeof create !== 'function') throw new Error('bug: @kubernetes/client-node no longer has KubeConfig.createDispatcher; see kube/shared-connections.ts');
  let current: { key: string; dispatcher: Dispatcher | undefined } | undefined;
  (shared as unknown as { createDispatcher: CreateDispatcher }).createDispatcher = (cluster, agentOptions) => {
    // What the dispatcher is made of (CA, client certificate and key, proxy, server name), as one comparable text.
    const key = JSON.stringify(internals.createDispatcherOptions.call(kc, cluster, agentOptions));
    if (current?.key === key) return current.dispatcher;
    const previous = current?.dispatcher;
    const dispatcher = create.call(kc, cluster, agentOptions);
    if (stats) dispatcher?.on('connect', () => { stats.connections += 1; });
    current = { key, dispatcher };
    // Requests in flight on the old identity finish; its idle connections are closed.
    void previous?.close().catch(() => {});
    return dispatcher;
  };
  return shared;
}
