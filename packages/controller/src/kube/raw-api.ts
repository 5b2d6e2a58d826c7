/**
 * The requests the caches make, without client-node's generated client: pages of a list, a GET by name and a
 * watch stream, each as JSON and each with the `Accept` header the caller chooses (the metadata-only forms
 * `PartialObjectMetadata[List]` need it, and client-node's Watch cannot send it).
 *
 * Why not client-node: its generated client reads a whole list into one string before parsing, with a new undici
 * dispatcher (a new TLS connection) per request; a list that takes longer than the API server's request timeout
 * (60 s by default) to be read is cut off mid-body, which undici reports as `TypeError: terminated` (measured: a
 * 140 MB list of Secrets read by a process whose event loop was busy for 65 s). Here every list is paginated, so
 * no single response is big, and one keep-alive agent serves every request.
 *
 * Authentication comes from the KubeConfig for each request (`applyToHTTPSOptions`: client certificates,
 * bearer tokens, exec and token-file credentials that rotate). Errors are client-node `ApiException`s carrying the
 * Status body, so api-error.ts reads them like any other; their message never contains a request header.
 */
import { ApiException, type KubeConfig } from '@kubernetes/client-node';
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';

/** `Accept` for a list of PartialObjectMetadata: every item's metadata and nothing else. */
export const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json';
/** `Accept` for a watch (or GET) of PartialObjectMetadata. */
export const METADATA_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';
const JSON_ACCEPT = 'application/json';

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

/** Raw JSON requests to the API server of a KubeConfig. */
export class RawApi {
  readonly #kc: KubeConfig;
  #agent: HttpAgent | undefined;

  constructor(kc: KubeConfig) {
    this.#kc = kc;
  }

  /** GETs `path` and parses the JSON body; a non-2xx answer throws an ApiException with the Status. */
  async getJson<T>(path: string, request: RawRequest = {}): Promise<T> {
    const response = await this.#send(path, request);
    const body = await readBody(response, path);
    const status = response.statusCode ?? 0;
    if (status < 200 || status > 299) throw apiException(status, body);
    return JSON.parse(body) as T;
  }

  /**
   * Watches `path` (`watch=true` is added) and calls `onEvent` for each line. Resolves when the server ends the
   * stream (its `timeoutSeconds`) or `signal` aborts it; rejects with ConnectionCutError when the connection
   * closes mid-stream or stays silent for `idleTimeoutMs`, and with an ApiException when the server refuses the
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
    this.#agent?.destroy();
    this.#agent = undefined;
  }

  async #stream(path: string, request: RawRequest, onEvent: (event: WatchEvent) => void): Promise<void> {
    const response = await this.#send(path, { ...request, query: { ...request.query, watch: true } });
    const status = response.statusCode ?? 0;
    if (status !== 200) throw apiException(status, await readBody(response, path));
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

  async #send(path: string, request: RawRequest): Promise<IncomingMessage> {
    const server = this.#kc.getCurrentCluster()?.server;
    if (!server) throw new Error('the kubeconfig has no current cluster');
    const url = new URL(server.replace(/\/+$/, '') + path);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const options: RequestOptions = { method: 'GET', headers: { Accept: request.accept ?? JSON_ACCEPT } };
    // Fresh credentials every time (tokens rotate); the TLS material only shapes the one agent, made once.
    await this.#kc.applyToHTTPSOptions(options);
    options.agent = this.#agentFor(url, options);
    const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req: ClientRequest = send(url, { ...options, ...(request.signal ? { signal: request.signal } : {}) }, resolve);
      req.setTimeout(request.idleTimeoutMs ?? 60_000, () => req.destroy(new ConnectionCutError(`GET ${path}: no data for ${request.idleTimeoutMs ?? 60_000} ms`)));
      req.on('error', reject);
      req.end();
    });
  }

  #agentFor(url: URL, options: RequestOptions): HttpAgent {
    if (!this.#agent) {
      const { ca, cert, key, pfx, passphrase, servername, rejectUnauthorized } = options;
      const tls = Object.fromEntries(Object.entries({ ca, cert, key, pfx, passphrase, servername, rejectUnauthorized }).filter(([, value]) => value !== undefined));
      this.#agent = url.protocol === 'http:' ? new HttpAgent({ keepAlive: true }) : new HttpsAgent({ keepAlive: true, ...tls });
    }
    return this.#agent;
  }
}

/**
 * The whole body as text. Its listeners are removed once it settles: the https Agent keeps, through a closure on
 * each keep-alive socket, the request that opened the socket and with it that request's response, so listeners
 * left on the response kept its chunks and the body text alive for as long as the connection lived — the first
 * page of every cache's list, e.g. 5.4 MB of owned scrape-file Secrets at 1,000 ServiceMonitors, retained twice
 * (docs/performance.md, "Side by side", P3).
 */
function readBody(response: IncomingMessage, path: string): Promise<string> {
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
    const onError = (error: Error) => settle(() => reject(new ConnectionCutError(`GET ${path}`, error)));
    const onClose = () => {
      if (!response.complete) settle(() => reject(new ConnectionCutError(`GET ${path}`)));
    };
    response.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

function ignore(): void {}

function apiException(status: number, body: string): ApiException<unknown> {
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Not a Status: keep the text.
  }
  return new ApiException(status, `HTTP ${status}`, parsed, {});
}

/**
 * A `data` handler that calls `onLine` with each complete line (without its newline) of a text stream. Only each
 * new chunk is searched for newlines: a watch event of a 1 MiB Secret arrives in dozens of chunks, and searching the
 * whole pending text again after every chunk cost time quadratic in the event's size (23 ms per 600 KB scrape
 * Secret update, profiled at 10,000 monitors).
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
