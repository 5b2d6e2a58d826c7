/**
 * The foundation every other test stands on: the real programs run, and the API server really
 * enforces RBAC. If one of these fails, nothing else in the suite means anything.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiextensionsV1Api, CoreV1Api, RbacAuthorizationV1Api, VersionApi, ApiException } from '@kubernetes/client-node';
import { PROMTOOLS, promtoolsAsNewAs, promtoolVersion, runPromtool, sharedTestEnv, toolPath } from './index.ts';

const K8S_VERSION = /^v1\.37\.\d+$/;

async function statusOf(call: Promise<unknown>): Promise<number> {
  try {
    await call;
    return 200;
  } catch (error) {
    if (error instanceof ApiException) return error.code;
    throw error;
  }
}

describe('the shared control plane', () => {
  const env = sharedTestEnv();

  it('reports the real Kubernetes version on /version (not v0.0.0-master)', async () => {
    const version = await env.kubeConfig().makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toMatch(K8S_VERSION);
    expect(version.major).toBe('1');
    expect(version.minor).toBe('37');
  });

  it('creates a namespace and a CustomResourceDefinition', async () => {
    const kc = env.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'smoke-ns' } } });
    expect((await core.readNamespace({ name: 'smoke-ns' })).status?.phase).toBe('Active');

    const ext = kc.makeApiClient(ApiextensionsV1Api);
    await ext.createCustomResourceDefinition({
      body: {
        metadata: { name: 'widgets.smoke.promop.test' },
        spec: {
          group: 'smoke.promop.test',
          scope: 'Namespaced',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
        },
      },
    });
    const crd = await ext.readCustomResourceDefinition({ name: 'widgets.smoke.promop.test' });
    expect(crd.spec.names.kind).toBe('Widget');
  });

  it('denies a ServiceAccount without rights (403) and lets it through once a RoleBinding grants them', async () => {
    const admin = env.kubeConfig();
    const core = admin.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'rbac-smoke' } } });
    await core.createNamespacedServiceAccount({ namespace: 'rbac-smoke', body: { metadata: { name: 'reader' } } });
    const asReader = env.kubeConfigFor({ namespace: 'rbac-smoke', name: 'reader' }).makeApiClient(CoreV1Api);

    expect(await statusOf(asReader.listNamespacedConfigMap({ namespace: 'rbac-smoke' }))).toBe(403);

    const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
    await rbac.createNamespacedRole({
      namespace: 'rbac-smoke',
      body: { metadata: { name: 'read-configmaps' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }] },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: 'rbac-smoke',
      body: {
        metadata: { name: 'reader-reads-configmaps' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-configmaps' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: 'rbac-smoke' }],
      },
    });
    expect(await statusOf(asReader.listNamespacedConfigMap({ namespace: 'rbac-smoke' }))).toBe(200);
    // The grant is exactly what the Role says: other verbs and other namespaces stay forbidden.
    expect(await statusOf(asReader.createNamespacedConfigMap({ namespace: 'rbac-smoke', body: { metadata: { name: 'x' } } }))).toBe(403);
    expect(await statusOf(asReader.listNamespacedConfigMap({ namespace: 'default' }))).toBe(403);
  });
});

describe('promtool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'promop-smoke-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts a minimal config', async () => {
    const file = join(dir, 'good.yaml');
    writeFileSync(file, 'global:\n  scrape_interval: 30s\nscrape_configs:\n- job_name: self\n  static_configs:\n  - targets: [127.0.0.1:9090]\n');
    const result = await runPromtool(['check', 'config', file]);
    expect(result.stdout + result.stderr).toContain('SUCCESS');
    expect(result.code).toBe(0);
  });

  it('rejects a broken config and says why', async () => {
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, 'global:\n  scrape_interval: 30 seconds\n');
    const result = await runPromtool(['check', 'config', file]);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/30 seconds/);
  });

  it('is built for the default release, the one before it and the last 2.x release', () => {
    expect(PROMTOOLS.map((tool) => promtoolVersion(tool).join('.'))).toEqual(['3.16.0', '3.15.1', '2.55.1']);
  });

  it('checks a file with every built promtool of its major release as new as the release it is rendered for', () => {
    expect(promtoolsAsNewAs('v3.16.0')).toEqual(['promtool']);
    expect(promtoolsAsNewAs('v3.0.0')).toEqual(['promtool', 'promtool-previous']);
    expect(promtoolsAsNewAs('v2.30.0')).toEqual(['promtool-v2']);
    expect(() => promtoolsAsNewAs('v2.56.0')).toThrow('no built promtool is as new as v2.56.0');
  });

  it('of 2.x reads an EC2 discovery without a region as on an EC2 instance, from the loopback metadata stand-in', async () => {
    // Without the stand-in, 2.55.1 refuses the file here ("EC2 SD configuration requires a region").
    const file = join(dir, 'ec2.yaml');
    writeFileSync(file, 'scrape_configs:\n- job_name: ec2\n  ec2_sd_configs:\n  - port: 9100\n  lightsail_sd_configs:\n  - port: 9100\n');
    const result = await runPromtool(['check', 'config', '--syntax-only', file], { tool: 'promtool-v2' });
    expect({ code: result.code, output: result.stdout + result.stderr }).toEqual({ code: 0, output: expect.stringContaining('SUCCESS') });
  });
});

describe('amtool', () => {
  const dir = mkdtempSync(join(tmpdir(), 'promop-smoke-am-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const check = (text: string) => {
    const file = join(dir, 'alertmanager.yaml');
    writeFileSync(file, text);
    return spawnSync(toolPath('amtool'), ['check-config', file], { encoding: 'utf8' });
  };

  it('is Alertmanager 0.35.0 and accepts a minimal configuration', () => {
    expect(execFileSync(toolPath('alertmanager'), ['--version'], { encoding: 'utf8' })).toMatch(/^alertmanager, version 0\.35\.0 /);
    const result = check('route:\n  receiver: "null"\nreceivers:\n- name: "null"\n');
    expect({ code: result.status, out: result.stdout }).toEqual({ code: 0, out: expect.stringContaining('SUCCESS') });
  });

  it('refuses a route to a receiver that does not exist, and says which', () => {
    const result = check('route:\n  receiver: team-a\nreceivers:\n- name: "null"\n');
    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/undefined receiver "team-a"/);
  });
});

describe('helm', () => {
  it('runs and reports version 4', () => {
    const out = execFileSync(toolPath('helm'), ['version', '--short'], { encoding: 'utf8' });
    expect(out.trim()).toMatch(/^v4\.\d+\.\d+/);
  });
});
