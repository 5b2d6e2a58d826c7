/**
 * splitLines (pure): a watch stream's chunks, cut anywhere, give back exactly its lines. RawApi's getJson against a
 * plain HTTP server on 127.0.0.1 (what is checked is how the client treats a response, not anything of the
 * Kubernetes API): a body read whole must not stay reachable through the response once read. The writes as they
 * go on the wire (method, Content-Type, query, body, headers) and a refusal as an error, against the same kind of
 * server: what is checked is the request promop sends, which the API-server tests then exercise for real.
 */
import { ApiException, KubeConfig } from '@kubernetes/client-node';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, get, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiErrorOf, describeError } from './api-error.ts';
import { KubeApiError, PATCH_TYPE, RawApi, namespacedPath, splitLines, type ConnectionStats, type KubeAccess } from './raw-api.ts';

function linesOf(chunks: readonly string[]): string[] {
  const lines: string[] = [];
  const onData = splitLines((line) => lines.push(line));
  for (const chunk of chunks) onData(chunk);
  return lines;
}

describe('splitLines', () => {
  it('gives each complete line once, whatever the chunk boundaries, and keeps an unfinished line until its newline', () => {
    const text = '{"type":"ADDED"}\n{"type":"MODIFIED","big":"' + 'x'.repeat(5_000) + '"}\n\n{"type":"DELETED"}\n{"partial"';
    const expected = ['{"type":"ADDED"}', `{"type":"MODIFIED","big":"${'x'.repeat(5_000)}"}`, '', '{"type":"DELETED"}'];
    for (const size of [1, 2, 7, 64, 4_999, text.length]) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(linesOf(chunks)).toEqual(expected);
    }
    // The unfinished line comes out once its newline arrives.
    expect(linesOf([text, '}\n'])).toEqual([...expected, '{"partial"}']);
  });
});

describe('getJson', () => {
  let server: Server;
  let api: RawApi;

  beforeAll(async () => {
    server = createServer((request, response) => {
      response.writeHead(request.url?.startsWith('/missing') ? 404 : 200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(request.url?.startsWith('/missing') ? { kind: 'Status', code: 404 } : { items: ['x'.repeat(100_000)] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
      users: [{ name: 'u' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
    api = new RawApi(kc);
  });

  afterAll(async () => {
    api.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const LISTENERS_OF_THE_BODY = ['data', 'end', 'close', 'error'] as const;

  const listenerCounts = (response: IncomingMessage) => Object.fromEntries(LISTENERS_OF_THE_BODY.map((event) => [event, response.listenerCount(event)]));

  /**
   * The listeners Node's http client itself leaves on a response whose body was read (its responseOnEnd, ...): those
   * of a plain `http.get` whose reader removes its own.
   */
  async function nodesOwnListeners(path: string): Promise<Record<string, number>> {
    const { port } = server.address() as AddressInfo;
    const response = await new Promise<IncomingMessage>((resolve, reject) => get({ host: '127.0.0.1', port, path }, resolve).on('error', reject));
    response.resume();
    await once(response, 'end');
    return listenerCounts(response);
  }

  /** The responses RawApi receives while `action` runs (Node's http client diagnostics channel). */
  async function responsesDuring(action: () => Promise<unknown>): Promise<IncomingMessage[]> {
    const responses: IncomingMessage[] = [];
    const onResponse = (message: unknown) => responses.push((message as { response: IncomingMessage }).response);
    subscribe('http.client.response.finish', onResponse);
    try {
      await action();
    } finally {
      unsubscribe('http.client.response.finish', onResponse);
    }
    return responses;
  }

  test('a body read whole leaves no listener on its response, so a kept-alive connection does not keep it', async () => {
    let body: { items: string[] } | undefined;
    const responses = await responsesDuring(async () => {
      body = await api.getJson<{ items: string[] }>('/list');
    });
    expect(body?.items[0]).toHaveLength(100_000);
    expect(responses).toHaveLength(1);
    // Only Node's own listeners are left, and one 'error' listener that ignores late errors (it holds nothing).
    const own = await nodesOwnListeners('/list');
    expect(listenerCounts(responses[0]!)).toEqual({ ...own, error: own.error! + 1 });
  });

  test('an error answer is read the same way and still rejects with its status', async () => {
    let failure: unknown;
    const responses = await responsesDuring(async () => {
      failure = await api.getJson('/missing').catch((error: unknown) => error);
    });
    expect((failure as { code?: number }).code).toBe(404);
    const own = await nodesOwnListeners('/missing');
    expect(listenerCounts(responses[0]!)).toEqual({ ...own, error: own.error! + 1 });
  });
});

describe('writes on the wire', () => {
  interface Seen {
    method: string;
    url: string;
    headers: IncomingHttpHeaders;
    body: string;
  }
  let server: Server;
  let seen: Seen[];
  let port: number;

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
        const refused = request.url?.includes('refused');
        response.writeHead(refused ? 422 : 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(refused
          ? { kind: 'Status', code: 422, reason: 'Invalid', message: 'Secret "s" is invalid: data[bad key]: Invalid value' }
          : { kind: 'Secret', metadata: { name: 's', resourceVersion: '7' } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    seen = [];
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A RawApi over a KubeAccess that authenticates with a bearer token, as promop's Kubeconfig does. */
  function rawApi(stats?: ConnectionStats): RawApi {
    const access: KubeAccess = {
      getCurrentCluster: () => ({ server: `http://127.0.0.1:${port}/` }),
      applyToHTTPSOptions: (options) => {
        options.headers = { ...(options.headers as Record<string, string>), Authorization: 'Bearer not-a-secret-token' };
        return Promise.resolve();
      },
    };
    return new RawApi(access, stats ? { connectionStats: stats } : {});
  }

  it('sends each kind of write with its method, content type, query and JSON body, uncompressed, over one connection', async () => {
    const stats: ConnectionStats = { connections: 0 };
    const api = rawApi(stats);
    const path = namespacedPath('/api/v1', 'ns', 'secrets', 's');
    const body = { metadata: { name: 's' }, data: { k: 'dg==' } };
    await api.create(namespacedPath('/api/v1', 'ns', 'secrets'), body, { fieldManager: 'promop' });
    await api.replace(path, body, { fieldManager: 'promop' });
    for (const type of Object.values(PATCH_TYPE)) await api.patch(path, body, type, { fieldManager: 'promop', force: type === PATCH_TYPE.apply ? true : undefined });
    await api.delete(path, { body: { propagationPolicy: 'Orphan' } });
    await api.delete(path, { query: { propagationPolicy: 'Foreground', dryRun: 'All' } });
    const stored = await api.getJson<{ metadata: { resourceVersion: string } }>(path);
    api.close();
    expect(stored.metadata.resourceVersion).toBe('7');
    expect(seen.map(({ method, url, headers, body: sent }) => [method, url, headers['content-type'], sent === '' ? undefined : JSON.parse(sent)])).toEqual([
      ['POST', '/api/v1/namespaces/ns/secrets?fieldManager=promop', 'application/json', body],
      ['PUT', '/api/v1/namespaces/ns/secrets/s?fieldManager=promop', 'application/json', body],
      ['PATCH', '/api/v1/namespaces/ns/secrets/s?fieldManager=promop', 'application/merge-patch+json', body],
      ['PATCH', '/api/v1/namespaces/ns/secrets/s?fieldManager=promop', 'application/json-patch+json', body],
      ['PATCH', '/api/v1/namespaces/ns/secrets/s?fieldManager=promop', 'application/strategic-merge-patch+json', body],
      ['PATCH', '/api/v1/namespaces/ns/secrets/s?fieldManager=promop&force=true', 'application/apply-patch+yaml', body],
      ['DELETE', '/api/v1/namespaces/ns/secrets/s', 'application/json', { propagationPolicy: 'Orphan' }],
      ['DELETE', '/api/v1/namespaces/ns/secrets/s?propagationPolicy=Foreground&dryRun=All', undefined, undefined],
      ['GET', '/api/v1/namespaces/ns/secrets/s', undefined, undefined],
    ]);
    // Uncompressed answers (the API server gzips anything over 128 KiB otherwise), authenticated each time.
    expect(new Set(seen.map(({ headers }) => `${headers['accept-encoding']} ${headers.authorization}`))).toEqual(new Set(['identity Bearer not-a-secret-token']));
    expect(stats.connections).toBe(1);
  });

  it('rejects a refused write with a KubeApiError that api-error.ts reads, whose message has neither a header nor the body sent', async () => {
    const api = rawApi();
    const error = await api.replace(namespacedPath('/api/v1', 'ns', 'secrets', 'refused'), { data: { password: 'aHVudGVyMg==' } }, { fieldManager: 'promop' }).catch((e: unknown) => e);
    api.close();
    expect(error).toBeInstanceOf(KubeApiError);
    expect(apiErrorOf(error)).toEqual({ code: 422, reason: 'Invalid', message: 'Secret "s" is invalid: data[bad key]: Invalid value' });
    expect((error as Error).message).toBe('PUT /api/v1/namespaces/ns/secrets/refused: HTTP 422 Invalid');
    expect(describeError(error)).not.toMatch(/not-a-secret-token|aHVudGVyMg==/);
    expect(JSON.stringify(error)).not.toMatch(/not-a-secret-token|aHVudGVyMg==/);
  });

  it('reads client-node\'s ApiException the same way (tests still throw it)', () => {
    const status = { kind: 'Status', code: 409, reason: 'Conflict', message: 'the object has been modified' };
    expect(apiErrorOf(new ApiException(409, 'HTTP 409', status, { authorization: 'Bearer x' }))).toEqual({ code: 409, reason: 'Conflict', message: 'the object has been modified' });
    expect(apiErrorOf(new ApiException(500, 'HTTP 500', JSON.stringify(status), {}))).toEqual({ code: 500, reason: 'Conflict', message: 'the object has been modified' });
    expect(apiErrorOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeUndefined();
  });
});
