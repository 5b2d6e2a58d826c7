/**
 * The test process' side of netns-bridge.ts: reaching addresses inside the node's network namespace (the API
 * server, pod IPs) from outside it. Three forms:
 * - `connect(host, port)`: a socket whose bytes reach `host:port` inside the namespace;
 * - `forward(target)`: a TCP listener on 127.0.0.1 of the test's own namespace that forwards each connection, for
 *   programs that only take a URL (kubectl, helm, client-node, a browser);
 * - `request(url)`: one plain HTTP request, for tests that ask a pod (Prometheus' query API).
 */
import { request as httpRequest } from 'node:http';
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { splice } from './splice.ts';

/** Where a forwarded connection goes; asked per connection, so a target that moves (a restarted pod) is followed. */
export type ForwardTarget = { host: string; port: number } | (() => Promise<{ host: string; port: number }>);

/** An HTTP answer read whole. */
export interface BridgeResponse {
  status: number;
  body: string;
}

/** A way into the node's namespace through the bridge's Unix socket. */
export class NamespaceBridge {
  readonly #socketPath: string;
  readonly #servers = new Set<Server>();
  /** Open forwarded connections: closing a listener does not end them, and watches stay open for minutes. */
  readonly #connections = new Set<Socket>();

  constructor(socketPath: string) {
    this.#socketPath = socketPath;
  }

  /** A socket to `host:port` inside the namespace (writes before the far end connects are buffered). */
  connect(host: string, port: number): Socket {
    const socket = createConnection({ path: this.#socketPath });
    socket.write(`${host} ${port}\n`);
    return socket;
  }

  /** Listens on 127.0.0.1 (`localPort`, default any free port) and forwards each connection to `target`. */
  async forward(target: ForwardTarget, localPort = 0): Promise<{ port: number; close: () => Promise<void> }> {
    const server = createServer((client) => {
      this.#connections.add(client);
      client.once('close', () => this.#connections.delete(client));
      client.pause();
      const resolved = typeof target === 'function' ? target() : Promise.resolve(target);
      resolved.then(({ host, port }) => {
        splice(client, this.connect(host, port));
      }, () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(localPort, '127.0.0.1', () => resolve());
    });
    this.#servers.add(server);
    const close = (): Promise<void> => new Promise((resolve) => {
      this.#servers.delete(server);
      server.close(() => resolve());
    });
    return { port: (server.address() as AddressInfo).port, close };
  }

  /** One HTTP request to `url` (an `http://<ip>:<port>/...` inside the namespace). Rejects on a network error. */
  request(url: string, options: { method?: string; body?: string; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<BridgeResponse> {
    const parsed = new URL(url);
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, {
        method: options.method ?? 'GET',
        headers: options.headers,
        timeout: options.timeoutMs ?? 10_000,
        createConnection: () => this.connect(parsed.hostname, Number(parsed.port || 80)),
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in time`)));
      req.on('error', reject);
      req.end(options.body);
    });
  }

  /** Closes every forwarder. */
  async close(): Promise<void> {
    const closed = [...this.#servers].map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const connection of this.#connections) connection.destroy();
    await Promise.all(closed);
    this.#servers.clear();
  }
}
