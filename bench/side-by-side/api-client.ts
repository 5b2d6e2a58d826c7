/**
 * The benchmark's own requests to the API server: JSON over one keep-alive HTTPS agent with a client certificate,
 * many at once with a concurrency limit (creating 10,000 objects one at a time would dominate the run), and watch
 * streams (in the media type the caller asks for) whose chunks are stamped with the time they arrived, before
 * anything parses them.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';

/** A response read whole. */
export interface ApiResponse {
  status: number;
  body: string;
}

/** Credentials of one client of the control plane. */
export interface ApiCredentials {
  server: string;
  caFile: string;
  certFile: string;
  keyFile: string;
}

/** Requests as the admin of a benchmark control plane. */
export class BenchApi {
  readonly #server: string;
  readonly #agent: Agent;

  constructor(credentials: ApiCredentials) {
    this.#server = credentials.server;
    this.#agent = new Agent({
      keepAlive: true,
      maxSockets: 64,
      ca: readFileSync(credentials.caFile),
      cert: readFileSync(credentials.certFile),
      key: readFileSync(credentials.keyFile),
    });
  }

  /** One request; `body` is sent as JSON unless it is a string. Rejects on a network error only. */
  send(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<ApiResponse> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, this.#server), {
        method,
        agent: this.#agent,
        headers: { Accept: 'application/json', ...(payload === undefined ? {} : { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(payload) }) },
        timeout: 120_000,
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 120 s`)));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /**
   * A request that must succeed: answers in `accepted` (default: any 2xx) resolve with the parsed body, anything
   * else throws with the API server's message. 429 and 5xx are retried for up to a minute (a busy API server
   * sheds load so).
   */
  async json<T = unknown>(method: string, path: string, body?: unknown, options: { contentType?: string; accepted?: readonly number[] } = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.send(method, path, body, options.contentType);
      const ok = options.accepted ? options.accepted.includes(response.status) : response.status >= 200 && response.status < 300;
      if (ok) return (response.body ? JSON.parse(response.body) : undefined) as T;
      if ((response.status === 429 || response.status >= 500) && attempt < 60) {
        await sleep(1_000);
        continue;
      }
      throw new Error(`${method} ${path}: ${response.status} ${response.body.slice(0, 500)}`);
    }
  }

  /**
   * Streams the response to GET `path` (a watch: `watch=1` and its query), asked for and required to be in media
   * type `accept`, calling `onChunk` with every chunk and the time it arrived (`performance.now()`, taken before
   * anything looks at it). Resolves when the server ends the stream; rejects on an error, an answer other than 200
   * in `accept`, a throw from `onChunk` (the request is then abandoned), or when `signal` aborts.
   */
  stream(path: string, accept: string, onChunk: (chunk: Buffer, arrivedAt: number) => void, signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, this.#server), { method: 'GET', agent: this.#agent, headers: { Accept: accept }, signal }, (res) => {
        const contentType = res.headers['content-type'] ?? '';
        if (res.statusCode !== 200 || contentType.replaceAll(' ', '') !== accept.replaceAll(' ', '')) {
          res.resume();
          reject(new Error(`watch ${path}: ${res.statusCode} ${contentType}`));
          return;
        }
        res.on('data', (chunk: Buffer) => {
          const arrivedAt = performance.now();
          try {
            onChunk(chunk, arrivedAt);
          } catch (error) {
            req.destroy();
            reject(error as Error);
          }
        });
        res.on('end', () => resolve());
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** Runs `task` for every item, at most `limit` at a time; rejects with the first failure. */
export async function inParallel<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await task(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
