/**
 * The packed promop installs with npm into an empty directory and works there: as `promop` (help, render) and as a
 * kubectl plugin (`kubectl promop explain ...` against the real API server, and `kubectl promop` completion). npm
 * fetches the third-party dependencies from the registry (or its cache); the workspace packages come from the
 * tarball itself.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, sharedTestEnv, toolPath } from '@promop/testkit';
import { packNpm } from './pack-npm.ts';

const id = randomBytes(3).toString('hex');
const NAMESPACE = `npm-${id}`;
let dir: string;
let bin: string;

/** Runs a command with the installed package's bin directory first on the PATH; a non-zero exit is a result. */
async function run(command: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, NODE_OPTIONS: '', PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`, KUBECONFIG: sharedTestEnv().kubeconfigPath };
  try {
    const { stdout, stderr } = await promisify(execFile)(command, args, { env, cwd: dir, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'promop-npm-'));
  const tarball = packNpm(join(dir, 'pack'));
  const prefix = join(dir, 'installed');
  mkdirSync(prefix);
  await promisify(execFile)('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-update-notifier', tarball], { cwd: prefix, env: { ...process.env, NODE_OPTIONS: '' } });
  bin = join(prefix, 'node_modules', '.bin');

  const admin = sharedTestEnv().kubeConfig();
  await applyCrds(admin);
  await admin.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: NAMESPACE } } });
  const custom = admin.makeApiClient(CustomObjectsApi);
  const create = (plural: string, kind: string, name: string, spec: object) =>
    custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural, namespace: NAMESPACE, body: { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name }, spec } });
  await untilServed(() => create(PLURALS.Prometheus, 'Prometheus', 'main', { serviceMonitorSelector: { matchLabels: { app: `web-${id}` } } }));
  await create(PLURALS.ServiceMonitor, 'ServiceMonitor', 'web', { selector: {}, endpoints: [{ port: 'web' }] });
}, 600_000);

afterAll(async () => {
  await sharedTestEnv().kubeConfig().makeApiClient(CoreV1Api).deleteNamespace({ name: NAMESPACE }).catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe('the npm package, installed into an empty directory', () => {
  it('holds JavaScript only, with the workspace packages bundled', () => {
    const installed = join(dir, 'installed', 'node_modules', 'promop');
    const files = readdirSync(installed, { recursive: true }).map(String);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(['dist/cli.js', 'node_modules/@promop/crds/dist/generated/validators.js', 'node_modules/@promop/prometheus-lang/dist/index.js', 'node_modules/@promop/config-generator/dist/index.js']));
  });

  it('runs `promop --help` and `promop render -f`', async () => {
    expect(await run('promop', ['--help'])).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: promop <command>') });
    const manifests = join(dir, 'one.yaml');
    writeFileSync(manifests, [
      'apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: main, namespace: monitoring}\nspec: {serviceMonitorSelector: {}}',
      'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: web, namespace: monitoring}\nspec: {selector: {}, endpoints: [{port: http}]}',
    ].join('\n---\n'));
    const render = await run('promop', ['render', '-f', manifests]);
    expect(render).toMatchObject({ code: 0, stderr: '' });
    expect(render.stdout).toContain('- job_name: serviceMonitor/monitoring/web/0');
  });

  it('runs as a kubectl plugin: kubectl promop explain, its help and its completion', async () => {
    const kubectl = toolPath('kubectl');
    const explain = await run(kubectl, ['promop', 'explain', 'servicemonitor', '-n', NAMESPACE, 'web']);
    expect(explain.stdout).toContain(`Prometheus ${NAMESPACE}/main: not selected\n  Prometheus ${NAMESPACE}/main's serviceMonitorSelector (matchLabels app=web-${id}) does not match the ServiceMonitor's labels (labels: none): label app is missing`);
    expect(await run(kubectl, ['promop', '--help'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: kubectl promop <command>/) });
    const completion = await run(kubectl, ['__complete', 'promop', 'explain', 'servicemonitor', '-n', NAMESPACE, '']);
    expect(completion.stdout.split('\n')).toContain('web');
  });
});
