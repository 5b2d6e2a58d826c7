import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Verdict } from '@promop/config-generator';
import { REPO_ROOT, runPromtool, toolPath } from '@promop/testkit';
import { parseRenderArguments, runRenderCommand } from './render-command.ts';

const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus', 'kube-prometheus');

/** Runs the real CLI entry point as `pnpm promop` does, from the repository root; a non-zero exit is a result. */
async function promop(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['packages/controller/src/cli.ts', ...args], { cwd: REPO_ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

async function renderInProcess(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runRenderCommand(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

let out: string;
beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'promop-render-'));
});
afterEach(() => rmSync(out, { recursive: true, force: true }));

describe('promop render on the kube-prometheus manifests', () => {
  it('renders the Prometheus with its 13 ServiceMonitors and 8 PrometheusRules, and promtool accepts the output', async () => {
    const result = await promop(['render', '-f', CORPUS, '-o', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const dir = join(out, 'monitoring', 'k8s');
    const verdicts = JSON.parse(readFileSync(join(dir, 'verdicts.json'), 'utf8')) as Verdict[];
    const acceptedOf = (kind: string): Verdict[] => verdicts.filter((verdict) => verdict.resource.kind === kind && verdict.selected && verdict.accepted);
    expect(verdicts.filter((verdict) => verdict.resource.kind === 'ServiceMonitor')).toHaveLength(13);
    expect(acceptedOf('ServiceMonitor')).toHaveLength(13);
    expect(verdicts.filter((verdict) => verdict.resource.kind === 'PrometheusRule')).toHaveLength(8);
    expect(acceptedOf('PrometheusRule')).toHaveLength(8);
    expect(result.stdout).toContain('ServiceMonitors: 13/13 selected, 13 accepted; PodMonitors: 0/0 selected, 0 accepted; Probes: 0/0 selected, 0 accepted; ScrapeConfigs: 0/0 selected, 0 accepted; PrometheusRules: 8/8 selected, 8 accepted');

    const config = await runPromtool(['check', 'config', '--syntax-only', join(dir, 'prometheus.yaml')]);
    expect(config).toMatchObject({ code: 0 });
    const ruleFiles = filesUnder(join(dir, 'rules'));
    expect(ruleFiles).toHaveLength(8);
    const rules = await runPromtool(['check', 'rules', ...ruleFiles]);
    expect(rules).toMatchObject({ code: 0 });
    // The rule files are mounted where prometheus.yaml looks for them.
    expect(readFileSync(join(dir, 'prometheus.yaml'), 'utf8')).toContain('/etc/prometheus/rules/prometheus-k8s-rulefiles-0/*.yaml');
    // kube-prometheus' Alertmanager, with its own configuration Secret, and Alertmanager's loader accepts the result.
    expect(result.stdout).toContain('Alertmanager monitoring/main: rendered alertmanager.yaml');
    expect(execFileSync(toolPath('amtool'), ['check-config', join(out, 'monitoring', 'main', 'alertmanager.yaml')], { encoding: 'utf8' })).toContain('SUCCESS');
  });
});

describe('promop render with resources that fail their CRD schema', () => {
  it('reports them as rejected with the field at fault, and renders everything else', async () => {
    writeFileSync(
      join(out, 'input.yaml'),
      [
        'apiVersion: monitoring.coreos.com/v1',
        'kind: Prometheus',
        'metadata: {name: main, namespace: monitoring}',
        'spec: {serviceMonitorSelector: {}, ruleSelector: {}}',
        '---',
        'apiVersion: monitoring.coreos.com/v1',
        'kind: ServiceMonitor',
        'metadata: {name: broken, namespace: monitoring}',
        'spec: {selector: {}, endpoints: [{port: web, interval: "5 minutes"}]}',
        '---',
        'apiVersion: monitoring.coreos.com/v1',
        'kind: ServiceMonitor',
        'metadata: {name: fine, namespace: monitoring}',
        'spec: {selector: {}, endpoints: [{port: web}]}',
        '---',
        'apiVersion: monitoring.coreos.com/v1',
        'kind: PrometheusRule',
        'metadata: {name: bad-promql, namespace: monitoring}',
        'spec: {groups: [{name: g, rules: [{alert: A, expr: "sum(up"}]}]}',
      ].join('\n'),
    );
    const result = await renderInProcess(['-f', out, '-o', join(out, 'rendered')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      [
        'Invalid resources (failed CRD schema validation; not offered to any Prometheus):',
        `  ServiceMonitor monitoring/broken (${join(out, 'input.yaml')}#1):`,
        '    spec.endpoints[0].interval: "5 minutes" is not a duration like 30s or 1m',
      ].join('\n'),
    );
    expect(result.stdout).toMatch(/PrometheusRule\s+monitoring\s+bad-promql\s+yes\s+NO\s+spec\.groups\[0\]\.rules\[0\]\.expr: syntax error at column 7: unexpected end of expression after "sum\(up"/);
    expect(result.stdout).toMatch(/ServiceMonitor\s+monitoring\s+fine\s+yes\s+yes/);
    const config = readFileSync(join(out, 'rendered', 'monitoring', 'main', 'prometheus.yaml'), 'utf8');
    expect(config).toContain('job_name: serviceMonitor/monitoring/fine/0');
    expect(config).not.toContain('broken');
  });
});

describe('promop render with Probes and ScrapeConfigs', () => {
  it('renders their jobs, counts them, and rejects a ScrapeConfig whose discovery kind promop does not render, naming it', async () => {
    writeFileSync(
      join(out, 'input.yaml'),
      [
        'apiVersion: monitoring.coreos.com/v1',
        'kind: Prometheus',
        'metadata: {name: main, namespace: monitoring}',
        'spec: {probeSelector: {}, probeNamespaceSelector: {}, scrapeConfigSelector: {}, scrapeConfigNamespaceSelector: {}}',
        '---',
        'apiVersion: monitoring.coreos.com/v1',
        'kind: Probe',
        'metadata: {name: site, namespace: team-a}',
        'spec: {prober: {url: "blackbox:9115"}, module: http_2xx, targets: {staticConfig: {static: ["https://example.com"]}}}',
        '---',
        'apiVersion: monitoring.coreos.com/v1alpha1',
        'kind: ScrapeConfig',
        'metadata: {name: nodes, namespace: team-a}',
        'spec: {staticConfigs: [{targets: ["node:9100"]}]}',
        '---',
        'apiVersion: monitoring.coreos.com/v1alpha1',
        'kind: ScrapeConfig',
        'metadata: {name: cloud, namespace: team-a}',
        'spec: {openstackSDConfigs: [{role: Instance, region: eu-west-1, proxyUrl: "http://proxy:3128"}]}',
      ].join('\n'),
    );
    const result = await renderInProcess(['-f', out, '-o', join(out, 'rendered')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ScrapeConfig\s+team-a\s+cloud\s+yes\s+NO\s+spec\.openstackSDConfigs\[0\]\.proxyUrl: is not a field of OpenStack discovery/);
    expect(result.stdout).toContain('Probes: 1/1 selected, 1 accepted; ScrapeConfigs: 2/2 selected, 1 accepted');
    const config = readFileSync(join(out, 'rendered', 'monitoring', 'main', 'prometheus.yaml'), 'utf8');
    expect([...config.matchAll(/^- job_name: (.+)$/gm)].map((m) => m[1])).toEqual(['probe/team-a/site', 'scrapeConfig/team-a/nodes']);
    expect((await runPromtool(['check', 'config', '--syntax-only', join(out, 'rendered', 'monitoring', 'main', 'prometheus.yaml')])).code).toBe(0);
  });
});

describe('promop render with a PrometheusAgent', () => {
  it('renders it in agent mode (promtool --agent accepts it), leaves rules out, and reports a DaemonSet agent with spec.mode', async () => {
    writeFileSync(
      join(out, 'input.yaml'),
      [
        'apiVersion: monitoring.coreos.com/v1alpha1',
        'kind: PrometheusAgent',
        'metadata: {name: agent, namespace: monitoring}',
        'spec: {podMonitorSelector: {}, podMonitorNamespaceSelector: {}, remoteWrite: [{url: "https://metrics.example.com/api/v1/write"}]}',
        '---',
        'apiVersion: monitoring.coreos.com/v1alpha1',
        'kind: PrometheusAgent',
        'metadata: {name: per-node, namespace: monitoring}',
        'spec: {mode: DaemonSet, replicas: 2, podMonitorSelector: {}}',
        '---',
        'apiVersion: monitoring.coreos.com/v1',
        'kind: PodMonitor',
        'metadata: {name: workers, namespace: team-a}',
        'spec: {selector: {matchLabels: {app: worker}}, podMetricsEndpoints: [{port: metrics}]}',
        '---',
        'apiVersion: monitoring.coreos.com/v1',
        'kind: PrometheusRule',
        'metadata: {name: alerts, namespace: team-a}',
        'spec: {groups: [{name: g, rules: [{alert: Down, expr: up == 0}]}]}',
      ].join('\n'),
    );
    const result = await renderInProcess(['-f', out, '-o', join(out, 'rendered')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('PrometheusAgent monitoring/agent: rendered 1 shard, 0 rule ConfigMaps');
    expect(result.stdout).toContain('PodMonitors: 1/1 selected, 1 accepted');
    expect(result.stdout).not.toContain('PrometheusRules:');
    expect(result.stdout).toContain('PrometheusAgent monitoring/per-node: not rendered: the PrometheusAgent has problems');
    expect(result.stdout).toContain('problem: spec.replicas: cannot be set with spec.mode DaemonSet: a DaemonSet runs one pod per node');
    const config = join(out, 'rendered', 'monitoring', 'agent', 'prometheus.yaml');
    expect(readFileSync(config, 'utf8')).toContain('job_name: podMonitor/team-a/workers/0');
    expect(readFileSync(config, 'utf8')).not.toContain('rule_files');
    expect((await runPromtool(['check', 'config', '--agent', '--syntax-only', config])).code).toBe(0);
  });
});

describe('promop render with an Alertmanager and the teams\' AlertmanagerConfigs', () => {
  it('renders alertmanager.yaml, which amtool accepts, and names the rejected object with the field at fault', async () => {
    const hook = 'http://hooks.example/s3cr3t-hook';
    writeFileSync(join(out, 'input.yaml'), [
      'apiVersion: monitoring.coreos.com/v1',
      'kind: Alertmanager',
      'metadata: {name: main, namespace: monitoring}',
      'spec: {alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: {}}',
      '---',
      'apiVersion: v1',
      'kind: Secret',
      'metadata: {name: alertmanager-main, namespace: monitoring}',
      'stringData: {alertmanager.yaml: "route: {receiver: platform}\\nreceivers: [{name: platform}]\\n"}',
      '---',
      'apiVersion: v1',
      'kind: Secret',
      'metadata: {name: hook, namespace: team-a}',
      `stringData: {url: "${hook}"}`,
      '---',
      'apiVersion: monitoring.coreos.com/v1alpha1',
      'kind: AlertmanagerConfig',
      'metadata: {name: oncall, namespace: team-a}',
      'spec: {route: {receiver: pager}, receivers: [{name: pager, webhookConfigs: [{urlSecret: {name: hook, key: url}}]}]}',
      '---',
      'apiVersion: monitoring.coreos.com/v1alpha1',
      'kind: AlertmanagerConfig',
      'metadata: {name: broken, namespace: team-b}',
      'spec: {route: {receiver: nobody}, receivers: [{name: somebody}]}',
    ].join('\n'));
    const written = await renderInProcess(['-f', out, '-o', join(out, 'rendered')]);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain('Alertmanager monitoring/main: rendered alertmanager.yaml');
    expect(written.stdout).toMatch(/AlertmanagerConfig +team-b +broken +yes +NO +spec\.route\.receiver: no receiver named "nobody" in spec\.receivers/);
    expect(written.stdout).toContain('AlertmanagerConfigs: 2/2 selected, 1 accepted');
    const config = join(out, 'rendered', 'monitoring', 'main', 'alertmanager.yaml');
    expect(readFileSync(config, 'utf8')).toContain('receiver: team-a/oncall/pager');
    expect(execFileSync(toolPath('amtool'), ['check-config', config], { encoding: 'utf8' })).toContain('SUCCESS');
    // Printed rather than written, the credential the team's Secret holds is redacted.
    const printed = await renderInProcess(['-f', join(out, 'input.yaml')]);
    expect(printed.stdout).toContain('# ---- monitoring/main/alertmanager.yaml');
    expect(printed.stdout).not.toContain('s3cr3t-hook');
  });
});

describe('promop render with a ThanosRuler and the PrometheusRules it selects', () => {
  const rule = (namespace: string, name: string, expr: string) => [
    'apiVersion: monitoring.coreos.com/v1',
    'kind: PrometheusRule',
    `metadata: {name: ${name}, namespace: ${namespace}, labels: {role: ruler}}`,
    `spec: {groups: [{name: ${name}, rules: [{alert: ${name}Down, expr: '${expr}', for: 5m}]}]}`,
  ].join('\n');
  const ruler = (name: string, spec: string) => [
    'apiVersion: monitoring.coreos.com/v1',
    'kind: ThanosRuler',
    `metadata: {name: ${name}, namespace: monitoring}`,
    `spec: {ruleSelector: {matchLabels: {role: ruler}}, ruleNamespaceSelector: {}${spec}}`,
  ].join('\n');

  it('writes its rule files, which thanos tools rules-check accepts, and names the rejected PrometheusRule with the field at fault', async () => {
    writeFileSync(join(out, 'input.yaml'), [
      ruler('global', ', queryEndpoints: [dnssrv+_http._tcp.thanos-query.monitoring.svc]'),
      rule('team-a', 'api', 'up{job="api"} == 0'),
      rule('team-b', 'broken', 'up{job="search" == 0'),
    ].join('\n---\n'));
    const written = await renderInProcess(['-f', out, '-o', join(out, 'rendered')]);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    expect(written.stdout).toContain(`ThanosRuler monitoring/global: rendered 1 rule ConfigMap -> ${join(out, 'rendered', 'monitoring', 'global')}`);
    expect(written.stdout).toMatch(/PrometheusRule +team-b +broken +yes +NO +spec\.groups\[0\]\.rules\[0\]\.expr/);
    expect(written.stdout).toContain('PrometheusRules: 2/2 selected, 1 accepted');
    const dir = join(out, 'rendered', 'monitoring', 'global');
    const ruleFiles = filesUnder(join(dir, 'rules'));
    expect(ruleFiles.map((file) => file.slice(dir.length + 1))).toEqual([expect.stringMatching(/^rules\/thanos-ruler-global-rulefiles-0\/team-a-api-.*\.yaml$/)]);
    expect(readFileSync(ruleFiles[0]!, 'utf8')).toContain('alert: apiDown');
    const checked = await promisify(execFile)(toolPath('thanos'), ['tools', 'rules-check', ...ruleFiles.map((file) => `--rules=${file}`)]);
    expect(checked.stdout + checked.stderr).toContain('SUCCESS');
    const verdicts = JSON.parse(readFileSync(join(dir, 'thanos-ruler-verdicts.json'), 'utf8')) as Verdict[];
    expect(verdicts.map((verdict) => [verdict.resource.name, verdict.selected && verdict.accepted])).toEqual([['api', true], ['broken', false]]);
    // Printed rather than written: each rule file under the ruler's directory.
    const printed = await renderInProcess(['-f', join(out, 'input.yaml')]);
    expect(printed.stdout).toMatch(/# ---- monitoring\/global\/rules\/thanos-ruler-global-rulefiles-0\/team-a-api-.*\.yaml\n/);
  });

  it('writes the remote write file of a stateless ruler with the credentials of its namespace, redacted when printed', async () => {
    writeFileSync(join(out, 'input.yaml'), [
      ruler('stateless', ', queryEndpoints: [thanos-query:10901], remoteWrite: [{url: "https://receive:19291/api/v1/receive", basicAuth: {username: {name: rw, key: user}, password: {name: rw, key: password}}}]'),
      'apiVersion: v1\nkind: Secret\nmetadata: {name: rw, namespace: monitoring}\nstringData: {user: ruler, password: s3cr3t-rw}',
    ].join('\n---\n'));
    const written = await renderInProcess(['-f', join(out, 'input.yaml'), '-o', join(out, 'rendered')]);
    expect(written.stdout).toContain('ThanosRuler monitoring/stateless: rendered 0 rule ConfigMaps');
    expect(readFileSync(join(out, 'rendered', 'monitoring', 'stateless', 'remote-write.yaml'), 'utf8')).toBe(
      'remote_write:\n- url: https://receive:19291/api/v1/receive\n  basic_auth:\n    username: ruler\n    password: s3cr3t-rw\n');
    const printed = await renderInProcess(['-f', join(out, 'input.yaml')]);
    expect(printed.stdout).toContain('# ---- monitoring/stateless/remote-write.yaml\nremote_write:\n- url: https://receive:19291/api/v1/receive\n  basic_auth:\n    username: <redacted>\n    password: <redacted>\n');
    expect(printed.stdout).not.toContain('s3cr3t-rw');
  });

  it('reports a ruler promop would refuse with the field at fault, writes no rule file for it, and still judges its PrometheusRules', async () => {
    writeFileSync(join(out, 'input.yaml'), [ruler('lonely', ''), rule('team-a', 'api', 'up == 0')].join('\n---\n'));
    const result = await renderInProcess(['-f', join(out, 'input.yaml'), '-o', join(out, 'rendered')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ThanosRuler monitoring/lonely: not rendered: the ThanosRuler has problems');
    expect(result.stdout).toContain('  problem: spec.queryEndpoints: thanos rule needs an API to evaluate rules against');
    expect(result.stdout).toContain('PrometheusRules: 1/1 selected, 1 accepted');
    expect(filesUnder(join(out, 'rendered')).map((file) => file.slice(out.length + 1))).toEqual([join('rendered', 'monitoring', 'lonely', 'thanos-ruler-verdicts.json')]);
  });
});

describe('promop render with an invalid Prometheus', () => {
  it('reports it as not rendered with the field at fault, and still exits 0', async () => {
    writeFileSync(join(out, 'prometheus.yaml'), 'apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: main, namespace: monitoring}\nspec: {shards: two}\n');
    const result = await renderInProcess(['-f', join(out, 'prometheus.yaml'), '-o', join(out, 'rendered')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Prometheus monitoring/main: not rendered: the Prometheus object is invalid');
    expect(result.stdout).toMatch(/Prometheus\s+monitoring\s+main\s+yes\s+NO\s+spec\.shards/);
  });
});

describe('promop render usage', () => {
  it('exits 2 with the usage for missing -f', async () => {
    const result = await promop(['render']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^promop render: at least one -f\/--filename is required\n\nUsage: promop render -f/);
  });

  it('exits 2 for an unknown flag or command', async () => {
    expect(await renderInProcess(['-f', CORPUS, '--frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown argument "--frobnicate"') });
    expect(await promop(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('promop: unknown command "frobnicate"') });
  });

  it('exits 1 for input it cannot read', async () => {
    const result = await renderInProcess(['-f', join(out, 'missing')]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `promop render: ${join(out, 'missing')}: cannot read: ENOENT\n` });
  });

  it('prints the files when no output directory is given', async () => {
    const result = await renderInProcess(['-f', join(CORPUS, 'prometheus-prometheus.yaml')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# ---- monitoring\/k8s\/prometheus\.yaml\nglobal:/);
  });

  it.each([
    [['-f', 'a', '--filename=b', '-o=c'], { kind: 'ok', args: { paths: ['a', 'b'], outputDir: 'c' } }],
    [['-f'], { kind: 'error', message: '-f needs a value' }],
    [['-f', 'a', '-o', 'x', '-o', 'y'], { kind: 'error', message: 'only one -o/--output-dir may be given' }],
    [['--help'], { kind: 'help' }],
  ])('parses %j', (argv, expected) => {
    expect(parseRenderArguments(argv)).toEqual(expected);
  });
});

/** Writes a multi-document manifest file under the test's directory and returns its path. */
function manifestFile(name: string, documents: string[]): string {
  const path = join(out, name);
  writeFileSync(path, documents.join('\n---\n'));
  return path;
}

const PASSWORD = 'hunter2-Q9x!z';
const USERNAME = 'scrape-user-7f3a';
const PROMETHEUS = 'apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: main, namespace: monitoring}\nspec: {serviceMonitorSelector: {}}';
const SCRAPE_SECRET = `apiVersion: v1\nkind: Secret\nmetadata: {name: scrape-auth, namespace: monitoring}\nstringData: {username: ${USERNAME}, password: "${PASSWORD}"}`;
const basicAuthMonitor = (name: string, passwordKey: string) =>
  `apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: ${name}, namespace: monitoring}\nspec:\n  selector: {}\n  endpoints: [{port: web, basicAuth: {username: {name: scrape-auth, key: username}, password: {name: scrape-auth, key: ${passwordKey}}}}]`;

describe('promop render with wrong flags', () => {
  it.each([
    [['render', '-f', 'x.yaml', '--output-dir'], '--output-dir needs a value'],
    [['render', '--filename='], '--filename needs a value'],
    [['render', 'x.yaml'], 'unknown argument "x.yaml"'],
    [['render', '-f', 'x.yaml', '-o', 'a', '--output-dir=b'], 'only one -o/--output-dir may be given'],
  ])('%j exits 2, saying what is wrong, and prints the usage', async (argv, message) => {
    const result = await promop(argv);
    expect(result).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining(`promop render: ${message}\n\nUsage: promop render -f`) });
  });
});

describe('promop render with input it cannot read', () => {
  it('exits 1 for a path below a file, and writes nothing', async () => {
    const file = manifestFile('prometheus.yaml', [PROMETHEUS]);
    const result = await promop(['render', '-f', join(file, 'more.yaml'), '-o', join(out, 'rendered')]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `promop render: ${join(file, 'more.yaml')}: cannot read: ENOTDIR\n` });
    expect(readdirSync(out)).toEqual(['prometheus.yaml']);
  });

  it('exits 1 for a dangling symlink found in a directory, naming it', async () => {
    manifestFile('prometheus.yaml', [PROMETHEUS]);
    symlinkSync(join(out, 'gone.yaml'), join(out, 'link.yaml'));
    const result = await renderInProcess(['-f', out]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `promop render: ${join(out, 'link.yaml')}: cannot read: ENOENT\n` });
  });

  it('exits 1 for malformed YAML, naming file, line and column without quoting the Secret around it', async () => {
    const file = manifestFile('broken.yaml', [PROMETHEUS, `${SCRAPE_SECRET}\n  token: [unclosed\nmetadata: {}`]);
    const result = await promop(['render', '-f', file, '-o', join(out, 'rendered')]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(new RegExp(`^promop render: ${file.replace(/[.]/g, '\\.')}: not valid YAML: .+ at line 10, column 3\\n$`)) });
    expect(result.stderr).not.toContain(PASSWORD);
    expect(result.stderr).not.toContain(USERNAME);
    expect(readdirSync(out)).toEqual(['broken.yaml']);
  });

  it('exits 1 for a document that is not an object', async () => {
    const file = manifestFile('scalar.yaml', [PROMETHEUS, 'just a sentence']);
    expect(await renderInProcess(['-f', file])).toEqual({ code: 1, stdout: '', stderr: `promop render: ${file}#1: expected a Kubernetes object, found "just a sentence"\n` });
  });
});

describe('promop render with an output directory it cannot write', () => {
  it('exits 1 naming the path when a file stands where a directory must go', async () => {
    const file = manifestFile('prometheus.yaml', [PROMETHEUS]);
    const result = await promop(['render', '-f', file, '-o', file]);
    expect(result).toEqual({ code: 1, stdout: '', stderr: `promop render: cannot write ${join(file, 'monitoring', 'main', 'prometheus.yaml')}: ENOTDIR\n` });
  });
});

describe('promop render with credentials from a Secret written with stringData', () => {
  it('writes them into prometheus.yaml (what Prometheus reads) but never into the report or verdicts.json', async () => {
    const file = manifestFile('input.yaml', [PROMETHEUS, SCRAPE_SECRET, basicAuthMonitor('web', 'password')]);
    const result = await promop(['render', '-f', file, '-o', join(out, 'rendered')]);
    expect(result.code).toBe(0);
    const dir = join(out, 'rendered', 'monitoring', 'main');
    const config = readFileSync(join(dir, 'prometheus.yaml'), 'utf8');
    expect(config).toContain(`username: ${USERNAME}`);
    expect(config).toContain(PASSWORD);
    expect(result.stdout).toMatch(/ServiceMonitor\s+monitoring\s+web\s+yes\s+yes/);
    for (const text of [result.stdout, result.stderr, readFileSync(join(dir, 'verdicts.json'), 'utf8')]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(USERNAME);
    }
  });

  it('prints the configuration with the values redacted when no output directory is given', async () => {
    const file = manifestFile('input.yaml', [PROMETHEUS, SCRAPE_SECRET, basicAuthMonitor('web', 'password')]);
    const result = await promop(['render', '-f', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/basic_auth:\n\s+username: <redacted>\n\s+password: <redacted>\n/);
    expect(result.stdout).not.toContain(PASSWORD);
    expect(result.stdout).not.toContain(USERNAME);
    expect(result.stderr).toBe('');
  });
});

describe('promop render with a monitor that names a missing key of an existing Secret', () => {
  it('rejects the monitor naming the key, and prints no value of that Secret anywhere', async () => {
    const file = manifestFile('input.yaml', [PROMETHEUS, SCRAPE_SECRET, basicAuthMonitor('wrong-key', 'passwort')]);
    const withOutput = await promop(['render', '-f', file, '-o', join(out, 'rendered')]);
    const printed = await promop(['render', '-f', file]);
    expect(withOutput.stdout).toMatch(/ServiceMonitor\s+monitoring\s+wrong-key\s+yes\s+NO\s+spec\.endpoints\[0\]\.basicAuth\.password: key "passwort" not found in Secret "scrape-auth" in namespace "monitoring"/);
    const verdicts = readFileSync(join(out, 'rendered', 'monitoring', 'main', 'verdicts.json'), 'utf8');
    expect(verdicts).toContain('key \\"passwort\\" not found');
    for (const text of [withOutput.stdout, withOutput.stderr, verdicts, printed.stdout, printed.stderr]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(USERNAME);
    }
    expect([withOutput.code, printed.code]).toEqual([0, 0]);
  });
});

describe('promop render with a client key from a Secret', () => {
  it('leaves the TLS assets out of the printed files, giving their size', async () => {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=client', '-days', '1',
      '-keyout', join(out, 'tls.key'), '-out', join(out, 'tls.crt')], { stdio: 'ignore' });
    const [key, cert] = ['tls.key', 'tls.crt'].map((name) => readFileSync(join(out, name)));
    const keyBody = key!.toString('utf8').split('\n')[1]!;
    const secret = `apiVersion: v1\nkind: Secret\nmetadata: {name: client-tls, namespace: monitoring}\ndata: {tls.key: ${key!.toString('base64')}, tls.crt: ${cert!.toString('base64')}}`;
    const monitor = 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: mtls, namespace: monitoring}\nspec:\n  selector: {}\n  endpoints: [{port: web, scheme: https, tlsConfig: {cert: {secret: {name: client-tls, key: tls.crt}}, keySecret: {name: client-tls, key: tls.key}}}]';
    const result = await promop(['render', '-f', manifestFile('input.yaml', [PROMETHEUS, secret, monitor])]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ServiceMonitor\s+monitoring\s+mtls\s+yes\s+yes/);
    expect(result.stdout).toMatch(/# ---- monitoring\/main\/tls-assets\/\S+ \(\d+ bytes, not printed; use -o to write it\)\n/);
    expect(keyBody.length).toBeGreaterThan(40);
    expect(result.stdout).not.toContain(keyBody);
  });
});

describe('promop render with a Prometheus of two shards', () => {
  it('writes one configuration per shard, each keeping its own share of the targets', async () => {
    const file = manifestFile('input.yaml', [PROMETHEUS.replace('spec: {', 'spec: {shards: 2, '), basicAuthMonitor('web', 'password'), SCRAPE_SECRET]);
    const result = await renderInProcess(['-f', file, '-o', join(out, 'rendered')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Prometheus monitoring/main: rendered 2 shards');
    const dir = join(out, 'rendered', 'monitoring', 'main');
    expect(readdirSync(dir).filter((name) => name.endsWith('.yaml')).sort()).toEqual(['prometheus-shard-1.yaml', 'prometheus.yaml']);
    const shard0 = readFileSync(join(dir, 'prometheus.yaml'), 'utf8');
    const shard1 = readFileSync(join(dir, 'prometheus-shard-1.yaml'), 'utf8');
    expect(shard0).toContain('modulus: 2');
    expect(shard0).toContain('regex: 0;|.+;.+');
    expect(shard1).toContain('regex: 1;|.+;.+');
    expect(shard1).not.toContain('regex: 0;|.+;.+');
  });
});

describe('promop render with a configuration too large to stay inline', () => {
  it('writes the scrape files prometheus.yaml names, per shard, and promtool accepts them laid out as in the pod', async () => {
    const monitor = (index: number) => `apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: app-${index}, namespace: monitoring}\nspec:\n  selector: {matchLabels: {app: app-${index}}}\n  endpoints: [${Array.from({ length: 6 }, (_, port) => `{port: p${port}}`).join(', ')}]`;
    const file = manifestFile('input.yaml', [PROMETHEUS.replace('spec: {', 'spec: {shards: 2, '), ...Array.from({ length: 40 }, (_, index) => monitor(index))]);
    expect((await renderInProcess(['-f', file, '-o', join(out, 'rendered')])).code).toBe(0);
    const dir = join(out, 'rendered', 'monitoring', 'main');
    for (const [config, filesDir] of [['prometheus.yaml', 'scrape-files'], ['prometheus-shard-1.yaml', join('scrape-files', 'shard-1')]] as const) {
      const text = readFileSync(join(dir, config), 'utf8');
      const listed = [...text.matchAll(/^- \/etc\/prometheus\/config\/(scrape-\d{2,3}-[0-9a-f]{16}\.yaml)$/gm)].map((match) => match[1]);
      expect(listed.length).toBe(4);
      expect(readdirSync(join(dir, filesDir)).filter((name) => name.endsWith('.yaml')).sort()).toEqual([...listed].sort());
      // As mounted: prometheus.yaml and its files side by side in one directory.
      const pod = mkdtempSync(join(out, 'pod-'));
      writeFileSync(join(pod, 'prometheus.yaml'), text.replaceAll('/etc/prometheus/config/', `${pod}/`));
      for (const name of listed) writeFileSync(join(pod, name!), readFileSync(join(dir, filesDir, name!), 'utf8'));
      expect(await runPromtool(['check', 'config', join(pod, 'prometheus.yaml')])).toMatchObject({ code: 0 });
    }
  });
});
