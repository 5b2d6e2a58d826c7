/**
 * The read-only requests of `promop explain` and `promop diff`: lists (paginated) and GETs as JSON over one
 * keep-alive HTTPS agent, with the credentials of a ClusterConnection. Nothing here watches or writes. An answer
 * other than 2xx is a KubeReadError carrying the HTTP status and the Status message the API server sent (never a
 * request header: they hold the credentials).
 */
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import type { ClusterConnection } from '../kube/kubeconfig.ts';

// Not `import ... from 'node:http'`: an ES import of node:http reads every export, among them the lazy WebSocket
// getter, which loads Node's bundled undici and zlib, a noticeable part of the command's start-up, for nothing.
const http = process.getBuiltinModule('node:http');
const https = process.getBuiltinModule('node:https');

/** A request the API server refused or that did not reach it. `status` is 0 when there was no HTTP answer. */
export class KubeReadError extends Error {
  override name = 'KubeReadError';
  readonly path: string;
  readonly status: number;
  readonly reason: string;

  constructor(path: string, status: number, reason: string, message: string) {
    super(message);
    this.path = path;
    this.status = status;
    this.reason = reason;
  }
}

/** A list page as the API server answers it. */
interface ListPage<T> {
  items?: T[];
  metadata?: { continue?: string };
}

/** `Accept` for one object's metadata only (falls back to the whole object on a server that cannot). */
const METADATA_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json';

/** Objects per list page: no answer is ever big, and a large cluster costs a few more requests. */
const PAGE_SIZE = 500;
/** A request that has not answered by then fails (kubectl's --request-timeout is unlimited by default; a CLI should not hang). */
const REQUEST_TIMEOUT_MS = 30_000;

/** Reads from one API server. */
export class KubeReader {
  readonly #connection: ClusterConnection;
  readonly #agent: HttpAgent;

  constructor(connection: ClusterConnection) {
    this.#connection = connection;
    this.#agent = connection.server.startsWith('https:')
      ? new https.Agent({
          keepAlive: true,
          maxSockets: 8,
          rejectUnauthorized: !connection.insecureSkipTlsVerify,
          ...(connection.ca !== undefined ? { ca: connection.ca } : {}),
          ...(connection.tlsServerName !== undefined ? { servername: connection.tlsServerName } : {}),
          ...(connection.clientCertificate ? { cert: connection.clientCertificate.cert, key: connection.clientCertificate.key } : {}),
        })
      : new http.Agent({ keepAlive: true, maxSockets: 8 });
  }

  /** Every object of a list path (`/apis/<group>/<version>/<plural>`), page by page. */
  async list<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    let continueToken: string | undefined;
    do {
      const query = new URLSearchParams({ limit: String(PAGE_SIZE), ...(continueToken ? { continue: continueToken } : {}) });
      const page = await this.get<ListPage<T>>(`${path}?${query}`);
      items.push(...(page.items ?? []));
      continueToken = page.metadata?.continue || undefined;
    } while (continueToken);
    return items;
  }

  /**
   * One object (or any JSON answer); a 404 is a KubeReadError with status 404. `metadataOnly` asks for the object's
   * metadata alone (PartialObjectMetadata), e.g. a Secret's uid without its data.
   */
  async get<T>(path: string, options: { metadataOnly?: boolean } = {}): Promise<T> {
    const response = await this.#send(path, options.metadataOnly ? METADATA_ACCEPT : 'application/json');
    const body = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      response.on('error', reject);
    });
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return JSON.parse(body) as T;
    let reason = '';
    let message = `HTTP ${status}`;
    try {
      const parsed = JSON.parse(body) as { reason?: string; message?: string };
      reason = parsed.reason ?? '';
      message = parsed.message ?? message;
    } catch {
      // Not a Status (a proxy's page): the HTTP status says enough.
    }
    throw new KubeReadError(path, status, reason, message);
  }

  /** Closes the idle connections so the process can exit at once. */
  close(): void {
    this.#agent.destroy();
  }

  #send(path: string, accept: string): Promise<IncomingMessage> {
    const url = new URL(this.#connection.server + path);
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const outgoing = request(url, { method: 'GET', agent: this.#agent, headers: { Accept: accept, 'User-Agent': 'promop-cli', ...this.#connection.headers } }, resolve);
      outgoing.setTimeout(REQUEST_TIMEOUT_MS, () => outgoing.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        reject(new KubeReadError(path, 0, error.code ?? 'ConnectionFailed', `cannot reach ${this.#connection.server}: ${error.code ?? ''} ${error.message}`.replace(/\s+/g, ' ')));
      });
      outgoing.end();
    });
  }
}
