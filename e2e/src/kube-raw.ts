/**
 * Raw GETs (and POSTs) against the API server with a kubeconfig's credentials — in particular the pod proxy
 * (`/api/v1/namespaces/<ns>/pods/<pod>:<port>/proxy/<path>`), which reaches a pod's HTTP port on any cluster
 * (the real node, kind) without the test process touching the pod network itself.
 */
import { request, type RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

/** An answer read whole. */
export interface RawResponse {
  status: number;
  body: string;
}

/** GET `path` (with query) from the kubeconfig's current cluster. Rejects on a network error only. */
export async function rawGet(kc: KubeConfig, path: string, timeoutMs = 10_000): Promise<RawResponse> {
  return rawRequest(kc, 'GET', path, undefined, timeoutMs);
}

/** POST `body` (JSON) to `path`, e.g. a pod's API through the pod proxy. Rejects on a network error only. */
export async function rawPost(kc: KubeConfig, path: string, body: unknown, timeoutMs = 10_000): Promise<RawResponse> {
  return rawRequest(kc, 'POST', path, JSON.stringify(body), timeoutMs);
}

async function rawRequest(kc: KubeConfig, method: 'GET' | 'POST', path: string, body: string | undefined, timeoutMs: number): Promise<RawResponse> {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error('kubeconfig has no current cluster');
  const url = new URL(path, cluster.server);
  const options: RequestOptions = { method, timeout: timeoutMs, ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' } }) };
  await kc.applyToHTTPSOptions(options);
  return new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer for ${method} ${path} in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The pod proxy path of `pod:port` + `path` (path without a leading slash). */
export function podProxyPath(namespace: string, pod: string, port: number, path: string): string {
  return `/api/v1/namespaces/${namespace}/pods/${pod}:${port}/proxy/${path}`;
}

/**
 * A Prometheus instant query through the pod proxy (at `port`; Thanos Query serves the same API on its own port): the
 * result vector, or undefined when the query failed.
 */
export async function queryPrometheus(kc: KubeConfig, namespace: string, pod: string, query: string, port = 9090): Promise<{ metric: Record<string, string>; value: [number, string] }[] | undefined> {
  const response = await rawGet(kc, podProxyPath(namespace, pod, port, `api/v1/query?query=${encodeURIComponent(query)}`));
  if (response.status !== 200) return undefined;
  const parsed = JSON.parse(response.body) as { status: string; data?: { result?: { metric: Record<string, string>; value: [number, string] }[] } };
  return parsed.status === 'success' ? parsed.data?.result ?? [] : undefined;
}
