/**
 * Every request `promop run` makes to the API server, without client-node: pages of a list, a GET by name and a
 * watch stream for the caches, each as JSON and each with the `Accept` header the caller chooses (the
 * metadata-only forms `PartialObjectMetadata[List]` need it, and client-node's Watch cannot send it); and the
 * writes (POST, PUT, PATCH as merge, JSON, strategic-merge or apply patch, DELETE) of the writers, the leader
 * election and the CRD installer, with JSON bodies or one already encoded (EncodedBody: the protobuf Secrets and
 * ConfigMaps of child-writer.ts). `promop run` does not load client-node at all: importing it costs a large share
 * of the memory promop needs (every generated API class and model; docs/performance.md, P3).
 *
 * Why not client-node: its generated client reads a whole list into one string before parsing, with a new undici
 * dispatcher (a new TLS connection) per request; a list that takes longer than the API server's request timeout
 * (60 s by default) to be read is cut off mid-body, which undici reports as `TypeError: terminated` (seen with a
 * large list of Secrets read by a process whose event loop was busy). Here every list is paginated, so
 * no single response is big, and one keep-alive agent serves every request.
 *
 * Authentication comes from a KubeAccess for each request (`applyToHTTPSOptions`: client certificates, bearer
 * tokens, exec and token-file credentials that rotate): promop's own Kubeconfig (kubeconfig.ts) in `promop run`,
 * or client-node's KubeConfig, which has the same two methods, in tests. One keep-alive agent serves every request
 * made with the same TLS material; when it changes (a client certificate an exec plugin rotated), a new agent is
 * made and the old one's idle connections are closed. Every request asks for an uncompressed response
 * (`Accept-Encoding: identity`): the API server gzips every response over 128 KiB — list pages of Secrets, and any
 * write answered with a whole scrape file Secret — and compressing and inflating them again on a loopback or
 * in-cluster connection costs CPU on both sides for no gain.
 *
 * Errors are KubeApiErrors carrying the HTTP status and the Status body, which api-error.ts reads; their message
 * never contains a request header or a request body.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import { isPushbackStatus, retryAfterMs, type ApiBackpressure, type RequestOutcome } from './api-backpressure.ts';

/**
 * What RawApi needs of a kubeconfig: the server, and the TLS options and headers of each request. Both
 * promop's Kubeconfig (kubeconfig.ts) and client-node's KubeConfig satisfy it.
 */
export interface KubeAccess {
  getCurrentCluster(): { server: string } | null;
  applyToHTTPSOptions(options: RequestOptions): Promise<void>;
  /** The API server answered 401: credentials that can be fetched anew (an exec plugin's) should be. */
  onUnauthorized?(): void;
}

/** The Content-Types of a PATCH (client-node's PatchStrategy, with the same values). */
export const PATCH_TYPE = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategicMerge: 'application/strategic-merge-patch+json',
  /** Server-side apply: the body is YAML, and JSON is YAML. */
  apply: 'application/apply-patch+yaml',
} as const;
export type PatchType = (typeof PATCH_TYPE)[keyof typeof PATCH_TYPE];

/** A non-2xx answer of the API server: its HTTP status and its body (a Status object, mostly), which api-error.ts reads. */
export class KubeApiError extends Error {
  readonly code: number;
  /** The parsed body (a Status), or its text when it was not JSON. */
  readonly body: unknown;

  constructor(method: string, path: string, code: number, body: unknown) {
    // The path names the object (never a Secret's data); the query string is left out, the headers never known here.
    super(`${method} ${path.replace(/\?.*$/, '')}: HTTP ${code}${statusReason(body)}`);
    this.name = 'KubeApiError';
    this.code = code;
    this.body = body;
  }
}

function statusReason(body: unknown): string {
  const reason = (body as { reason?: unknown } | null | undefined)?.reason;
  return typeof reason === 'string' && reason !== '' ? ` ${reason}` : '';
}

/** `Accept` for a list of PartialObjectMetadata: every item's metadata and nothing else. */
export const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
/** `Accept` for a watch (or GET) of PartialObjectMetadata. */
export const METADATA_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const JSON_ACCEPT = 'application/json';

/**
 * A request body already encoded, sent as it is with its Content-Type instead of as JSON: the protobuf form of the
 * Secrets and ConfigMaps promop writes whole (protobuf-body.ts). Like every body, it never appears in an error.
 */
export class EncodedBody {
  readonly bytes: Buffer;
  readonly contentType: string;

  constructor(bytes: Buffer, contentType: string) {
    this.bytes = bytes;
    this.contentType = contentType;
  }
}

/** What a write asks of the answer: `accept` (e.g. METADATA_ACCEPT, the stored object's metadata only). */
export type WriteOptions = Pick<RawRequest, 'accept'>;

/** One request. */
export interface RawRequest {
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  accept?: string;
  /** The socket may stay silent this long before the request fails (default 60 s, the API server's own limit). */
  idleTimeoutMs?: number;
  signal?: AbortSignal;
}

/** One line of a watch stream. */
export interface WatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: unknown;
}

/** A watch or read that ended because the connection closed before the response was complete. */
export class ConnectionCutError extends Error {
  constructor(what: string, cause?: unknown) {
    super(`${what}: connection closed before the response was complete${cause instanceof Error ? ` (${cause.message})` : ''}`);
    this.name = 'ConnectionCutError';
  }
}

/** The query of a write: `fieldManager`, `force`, `dryRun`, `propagationPolicy`... (undefined values are left out). */
export type WriteQuery = Record<string, string | number | boolean | undefined>;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `access` itself when it is a RawApi (one agent shared by every writer), else a RawApi of its own over it. */
export function rawApiOf(access: RawApi | KubeAccess): RawApi {
  return access instanceof RawApi ? access : new RawApi(access);
}

/** The path of a namespaced object or collection: `/api/v1/namespaces/a/secrets/b` (`api` is `/api/v1`, `/apis/apps/v1`...). */
export function namespacedPath(api: string, namespace: string, plural: string, name?: string, subresource?: string): string {
  return `${api}/namespaces/${encodeURIComponent(namespace)}/${plural}${name === undefined ? '' : `/${encodeURIComponent(name)}`}${subresource === undefined ? '' : `/${subresource}`}`;
}

/** The TLS options that make an agent; requests with other values need another agent. */
const TLS_OPTIONS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'servername', 'rejectUnauthorized'] as const;

/** How many connections a RawApi opened (tests). */
export interface ConnectionStats {
  connections: number;
}

/** Raw JSON requests to the API server of a KubeAccess. */
export class RawApi {
  readonly #access: KubeAccess;
  readonly #stats: { counts: ConnectionStats; seen: WeakSet<object> } | undefined;
  #agent: { agent: HttpAgent; tls: Partial<Pick<RequestOptions, (typeof TLS_OPTIONS)[number]>> } | undefined;
  /** Agents of TLS material that rotated away, closed with this RawApi (their watches may still run). */
  #retired: HttpAgent[] = [];
  /** Paces every request but watches while the API server pushes back (shared by the RawApis of one process). */
  readonly #backpressure: ApiBackpressure | undefined;

  constructor(access: KubeAccess, options: { connectionStats?: ConnectionStats; backpressure?: ApiBackpressure } = {}) {
    this.#access = access;
    this.#stats = options.connectionStats ? { counts: options.connectionStats, seen: new WeakSet() } : undefined;
    this.#backpressure = options.backpressure;
  }

  /** GETs `path` and parses the JSON body; a non-2xx answer throws a KubeApiError with the Status. */
  async getJson<T>(path: string, request: RawRequest = {}): Promise<T> {
    return this.#json<T>('GET', path, request);
  }

  /** POSTs `body` (a create): an object sent as JSON, or an EncodedBody sent as it is. */
  create<T>(path: string, body: unknown, query: WriteQuery = {}, options: WriteOptions = {}): Promise<T> {
    return this.#json<T>('POST', path, { query, body, ...options });
  }

  /** PUTs `body` (a replace; its `metadata.resourceVersion`, when set, is the precondition), as `create` sends it. */
  replace<T>(path: string, body: unknown, query: WriteQuery = {}, options: WriteOptions = {}): Promise<T> {
    return this.#json<T>('PUT', path, { query, body, ...options });
  }

  /** PATCHes with `body` as `type` (PATCH_TYPE: merge, JSON, strategic merge, or server-side apply). */
  patch<T>(path: string, body: unknown, type: PatchType, query: WriteQuery = {}): Promise<T> {
    return this.#json<T>('PATCH', path, { query, body, contentType: type });
  }

  /** DELETEs `path`; DeleteOptions go in `body` (the API server ignores query options when there is a body). */
  delete<T = unknown>(path: string, options: { body?: unknown; query?: WriteQuery } = {}): Promise<T> {
    return this.#json<T>('DELETE', path, options);
  }

  /**
   * Watches `path` (`watch=true` is added) and calls `onEvent` for each line. Resolves when the server ends the
   * stream (its `timeoutSeconds`) or `signal` aborts it; rejects with ConnectionCutError when the connection
   * closes mid-stream or stays silent for `idleTimeoutMs`, and with a KubeApiError when the server refuses the
   * watch. A throwing `onEvent` ends the watch with that error.
   */
  async watch(path: string, request: RawRequest, onEvent: (event: WatchEvent) => void): Promise<void> {
    try {
      await this.#stream(path, request, onEvent);
    } catch (error) {
      // An abort by the caller is a normal end, whatever the socket reported.
      if (!request.signal?.aborted) throw error;
    }
  }

  /** Closes idle keep-alive connections (the caches are stopped). */
  close(): void {
    this.#agent?.agent.destroy();
    this.#agent = undefined;
    for (const agent of this.#retired) agent.destroy();
    this.#retired = [];
  }

  async #json<T>(method: Method, path: string, request: RawRequest & { body?: unknown; contentType?: string }): Promise<T> {
    const admission = await this.#backpressure?.admit(request.signal);
    let status: number;
    let body: string;
    try {
      const response = await this.#send(method, path, request);
      body = await readBody(response, `${method} ${path}`);
      status = response.statusCode ?? 0;
      const retryAfter = retryAfterMs(response.headers['retry-after']);
      admission?.done(isPushbackStatus(status)
        ? { kind: 'pushback', cause: `${method} ${path}: ${status}`, ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }) }
        : { kind: 'answered' });
    } catch (error) {
      admission?.done(outcomeOfError(error, request.signal, `${method} ${path}`));
      throw error;
    }
    if (status < 200 || status > 299) throw this.#failure(method, path, status, body);
    return JSON.parse(body) as T;
  }

  async #stream(path: string, request: RawRequest, onEvent: (event: WatchEvent) => void): Promise<void> {
    const response = await this.#send('GET', path, { ...request, query: { ...request.query, watch: true } });
    const status = response.statusCode ?? 0;
    if (status !== 200) throw this.#failure('GET', path, status, await readBody(response, `watch ${path}`));
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        response.destroy();
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      response.setEncoding('utf8');
      response.on('data', splitLines((line) => {
        if (failed || line.trim() === '') return;
        try {
          onEvent(JSON.parse(line) as WatchEvent);
        } catch (error) {
          fail(error);
        }
      }));
      response.on('end', () => {
        if (!failed) resolve();
      });
      response.on('error', (error) => fail(new ConnectionCutError(`watch ${path}`, error)));
      response.on('close', () => {
        if (!response.complete) fail(new ConnectionCutError(`watch ${path}`));
      });
    });
  }

  #failure(method: Method, path: string, status: number, body: string): KubeApiError {
    // A refused credential (an exec plugin's token revoked before its expiry) is fetched anew for the next request.
    if (status === 401) this.#access.onUnauthorized?.();
    return new KubeApiError(method, path, status, parseBody(body));
  }

  async #send(method: Method, path: string, request: RawRequest & { body?: unknown; contentType?: string }): Promise<IncomingMessage> {
    const server = this.#access.getCurrentCluster()?.server;
    if (!server) throw new Error('the kubeconfig has no current cluster');
    const url = new URL(server.replace(/\/+$/, '') + path);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const encoded = request.body instanceof EncodedBody ? request.body : undefined;
    const payload = encoded ? encoded.bytes : request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body), 'utf8');
    const headers: Record<string, string | number> = { Accept: request.accept ?? JSON_ACCEPT, 'Accept-Encoding': 'identity' };
    if (payload) {
      headers['Content-Type'] = encoded?.contentType ?? request.contentType ?? JSON_ACCEPT;
      headers['Content-Length'] = payload.length;
    }
    const options: RequestOptions = { method, headers };
    // Fresh credentials every time (tokens rotate); the TLS material picks the agent.
    await this.#access.applyToHTTPSOptions(options);
    options.agent = this.#agentFor(url, options);
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    const idleTimeoutMs = request.idleTimeoutMs ?? 60_000;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req: ClientRequest = send(url, { ...options, ...(request.signal ? { signal: request.signal } : {}) }, resolve);
      req.setTimeout(idleTimeoutMs, () => req.destroy(new ConnectionCutError(`${method} ${path}: no data for ${idleTimeoutMs} ms`)));
      req.on('error', reject);
      const stats = this.#stats;
      if (stats) {
        req.once('socket', (socket) => {
          if (stats.seen.has(socket)) return;
          stats.seen.add(socket);
          stats.counts.connections += 1;
        });
      }
      req.end(payload);
    });
  }

  #agentFor(url: URL, options: RequestOptions): HttpAgent {
    const tls = Object.fromEntries(TLS_OPTIONS.filter((name) => options[name] !== undefined).map((name) => [name, options[name]]));
    const current = this.#agent;
    if (current && sameTls(current.tls, tls)) return current.agent;
    const agent = url.protocol === 'http:' ? new HttpAgent({ keepAlive: true }) : new HttpsAgent({ keepAlive: true, ...tls });
    if (current) retire(current.agent, this.#retired);
    this.#agent = { agent, tls };
    return agent;
  }
}

/** Whether two sets of TLS options make the same agent (client-node gives new Buffers of the same bytes each time). */
function sameTls(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (Buffer.isBuffer(x) && Buffer.isBuffer(y) && x.equals(y)) continue;
    if (Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((item, i) => sameTls({ v: item }, { v: y[i] }))) continue;
    return false;
  }
  return true;
}

/** An agent whose TLS material rotated away: requests in flight finish, idle connections close now and when freed. */
function retire(agent: HttpAgent, retired: HttpAgent[]): void {
  for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
  agent.on('free', (socket: { destroy(): void }) => socket.destroy());
  retired.push(agent);
}

/** A request that failed before an answer: no connection or a cut one is pushback; the caller's abort says nothing. */
function outcomeOfError(error: unknown, signal: AbortSignal | undefined, what: string): RequestOutcome {
  if (signal?.aborted) return { kind: 'unknown' };
  const code = (error as { code?: unknown } | undefined)?.code;
  if (error instanceof ConnectionCutError || (typeof code === 'string' && NO_CONNECTION_CODES.has(code))) return { kind: 'pushback', cause: `${what}: ${typeof code === 'string' ? code : 'connection cut'}` };
  return { kind: 'unknown' };
}

/** Socket errors that mean the API server cannot be reached now (as opposed to a request promop could not build). */
const NO_CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

function parseBody(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    // Not a Status: keep the text.
    return body;
  }
}

/**
 * The whole body as text. Its listeners are removed once it settles: the https Agent keeps, through a closure on
 * each keep-alive socket, the request that opened the socket and with it that request's response, so listeners
 * left on the response kept its chunks and the body text alive for as long as the connection lived — the first
 * page of every cache's list (owned scrape-file Secrets among them), retained twice (docs/performance.md, P3).
 */
function readBody(response: IncomingMessage, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const settle = (outcome: () => void) => {
      response.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      // An 'error' after the body is settled changes nothing, and without a listener it would throw.
      response.on('error', ignore);
      chunks = [];
      outcome();
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      settle(() => resolve(text));
    };
    const onError = (error: Error) => settle(() => reject(new ConnectionCutError(what, error)));
    const onClose = () => {
      if (!response.complete) settle(() => reject(new ConnectionCutError(what)));
    };
    response.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

function ignore(): void {}

/**
 * A `data` handler that calls `onLine` with each complete line (without its newline) of a text stream. Only each
 * new chunk is searched for newlines: a watch event of a 1 MiB Secret arrives in dozens of chunks, and searching the
 * whole pending text again after every chunk would cost time quadratic in the event's size.
 */
export function splitLines(onLine: (line: string) => void): (chunk: string) => void {
  let pieces: string[] = [];
  return (chunk) => {
    let start = 0;
    for (let newline = chunk.indexOf('\n'); newline >= 0; newline = chunk.indexOf('\n', start)) {
      pieces.push(chunk.slice(start, newline));
      const line = pieces.length === 1 ? (pieces[0] as string) : pieces.join('');
      pieces = [];
      start = newline + 1;
      onLine(line);
    }
    if (start < chunk.length) pieces.push(chunk.slice(start));
  };
}
