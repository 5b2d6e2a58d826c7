/**
 * `promop check` as a team's pipeline runs it: exit 0 only when nothing in the manifests would be refused, 3 with
 * each refused object's field paths and reasons otherwise, and the whole report as JSON for a program.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@promop/testkit';
import { CHECK_EXIT, runCheckCommand, type CheckReport } from './check-command.ts';

const EXAMPLES = join(REPO_ROOT, 'examples', 'team-monitoring');

async function check(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCheckCommand(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'promop-check-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const platform = ['namespaces.yaml', 'prometheus.yaml', 'alerting.yaml'].map((file) => join(EXAMPLES, file));

describe('promop check', () => {
  it('passes the platform and team-a\'s manifests: every object accepted by the workload that selects it', async () => {
    const result = await check([...platform.flatMap((file) => ['-f', file]), '-f', join(EXAMPLES, 'team-a.yaml')]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(CHECK_EXIT.ok);
    expect(result.stdout).toContain('objects checked: 3 accepted, 0 rejected, 0 invalid');
    expect(result.stdout.trimEnd().endsWith('OK')).toBe(true);
  });

  it('fails team-b\'s ServiceMonitor with its field path, its reason and who rejected it', async () => {
    const result = await check(['-f', EXAMPLES]);
    expect(result.code).toBe(CHECK_EXIT.rejected);
    expect(result.stdout).toContain('REJECTED ServiceMonitor team-b/search\n  spec.endpoints[0].relabelings[0].regex: invalid regex "(?!internal).*": lookahead and lookbehind are not supported (Prometheus uses RE2 syntax) (Prometheus monitoring/main)');
    expect(result.stdout.trimEnd().endsWith('FAILED')).toBe(true);
  });

  it('fails an object the API server would refuse, and a Prometheus that cannot render', async () => {
    cpSync(EXAMPLES, join(dir, 'manifests'), { recursive: true });
    writeFileSync(join(dir, 'manifests', 'team-a-broken.yaml'), [
      'apiVersion: monitoring.coreos.com/v1', 'kind: PrometheusRule', 'metadata: {name: broken, namespace: team-a, labels: {team-monitoring: enabled}}',
      'spec: {groups: [{name: g, rules: [{alert: A, expr: "up ==", for: 1x}]}]}', '',
    ].join('\n'));
    writeFileSync(join(dir, 'manifests', 'other-prometheus.yaml'), [
      'apiVersion: monitoring.coreos.com/v1', 'kind: Prometheus', 'metadata: {name: other, namespace: monitoring}', 'spec: {version: latest}', '',
    ].join('\n'));
    const result = await check(['-f', join(dir, 'manifests')]);
    expect(result.code).toBe(CHECK_EXIT.rejected);
    expect(result.stdout).toMatch(/INVALID PrometheusRule team-a\/broken\n  spec\.groups\[0\]\.rules\[0\]\.for: /);
    expect(result.stdout).toMatch(/CANNOT RENDER Prometheus monitoring\/other\n  spec\.version: /);
  });

  it('fails a PrometheusRule a ThanosRuler of the manifests rejects, and a ThanosRuler promop would refuse; passes the ruler once both are fixed', async () => {
    const ruler = (name: string, spec: string) => [
      'apiVersion: monitoring.coreos.com/v1', 'kind: ThanosRuler', `metadata: {name: ${name}, namespace: monitoring}`,
      `spec: {ruleSelector: {matchLabels: {role: ruler}}, ruleNamespaceSelector: {}${spec}}`,
    ].join('\n');
    const rule = (expr: string) => [
      'apiVersion: monitoring.coreos.com/v1', 'kind: PrometheusRule', 'metadata: {name: slo, namespace: team-a, labels: {role: ruler}}',
      `spec: {groups: [{name: slo, rules: [{record: 'job:up:sum', expr: '${expr}'}]}]}`,
    ].join('\n');
    writeFileSync(join(dir, 'ruler.yaml'), [ruler('global', ', queryEndpoints: [thanos-query:10901]'), ruler('lonely', ''), rule('sum by (job) (up')].join('\n---\n'));
    const failed = await check(['-f', join(dir, 'ruler.yaml')]);
    expect(failed.code).toBe(CHECK_EXIT.rejected);
    expect(failed.stdout).toMatch(/REJECTED PrometheusRule team-a\/slo\n  spec\.groups\[0\]\.rules\[0\]\.expr: .*\(ThanosRuler monitoring\/global\)/);
    expect(failed.stdout).toContain('CANNOT RENDER ThanosRuler monitoring/lonely\n  spec.queryEndpoints: thanos rule needs an API to evaluate rules against');
    writeFileSync(join(dir, 'ruler.yaml'), [ruler('global', ', queryEndpoints: [thanos-query:10901]'), rule('sum by (job) (up)')].join('\n---\n'));
    const passed = await check(['-f', join(dir, 'ruler.yaml')]);
    expect(passed.code).toBe(CHECK_EXIT.ok);
    expect(passed.stdout).toContain('1 objects checked: 1 accepted, 0 rejected');
  });

  it('prints the whole report as JSON for a program', async () => {
    const result = await check(['-f', EXAMPLES, '-o', 'json']);
    expect(result.code).toBe(CHECK_EXIT.rejected);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(report.ok).toBe(false);
    expect(report.objects.map((object) => `${object.kind} ${object.namespace}/${object.name} ${object.outcome}`)).toEqual([
      'AlertmanagerConfig team-a/oncall accepted',
      'PrometheusRule team-a/checkout-alerts accepted',
      'ServiceMonitor team-a/checkout accepted',
      'ServiceMonitor team-b/search rejected',
    ]);
    expect(report.objects.find((object) => object.name === 'search')).toMatchObject({ judgedBy: ['Prometheus monitoring/main'], problems: [{ path: 'spec.endpoints[0].relabelings[0].regex' }] });
  });

  it('says what is wrong with its command line', async () => {
    expect(await check([])).toMatchObject({ code: CHECK_EXIT.usage, stderr: expect.stringContaining('at least one -f/--filename is required') });
    expect(await check(['-f', EXAMPLES, '-o', 'xml'])).toMatchObject({ code: CHECK_EXIT.usage });
    expect(await check(['-f', join(dir, 'missing')])).toMatchObject({ code: CHECK_EXIT.failed });
  });
});
