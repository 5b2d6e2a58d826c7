/**
 * A real Alertmanager for tests, listening on 127.0.0.1 only, without the cluster mesh (an empty
 * `--cluster.listen-address` turns it off, so it gossips with nobody and dials no peer).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, logTail, startProcess, startUntilReady, type ManagedProcess } from './child-processes.ts';
import { toolPath } from './tools.ts';

/** A running Alertmanager. */
export interface AlertmanagerProcess {
  /** http://127.0.0.1:<port> (plus the route prefix, if one was given) */
  url: string;
  pid: number;
  /** Last lines of its log. */
  log(): string;
  stop(): Promise<void>;
}

/** Starts Alertmanager with `configFile`; resolves when /-/ready answers. `routePrefix` sets `--web.route-prefix`. */
export async function startAlertmanager(configFile: string, options: { routePrefix?: string } = {}): Promise<AlertmanagerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'promop-alertmanager-'));
  const port = await freePort();
  const prefix = (options.routePrefix ?? '').replace(/\/+$/, '');
  const url = `http://127.0.0.1:${port}${prefix}`;
  const managed: ManagedProcess = startProcess('alertmanager', toolPath('alertmanager'), [
    `--config.file=${configFile}`,
    `--storage.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--cluster.listen-address=',
    ...(prefix ? [`--web.route-prefix=${prefix}`] : []),
  ], join(dir, 'alertmanager.log'));
  const { stop } = await startUntilReady(managed, `${url}/-/ready`, dir);
  return { url, pid: managed.pid, log: () => logTail(managed), stop };
}
