/**
 * `promop` stays responsive with hostile objects in the cluster (issue 23), against the real API server: one team
 * applies a ServiceMonitor whose job is larger than a scrape file, one with 10,000 matchExpressions and a
 * PrometheusRule with a 1.4 MB expression (each under etcd's 1.5 MiB object limit, so the API server stores
 * them); each is rejected alone with its field path, and another team's change still reaches the config Secret.
 */
import { CoreV1Api, CustomObjectsApi, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, sharedTestEnv, eventually } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { Operator } from './operator.ts';
import { operatorIdentity } from './test-support/operator-identity.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-system-${id}`;
const MONITORING = `monitoring-${id}`;
const TEAM = `team-${id}`;
const HOSTILE = `hostile-${id}`;
const INSTANCE_LABEL = { 'promop.test/instance': id };

let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;

const crd = (plural: string, namespace: string) => ({ group: GROUP, version: VERSION, plural, namespace });
type Bound = { status?: { bindings?: { name: string; conditions?: { type: string; status: string; message?: string }[] }[] } };
const accepted = (resource: Bound) => resource.status?.bindings?.find((b) => b.name === 'main')?.conditions?.find((c) => c.type === 'Accepted');
const readBound = async (plural: string, namespace: string, name: string) => (await custom.getNamespacedCustomObject({ ...crd(plural, namespace), name })) as Bound;
const configText = (secret: V1Secret) => Buffer.from(secret.data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8');
const readConfig = () => core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main' });

const serviceMonitor = (namespace: string, name: string, spec: Record<string, unknown>) => custom.createNamespacedCustomObject({
  ...crd(PLURALS.ServiceMonitor, namespace),
  body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name }, spec: { selector: { matchLabels: { app: name } }, endpoints: [{ port: 'web' }], ...spec } },
});
const prometheusRule = (namespace: string, name: string, expr: string) => custom.createNamespacedCustomObject({
  ...crd(PLURALS.PrometheusRule, namespace),
  body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'PrometheusRule', metadata: { name }, spec: { groups: [{ name: 'g', rules: [{ alert: 'A', expr }] }] } },
});

beforeAll(async () => {
  const admin: KubeConfig = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const [name, labels] of [[OPERATOR_NS, {}], [MONITORING, {}], [TEAM, { 'promop.test/scraped-by': id }], [HOSTILE, { 'promop.test/scraped-by': id }]] as const) {
    await core.createNamespace({ body: { metadata: { name, labels } } });
  }
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-${id}`);
  const teams = { matchLabels: { 'promop.test/scraped-by': id } };
  await untilServed(() => custom.createNamespacedCustomObject({
    ...crd(PLURALS.Prometheus, MONITORING),
    body: {
      apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', labels: INSTANCE_LABEL },
      spec: { replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: teams, ruleSelector: {}, ruleNamespaceSelector: teams },
    },
  }));
  await serviceMonitor(TEAM, 'api', { endpoints: [{ port: 'web', interval: '30s' }] });
  operator = new Operator({ kubeConfig: kc, log: pino({ level: 'silent' }), prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}`, workers: 2 });
  await operator.start();
  await eventually(readConfig, (secret) => configText(secret).includes(`serviceMonitor/${TEAM}/api/0`));
}, 120_000);

afterAll(async () => {
  await operator?.stop();
});

describe('a cluster where one team applies hostile objects', () => {
  beforeAll(async () => {
    await serviceMonitor(HOSTILE, 'huge-replacement', { endpoints: [{ port: 'web', relabelings: [{ targetLabel: 'x', replacement: 'y'.repeat(1024 * 1024) }] }] });
    await serviceMonitor(HOSTILE, 'huge-selector', { selector: { matchExpressions: Array.from({ length: 10_000 }, (_, index) => ({ key: `l${index}`, operator: 'In', values: ['a'] })) } });
    // 1,400,000 bytes: etcd refuses an object over 1.5 MiB ("request is too large"), so this is about the largest one can apply.
    await prometheusRule(HOSTILE, 'huge-expr', Array.from({ length: 466_667 }, () => 'up').join('+'));
  }, 60_000);

  it('rejects each hostile object alone, naming the field and the size', async () => {
    const replacement = await eventually(() => readBound(PLURALS.ServiceMonitor, HOSTILE, 'huge-replacement'), (m) => accepted(m)?.status === 'False');
    expect(accepted(replacement)?.message).toMatch(/^spec: its scrape job serviceMonitor\/hostile-\w+\/huge-replacement\/0 is [\d,]+ bytes of YAML/);
    const selector = await eventually(() => readBound(PLURALS.ServiceMonitor, HOSTILE, 'huge-selector'), (m) => accepted(m)?.status === 'False');
    expect(accepted(selector)?.message).toMatch(/^spec: its scrape job serviceMonitor\/hostile-\w+\/huge-selector\/0 is [\d,]+ bytes of YAML/);
    const rule = await eventually(() => readBound(PLURALS.PrometheusRule, HOSTILE, 'huge-expr'), (r) => accepted(r)?.status === 'False');
    expect(accepted(rule)?.message).toMatch(/^spec\.groups\[0\]\.rules\[0\]\.expr: the expression is 1,400,000 bytes/);
  });

  it('still writes another team\'s change into the config Secret', async () => {
    await custom.patchNamespacedCustomObject({ ...crd(PLURALS.ServiceMonitor, TEAM), name: 'api', body: [{ op: 'replace', path: '/spec/endpoints/0/interval', value: '17s' }] });
    const started = Date.now();
    const secret = await eventually(readConfig, (s) => configText(s).includes('scrape_interval: 17s'), 10_000);
    expect(configText(secret)).toContain('scrape_interval: 17s');
    expect(configText(secret)).not.toContain('huge-');
    // Seconds would mean the hostile objects are checked again on every change; the memo keeps their verdicts.
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
