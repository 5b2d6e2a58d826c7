/**
 * promop dials Prometheus pods by IP inside an allow-list only, and decides that before any socket exists.
 */
import { Agent } from 'undici';
import { PrometheusClient } from './prometheus-client.ts';
import { PrometheusReloader } from './prometheus-reloader.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prometheusPodUrl } from './prometheus-reloader.ts';
import { allowListOf, checkPrometheusUrl, parseNetwork } from './url-policy.ts';

/** An Agent whose connector records every dial and never opens a socket. */
function recordingAgent(): { agent: Agent; dialled: string[] } {
  const dialled: string[] = [];
  const agent = new Agent({
    connect: (options, callback) => {
      dialled.push(`${options.hostname}:${options.port}`);
      callback(Object.assign(new Error('the test connector never dials'), { code: 'ECONNREFUSED' }), null);
    },
  });
  return { agent, dialled };
}

describe('the Prometheus URL policy', () => {
  const loopbackOnly = allowListOf(['127.0.0.1']);

  it.each([
    ['http://10.1.2.3:9090', /outside the allowed networks/],
    ['http://localhost:9090', /not an IP address/],
    ['http://prometheus.monitoring.svc:9090', /not an IP address/],
    ['http://[::1]:9090', /outside the allowed networks/],
    ['http://127.0.0.2:9090', /outside the allowed networks/],
    ['file:///etc/passwd', /only http and https/],
    ['http://user:pass@127.0.0.1:9090', /credentials/],
    ['not a url', /not a URL/],
  ])('refuses %s', (url, reason) => {
    const check = checkPrometheusUrl(url, loopbackOnly);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.reason).toMatch(reason);
  });

  it('accepts an IP inside an allowed CIDR, IPv4 and IPv6', () => {
    const podNetworks = allowListOf(['10.244.0.0/16', 'fd00:10::/64']);
    expect(checkPrometheusUrl('http://10.244.3.7:9090', podNetworks).ok).toBe(true);
    expect(checkPrometheusUrl('http://[fd00:10::5]:9090', podNetworks).ok).toBe(true);
    expect(checkPrometheusUrl('http://10.245.0.1:9090', podNetworks).ok).toBe(false);
  });

  it('judges the address undici would dial, not the spelling (0x7f.1 is 127.0.0.1)', () => {
    expect(checkPrometheusUrl('http://0x7f.1:9090', loopbackOnly).ok).toBe(true);
    expect(checkPrometheusUrl('http://0x0a.1.2.3:9090', loopbackOnly).ok).toBe(false);
  });

  it('throws on a malformed allow-list entry: that is promop\'s own configuration', () => {
    expect(() => allowListOf(['10.0.0.0/33'])).toThrow(/prefix length/);
    expect(() => allowListOf(['pods'])).toThrow(/not an IP address/);
  });
});

describe('a client asked to call a URL outside the allow-list', () => {
  it('returns a refused error without dialling, while an allowed URL is dialled', async () => {
    const { agent, dialled } = recordingAgent();
    try {
      const allowed = allowListOf(['127.0.0.1']);
      const outside = await new PrometheusClient({ baseUrl: 'http://10.1.2.3:9090', allowed, agent }).reload();
      expect(outside).toMatchObject({ ok: false, error: { kind: 'refused' } });
      const byName = await new PrometheusClient({ baseUrl: 'http://localhost:9090', allowed, agent }).loadedConfig();
      expect(byName).toMatchObject({ ok: false, error: { kind: 'refused' } });
      expect(dialled).toEqual([]);

      // The same client with an allowed URL does reach the connector: the check above is what stopped it.
      const inside = await new PrometheusClient({ baseUrl: 'http://127.0.0.1:1', allowed, agent }).reload();
      expect(inside).toMatchObject({ ok: false, error: { kind: 'network', code: 'ECONNREFUSED' } });
      expect(dialled).toEqual(['127.0.0.1:1']);
    } finally {
      await agent.close();
    }
  });

  it('makes reloadAndVerify return refused at once', async () => {
    const reloader = new PrometheusReloader({ allowedNetworks: ['127.0.0.1'] });
    try {
      const started = Date.now();
      const outcome = await reloader.reloadAndVerify({ baseUrl: 'http://10.1.2.3:9090', expectedConfigText: 'global: {}\n', timeoutMs: 30_000 });
      expect(outcome).toMatchObject({ outcome: 'refused', attempts: 1 });
      expect(Date.now() - started).toBeLessThan(100);
    } finally {
      await reloader.close();
    }
  });
});

describe('allow-list entries', () => {
  it.each([
    ['10.244.0.0/16', { address: '10.244.0.0', family: 'ipv4', prefix: 16 }],
    ['fd00::/8', { address: 'fd00::', family: 'ipv6', prefix: 8 }],
    ['127.0.0.1', { address: '127.0.0.1', family: 'ipv4' }],
  ])('read %s', (network, entry) => {
    expect(parseNetwork(network)).toEqual({ ok: true, entry });
  });

  it.each(['10.0.0.0/33', 'fd00::/129', '10.0.0.0/', '10.0.0.0/x', '10.0.0.0/8/8', 'example.com', ''])('refuse %j as a value, not a throw', (network) => {
    expect(parseNetwork(network)).toMatchObject({ ok: false, reason: expect.stringContaining(JSON.stringify(network)) });
  });
});

describe('pod URLs', () => {
  it('are http://<pod IP>:<port>, IPv6 in brackets, with the route prefix when there is one', () => {
    expect(prometheusPodUrl('10.244.1.5')).toBe('http://10.244.1.5:9090');
    expect(prometheusPodUrl('fd00::5', 9090)).toBe('http://[fd00::5]:9090');
    expect(prometheusPodUrl('10.244.1.5', 9090, '/')).toBe('http://10.244.1.5:9090');
    expect(prometheusPodUrl('10.244.1.5', 9090, '/prom/')).toBe('http://10.244.1.5:9090/prom');
    expect(prometheusPodUrl('10.244.1.5', 9090, 'prom')).toBe('http://10.244.1.5:9090/prom');
  });

  it('keep the route prefix in front of every API path', async () => {
    const paths: string[] = [];
    const server = createServer((request, response) => {
      paths.push(`${request.method} ${request.url}`);
      response.end('');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const reloader = new PrometheusReloader({ allowedNetworks: ['127.0.0.1'] });
    try {
      const { port } = server.address() as AddressInfo;
      const client = reloader.client(prometheusPodUrl('127.0.0.1', port, '/prom'));
      await client.reload();
      await client.loadedConfig();
      await reloader.client(prometheusPodUrl('127.0.0.1', port)).reload();
      expect(paths).toEqual(['POST /prom/-/reload', 'GET /prom/api/v1/status/config', 'POST /-/reload']);
    } finally {
      await reloader.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('are checked against an allow-list that may change between requests (Nodes joining)', async () => {
    let networks = ['10.244.1.0/24'];
    const reloader = new PrometheusReloader({ allowedNetworks: () => allowListOf(networks) });
    try {
      expect(await reloader.client('http://10.244.2.5:9090').reload()).toMatchObject({ ok: false, error: { kind: 'refused' } });
      networks = ['127.0.0.1'];
      // Now allowed: the closed loopback port answers with a connection error, not a refusal.
      expect(await reloader.client('http://127.0.0.1:1').reload()).toMatchObject({ ok: false, error: { kind: 'network' } });
    } finally {
      await reloader.close();
    }
  });
});
