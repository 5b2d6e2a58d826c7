/**
 * `promop diff` of Alertmanagers against the real API server, run as users run it (the command in a child process,
 * with a kubeconfig). No operator runs: diff renders with the generator alone, from what it reads. Other suites'
 * Alertmanagers and Prometheus objects share the cluster, so each test reads this suite's Alertmanager's section.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi, type KubeConfig } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS } from '@promop/crds';
import { applyCrds, sharedTestEnv, untilServed } from '@promop/testkit';
import { runPromop } from '../test-support/promop-cli.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `amdiff-monitoring-${id}`;
const TEAM = `amdiff-team-${id}`;
const ALERTING = { 'promop.test/alerting-by': `diff-${id}` };
/** A credential in the base configuration, in a team's Secret and in the manifests' Secrets: no output may hold it. */
const MARKER = `secret-marker-${id}`;

let core: CoreV1Api;
let custom: CustomObjectsApi;
let dir: string;

const promop = runPromop;

/** The lines about this suite's Alertmanager, up to the next object's. */
function sectionOfMain(report: string): string {
  const lines = report.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`Alertmanager ${MONITORING}/main`));
  if (start === -1) return '';
  const end = lines.findIndex((line, index) => index > start && (/^(Prometheus|PrometheusAgent|Alertmanager|ThanosRuler) /.test(line) || line.startsWith('Would be rejected')));
  return lines.slice(start, end === -1 ? undefined : end).join('\n').trimEnd();
}

function manifest(name: string, documents: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, documents.join('\n---\n'));
  return path;
}

const BASE_CONFIG = `global:\n  smtp_auth_password: ${MARKER}-smtp\nroute:\n  receiver: platform\nreceivers:\n- name: platform\n  webhook_configs:\n  - url: http://hooks.example/${MARKER}\n`;

const oncall = (route: string) => [
  'apiVersion: monitoring.coreos.com/v1alpha1',
  'kind: AlertmanagerConfig',
  `metadata: {name: oncall, namespace: ${TEAM}}`,
  'spec:',
  `  route: ${route}`,
  '  receivers: [{name: pager, webhookConfigs: [{urlSecret: {name: hook, key: url}}]}]',
].join('\n');

const createObject = (kind: 'Alertmanager' | 'AlertmanagerConfig', namespace: string, name: string, spec: object) => custom.createNamespacedCustomObject({
  group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace,
  body: { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, metadata: { name }, spec },
});

beforeAll(async () => {
  const admin: KubeConfig = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  dir = mkdtempSync(join(tmpdir(), 'promop-amdiff-'));
  await applyCrds(admin);
  for (const [name, labels] of [[MONITORING, {}], [TEAM, ALERTING]] as const) await core.createNamespace({ body: { metadata: { name, labels } } });
  await core.createNamespacedSecret({ namespace: MONITORING, body: { metadata: { name: 'alertmanager-main' }, stringData: { 'alertmanager.yaml': BASE_CONFIG } } });
  await core.createNamespacedSecret({ namespace: TEAM, body: { metadata: { name: 'hook' }, stringData: { url: `http://hooks.example/team/${MARKER}` } } });
  await untilServed(() => createObject('Alertmanager', MONITORING, 'main', { replicas: 1, alertmanagerConfigSelector: {}, alertmanagerConfigNamespaceSelector: { matchLabels: ALERTING } }));
  await createObject('AlertmanagerConfig', TEAM, 'oncall', { route: { receiver: 'pager' }, receivers: [{ name: 'pager', webhookConfigs: [{ urlSecret: { name: 'hook', key: 'url' } }] }] });
}, 90_000);

afterAll(async () => {
  for (const name of [MONITORING, TEAM]) await core.deleteNamespace({ name }).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe('promop diff of a changed AlertmanagerConfig', () => {
  it('prints the change to alertmanager.yaml, no Secret value, and exits 1', async () => {
    const result = await promop(['diff', '-f', manifest('grouped.yaml', [oncall('{receiver: pager, groupBy: [alertname, job]}')])]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const section = sectionOfMain(result.stdout);
    expect(section).toMatch(new RegExp(`^Alertmanager ${MONITORING}/main: 0 verdict changes, 1 changed file\ndiff -u a/${MONITORING}/main/alertmanager.yaml b/${MONITORING}/main/alertmanager.yaml\n`));
    expect(section).toMatch(/^\+ +group_by:/m);
    expect(section).toMatch(/^\+ +- job$/m);
    expect(result.stdout + result.stderr).not.toContain(MARKER);
  });
});

describe('promop diff of a manifest that breaks an AlertmanagerConfig', () => {
  it('shows the new rejection with its field path and reason, and exits 3', async () => {
    const result = await promop(['diff', '-f', manifest('broken.yaml', [oncall('{receiver: nobody}')])]);
    expect(result.code).toBe(3);
    const section = sectionOfMain(result.stdout);
    expect(section).toContain(`  AlertmanagerConfig ${TEAM}/oncall: accepted -> REJECTED: spec.route.receiver: no receiver named "nobody" in spec.receivers`);
    // A rejected object is left out of the configuration: its route and receiver go.
    expect(section).toMatch(/^-.*pager/m);
    expect(result.stdout).toContain(`Would be rejected: AlertmanagerConfig ${TEAM}/oncall.`);
    expect(result.stdout + result.stderr).not.toContain(MARKER);
  });
});

describe('promop diff of a new AlertmanagerConfig', () => {
  it('says it is newly selected and accepted', async () => {
    const paging = oncall('{receiver: pager}').replace('name: oncall', 'name: paging');
    const result = await promop(['diff', '-f', manifest('new.yaml', [paging])]);
    expect(result.code).toBe(1);
    expect(sectionOfMain(result.stdout)).toContain(`  AlertmanagerConfig ${TEAM}/paging: (absent) -> accepted`);
    expect(result.stdout + result.stderr).not.toContain(MARKER);
  });
});

describe('promop diff of the Alertmanager\'s configSecret', () => {
  const secret = (config: string) => [
    'apiVersion: v1', 'kind: Secret', `metadata: {name: alertmanager-main, namespace: ${MONITORING}}`, 'stringData:', '  alertmanager.yaml: |',
    ...config.trimEnd().split('\n').map((line) => `    ${line}`),
  ].join('\n');
  const NEW = `${MARKER}-new`;

  it('says only Secret values change when only credentials change, and never prints them', async () => {
    const result = await promop(['diff', '-f', manifest('rotated.yaml', [secret(BASE_CONFIG.replaceAll(MARKER, NEW))])]);
    expect(result.code).toBe(1);
    expect(sectionOfMain(result.stdout)).toBe(`Alertmanager ${MONITORING}/main: 0 verdict changes, 1 changed file\n  alertmanager.yaml: only Secret values change (not shown)`);
    expect(result.stdout + result.stderr).not.toContain(MARKER);
  });

  it('shows a new receiver with its credential masked', async () => {
    const config = `${BASE_CONFIG}- name: chat\n  slack_configs:\n  - api_url: https://hooks.slack.example/${NEW}\n    channel: '#alerts'\n`;
    const result = await promop(['diff', '-f', manifest('slack.yaml', [secret(config)])]);
    expect(result.code).toBe(1);
    const section = sectionOfMain(result.stdout);
    expect(section).toMatch(/^\+ +- api_url: <redacted>$/m);
    expect(section).toMatch(/^\+ +channel: '#alerts'$/m);
    expect(result.stdout + result.stderr).not.toContain(MARKER);
  });

  it('reports a configSecret the Alertmanager refuses as its problem, and exits 3', async () => {
    const result = await promop(['diff', '-f', manifest('keyless.yaml', [`apiVersion: v1\nkind: Secret\nmetadata: {name: alertmanager-main, namespace: ${MONITORING}}\nstringData: {other.yaml: ${MARKER}}`])]);
    expect(result.code).toBe(3);
    expect(sectionOfMain(result.stdout)).toContain('  problem of the Alertmanager: spec.configSecret: Secret alertmanager-main has no key alertmanager.yaml (promop would keep the previous configuration)');
    expect(result.stdout).toContain(`Alertmanager ${MONITORING}/main`);
    expect(result.stdout).toMatch(/Would be rejected: .*Alertmanager/);
    expect(result.stdout + result.stderr).not.toContain(MARKER);
  });
});

describe('promop diff of manifests that cannot change an Alertmanager', () => {
  it('does not read Alertmanagers and prints what it printed before', async () => {
    const monitor = `apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: web, namespace: ${TEAM}}\nspec:\n  selector: {matchLabels: {app: web}}\n  endpoints: [{port: web}]`;
    const result = await promop(['diff', '-f', manifest('monitor.yaml', [monitor])]);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toMatch(/^Alertmanager /m);
  });
});
