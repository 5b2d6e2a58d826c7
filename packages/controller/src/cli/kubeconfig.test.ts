import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeconfigError, loadClusterConnection } from './kubeconfig.ts';

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
