/**
 * splitLines (pure): a watch stream's chunks, cut anywhere, give back exactly its lines. RawApi's getJson against a
 * plain HTTP server on 127.0.0.1 (what is checked is how the client treats a response, not anything of the
 * Kubernetes API): a body read whole must not stay reachable through the response once read.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RawApi, splitLines } from './raw-api.ts';

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
