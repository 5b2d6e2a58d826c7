/**
 * The operator's own HTTP endpoint: `/metrics` for Prometheus, `/healthz` (liveness: the process answers) and
 * `/readyz` (readiness, from a callback: e.g. informer caches synced) for the kubelet. node:http, no framework:
 * three read-only routes do not need one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiErrorOf, describeError } from '../kube/api-error.ts';
import { DEFAULT_LISTEN_ADDRESS, parseListenAddress } from './listen-address.ts';
import type { OperatorMetrics } from './operator-metrics.ts';

/** What the server serves and where. */
export interface MetricsServerOptions {
  metrics: OperatorMetrics;
  /** Whether /readyz answers 200. A throw or rejection counts as not ready (and is reported in the body). */
  isReady: () => boolean | Promise<boolean>;
  /** `host:port`; default `:8080` (every interface). Tests use `127.0.0.1:0`. */
  address?: string;
}

/** A listening server. */
export interface MetricsServer {
  /** `http://host:port` of the bound socket (loopback spelled as bound; every-interface binds as 127.0.0.1). */
  url: string;
  port: number;
  /**
   * Stops accepting connections, lets requests in flight finish for up to `graceMs`, then drops the rest.
   * Resolves when the server is closed.
   */
  close(graceMs?: number): Promise<void>;
}

/** Starts the server; rejects if the address cannot be bound (e.g. port in use). */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const { host, port } = parseListenAddress(options.address ?? DEFAULT_LISTEN_ADDRESS);
  const server = createServer((request, response) => {
    void respond(options, request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const urlHost = host === undefined ? '127.0.0.1' : bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return { url: `http://${urlHost}:${bound.port}`, port: bound.port, close: (graceMs) => closeServer(server, graceMs ?? 5_000) };
}

async function respond(options: MetricsServerOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    if (request.method !== 'GET' && request.method !== 'HEAD') return send(response, 405, 'only GET and HEAD\n', { Allow: 'GET, HEAD' });
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    switch (path) {
      case '/metrics':
        return send(response, 200, await options.metrics.metricsText(), { 'Content-Type': options.metrics.registry.contentType });
      case '/healthz':
        return send(response, 200, 'ok\n');
      case '/readyz': {
        const ready = await readiness(options.isReady);
        return ready === true ? send(response, 200, 'ok\n') : send(response, 503, `not ready${ready === false ? '' : `: ${ready}`}\n`);
      }
      default:
        return send(response, 404, 'not found\n');
    }
  } catch (error) {
    // Only a promop bug lands here (e.g. a throwing metric collector); answer instead of hanging the client.
    send(response, 500, `internal error: ${safeMessage(error)}\n`);
  }
}

/** true, false, or the message of a failing callback. */
async function readiness(isReady: MetricsServerOptions['isReady']): Promise<boolean | string> {
  try {
    return await isReady();
  } catch (error) {
    return safeMessage(error);
  }
}

/**
 * The message of `error` for an unauthenticated HTTP body: an API error as describeError puts it, because
 * client-node's ApiException `.message` embeds the request headers (a bearer token) and a readiness callback may
 * well ask the API server.
 */
function safeMessage(error: unknown): string {
  if (apiErrorOf(error)) return describeError(error);
  return error instanceof Error ? error.message : String(error);
}

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers, 'Content-Length': Buffer.byteLength(body) });
  response.end(response.req.method === 'HEAD' ? undefined : body);
}

async function closeServer(server: Server, graceMs: number): Promise<void> {
  if (!server.listening) return;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections (Prometheus scrapes keep theirs) would hold close() open until they time out.
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearTimeout(timer);
}
