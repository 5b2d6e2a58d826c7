import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Verdict } from '@promop/config-generator';
import { REPO_ROOT, runPromtool } from '@promop/e2e';
import { parseRenderArguments, runRenderCommand } from './render-command.ts';

const CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus', 'kube-prometheus');

/** Runs the real CLI entry point as `pnpm promop` does, from the repository root. */
function promop(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['packages/controller/src/cli.ts', ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
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
    expect(result.stdout).toContain('ServiceMonitors: 13/13 selected, 13 accepted; PodMonitors: 0/0 selected, 0 accepted; PrometheusRules: 8/8 selected, 8 accepted');

    const config = await runPromtool(['check', 'config', '--syntax-only', join(dir, 'prometheus.yaml')]);
    expect(config).toMatchObject({ code: 0 });
    const ruleFiles = filesUnder(join(dir, 'rules'));
    expect(ruleFiles).toHaveLength(8);
    const rules = await runPromtool(['check', 'rules', ...ruleFiles]);
    expect(rules).toMatchObject({ code: 0 });
    // The rule files are mounted where prometheus.yaml looks for them.
    expect(readFileSync(join(dir, 'prometheus.yaml'), 'utf8')).toContain('/etc/prometheus/rules/prometheus-k8s-rulefiles-0/*.yaml');
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
