/**
 * promop's writes, counted in the audit log of a control plane this suite starts for itself (kube-controller-manager
 * included, so StatefulSets get pods and status updates like in a cluster; no kubelet, so the pods stay Pending).
 * Once a Prometheus with monitors and rules is reconciled: resyncs, relists and a restart of the operator write
 * nothing at all; one ServiceMonitor change costs one reconcile and writes only what it changes. Last, the
 * Prometheus is deleted while the operator is stopped: the bindings it left are removed once it is back.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, startTestEnv, type TestEnv, eventually, sleep } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Operator, type OperatorOptions } from './operator.ts';
import { operatorIdentity } from './test-support/operator-identity.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = 'promop-system';
const MONITORING = 'monitoring';
const TEAM = 'team-a';
const OPERATOR_USER = `system:serviceaccount:${OPERATOR_NS}:promop`;
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const auditLogPath = join(tmpdir(), `promop-audit-${id}.log`);

let env: TestEnv;
let admin: KubeConfig;
let operatorKubeConfig: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;
const logLines: string[] = [];

interface AuditEvent {
  verb: string;
  stage: string;
  user?: { username?: string };
  impersonatedUser?: { username?: string };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
  responseStatus?: { code?: number };
}

/** Every write request the operator made so far, as `verb resource[/subresource] namespace/name`. */
function operatorWrites(): string[] {
  if (!existsSync(auditLogPath)) return [];
  return readFileSync(auditLogPath, 'utf8').split('\n').filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((event) => event.stage === 'ResponseComplete' && WRITE_VERBS.has(event.verb)
      && (event.impersonatedUser?.username ?? event.user?.username) === OPERATOR_USER)
    .map(({ verb, objectRef: ref = {} }) => `${verb} ${ref.resource}${ref.subresource ? `/${ref.subresource}` : ''} ${ref.namespace ?? ''}/${ref.name ?? ''}`);
}

/** How many reconciles the operator has logged (debug line `reconciled`). */
function reconciles(): number {
  return logLines.filter((line) => (JSON.parse(line) as { msg?: string }).msg === 'reconciled').length;
}

/** Waits until the operator has written nothing for `quietMs` (at most `timeoutMs`). */
async function untilQuiet(quietMs = 3_000, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let count = operatorWrites().length;
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    if (Date.now() > deadline) throw new Error(`the operator kept writing: ${operatorWrites().slice(count - 5).join(', ')}`);
    await sleep(250);
    const now = operatorWrites().length;
    if (now !== count) {
      count = now;
      since = Date.now();
    }
  }
}

async function startOperator(options: Partial<OperatorOptions> = {}): Promise<void> {
  const log = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  operator = new Operator({ kubeConfig: operatorKubeConfig, log, ...options });
  await operator.start();
}

const crd = (plural: string, namespace: string) => ({ group: GROUP, version: VERSION, plural, namespace });
const configText = (secret: V1Secret) => Buffer.from(secret.data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8');
const readConfig = () => core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main' });
type Status = { conditions?: { type: string; status: string }[] };
const readPrometheus = async () => (await custom.getNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'main' })) as { status?: Status };

beforeAll(async () => {
  env = await startTestEnv({ auditLogPath });
  admin = env.kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const name of [OPERATOR_NS, MONITORING, TEAM]) await core.createNamespace({ body: { metadata: { name } } });
  operatorKubeConfig = await operatorIdentity(admin, OPERATOR_NS, `promop-${id}`, env);
  await core.createNamespacedSecret({ namespace: TEAM, body: { metadata: { name: 'api-auth' }, stringData: { user: 'scraper', password: 'hunter2' } } });
  await untilServed(() => custom.createNamespacedCustomObject({
    ...crd(PLURALS.Prometheus, MONITORING),
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main' },
      spec: {
        replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, podMonitorSelector: {}, podMonitorNamespaceSelector: {}, ruleSelector: {}, ruleNamespaceSelector: {},
        // Quantities written as users write them; the API server stores 500m, 1Gi and 1 (workload/quantity.ts).
        resources: { requests: { cpu: '0.5', memory: '1024Mi' }, limits: { cpu: '1000m' } },
      },
    },
  }));
  const create = (plural: string, kind: string, name: string, spec: object) =>
    custom.createNamespacedCustomObject({ ...crd(plural, TEAM), body: { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name }, spec } });
  await create(PLURALS.ServiceMonitor, 'ServiceMonitor', 'api', { selector: { matchLabels: { app: 'api' } }, endpoints: [{ port: 'web', basicAuth: { username: { name: 'api-auth', key: 'user' }, password: { name: 'api-auth', key: 'password' } } }] });
  await create(PLURALS.ServiceMonitor, 'ServiceMonitor', 'broken', { selector: {}, endpoints: [{ port: 'web', relabelings: [{ sourceLabels: ['a'], regex: '(unclosed', targetLabel: 'b', action: 'replace' }] }] });
  await create(PLURALS.PodMonitor, 'PodMonitor', 'pods', { selector: {}, podMetricsEndpoints: [{ port: 'metrics' }] });
  await create(PLURALS.PrometheusRule, 'PrometheusRule', 'rules', { groups: [{ name: 'g', rules: [{ alert: 'Down', expr: 'up == 0' }] }] });
}, 180_000);

afterAll(async () => {
  await operator?.stop();
  await env?.stop();
  rmSync(auditLogPath, { force: true });
});

describe('an operator at steady state', () => {
  it('reconciles the Prometheus and its monitors, then stops writing', async () => {
    // Short periods so the next test sees several resyncs and relists.
    await startOperator({ resyncIntervalMs: 1_500, relistIntervalMs: 2_500 });
    const secret = await eventually(readConfig, (s) => configText(s).includes(`serviceMonitor/${TEAM}/api/0`), 60_000);
    expect(configText(secret)).toContain(`podMonitor/${TEAM}/pods/0`);
    await eventually(readPrometheus, (p) => p.status?.conditions?.some((c) => c.type === 'Reconciled' && c.status === 'True') ?? false);
    await untilQuiet();
    expect(operatorWrites().length).toBeGreaterThan(0);
  }, 120_000);

  it('writes nothing across resyncs and relists', async () => {
    const writes = operatorWrites().length;
    const before = reconciles();
    await sleep(6_000);
    expect(reconciles() - before).toBeGreaterThanOrEqual(3);
    expect(operatorWrites().slice(writes)).toEqual([]);
  }, 30_000);

  it('writes nothing when restarted', async () => {
    await operator?.stop();
    const writes = operatorWrites().length;
    const before = reconciles();
    await startOperator();
    await eventually(async () => reconciles(), (count) => count > before);
    await sleep(3_000);
    expect(operatorWrites().slice(writes)).toEqual([]);
  }, 60_000);
});

describe('one ServiceMonitor change', () => {
  it('costs one reconcile, and writes the config, the binding and the status, not the other children', async () => {
    const writes = operatorWrites().length;
    const before = reconciles();
    await custom.patchNamespacedCustomObject({ ...crd(PLURALS.ServiceMonitor, TEAM), name: 'api', body: [{ op: 'add', path: '/spec/endpoints/0/interval', value: '15s' }] });
    await eventually(readConfig, (s) => configText(s).includes('scrape_interval: 15s'));
    await untilQuiet();
    const written = operatorWrites().slice(writes);
    process.stdout.write(`one ServiceMonitor change: ${reconciles() - before} reconcile(s), writes: ${written.join(', ')}\n`);
    expect(reconciles() - before).toBe(1);
    expect(written).toContain(`update secrets ${MONITORING}/prometheus-main`);
    expect(written).toContain(`patch servicemonitors/status ${TEAM}/api`);
    expect(written.filter((w) => /statefulsets|services |configmaps|tls-assets|servicemonitors\/status team-a\/broken|podmonitors|prometheusrules/.test(w))).toEqual([]);
  }, 60_000);
});

describe('a child edited by hand', () => {
  it('is put back: the edit keeps the applied-hash, so promop sees a change that is not its own', async () => {
    const before = await readConfig();
    await core.patchNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main', body: [{ op: 'replace', path: '/data/prometheus.yaml', value: Buffer.from('edited by hand').toString('base64') }] });
    const restored = await eventually(readConfig, (s) => configText(s) === configText(before));
    expect(configText(restored)).toBe(configText(before));
  }, 60_000);
});

describe('a Prometheus deleted while the operator was stopped', () => {
  it('has its bindings removed once the operator is back: the monitors and rules that still name it enqueue it', async () => {
    type Bound = { items: { metadata: { name: string }; status?: { bindings?: { name: string }[] } }[] };
    const bindings = async () => {
      const named: string[] = [];
      for (const plural of [PLURALS.ServiceMonitor, PLURALS.PodMonitor, PLURALS.PrometheusRule]) {
        const list = (await custom.listNamespacedCustomObject(crd(plural, TEAM))) as Bound;
        for (const item of list.items) for (const binding of item.status?.bindings ?? []) named.push(`${plural}/${item.metadata.name} ${binding.name}`);
      }
      return named.sort();
    };
    await operator?.stop();
    expect(await bindings()).toEqual([`${PLURALS.PodMonitor}/pods main`, `${PLURALS.PrometheusRule}/rules main`, `${PLURALS.ServiceMonitor}/api main`, `${PLURALS.ServiceMonitor}/broken main`]);
    await custom.deleteNamespacedCustomObject({ ...crd(PLURALS.Prometheus, MONITORING), name: 'main' });
    await startOperator();
    await eventually(bindings, (named) => named.length === 0, 60_000);
  }, 90_000);
});
