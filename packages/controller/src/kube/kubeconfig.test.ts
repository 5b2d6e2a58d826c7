import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeconfigError, loadClusterConnection, loadKubeconfig, type Kubeconfig } from './kubeconfig.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'promop-kubeconfig-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

const CONFIG = `apiVersion: v1
kind: Config
current-context: dev
clusters:
- name: dev
  cluster: {server: "https://dev.example:6443/", certificate-authority: certs/ca.pem, tls-server-name: api.dev}
- name: prod
  cluster: {server: "https://prod.example", insecure-skip-tls-verify: true}
users:
- name: me
  user: {client-certificate: certs/me.pem, client-key: certs/me-key.pem}
- name: robot
  user: {token: t0ken, as: jane, as-groups: [admins, ops]}
contexts:
- name: dev
  context: {cluster: dev, user: me, namespace: team-a}
- name: prod
  context: {cluster: prod, user: robot}
`;

describe('finding the cluster like kubectl', () => {
  it('uses the current context, with files named relative to the kubeconfig', async () => {
    const kubeconfig = file('kube/config', CONFIG);
    file('kube/certs/ca.pem', 'CA');
    file('kube/certs/me.pem', 'CERT');
    file('kube/certs/me-key.pem', 'KEY');
    expect(await loadClusterConnection({ kubeconfig })).toEqual({
      source: `context "dev" of ${kubeconfig}`,
      server: 'https://dev.example:6443',
      namespace: 'team-a',
      ca: 'CA',
      tlsServerName: 'api.dev',
      insecureSkipTlsVerify: false,
      clientCertificate: { cert: 'CERT', key: 'KEY' },
      headers: {},
    });
  });

  it('uses --context, a bearer token and impersonation; the namespace defaults to default', async () => {
    const connection = await loadClusterConnection({ kubeconfig: file('config', CONFIG), context: 'prod' });
    expect(connection).toMatchObject({
      server: 'https://prod.example',
      namespace: 'default',
      insecureSkipTlsVerify: true,
      headers: { Authorization: 'Bearer t0ken', 'Impersonate-User': 'jane', 'Impersonate-Group': ['admins', 'ops'] },
    });
  });

  it('merges the files of $KUBECONFIG: the first to set a value wins, missing files are skipped', async () => {
    const first = file('a', 'current-context: prod\ncontexts:\n- name: prod\n  context: {cluster: other, user: robot}\n');
    const second = file('b', CONFIG);
    const env = { KUBECONFIG: [join(dir, 'missing'), first, second].join(delimiter), HOME: dir };
    const connection = await loadClusterConnection({ env }).catch((error: Error) => error);
    // The first file's "prod" context wins, and its cluster "other" is defined nowhere.
    expect(connection).toEqual(new KubeconfigError(`context "prod" names cluster "other", which ${first}, ${second} does not define`));
  });

  it('gets a token from an exec credential plugin, passing it the cluster and its env', async () => {
    const plugin = file('bin/get-token', `#!/bin/sh\necho "{\\"apiVersion\\":\\"client.authentication.k8s.io/v1\\",\\"kind\\":\\"ExecCredential\\",\\"status\\":{\\"token\\":\\"$TEAM-$(echo $KUBERNETES_EXEC_INFO | grep -c prod.example)\\"}}"\n`);
    chmodSync(plugin, 0o755);
    const kubeconfig = file('config', CONFIG.replace('user: {token: t0ken, as: jane, as-groups: [admins, ops]}', `user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}, env: [{name: TEAM, value: a}], provideClusterInfo: true, interactiveMode: Never}}`));
    const connection = await loadClusterConnection({ kubeconfig, context: 'prod' });
    expect(connection.headers).toEqual({ Authorization: 'Bearer a-1' });
  });

  it('uses the pod\'s ServiceAccount when there is no kubeconfig and the pod environment is set', async () => {
    const env = { HOME: dir, KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
    // The token file does not exist on this machine: the error names it.
    await expect(loadClusterConnection({ env })).rejects.toThrow('in-cluster: cannot read the ServiceAccount token /var/run/secrets/kubernetes.io/serviceaccount/token');
  });

  it.each([
    [{ context: 'staging' }, `context "staging" not found in `],
    [{ kubeconfig: '/nonexistent/config' }, 'cannot read the kubeconfig /nonexistent/config: ENOENT'],
  ])('says what is wrong: %j', async (options, message) => {
    const kubeconfig = file('config', CONFIG);
    await expect(loadClusterConnection({ kubeconfig, ...options })).rejects.toThrow(message);
  });

  it('refuses the removed auth-provider plugins, pointing to exec plugins', async () => {
    const kubeconfig = file('config', CONFIG.replace('user: {token: t0ken, as: jane, as-groups: [admins, ops]}', 'user: {auth-provider: {name: gcp}}'));
    await expect(loadClusterConnection({ kubeconfig, context: 'prod' })).rejects.toThrow('use an exec credential plugin');
  });

  it('says where it looked when there is no kubeconfig at all', async () => {
    await expect(loadClusterConnection({ env: { HOME: dir } })).rejects.toThrow(`no kubeconfig found (looked at ${join(dir, '.kube', 'config')})`);
  });
});

describe('the Kubeconfig promop run keeps', () => {
  /** The TLS options and headers one request gets. */
  async function requestOptions(kubeconfig: Kubeconfig): Promise<RequestOptions> {
    const options: RequestOptions = { headers: { Accept: 'application/json' } };
    await kubeconfig.applyToHTTPSOptions(options);
    return options;
  }

  it('gives each request the cluster CA, server name and client certificate from data fields, and keeps the caller\'s headers', async () => {
    const data = (text: string) => Buffer.from(text).toString('base64');
    const kubeconfig = await loadKubeconfig({ kubeconfig: file('config', `current-context: c
clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443", certificate-authority-data: ${data('CA')}, tls-server-name: kubernetes}}]
users: [{name: u, user: {client-certificate-data: ${data('CERT')}, client-key-data: ${data('KEY')}}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
`) });
    expect(kubeconfig.getCurrentCluster()).toEqual({ server: 'https://127.0.0.1:6443' });
    expect(kubeconfig.inCluster).toBe(false);
    expect(await requestOptions(kubeconfig)).toEqual({
      headers: { Accept: 'application/json' }, ca: 'CA', servername: 'kubernetes', rejectUnauthorized: true, cert: 'CERT', key: 'KEY',
    });
  });

  it('sends basic auth for username/password, and skips TLS verification only when told', async () => {
    const kubeconfig = await loadKubeconfig({ kubeconfig: file('config', CONFIG.replace('user: {token: t0ken, as: jane, as-groups: [admins, ops]}', 'user: {username: admin, password: "s3cret"}')), context: 'prod' });
    expect(await requestOptions(kubeconfig)).toEqual({
      headers: { Accept: 'application/json', Authorization: `Basic ${Buffer.from('admin:s3cret').toString('base64')}` }, rejectUnauthorized: false,
    });
  });

  it('reads a tokenFile again once it is a minute old, and keeps the old token while the file is being replaced', async () => {
    let now = 1_000_000;
    const tokenFile = file('token', 'first\n');
    const kubeconfig = await loadKubeconfig({ kubeconfig: file('config', CONFIG.replace('user: {token: t0ken, as: jane, as-groups: [admins, ops]}', `user: {tokenFile: ${tokenFile}}`)), context: 'prod', now: () => now });
    expect((await requestOptions(kubeconfig)).headers).toMatchObject({ Authorization: 'Bearer first' });
    writeFileSync(tokenFile, 'second');
    now += 59_000;
    expect((await requestOptions(kubeconfig)).headers).toMatchObject({ Authorization: 'Bearer first' });
    now += 1_000;
    expect((await requestOptions(kubeconfig)).headers).toMatchObject({ Authorization: 'Bearer second' });
    rmSync(tokenFile);
    now += 60_000;
    expect((await requestOptions(kubeconfig)).headers).toMatchObject({ Authorization: 'Bearer second' });
  });

  it('runs an exec plugin (v1beta1) once and keeps its credential until expirationTimestamp, and again after a 401', async () => {
    let now = Date.parse('2026-12-01T10:00:00Z');
    const runs = join(dir, 'runs');
    const plugin = file('bin/get-token', [
      '#!/bin/sh',
      `echo run >> ${runs}`,
      `n=$(wc -l < ${runs} | tr -d ' ')`,
      'echo "{\\"apiVersion\\":\\"client.authentication.k8s.io/v1beta1\\",\\"kind\\":\\"ExecCredential\\",\\"status\\":{\\"token\\":\\"token-$n\\",\\"expirationTimestamp\\":\\"2026-12-01T10:15:00Z\\"}}"',
      '',
    ].join('\n'));
    chmodSync(plugin, 0o755);
    const kubeconfig = await loadKubeconfig({
      kubeconfig: file('config', CONFIG.replace('user: {token: t0ken, as: jane, as-groups: [admins, ops]}', `user: {exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: ${plugin}, interactiveMode: Never}}`)),
      context: 'prod', now: () => now,
    });
    const tokens = async () => (await Promise.all([requestOptions(kubeconfig), requestOptions(kubeconfig)])).map((options) => (options.headers as Record<string, string>).Authorization);
    expect(await tokens()).toEqual(['Bearer token-1', 'Bearer token-1']);
    now = Date.parse('2026-12-01T10:14:59Z');
    expect(await tokens()).toEqual(['Bearer token-1', 'Bearer token-1']);
    now = Date.parse('2026-12-01T10:15:00Z');
    // Both requests wait for the one run the expiry started.
    expect(await tokens()).toEqual(['Bearer token-2', 'Bearer token-2']);
    kubeconfig.onUnauthorized();
    expect(await tokens()).toEqual(['Bearer token-3', 'Bearer token-3']);
    expect(readFileSync(runs, 'utf8').split('\n').filter((line) => line !== '')).toHaveLength(3);
  });

  it('gets a client certificate from an exec plugin', async () => {
    const plugin = file('bin/get-cert', '#!/bin/sh\necho \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"CERT","clientKeyData":"KEY"}}\'\n');
    chmodSync(plugin, 0o755);
    const kubeconfig = await loadKubeconfig({ kubeconfig: file('config', CONFIG.replace('user: {token: t0ken, as: jane, as-groups: [admins, ops]}', `user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}}}`)), context: 'prod' });
    expect(await requestOptions(kubeconfig)).toMatchObject({ cert: 'CERT', key: 'KEY', headers: { Accept: 'application/json' } });
  });

  it('in a pod: the ServiceAccount before ~/.kube/config, its namespace, and its token read again as the kubelet rotates it', async () => {
    let now = 0;
    const sa = join(dir, 'serviceaccount');
    file('serviceaccount/token', 'sa-1');
    file('serviceaccount/ca.crt', 'CLUSTER CA');
    file('serviceaccount/namespace', 'monitoring');
    file('home/.kube/config', CONFIG);
    const env = { HOME: join(dir, 'home'), KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443' };
    const kubeconfig = await loadKubeconfig({ env, inClusterBeforeHome: true, inClusterDir: sa, now: () => now });
    expect({ source: kubeconfig.source, namespace: kubeconfig.namespace, inCluster: kubeconfig.inCluster, cluster: kubeconfig.getCurrentCluster() })
      .toEqual({ source: 'in-cluster ServiceAccount', namespace: 'monitoring', inCluster: true, cluster: { server: 'https://10.96.0.1:443' } });
    expect(await requestOptions(kubeconfig)).toEqual({ headers: { Accept: 'application/json', Authorization: 'Bearer sa-1' }, ca: 'CLUSTER CA', rejectUnauthorized: true });
    writeFileSync(join(sa, 'token'), 'sa-2');
    now += 60_000;
    expect((await requestOptions(kubeconfig)).headers).toMatchObject({ Authorization: 'Bearer sa-2' });
    // kubectl's order (the CLI commands) prefers the file.
    expect((await loadKubeconfig({ env, inClusterDir: sa, context: 'prod' })).source).toBe(`context "prod" of ${join(dir, 'home/.kube/config')}`);
  });

  it.each(['oidc', 'gcp', 'azure'])('refuses the auth-provider %s by name instead of sending anonymous requests', async (provider) => {
    const kubeconfig = file('config', CONFIG.replace('user: {token: t0ken, as: jane, as-groups: [admins, ops]}', `user: {auth-provider: {name: ${provider}, config: {id-token: abc}}}`));
    const error = await loadKubeconfig({ kubeconfig, context: 'prod' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeconfigError);
    expect((error as Error).message).toContain(`user "robot" uses the auth-provider plugin "${provider}", which Kubernetes removed and promop does not support`);
    expect((error as Error).message).not.toContain('abc');
  });

  it('fails at load when the exec plugin fails, naming the user and not printing its output', async () => {
    const plugin = file('bin/broken', '#!/bin/sh\necho "token: hunter2"\nexit 3\n');
    chmodSync(plugin, 0o755);
    const kubeconfig = file('config', CONFIG.replace('user: {token: t0ken, as: jane, as-groups: [admins, ops]}', `user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}}}`));
    const error = await loadKubeconfig({ kubeconfig, context: 'prod' }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^user "robot": the exec credential plugin failed/);
    expect((error as Error).message).not.toContain('hunter2');
  });
});
