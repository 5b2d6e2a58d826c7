/**
 * A PrometheusAgent through the same generator: the selected monitors, Probes and ScrapeConfigs become the same
 * jobs as for a Prometheus server, with remote write, and nothing an agent refuses (rule files, alerting, remote
 * read, rule evaluation settings, retention). Goldens under test/golden/agent/ (`UPDATE_GOLDEN=1` rewrites them);
 * the last test runs the real `promtool check config --agent` over every one.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PodMonitor, Probe, Prometheus, PrometheusAgent, PrometheusRule, ScrapeConfig, ServiceMonitor } from '@promop/crds';
import { checkConfigsWithEachPromtool, promtoolFailures, runPromtool } from '@promop/testkit';
import { generate } from './generate.ts';
import type { GeneratorInput, GeneratorOutput } from './model.ts';
import { expectGoldenFile, goldenRelease } from './test-support/golden-file.ts';
import { DEFAULT_PROMETHEUS_VERSION } from './prometheus-version.ts';

const GOLDEN_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test', 'golden');
const GOLDEN_DIR = join(GOLDEN_ROOT, 'agent');

const expectGolden = (name: string, text: string): void => expectGoldenFile(GOLDEN_DIR, name, text);

function agent(spec: Record<string, unknown>): PrometheusAgent {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', metadata: { namespace: 'monitoring', name: 'agent', uid: 'uid-agent' }, spec } as PrometheusAgent;
}

const labels = { team: 'a' };
const serviceMonitor = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { namespace: 'team-a', name: 'web', labels },
  spec: { selector: { matchLabels: { app: 'web' } }, endpoints: [{ port: 'http', interval: '15s' }] },
} as ServiceMonitor;
const podMonitor = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: { namespace: 'team-a', name: 'workers', labels },
  spec: { selector: { matchLabels: { app: 'worker' } }, podMetricsEndpoints: [{ port: 'metrics' }] },
} as PodMonitor;
const probe = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'Probe', metadata: { namespace: 'team-a', name: 'homepage', labels },
  spec: { prober: { url: 'blackbox.monitoring.svc:9115' }, module: 'http_2xx', targets: { staticConfig: { static: ['https://example.com'] } } },
} as Probe;
const scrapeConfig = {
  apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: { namespace: 'team-a', name: 'static', labels },
  spec: { staticConfigs: [{ targets: ['10.0.0.1:9100'], labels: { env: 'prod' } }] },
} as ScrapeConfig;
const prometheusRule = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace: 'team-a', name: 'alerts', labels, uid: 'uid-alerts' },
  spec: { groups: [{ name: 'g', rules: [{ alert: 'Down', expr: 'up == 0' }] }] },
} as PrometheusRule;

/** Every selector of the agent selects the team's objects in every namespace. */
const SELECT_TEAM_A = {
  serviceMonitorSelector: { matchLabels: labels }, serviceMonitorNamespaceSelector: {},
  podMonitorSelector: { matchLabels: labels }, podMonitorNamespaceSelector: {},
  probeSelector: { matchLabels: labels }, probeNamespaceSelector: {},
  scrapeConfigSelector: { matchLabels: labels }, scrapeConfigNamespaceSelector: {},
};

function input(workload: PrometheusAgent | Prometheus): GeneratorInput {
  return {
    prometheus: workload,
    serviceMonitors: [serviceMonitor],
    podMonitors: [podMonitor],
    probes: [probe],
    scrapeConfigs: [scrapeConfig],
    prometheusRules: [prometheusRule],
    namespaces: [{ name: 'monitoring', labels: {} }, { name: 'team-a', labels: {} }],
    secrets: [{ namespace: 'monitoring', name: 'remote-write', data: { token: 'rw-s3cret' } }],
    configMaps: [],
  };
}

function rendered(output: GeneratorOutput): string {
  expect(output.prometheusProblems).toEqual([]);
  expect(output.ok).toBe(true);
  return output.configs[0] ?? '';
}

const REMOTE_WRITE = [{ url: 'https://metrics.example.com/api/v1/write', authorization: { credentials: { name: 'remote-write', key: 'token' } } }];

describe('a PrometheusAgent', () => {
  it('scrapes the ServiceMonitors, PodMonitors, Probes and ScrapeConfigs its selectors pick and remote-writes them', () => {
    const output = generate(input(agent({ ...SELECT_TEAM_A, version: 'v3.16.0', scrapeInterval: '20s', externalLabels: { cluster: 'prod' }, remoteWrite: REMOTE_WRITE })));
    expectGolden('selectors-remote-write.yaml', rendered(output));
    expect(output.verdicts.map((verdict) => [verdict.resource.kind, verdict.resource.name, verdict.selected && verdict.accepted])).toEqual([
      ['PrometheusAgent', 'agent', true],
      ['ServiceMonitor', 'web', true],
      ['PodMonitor', 'workers', true],
      ['Probe', 'homepage', true],
      ['ScrapeConfig', 'static', true],
    ]);
    expect(output.prometheusWarnings).toEqual([]);
  });

  it('has no rule files, alerting, remote read, rule evaluation settings or retention, and no rule ConfigMap', () => {
    const text = rendered(generate(input(agent({ ...SELECT_TEAM_A, remoteWrite: REMOTE_WRITE }))));
    for (const key of ['rule_files:', 'alerting:', 'remote_read:', 'evaluation_interval:', 'retention:']) expect(text).not.toContain(key);
    const output = generate(input(agent({ ...SELECT_TEAM_A, remoteWrite: REMOTE_WRITE })));
    expect(output.ruleConfigMaps).toEqual([]);
    // A PrometheusRule is no candidate of an agent: no verdict at all, so no status binding names the agent.
    expect(output.verdicts.filter((verdict) => verdict.resource.kind === 'PrometheusRule')).toEqual([]);
  });

  it('renders the same jobs as a Prometheus server with the same selectors', () => {
    // scrape_configs is the second top-level key; the next one ends it.
    const jobsOf = (text: string) => text.slice(text.indexOf('\nscrape_configs:'), text.search(/\n(storage|remote_write):/));
    const asAgent = rendered(generate(input(agent({ ...SELECT_TEAM_A, remoteWrite: REMOTE_WRITE }))));
    const asServer = rendered(generate(input({
      apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'agent', uid: 'uid-agent' }, spec: { ...SELECT_TEAM_A, remoteWrite: REMOTE_WRITE },
    } as Prometheus)));
    expect(jobsOf(asAgent)).toContain('job_name: serviceMonitor/team-a/web/0');
    expect(jobsOf(asAgent)).toBe(jobsOf(asServer));
  });

  it('of Prometheus 2.x (enable-feature=agent) renders with the version gates of that version', () => {
    const output = generate(input(agent({ ...SELECT_TEAM_A, version: 'v2.55.1', tsdb: { outOfOrderTimeWindow: '10m' }, remoteWrite: REMOTE_WRITE })));
    expectGolden('v2-out-of-order.yaml', rendered(output));
  });

  it('without remote write is valid (as in Prometheus and prometheus-operator), with a warning that samples go nowhere', () => {
    const output = generate(input(agent({ podMonitorSelector: {}, podMonitorNamespaceSelector: {} })));
    expectGolden('no-remote-write.yaml', rendered(output));
    expect(output.prometheusWarnings).toEqual(['spec.remoteWrite: empty, so the agent scrapes its targets but sends the samples nowhere (an agent keeps no queryable data)']);
  });

  it('in DaemonSet mode scrapes its node\'s pods only: PodMonitor jobs with a spec.nodeName field selector and no sharding rules', () => {
    const output = generate(input(agent({ mode: 'DaemonSet', podMonitorSelector: { matchLabels: labels }, podMonitorNamespaceSelector: {}, remoteWrite: REMOTE_WRITE })));
    const config = rendered(output);
    expectGolden('daemonset.yaml', config);
    expect(config).toContain('field: spec.nodeName=$(NODE_NAME)');
    expect(config).not.toContain('hashmod');
    expect(output.scrapeFiles).toEqual([[]]);
    const roleSelectorMonitor = { ...podMonitor, spec: { ...podMonitor.spec, selectorMechanism: 'RoleSelector' } } as PodMonitor;
    const roleSelector = rendered(generate({ ...input(agent({ mode: 'DaemonSet', podMonitorSelector: {}, podMonitorNamespaceSelector: {}, remoteWrite: REMOTE_WRITE })), podMonitors: [roleSelectorMonitor] }));
    // One selector per role, as Prometheus requires: the monitor's labels and the node in one entry.
    expect(roleSelector).toContain(['    selectors:', '    - role: pod', '      label: app=worker', '      field: spec.nodeName=$(NODE_NAME)'].join('\n'));
  });

  it('in DaemonSet mode renders no ServiceMonitor, Probe or ScrapeConfig even when selected (as prometheus-operator)', () => {
    // Stored before the CRD refused these selectors: each is a problem at its path, and nothing is rendered.
    const output = generate(input(agent({ mode: 'DaemonSet', ...SELECT_TEAM_A, remoteWrite: REMOTE_WRITE })));
    expect(output.ok).toBe(false);
    expect(output.prometheusProblems.map((problem) => problem.path)).toEqual([
      'spec.serviceMonitorSelector', 'spec.serviceMonitorNamespaceSelector', 'spec.probeSelector', 'spec.probeNamespaceSelector',
      'spec.scrapeConfigSelector', 'spec.scrapeConfigNamespaceSelector',
    ]);
    expect(output.verdicts.filter((verdict) => verdict.selected).map((verdict) => verdict.resource.kind).sort()).toEqual(['PodMonitor', 'PrometheusAgent']);
  });

  it('in DaemonSet mode refuses each per-workload field at its path, as prometheus-operator\'s CEL rules do', () => {
    const output = generate(input(agent({
      mode: 'DaemonSet', podMonitorSelector: {}, remoteWrite: REMOTE_WRITE, replicas: 2, shards: 2, storage: { emptyDir: {} },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' }, shardingStrategy: { mode: 'Classic' },
      additionalScrapeConfigs: { name: 'extra', key: 'jobs.yaml' },
    })));
    expect(output.ok).toBe(false);
    expect(output.configs).toEqual([]);
    expect(output.prometheusProblems).toEqual(expect.arrayContaining([
      { path: 'spec.replicas', message: 'cannot be set with spec.mode DaemonSet: a DaemonSet runs one pod per node' },
      { path: 'spec.storage', message: 'cannot be set with spec.mode DaemonSet: a DaemonSet has no volume claim per pod' },
      { path: 'spec.shards', message: 'cannot be set with spec.mode DaemonSet: a DaemonSet agent scrapes its own node and is not sharded' },
    ]));
    expect(output.prometheusProblems.map((problem) => problem.path)).toEqual(expect.arrayContaining([
      'spec.persistentVolumeClaimRetentionPolicy', 'spec.shardingStrategy', 'spec.additionalScrapeConfigs',
    ]));
    // shards: 1 is allowed, as upstream's rule refuses only shards > 1; the same fields are fine in StatefulSet mode.
    expect(generate(input(agent({ mode: 'DaemonSet', shards: 1, podMonitorSelector: {}, remoteWrite: REMOTE_WRITE }))).prometheusProblems).toEqual([]);
    expect(rendered(generate(input(agent({ mode: 'StatefulSet', replicas: 2, podMonitorSelector: {}, podMonitorNamespaceSelector: {}, remoteWrite: REMOTE_WRITE }))))).toContain('job_name: podMonitor/team-a/workers/0');
  });

  it('with an invalid selector is rejected at its path, and the monitors it would pick say the agent selects none', () => {
    const output = generate(input(agent({ serviceMonitorSelector: { matchExpressions: [{ key: 'team', operator: 'In' }] }, remoteWrite: REMOTE_WRITE })));
    expect(output.ok).toBe(false);
    expect(output.prometheusProblems.map((problem) => problem.path)).toEqual(['spec.serviceMonitorSelector.matchExpressions[0].values']);
    const web = output.verdicts.find((verdict) => verdict.resource.name === 'web');
    expect(web).toMatchObject({ selected: false, reason: expect.stringMatching(/^PrometheusAgent monitoring\/agent's serviceMonitorSelector is invalid/) });
  });
});

describe('every golden agent prometheus.yaml', () => {
  const goldens = () => readdirSync(GOLDEN_DIR).filter((file) => file.endsWith('.yaml')).sort()
    .map((file) => ({ file: join(GOLDEN_DIR, file), version: goldenRelease('agent', file, DEFAULT_PROMETHEUS_VERSION) }));

  it('passes the real promtool check config --agent of each built release as new as the one it is rendered for', async () => {
    expect(goldens().length).toBe(4);
    const verdicts = await checkConfigsWithEachPromtool(goldens(), ['--agent']);
    // v2-out-of-order.yaml (Prometheus 2.55.1) reaches the 2.x promtool, the default release's goldens only their own.
    expect(verdicts.map((verdict) => verdict.tool)).toEqual(['promtool', 'promtool-v2']);
    expect(promtoolFailures(verdicts)).toEqual({});
  });

  it('is checked by a promtool that refuses what an agent refuses (a server configuration with alerting)', async () => {
    const result = await runPromtool(['check', 'config', '--agent', '--syntax-only', join(GOLDEN_ROOT, 'prometheus', 'alerting.yaml')]);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('field alerting is not allowed in agent mode');
  });
});
