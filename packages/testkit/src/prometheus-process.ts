/**
 * A real Prometheus server for tests, listening on 127.0.0.1 only. It starts without any
 * in-cluster Kubernetes settings, so kubernetes_sd_configs without `api_server` cannot discover
 * (and therefore never dial) anything.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, logTail, startProcess, startUntilReady, type ManagedProcess } from './child-processes.ts';
import { toolPath } from './tools.ts';

/** A running Prometheus. */
export interface PrometheusProcess {
  /** http://127.0.0.1:<port> (https:// with `https`) */
  url: string;
  pid: number;
  /** GETs `path` (e.g. `/api/v1/status/config`) and returns the parsed JSON `data`. */
  apiGet<T = unknown>(path: string): Promise<T>;
  /** Last lines of its log. */
  log(): string;
  stop(): Promise<void>;
}

/** How to start it besides the config: agent mode (`--agent`, WAL at `--storage.agent.path`), extra flags. */
export interface PrometheusStartOptions {
  agent?: boolean;
  /** Extra flags, e.g. `--web.enable-remote-write-receiver`. */
  args?: string[];
  /**
   * Serve HTTPS: `--web.config.file=<webConfigFile>`; readiness and `apiGet` then trust `caFile` (PEM) and present
   * `clientCert`/`clientKey` (PEM files) when given. `url` is then `https://127.0.0.1:<port>`.
   */
  https?: { webConfigFile: string; caFile: string; clientCert?: string; clientKey?: string };
}

/** A GET over HTTPS with the test's CA (`caFile`) and client certificate, if any: status and body. */
export function httpsGet(url: string, tls: { caFile: string; clientCert?: string; clientKey?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, {
      ca: readFileSync(tls.caFile),
      ...(tls.clientCert && tls.clientKey ? { cert: readFileSync(tls.clientCert), key: readFileSync(tls.clientKey) } : {}),
      timeout: 5000,
    }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end();
  });
}

/**
 * Starts Prometheus with `configFile`; `env` adds environment variables (e.g. POD_NAME). Resolves when /-/ready
 * answers.
 */
export async function startPrometheus(configFile: string, env: Record<string, string> = {}, options: PrometheusStartOptions = {}): Promise<PrometheusProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'promop-prometheus-'));
  const port = await freePort();
  const url = `${options.https ? 'https' : 'http'}://127.0.0.1:${port}`;
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // Never let a test Prometheus believe it runs in a cluster.
  delete childEnv.KUBERNETES_SERVICE_HOST;
  delete childEnv.KUBERNETES_SERVICE_PORT;
  const managed: ManagedProcess = startProcess('prometheus', toolPath('prometheus'), [
    `--config.file=${configFile}`,
    `--web.listen-address=127.0.0.1:${port}`,
    // An agent keeps only a WAL, at a flag of its own (the tsdb flags are refused in agent mode).
    ...(options.agent ? ['--agent', `--storage.agent.path=${join(dir, 'data')}`] : [`--storage.tsdb.path=${join(dir, 'data')}`]),
    '--web.enable-lifecycle',
    ...(options.https ? [`--web.config.file=${options.https.webConfigFile}`] : []),
    ...(options.args ?? []),
  ], join(dir, 'prometheus.log'), childEnv);
  const { https } = options;
  const get = async (path: string, timeoutMs: number): Promise<{ status: number; body: string }> => {
    if (https) return httpsGet(`${url}${path}`, https);
    const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
    return { status: response.status, body: await response.text() };
  };
  const { stop } = await startUntilReady(managed, `${url}/-/ready`, dir, async () => (await get('/-/ready', 1000)).status === 200);
  return {
    url,
    pid: managed.pid,
    async apiGet<T>(path: string): Promise<T> {
      const response = await get(path, 5000);
      const body = JSON.parse(response.body) as { status: string; data: T; error?: string };
      if (body.status !== 'success') throw new Error(`GET ${path}: ${body.error ?? response.status}`);
      return body.data;
    },
    log: () => logTail(managed),
    stop,
  };
}
