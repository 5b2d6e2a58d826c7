/**
 * `promop run` as the chart starts it with `namespaces`, `prometheusInstanceSelector`, `logLevel` and `logFormat`
 * set: the process, its flags, and the chart's ServiceAccount with only the RBAC the chart grants for that
 * (a Role per watched namespace, the Lease's Role, a ClusterRole that only lists Nodes), through a kubeconfig that
 * impersonates it. It leads, configures the Prometheus it selects from the monitor of the watched namespace only,
 * logs logfmt at debug level, is refused nothing, and exits 0 on SIGTERM after releasing its Lease.
 * The shared control plane is safe to use: the flags keep this process away from every other suite's objects.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, CustomObjectsApi, type V1Secret } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, freePort, REPO_ROOT, sharedTestEnv, eventually } from '@promop/testkit';
import { chartIdentity } from './test-support/chart-identity.ts';

const id = randomBytes(3).toString('hex');
const RELEASE = `promop-run-${id}`;
const OPERATOR_NS = `promop-run-${id}`;
const MONITORING = `run-monitoring-${id}`;
const WATCHED = `run-team-${id}`;
const UNWATCHED = `run-other-${id}`;
const SCRAPED_BY = 'promop.test/scraped-by';
const INSTANCE = 'promop.test/instance';

const configText = (secret: V1Secret) => Buffer.from(secret.data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8');
const jobOf = (namespace: string) => `job_name: serviceMonitor/${namespace}/api/0`;

it('promop run --namespaces ... --log-format=logfmt, as the chart\'s namespaced ServiceAccount, configures only what it was given', async () => {
  const admin = sharedTestEnv().kubeConfig();
  const core = admin.makeApiClient(CoreV1Api);
  const custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const name of [OPERATOR_NS, MONITORING]) await core.createNamespace({ body: { metadata: { name } } });
  for (const name of [WATCHED, UNWATCHED]) await core.createNamespace({ body: { metadata: { name, labels: { [SCRAPED_BY]: id } } } });
  const identity = await chartIdentity(admin, RELEASE, OPERATOR_NS, [`namespaces={${MONITORING},${WATCHED}}`]);
  // It holds the admin's client key: removed at the end.
  const kubeconfigDir = mkdtempSync(join(tmpdir(), 'promop-run-scoping-'));
  const kubeconfig = join(kubeconfigDir, 'kubeconfig.json');
  // exportConfig keeps the impersonation (`as`), which the process's client-node reads back.
  writeFileSync(kubeconfig, identity.exportConfig());

  await untilServed(() => custom.createNamespacedCustomObject({
    group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', labels: { [INSTANCE]: id } },
      spec: { replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: { matchLabels: { [SCRAPED_BY]: id } } },
    },
  }));
  for (const namespace of [WATCHED, UNWATCHED]) {
    await custom.createNamespacedCustomObject({
      group: GROUP, version: VERSION, plural: PLURALS.ServiceMonitor, namespace,
      body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name: 'api' }, spec: { selector: { matchLabels: { app: 'api' } }, endpoints: [{ port: 'web' }] } },
    });
  }

  const port = await freePort();
  const child = spawn(process.execPath, [
    join(REPO_ROOT, 'packages/controller/src/cli.ts'), 'run', '--kubeconfig', kubeconfig, '--metrics-address', `127.0.0.1:${port}`,
    // As the chart passes them (templates/deployment.yaml); the Lease lives in the release namespace.
    `--namespaces=${MONITORING},${WATCHED}`, `--prometheus-instance-selector=${INSTANCE}=${id}`, '--log-level=debug', '--log-format=logfmt',
    '--leader-election-namespace', OPERATOR_NS, '--pod-network', '127.0.0.1/32',
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve((exitCode = code))));
  try {
    const config = await eventually(
      () => core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main' }).then(configText, () => ''),
      // A process that exited (could not start) will not write it: stop waiting.
      (text) => text.includes(jobOf(WATCHED)) || exitCode !== undefined,
      60_000,
    );
    // The process's own log tells why when the config is not there.
    expect({ configured: config.includes(jobOf(WATCHED)), log: config.includes(jobOf(WATCHED)) ? '' : stdout + stderr }).toEqual({ configured: true, log: '' });
    expect(config).not.toContain(UNWATCHED);
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exited).toBe(0);
  rmSync(kubeconfigDir, { recursive: true, force: true });
  const lines = stdout.split('\n').filter(Boolean);
  // logfmt, every line; debug level included (one `reconciled` line per reconcile).
  expect(lines.filter((line) => !/^level=(trace|debug|info|warn|error|fatal) ts=\d{4}-\d\d-\d\dT[\d:.]+Z /.test(line))).toEqual([]);
  expect(lines.some((line) => line.startsWith('level=debug ') && line.includes('msg=reconciled'))).toBe(true);
  expect(lines.find((line) => line.includes('msg=scope'))).toContain(`namespaces="[\\"${MONITORING}\\",\\"${WATCHED}\\"]"`);
  expect(lines.some((line) => line.includes('msg="released the lease"'))).toBe(true);
  expect({ refused: lines.filter((line) => / 40[13] |forbidden/i.test(line)), stderr }).toEqual({ refused: [], stderr: '' });
}, 120_000);
