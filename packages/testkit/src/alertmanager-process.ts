/**
 * A real Alertmanager for tests, listening on 127.0.0.1 only, without the cluster mesh (an empty
 * `--cluster.listen-address` turns it off, so it gossips with nobody and dials no peer) unless `cluster` asks for
 * one, whose peers are then other test Alertmanagers on 127.0.0.1.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, logTail, startProcess, startUntilReady, type ManagedProcess } from './child-processes.ts';
import { httpsGet } from './prometheus-process.ts';
import { toolPath } from './tools.ts';

/** A running Alertmanager. */
export interface AlertmanagerProcess {
  /** http://127.0.0.1:<port> (plus the route prefix, if one was given) */
  url: string;
  pid: number;
  /** GET `path` below `url` (over HTTPS with the test's CA and client certificate when it serves HTTPS). */
  get(path: string): Promise<{ status: number; body: string }>;
  /** Last lines of its log. */
  log(): string;
  stop(): Promise<void>;
}

/** How to start it besides the config. */
export interface AlertmanagerStartOptions {
  /** `--web.route-prefix`. */
  routePrefix?: string;
  /**
   * Serve HTTPS: `--web.config.file=<webConfigFile>`; readiness and `get` then trust `caFile` (PEM) and present
   * `clientCert`/`clientKey` (PEM files) when given. `url` is then `https://127.0.0.1:<port>`.
   */
  https?: { webConfigFile: string; caFile: string; clientCert?: string; clientKey?: string };
  /** Join a mesh: listen on 127.0.0.1:`port`, dial `peers` (`127.0.0.1:<port>`), with `--cluster.tls-config` when given. */
  cluster?: { port: number; peers: readonly string[]; tlsConfigFile?: string; label?: string };
}

/** Starts Alertmanager with `configFile`; resolves when /-/ready answers. */
export async function startAlertmanager(configFile: string, options: AlertmanagerStartOptions = {}): Promise<AlertmanagerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'promop-alertmanager-'));
  const port = await freePort();
  const prefix = (options.routePrefix ?? '').replace(/\/+$/, '');
  const { https, cluster } = options;
  const url = `${https ? 'https' : 'http'}://127.0.0.1:${port}${prefix}`;
  const managed: ManagedProcess = startProcess('alertmanager', toolPath('alertmanager'), [
    `--config.file=${configFile}`,
    `--storage.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    ...(cluster
      ? [
        `--cluster.listen-address=127.0.0.1:${cluster.port}`, ...cluster.peers.map((peer) => `--cluster.peer=${peer}`),
        ...(cluster.tlsConfigFile ? [`--cluster.tls-config=${cluster.tlsConfigFile}`] : []), ...(cluster.label ? [`--cluster.label=${cluster.label}`] : []),
      ]
      : ['--cluster.listen-address=']),
    ...(prefix ? [`--web.route-prefix=${prefix}`] : []),
    ...(https ? [`--web.config.file=${https.webConfigFile}`] : []),
  ], join(dir, 'alertmanager.log'));
  const get = async (path: string): Promise<{ status: number; body: string }> => {
    if (https) return httpsGet(`${url}${path}`, https);
    const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(5000) });
    return { status: response.status, body: await response.text() };
  };
  const { stop } = await startUntilReady(managed, `${url}/-/ready`, dir, https ? async () => (await get('/-/ready')).status === 200 : undefined);
  return { url, pid: managed.pid, get, log: () => logTail(managed), stop };
}
