/**
 * A PrometheusAgent rendered by promop runs in a real Prometheus 3.16 in agent mode (`--agent`): it loads the
 * configuration (no rule files, no alerting: an agent refuses them), scrapes a ScrapeConfig's static target and
 * remote-writes the samples to a second real Prometheus that receives remote writes, where they can be queried.
 * Every address is on loopback (nothing here may dial outside).
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate } from '@promop/config-generator';
import type { PrometheusAgent, ScrapeConfig } from '@promop/crds';
import { freePort, isLoopback, startPrometheus, tcpSockets, type PrometheusProcess } from '@promop/testkit';

const NAMESPACE = 'team-a';
const JOB = `scrapeConfig/${NAMESPACE}/app`;

/** Polls `read` until `done` holds for its value or 20 s pass; returns the last value. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (const deadline = Date.now() + 20_000; !done(value) && Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) value = await read();
  return value;
}

describe('a PrometheusAgent rendered by promop, run by a real Prometheus in agent mode', () => {
  let app: Server;
  let receiver: PrometheusProcess;
  let agent: PrometheusProcess;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promop-agent-load-'));
    // The scraped application: one gauge on a loopback port.
    const appPort = await freePort();
    // Prometheus 3 needs the Content-Type of the text format (without it and without a fallback protocol it refuses the scrape).
    app = createServer((_request, response) => {
      response.setHeader('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
      response.end('promop_agent_test_value{source="loopback"} 42\n');
    });
    await new Promise<void>((resolve) => app.listen(appPort, '127.0.0.1', resolve));
    // Where the agent writes: a Prometheus server that accepts remote writes.
    writeFileSync(join(dir, 'receiver.yaml'), 'scrape_configs: []\n');
    receiver = await startPrometheus(join(dir, 'receiver.yaml'), {}, { args: ['--web.enable-remote-write-receiver'] });

    const agentObject: PrometheusAgent = {
      apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', metadata: { name: 'agent', namespace: 'monitoring' },
      spec: {
        scrapeInterval: '1s',
        scrapeConfigSelector: {}, scrapeConfigNamespaceSelector: {},
        remoteWrite: [{ url: `${receiver.url}/api/v1/write`, queueConfig: { batchSendDeadline: '1s' } }],
      },
    };
    const scrapeConfig: ScrapeConfig = {
      apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: { name: 'app', namespace: NAMESPACE },
      spec: { staticConfigs: [{ targets: [`127.0.0.1:${appPort}`] }] },
    };
    const output = generate({
      prometheus: agentObject, serviceMonitors: [], podMonitors: [], probes: [], scrapeConfigs: [scrapeConfig], prometheusRules: [],
      namespaces: [{ name: NAMESPACE, labels: {} }, { name: 'monitoring', labels: {} }], secrets: [], configMaps: [],
    });
    if (!output.ok) throw new Error(`did not render: ${JSON.stringify(output.prometheusProblems)}`);
    config = output.configs[0] ?? '';
    writeFileSync(join(dir, 'agent.yaml'), config);
    agent = await startPrometheus(join(dir, 'agent.yaml'), { POD_NAME: 'prom-agent-agent-0' }, { agent: true });
  });

  afterAll(async () => {
    await agent?.stop();
    await receiver?.stop();
    await new Promise((resolve) => app?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs in agent mode with exactly the configuration promop rendered', async () => {
    const flags = await agent.apiGet<Record<string, string>>('/api/v1/status/flags');
    expect(flags.agent).toBe('true');
    expect(config).not.toMatch(/^(rule_files|alerting|remote_read):/m);
    const loaded = await agent.apiGet<{ yaml: string }>('/api/v1/status/config');
    expect(loaded.yaml).toContain(`job_name: ${JOB}`);
    expect(loaded.yaml).toContain(`url: ${receiver.url}/api/v1/write`);
  });

  it('scrapes the ScrapeConfig target on loopback', async () => {
    type Target = { scrapePool: string; health: string; lastError: string; labels: Record<string, string> };
    const targets = await eventually(
      async () => (await agent.apiGet<{ activeTargets: Target[] }>(`/api/v1/targets?scrapePool=${encodeURIComponent(JOB)}`)).activeTargets,
      (found) => found.some((target) => target.health === 'up'),
    );
    expect(targets.map((target) => [target.health, target.lastError, target.labels.job])).toEqual([['up', '', JOB]]);
  });

  it('remote-writes the scraped samples with its external labels', async () => {
    type Series = { metric: Record<string, string>; value: [number, string] };
    const result = await eventually(
      async () => (await receiver.apiGet<{ result: Series[] }>(`/api/v1/query?query=${encodeURIComponent('promop_agent_test_value')}`)).result,
      (series) => series.length > 0,
    );
    expect(result.map((series) => [series.metric, series.value[1]])).toEqual([[
      { __name__: 'promop_agent_test_value', source: 'loopback', job: JOB, instance: expect.stringMatching(/^127\.0\.0\.1:\d+$/), prometheus: 'monitoring/agent', prometheus_replica: 'prom-agent-agent-0' },
      '42',
    ]]);
  });

  it('has dialled nothing outside loopback', () => {
    for (const pid of [agent.pid, receiver.pid]) {
      expect(tcpSockets(pid).filter((socket) => socket.state === 'established' && !isLoopback(socket.remote))).toEqual([]);
    }
  });
});
