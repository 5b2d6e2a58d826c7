/**
 * `promop run`'s own kubeconfig against the real API server (RBAC on): loaded from a file as `promop run
 * --kubeconfig` loads it, it authenticates with a client certificate (the admin's) and with a bearer token (a
 * ServiceAccount's, from TokenRequest, as a tokenFile and from an exec plugin), and the operator's RawApi, writers,
 * Lease client and caches work through it; the writers' requests share one TLS connection.
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';
import { applyCrds, sharedTestEnv } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Operator } from '../operator.ts';
import { operatorIdentity } from '../test-support/operator-identity.ts';
import { apiErrorOf } from './api-error.ts';
import { ChildWriter } from './child-writer.ts';
import { loadKubeconfig } from './kubeconfig.ts';
import { apiLeaseClient } from './leader-election.ts';
import { RawApi, namespacedPath, type ConnectionStats } from './raw-api.ts';

const id = randomBytes(3).toString('hex');
const NS = `kubeconfig-${id}`;
let admin: KubeConfig;
let dir: string;

/** Who the API server says the request came from (SelfSubjectReview). */
async function whoAmI(api: RawApi): Promise<string> {
  const review = await api.create<{ status: { userInfo: { username: string } } }>('/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
  return review.status.userInfo.username;
}

/** The admin kubeconfig with its user replaced by `user` (YAML flow mapping). */
function kubeconfigWithUser(user: string): string {
  const text = readFileSync(sharedTestEnv().kubeconfigPath, 'utf8');
  const lines = text.split('\n');
  const start = lines.indexOf('users:');
  const end = lines.indexOf('contexts:');
  const path = join(dir, `config-${randomBytes(3).toString('hex')}`);
  writeFileSync(path, [...lines.slice(0, start), 'users:', '- name: admin', `  user: ${user}`, ...lines.slice(end)].join('\n'));
  return path;
}

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  dir = mkdtempSync(join(tmpdir(), 'promop-kubeconfig-apiserver-'));
  await admin.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: NS } } });
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await admin.makeApiClient(CoreV1Api).deleteNamespace({ name: NS }).catch(() => {});
});

describe('promop run\'s kubeconfig', () => {
  it('authenticates with the client certificate of a kubeconfig file, and the writers share one TLS connection', async () => {
    const kubeconfig = await loadKubeconfig({ kubeconfig: sharedTestEnv().kubeconfigPath });
    const stats: ConnectionStats = { connections: 0 };
    const api = new RawApi(kubeconfig, { connectionStats: stats });
    try {
      expect(await whoAmI(api)).toBe('admin');
      const writer = new ChildWriter(api);
      for (let i = 0; i < 5; i++) await writer.writeConfigMap({ metadata: { name: `c${i}`, namespace: NS }, data: { i: String(i) } }, undefined);
      const listed = await api.getJson<{ items: { metadata: { name: string } }[] }>(namespacedPath('/api/v1', NS, 'configmaps'));
      expect(listed.items.map((c) => c.metadata.name).filter((name) => name.startsWith('c'))).toEqual(['c0', 'c1', 'c2', 'c3', 'c4']);
      // Seven requests over one connection: no TLS handshake per request.
      expect(stats.connections).toBe(1);
    } finally {
      api.close();
    }
  });

  it('authenticates with a ServiceAccount\'s bearer token from a tokenFile and from an exec plugin, under that account\'s RBAC', async () => {
    await operatorIdentity(admin, NS, `promop-kubeconfig-${id}`);
    const { status } = await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccountToken({ namespace: NS, name: 'promop', body: { spec: { audiences: [], expirationSeconds: 3600 } } });
    const token = status?.token ?? '';
    expect(token).not.toBe('');
    writeFileSync(join(dir, 'token'), `${token}\n`);
    const plugin = join(dir, 'get-token');
    writeFileSync(plugin, `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"${token}"}}'\n`);
    chmodSync(plugin, 0o755);
    for (const user of ['{tokenFile: token}', `{exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}, interactiveMode: Never}}`]) {
      const kubeconfig = await loadKubeconfig({ kubeconfig: kubeconfigWithUser(user) });
      const api = new RawApi(kubeconfig);
      try {
        expect(await whoAmI(api)).toBe(`system:serviceaccount:${NS}:promop`);
        // What the operator's role allows: a Lease, a ConfigMap.
        const leases = apiLeaseClient(api, NS, `lease-${user.length}`);
        await leases.create({ spec: { holderIdentity: 'me', leaseDurationSeconds: 15 } });
        expect((await leases.read())?.spec?.holderIdentity).toBe('me');
        await new ChildWriter(api).writeConfigMap({ metadata: { name: `sa-${user.length}`, namespace: NS }, data: {} }, undefined);
        // What it does not: the refusal is an ApiError with the API server's sentence, and never the token.
        const refused = await api.create('/api/v1/namespaces', { metadata: { name: `nope-${id}` } }).catch((error: unknown) => error);
        expect(apiErrorOf(refused)).toMatchObject({ code: 403, reason: 'Forbidden' });
        expect(String((refused as Error).message)).not.toContain(token);
      } finally {
        api.close();
      }
    }
    // A token the API server does not accept: 401, and the message does not carry it.
    writeFileSync(join(dir, 'token'), 'not-a-valid-token');
    const api = new RawApi(await loadKubeconfig({ kubeconfig: kubeconfigWithUser('{tokenFile: token}') }));
    const refused = await whoAmI(api).catch((error: unknown) => error);
    api.close();
    expect(apiErrorOf(refused)?.code).toBe(401);
    expect(String((refused as Error).message)).not.toContain('not-a-valid-token');
  });

  it('runs the operator\'s caches through it', async () => {
    await applyCrds(admin);
    const kubeconfig = await loadKubeconfig({ kubeconfig: sharedTestEnv().kubeconfigPath });
    const operator = new Operator({ kubeConfig: kubeconfig, log: pino({ level: 'silent' }), podNetworks: ['10.0.0.0/8'], scope: { kind: 'only', namespaces: [NS] } });
    try {
      await operator.startCaches();
    } finally {
      await operator.stop();
    }
  });
});
