/**
 * A fault-injecting HTTPS proxy of our own between promop and kube-apiserver, on 127.0.0.1. It terminates TLS
 * with the control plane's serving certificate (so promop's kubeconfig only changes its server URL) and forwards
 * every request to the API server as the admin, with promop's headers (its Impersonate-User among them), so RBAC
 * and the audit log still see promop's identity. It records every request, and on demand:
 * - answers every request with a status (429 with Retry-After, 500) instead of forwarding it;
 * - delays every request before forwarding it;
 * - cuts the watches open at that moment (their connections close mid-stream);
 * - silences the watches open at that moment: the connection stays open, nothing more is forwarded (no events, no
 *   bookmarks), as a stuck load balancer or a half-dead connection would.
 */
import { readFileSync } from 'node:fs';
import { createServer, request, Agent, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { TestEnv } from '@promop/testkit';

/** What the proxy does to new requests. */
export type ProxyFault =
  | { kind: 'none' }
  | { kind: 'status'; code: 429 | 500 | 503 }
  | { kind: 'delay'; ms: number };

/** One request the proxy received. */
export interface ProxiedRequest {
  /** Date.now() when it arrived. */
  at: number;
  method: string;
  url: string;
  watch: boolean;
  /** The status sent back: the API server's, or the injected fault's. */
  status?: number;
  injected: boolean;
}

/** A running proxy. */
export interface FaultProxy {
  /** https://127.0.0.1:<port> */
  url: string;
  /** Every request so far, in arrival order. */
  requests: ProxiedRequest[];
  /** The fault for requests from now on. */
  setFault(fault: ProxyFault): void;
  /** Stops forwarding anything on the watches open now whose URL `matches`; returns how many. New watches are not affected. */
  silenceOpenWatches(matches?: (url: string) => boolean): number;
  /** Closes the connection of every watch open now, as an API server restart would; returns how many. */
  cutOpenWatches(): number;
  /** Watches open now (silenced or not). */
  openWatches(): string[];
  close(): Promise<void>;
}

interface OpenWatch {
  url: string;
  silenced: boolean;
  cut: () => void;
}

/** Starts a proxy in front of `env`'s API server. */
export async function startFaultProxy(env: TestEnv): Promise<FaultProxy> {
  const upstream = new URL(env.apiServerUrl);
  const agent = new Agent({
    keepAlive: true,
    ca: readFileSync(env.pki.caCert),
    cert: readFileSync(env.pki.adminCert),
    key: readFileSync(env.pki.adminKey),
  });
  const requests: ProxiedRequest[] = [];
  const watches = new Set<OpenWatch>();
  const sockets = new Set<Socket>();
  let fault: ProxyFault = { kind: 'none' };

  const forward = (req: IncomingMessage, res: ServerResponse, record: ProxiedRequest): void => {
    const headers = { ...req.headers, host: upstream.host };
    const watch: OpenWatch | undefined = record.watch ? { url: record.url, silenced: false, cut: () => res.destroy() } : undefined;
    const outgoing = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      record.status = answer.statusCode;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (watch) watches.add(watch);
      answer.on('data', (chunk: Buffer) => {
        if (!watch?.silenced) res.write(chunk);
      });
      answer.on('end', () => {
        if (watch) watches.delete(watch);
        // A silenced watch stays open until the client gives up: that is the fault.
        if (!watch?.silenced) res.end();
      });
      answer.on('error', () => res.destroy());
    });
    outgoing.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.destroy();
    });
    res.on('close', () => {
      if (watch) watches.delete(watch);
      outgoing.destroy();
    });
    req.pipe(outgoing);
  };

  const server: Server = createServer({ cert: readFileSync(env.pki.servingCert), key: readFileSync(env.pki.servingKey) }, (req, res) => {
    const url = req.url ?? '/';
    const record: ProxiedRequest = { at: Date.now(), method: req.method ?? 'GET', url, watch: /[?&]watch=(true|1)\b/.test(url), injected: false };
    requests.push(record);
    const now = fault;
    if (now.kind === 'status') {
      record.status = now.code;
      record.injected = true;
      const reason = now.code === 429 ? 'TooManyRequests' : now.code === 503 ? 'ServiceUnavailable' : 'InternalError';
      const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `injected by the chaos proxy: ${reason}`, reason, code: now.code });
      req.resume();
      res.writeHead(now.code, { 'Content-Type': 'application/json', ...(now.code === 429 ? { 'Retry-After': '1' } : {}) });
      res.end(body);
    } else if (now.kind === 'delay') {
      record.injected = true;
      setTimeout(() => forward(req, res, record), now.ms);
    } else {
      forward(req, res, record);
    }
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `https://127.0.0.1:${address.port}`,
    requests,
    setFault(next) {
      fault = next;
    },
    silenceOpenWatches(matches = () => true) {
      let count = 0;
      for (const watch of watches) {
        if (!watch.silenced && matches(watch.url)) {
          watch.silenced = true;
          count += 1;
        }
      }
      return count;
    },
    openWatches: () => [...watches].map((w) => w.url),
    cutOpenWatches() {
      const open = [...watches];
      for (const watch of open) watch.cut();
      return open.length;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** Requests that arrived in [from, to) (Date.now() values). */
export function requestsBetween(requests: readonly ProxiedRequest[], from: number, to: number): ProxiedRequest[] {
  return requests.filter((r) => r.at >= from && r.at < to);
}
