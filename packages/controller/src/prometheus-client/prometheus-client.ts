/**
 * A client for one Prometheus pod's HTTP API: the lifecycle reload and the status endpoints promop needs to
 * verify a reload. Every call returns a value; an unreachable pod, an HTTP error or a URL outside the allowed
 * networks is an error value, never an exception (a pod being down is normal, not a promop bug).
 */
import { errors as undiciErrors, request, type Dispatcher } from 'undici';
import type { BlockList } from 'node:net';
import { DISCOVERED_TARGETS_METRIC, scrapeJobsFromMetrics } from './loaded-scrape-jobs.ts';
import type { LoadedRuleGroup } from './rule-groups-comparison.ts';
import { checkPrometheusUrl } from './url-policy.ts';

/** Why a call failed. `refused`: the URL breaks the network policy and no connection was attempted. */
export type PrometheusError =
  | { kind: 'refused'; message: string }
  | { kind: 'network'; code: string; message: string }
  | { kind: 'http'; status: number; body: string; message: string }
  | { kind: 'api'; message: string };

/** The value of a call, or why it failed. */
export type PrometheusResult<T> = { ok: true; value: T } | { ok: false; error: PrometheusError };

/** GET /api/v1/status/runtimeinfo (the fields promop reads). */
export interface RuntimeInfo {
  /** False when the last reload (or the start-up load) failed; Prometheus then still runs the config before it. */
  reloadConfigSuccess: boolean;
  /** When a config was last loaded successfully (RFC 3339, whole seconds). */
  lastConfigTime: string;
  startTime: string;
}

/** GET /api/v1/targets?state=active (the fields promop reads: the health reporter's, health/target-health.ts). */
export interface ActiveTargets {
  activeTargets: { scrapePool: string; health: string; lastError?: string }[];
}

/** GET /api/v1/targets?state=dropped&scrapePool=… (the fields promop reads: health/no-targets-facts.ts). */
export interface DroppedTargets {
  /** Every dropped target of the pool, with the labels discovery gave it (Prometheus may keep fewer than it counts). */
  droppedTargets: { scrapePool?: string; discoveredLabels?: Record<string, string> }[];
  /** By scrape pool, how many targets relabeling dropped (Prometheus 2.47 and later). */
  droppedTargetCounts?: Record<string, number>;
}

/** GET /api/v1/status/buildinfo. */
export interface BuildInfo {
  version: string;
  revision: string;
  branch: string;
  goVersion: string;
}

/** How to reach one pod. */
export interface PrometheusClientOptions {
  /** `http://<pod IP>:9090`, plus the route prefix when there is one (see prometheus-reloader.ts). */
  baseUrl: string;
  /** The networks the pod may be in (allowListOf in url-policy.ts). */
  allowed: BlockList;
  /** The shared Agent (createPrometheusAgent). */
  agent: Dispatcher;
  /** Upper bound of one whole request, on top of the Agent's per-phase timeouts. */
  requestTimeoutMs?: number;
  /** The same for POST /-/reload, which answers only once the reload is done (RELOAD_TIMEOUT_MS by default). */
  reloadTimeoutMs?: number;
}

/**
 * How long POST /-/reload may take by default. Prometheus answers when the reload is done, and a large
 * configuration takes long, tens of seconds for tens of thousands of jobs on a busy machine (docs/performance.md,
 * "Capacity"; scrape-files.prometheus.test.ts prints it). The Agent's default headers timeout is the same: it bounds
 * the wait too.
 */
export const RELOAD_TIMEOUT_MS = 180_000;

/** At most this much of an error body is kept: enough for Prometheus' reason, never a whole page. */
const BODY_SNIPPET_CHARS = 2_000;

/** The Prometheus HTTP API of one pod. */
export class PrometheusClient {
  readonly #options: PrometheusClientOptions;

  constructor(options: PrometheusClientOptions) {
    this.#options = options;
  }

  /** The base URL this client calls. */
  get baseUrl(): string {
    return this.#options.baseUrl;
  }

  /**
   * POST /-/reload: Prometheus re-reads its config file and rule files and answers when done. 200 means the
   * new files are in effect; 500 carries the reason it refused them (a rule file error only says "one or more
   * errors occurred", the details are in Prometheus' log); 403 means `--web.enable-lifecycle` is missing.
   */
  async reload(): Promise<PrometheusResult<void>> {
    const result = await this.#call('POST', '/-/reload', this.#options.reloadTimeoutMs ?? RELOAD_TIMEOUT_MS);
    return result.ok ? { ok: true, value: undefined } : result;
  }

  /** GET /-/ready: true when Prometheus serves queries (it answers 503 while replaying its WAL). */
  async ready(): Promise<PrometheusResult<boolean>> {
    const result = await this.#call('GET', '/-/ready');
    if (result.ok) return { ok: true, value: true };
    if (result.error.kind === 'http' && result.error.status === 503) return { ok: true, value: false };
    return result;
  }

  /** GET /api/v1/status/config: the loaded configuration, re-serialised by Prometheus (see loaded-config-comparison.ts). */
  async loadedConfig(): Promise<PrometheusResult<string>> {
    const result = await this.#api<{ yaml: string }>('/api/v1/status/config', (data) => typeof data.yaml === 'string');
    return result.ok ? { ok: true, value: result.value.yaml } : result;
  }

  /**
   * The names of the loaded scrape jobs, main file and scrape files alike, as of the last reload (see
   * loaded-scrape-jobs.ts for why this comes from /metrics).
   */
  async loadedScrapeJobs(): Promise<PrometheusResult<Set<string>>> {
    const result = await this.#call('GET', `/metrics?name[]=${DISCOVERED_TARGETS_METRIC}`);
    return result.ok ? { ok: true, value: scrapeJobsFromMetrics(result.value) } : result;
  }

  /**
   * GET /metrics limited to `names` (both programs serve it; one that ignores `name[]` answers every metric, which
   * readers of this text must allow for).
   */
  async metrics(names: readonly string[]): Promise<PrometheusResult<string>> {
    return this.#call('GET', `/metrics?${names.map((name) => `name[]=${encodeURIComponent(name)}`).join('&')}`);
  }

  /** GET /api/v1/status/runtimeinfo. */
  async runtimeInfo(): Promise<PrometheusResult<RuntimeInfo>> {
    return this.#api<RuntimeInfo>('/api/v1/status/runtimeinfo', (data) => typeof data.reloadConfigSuccess === 'boolean');
  }

  /** GET /api/v1/status/buildinfo. */
  async buildInfo(): Promise<PrometheusResult<BuildInfo>> {
    return this.#api<BuildInfo>('/api/v1/status/buildinfo', (data) => typeof data.version === 'string');
  }

  /** GET /api/v1/rules: every loaded rule group with the file it came from. */
  async ruleGroups(): Promise<PrometheusResult<LoadedRuleGroup[]>> {
    const result = await this.#api<{ groups: LoadedRuleGroup[] }>('/api/v1/rules', (data) => Array.isArray(data.groups));
    return result.ok ? { ok: true, value: result.value.groups } : result;
  }

  /**
   * GET /api/v1/targets?state=active: every active target with its scrape pool (the job name), health and last
   * error. Dropped targets are left out: their discovered labels can be many times the size of the active ones.
   */
  async activeTargets(): Promise<PrometheusResult<ActiveTargets>> {
    return this.#api<ActiveTargets>('/api/v1/targets?state=active', (data) => Array.isArray(data.activeTargets));
  }

  /**
   * GET /api/v1/targets?state=dropped&scrapePool=<pool>: the targets discovery found for one scrape pool and
   * relabeling dropped. A Prometheus that does not filter by pool answers with every pool's, which on a big cluster
   * is many megabytes: an answer longer than `maxBytes` is an error, and the body is not read further.
   */
  async droppedTargets(scrapePool: string, maxBytes: number): Promise<PrometheusResult<DroppedTargets>> {
    return this.#api<DroppedTargets>(`/api/v1/targets?state=dropped&scrapePool=${encodeURIComponent(scrapePool)}`, (data) => Array.isArray(data.droppedTargets), maxBytes);
  }

  /** A JSON API call: `{status: "success", data}`, with `data` checked to have the shape we read. */
  async #api<D>(path: string, valid: (data: D) => boolean, maxBytes?: number): Promise<PrometheusResult<D>> {
    const result = await this.#call('GET', path, undefined, maxBytes);
    if (!result.ok) return result;
    let envelope: { status?: unknown; data?: unknown; error?: unknown };
    try {
      envelope = JSON.parse(result.value) as typeof envelope;
    } catch {
      return { ok: false, error: { kind: 'api', message: `GET ${path}: the answer is not JSON` } };
    }
    if (envelope.status !== 'success' || typeof envelope.data !== 'object' || envelope.data === null || !valid(envelope.data as D)) {
      return { ok: false, error: { kind: 'api', message: `GET ${path}: unexpected answer${typeof envelope.error === 'string' ? ` (${envelope.error})` : ''}` } };
    }
    return { ok: true, value: envelope.data as D };
  }

  /** One request; the network policy is checked first, so a refused URL never reaches the Agent. */
  async #call(method: 'GET' | 'POST', path: string, timeoutMs = this.#options.requestTimeoutMs ?? 60_000, maxBytes?: number): Promise<PrometheusResult<string>> {
    const check = checkPrometheusUrl(this.#options.baseUrl, this.#options.allowed);
    if (!check.ok) return { ok: false, error: { kind: 'refused', message: check.reason } };
    // The base URL may end in Prometheus' --web.route-prefix (`http://10.0.0.5:9090/prom`): API paths go below it.
    const base = check.url.pathname.endsWith('/') ? check.url : new URL(`${check.url.pathname}/`, check.url);
    const url = new URL(path.replace(/^\/+/, ''), base);
    try {
      const response = await request(url, {
        method,
        dispatcher: this.#options.agent,
        signal: AbortSignal.timeout(timeoutMs),
        // undici does not follow redirects unless asked, so a redirect cannot lead outside the allowed networks.
      });
      const body = maxBytes === undefined ? await response.body.text() : await boundedText(response.body, maxBytes);
      if (body === undefined) return { ok: false, error: { kind: 'api', message: `${method} ${path}: the answer is longer than ${maxBytes} bytes` } };
      if (response.statusCode >= 200 && response.statusCode < 300) return { ok: true, value: body };
      const snippet = body.trim().slice(0, BODY_SNIPPET_CHARS);
      return {
        ok: false,
        error: { kind: 'http', status: response.statusCode, body: snippet, message: `${method} ${path}: HTTP ${response.statusCode}${snippet === '' ? '' : `: ${snippet}`}` },
      };
    } catch (error) {
      return { ok: false, error: networkError(method, path, error) };
    }
  }
}

/** The body as text, or undefined (and the rest not read: the connection is closed) once it passes `maxBytes`. */
async function boundedText(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += (chunk as Buffer).length;
    if (length > maxBytes) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function networkError(method: string, path: string, error: unknown): PrometheusError {
  const code = errorCode(error);
  const reason = error instanceof undiciErrors.UndiciError || error instanceof Error ? error.message : String(error);
  return { kind: 'network', code, message: `${method} ${path}: ${code}${reason !== '' && reason !== code ? ` (${reason})` : ''}` };
}

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'UNKNOWN';
  const { code, name, cause } = error as { code?: unknown; name?: unknown; cause?: unknown };
  if (typeof code === 'string') return code;
  if (cause !== undefined) return errorCode(cause);
  // AbortSignal.timeout aborts with a TimeoutError DOMException.
  return typeof name === 'string' ? name : 'UNKNOWN';
}
