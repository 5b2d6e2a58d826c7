/**
 * `promop diff` against the real API server, run as users run it. The operator runs in-process for this suite's
 * Prometheus, so "the configuration now" is the config Secret it wrote, and the test can check a prediction: the
 * diff printed for a new ServiceMonitor, applied with patch(1) to the operator's prometheus.yaml, gives exactly the
 * prometheus.yaml the operator writes once the manifest is really applied.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed } from '@promop/testkit';
import { sharedTestEnv, toolPath } from '@promop/testkit';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { eventually } from '@promop/testkit';
import { operatorIdentity } from '../test-support/operator-identity.ts';
import { runPromop } from '../test-support/promop-cli.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;
const TEAM = `team-${id}`;
const LIVE_PASSWORD = `live-pw-${id}-Zq8`;
const NEW_PASSWORD = `new-pw-${id}-Xr5`;
const SCRAPED = { 'promop.test/scraped-by': id };

let admin: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;
let dir: string;

const crd = (plural: string, namespace: string) => ({ group: GROUP, version: VERSION, plural, namespace });

const promop = runPromop;

/** The part of the report about this suite's Prometheus (other suites' Prometheus objects share the cluster). */
function sectionOfMain(report: string, header = `Prometheus ${MONITORING}/main`): string {
  const lines = report.split('\n');
  const start = lines.findIndex((line) => line.startsWith(header));
  if (start === -1) return '';
  const end = lines.findIndex((line, index) => index > start && (/^(Prometheus|PrometheusAgent|Alertmanager|ThanosRuler) /.test(line) || line.startsWith('Would be rejected')));
  return lines.slice(start, end === -1 ? undefined : end).join('\n').trimEnd();
}

/** The diff of one file in a section, from its `diff -u` line to the next file or the end. */
function fileDiff(section: string, file: string): string {
  const lines = section.split('\n');
  const start = lines.findIndex((line) => line.startsWith('diff -u ') && line.endsWith(`/${file}`));
  if (start === -1) return '';
  const end = lines.findIndex((line, index) => index > start && line.startsWith('diff -u '));
  return `${lines.slice(start + 1, end === -1 ? undefined : end).join('\n')}\n`;
}

function manifest(name: string, documents: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, documents.join('\n---\n'));
  return path;
}

const monitor = (name: string, endpoint: string) =>
  `apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: ${name}, namespace: ${TEAM}}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n  endpoints: [${endpoint}]`;

const readConfig = async () => Buffer.from((await core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main' })).data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8');

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  dir = mkdtempSync(join(tmpdir(), 'promop-diff-'));
  await applyCrds(admin);
  for (const [name, labels] of [[OPERATOR_NS, {}], [MONITORING, {}], [TEAM, SCRAPED]] as const) await core.createNamespace({ body: { metadata: { name, labels } } });
  await core.createNamespacedSecret({ namespace: TEAM, body: { metadata: { name: 'live-auth' }, stringData: { user: 'live-user', password: LIVE_PASSWORD } } });
  await untilServed(() => custom.createNamespacedCustomObject({
    ...crd(PLURALS.Prometheus, MONITORING),
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', labels: { 'promop.test/instance': id } },
      spec: { replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: { matchLabels: SCRAPED } },
    },
  }));
  for (const [name, endpoint] of [['existing', { port: 'web' }], ['authed', { port: 'web', basicAuth: { username: { name: 'live-auth', key: 'user' }, password: { name: 'live-auth', key: 'password' } } }]] as const) {
    await custom.createNamespacedCustomObject({
      ...crd(PLURALS.ServiceMonitor, TEAM),
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name }, spec: { selector: { matchLabels: { app: name } }, endpoints: [endpoint] } },
    });
  }
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-${id}`);
  operator = new Operator({ kubeConfig: kc, log: pino({ level: 'silent' }), prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}` });
  await operator.start();
  await eventually(readConfig, (text) => text.includes(`serviceMonitor/${TEAM}/authed/0`));
}, 90_000);

afterAll(async () => {
  await operator?.stop();
  for (const name of [OPERATOR_NS, MONITORING, TEAM]) await core.deleteNamespace({ name }).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe('promop diff of a new ServiceMonitor', () => {
  it('prints the exact change the operator then makes to prometheus.yaml, and exits 1', async () => {
    const file = manifest('fresh.yaml', [monitor('fresh', '{port: metrics, interval: 15s, path: /internal/metrics}')]);
    const result = await promop(['diff', '-f', file]);
    expect(result).toMatchObject({ code: 1, stderr: '' });
    const section = sectionOfMain(result.stdout);
    expect(section).toContain(`  ServiceMonitor ${TEAM}/fresh: (absent) -> accepted`);
    const diff = fileDiff(section, 'prometheus.yaml');
    expect(diff).toMatch(new RegExp(`^--- a/${MONITORING}/main/prometheus.yaml\n\\+\\+\\+ b/${MONITORING}/main/prometheus.yaml\n@@ `));
    expect(diff).toContain(`+- job_name: serviceMonitor/${TEAM}/fresh/0`);

    // The prediction, applied to what the operator wrote, is what the operator writes after the real apply. The
    // config holds the live Secret's values inline; the diff shows them redacted, so compare with them redacted.
    const before = (await readConfig()).replaceAll(LIVE_PASSWORD, '<redacted>').replaceAll('live-user', '<redacted>');
    writeFileSync(join(dir, 'before.yaml'), before);
    writeFileSync(join(dir, 'change.patch'), diff);
    execFileSync('patch', ['--quiet', '-o', join(dir, 'predicted.yaml'), join(dir, 'before.yaml'), join(dir, 'change.patch')]);
    execFileSync(toolPath('kubectl'), ['--kubeconfig', sharedTestEnv().kubeconfigPath, 'apply', '-f', file]);
    const after = await eventually(readConfig, (text) => text.includes(`serviceMonitor/${TEAM}/fresh/0`));
    expect(after.replaceAll(LIVE_PASSWORD, '<redacted>').replaceAll('live-user', '<redacted>')).toBe(readFileSync(join(dir, 'predicted.yaml'), 'utf8'));

    // Applied: nothing left to change.
    const again = await promop(['diff', '-f', file]);
    expect(sectionOfMain(again.stdout)).toBe(`Prometheus ${MONITORING}/main: no change`);
  }, 60_000);
});

describe('promop diff of a ServiceMonitor broken by the change', () => {
  it('shows the verdict change with the path, the job leaving the configuration, and exits 3', async () => {
    const file = manifest('broken.yaml', [monitor('existing', '{port: web, relabelings: [{sourceLabels: [__name__], regex: "(?!internal).*", action: drop}]}')]);
    const result = await promop(['diff', '-f', file]);
    expect(result.code).toBe(3);
    const section = sectionOfMain(result.stdout);
    expect(section).toContain(`  ServiceMonitor ${TEAM}/existing: accepted -> REJECTED: spec.endpoints[0].relabelings[0].regex: invalid regex "(?!internal).*": lookahead and lookbehind are not supported (Prometheus uses RE2 syntax)`);
    expect(fileDiff(section, 'prometheus.yaml')).toContain(`-- job_name: serviceMonitor/${TEAM}/existing/0`);
    expect(result.stdout).toContain(`Would be rejected: ServiceMonitor ${TEAM}/existing.`);
  });

  it('reports an object the API server would refuse with its path, and exits 3', async () => {
    const file = manifest('refused.yaml', [monitor('late', '{port: web, interval: 5 minutes}')]);
    const result = await promop(['diff', '-f', file]);
    expect(result.code).toBe(3);
    expect(result.stdout).toContain(`Refused by the API server (not applied; the live object stays):\n  ServiceMonitor ${TEAM}/late (${file}):\n    spec.endpoints[0].interval: "5 minutes"`);
  });
});

describe('promop diff with credentials from Secrets', () => {
  it('prints no Secret value, from the cluster or from the manifests', async () => {
    const secret = (password: string) => `apiVersion: v1\nkind: Secret\nmetadata: {name: new-auth, namespace: ${TEAM}}\nstringData: {user: new-user-${id}, password: "${password}"}`;
    const withAuth = monitor('new-authed', '{port: web, basicAuth: {username: {name: new-auth, key: user}, password: {name: new-auth, key: password}}}');
    const result = await promop(['diff', '-f', manifest('auth.yaml', [secret(NEW_PASSWORD), withAuth])]);
    expect(result.code).toBe(1);
    const all = result.stdout + result.stderr;
    for (const value of [NEW_PASSWORD, `new-user-${id}`, LIVE_PASSWORD, 'live-user']) expect(all).not.toContain(value);
    expect(fileDiff(sectionOfMain(result.stdout), 'prometheus.yaml')).toContain('+    password: <redacted>');

    // Applied, then only the password changes: the file changes, and the report says so without showing it.
    execFileSync(toolPath('kubectl'), ['--kubeconfig', sharedTestEnv().kubeconfigPath, 'apply', '-f', join(dir, 'auth.yaml')]);
    const rotated = await promop(['diff', '-f', manifest('rotated.yaml', [secret(`${NEW_PASSWORD}-2`), withAuth])]);
    expect(rotated.stdout).not.toContain(NEW_PASSWORD);
    expect(sectionOfMain(rotated.stdout)).toContain('  prometheus.yaml: only Secret values change (not shown)');
    expect(rotated.code).toBe(1);
  });
});

describe('promop diff of a new PrometheusAgent', () => {
  const agent = `apiVersion: monitoring.coreos.com/v1alpha1\nkind: PrometheusAgent\nmetadata: {name: edge, namespace: ${MONITORING}, labels: {promop.test/instance: "${id}"}}\nspec:\n  serviceMonitorSelector: {}\n  serviceMonitorNamespaceSelector: {matchLabels: {promop.test/scraped-by: "${id}"}}`;
  const readAgentConfig = async () => Buffer.from((await core.readNamespacedSecret({ namespace: MONITORING, name: 'prom-agent-edge' }).catch(() => ({ data: {} as Record<string, string> }))).data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8');

  it('renders it like promop run does: its configuration appears with the monitors it selects, and exits 1', async () => {
    const file = manifest('agent.yaml', [agent]);
    const result = await promop(['diff', '-f', file]);
    expect(result).toMatchObject({ code: 1, stderr: '' });
    expect(result.stdout).not.toContain('not diffed');
    const section = sectionOfMain(result.stdout, `PrometheusAgent ${MONITORING}/edge`);
    expect(section).toMatch(/^PrometheusAgent \S+ \(new\): /);
    expect(fileDiff(section, 'prometheus.yaml')).toContain(`+- job_name: serviceMonitor/${TEAM}/existing/0`);
    expect(fileDiff(section, 'prometheus.yaml')).not.toContain('rule_files');
    // The Prometheus of the same namespace is not changed by an agent.
    expect(sectionOfMain(result.stdout)).toBe(`Prometheus ${MONITORING}/main: no change`);
  });

  it('once applied and reconciled, diffs it against the live agent: no change', async () => {
    const file = manifest('agent.yaml', [agent]);
    execFileSync(toolPath('kubectl'), ['--kubeconfig', sharedTestEnv().kubeconfigPath, 'apply', '-f', file]);
    await eventually(readAgentConfig, (text) => text.includes(`serviceMonitor/${TEAM}/existing/0`));
    const again = await promop(['diff', '-f', file]);
    expect(again.code).toBe(0);
    expect(sectionOfMain(again.stdout, `PrometheusAgent ${MONITORING}/edge`)).toBe(`PrometheusAgent ${MONITORING}/edge: no change`);
    // A monitor changed in the manifests shows in the agent's section too.
    const changed = await promop(['diff', '-f', manifest('changed.yaml', [monitor('existing', '{port: web, interval: 7s}')])]);
    expect(fileDiff(sectionOfMain(changed.stdout, `PrometheusAgent ${MONITORING}/edge`), 'prometheus.yaml')).toContain('+  scrape_interval: 7s');
  }, 60_000);
});

describe('promop diff of a ThanosRuler and the PrometheusRules it selects', () => {
  const RULER_LABEL = { 'promop.test/ruler': id };
  const ruler = (spec: string) => `apiVersion: monitoring.coreos.com/v1\nkind: ThanosRuler\nmetadata: {name: global, namespace: ${MONITORING}}\nspec: {ruleSelector: {matchLabels: {promop.test/ruler: "${id}"}}, ruleNamespaceSelector: {}${spec}}`;
  const rule = (expr: string) => `apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata: {name: slo, namespace: ${TEAM}, labels: {promop.test/ruler: "${id}"}}\nspec: {groups: [{name: slo, rules: [{record: "job:up:sum", expr: '${expr}'}]}]}`;
  const header = `ThanosRuler ${MONITORING}/global`;

  beforeAll(async () => {
    // Not labelled for this suite's operator: diff reads the cluster only, so the ruler need not run.
    await custom.createNamespacedCustomObject({
      ...crd(PLURALS.ThanosRuler, MONITORING),
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ThanosRuler', metadata: { name: 'global' }, spec: { queryEndpoints: ['thanos-query:10901'], ruleSelector: { matchLabels: RULER_LABEL }, ruleNamespaceSelector: {} } },
    });
  });

  it('shows a new PrometheusRule it selects as a verdict change and a new rule file, and exits 1', async () => {
    const result = await promop(['diff', '-f', manifest('ruler-rule.yaml', [rule('sum by (job) (up)')])]);
    expect(result).toMatchObject({ code: 1, stderr: '' });
    const section = sectionOfMain(result.stdout, header);
    expect(section).toMatch(new RegExp(`^${header}: 1 verdict change, 1 changed file`));
    expect(section).toContain(`  PrometheusRule ${TEAM}/slo: (absent) -> accepted`);
    expect(section).toMatch(new RegExp(`diff -u /dev/null b/${MONITORING}/global/rules/thanos-ruler-global-rulefiles-0/${TEAM}-slo-.*\\.yaml\n`));
    expect(section).toContain('+  - expr: sum by (job) (up)\n+    record: job:up:sum');
  });

  it('names a PrometheusRule it would reject, and exits 3', async () => {
    const result = await promop(['diff', '-f', manifest('ruler-broken-rule.yaml', [rule('sum by (job) (up')])]);
    expect(result.code).toBe(3);
    expect(sectionOfMain(result.stdout, header)).toContain(`  PrometheusRule ${TEAM}/slo: (absent) -> REJECTED: spec.groups[0].rules[0].expr: `);
    expect(result.stdout).toContain(`Would be rejected: PrometheusRule ${TEAM}/slo.`);
  });

  it('shows that a new password of a stateless ruler\'s remote write Secret changes its remote-write.yaml, without showing it', async () => {
    await core.createNamespacedSecret({ namespace: MONITORING, body: { metadata: { name: 'rw' }, stringData: { password: `rw-live-${id}` } } });
    await custom.createNamespacedCustomObject({
      ...crd(PLURALS.ThanosRuler, MONITORING),
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ThanosRuler', metadata: { name: 'stateless' }, spec: { queryEndpoints: ['thanos-query:10901'], remoteWrite: [{ url: 'https://receive.example/api/v1/receive', authorization: { credentials: { name: 'rw', key: 'password' } } }] } },
    });
    const rotated = `apiVersion: v1\nkind: Secret\nmetadata: {name: rw, namespace: ${MONITORING}}\nstringData: {password: rw-new-${id}}`;
    const result = await promop(['diff', '-f', manifest('ruler-rw.yaml', [rotated])]);
    expect(result.code).toBe(1);
    expect(sectionOfMain(result.stdout, `ThanosRuler ${MONITORING}/stateless`)).toBe(`ThanosRuler ${MONITORING}/stateless: 0 verdict changes, 1 changed file\n  remote-write.yaml: only Secret values change (not shown)`);
    expect(result.stdout).not.toContain(`rw-new-${id}`);
    expect(result.stdout).not.toContain(`rw-live-${id}`);
  });

  it('names the field for which promop would refuse the ruler itself, and exits 3; the unchanged ruler diffs to no change', async () => {
    const refused = await promop(['diff', '-f', manifest('ruler-refused.yaml', [ruler('')])]);
    expect(refused.code).toBe(3);
    expect(sectionOfMain(refused.stdout, header)).toContain('  problem of the ThanosRuler: spec.queryEndpoints: thanos rule needs an API to evaluate rules against');
    expect(refused.stdout).toContain(`Would be rejected: ThanosRuler ${MONITORING}/global.`);
    const same = await promop(['diff', '-f', manifest('ruler-same.yaml', [ruler(', queryEndpoints: ["thanos-query:10901"]')])]);
    expect(sectionOfMain(same.stdout, header)).toBe(`${header}: no change`);
  });
});
