/**
 * ScrapeConfigs (monitoring.coreos.com/v1alpha1) against the real API server, the operator running as the
 * ServiceAccount its ClusterRole rules give: a selected ScrapeConfig becomes a job in the config Secret with its
 * Consul token read from its namespace; one using a discovery kind promop does not render (EC2) is rejected alone,
 * with the field in its v1alpha1 status binding and a Warning Event, never dropped silently.
 */
import { CoreV1Api, CustomObjectsApi, EventsV1Api, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS } from '@promop/crds';
import { applyCrds, untilServed } from '@promop/crds/test-support';
import { sharedTestEnv } from '@promop/e2e';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { Operator } from './operator.ts';
import { eventually } from './test-support/eventually.ts';
import { operatorIdentity } from './test-support/operator-identity.ts';

const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `promop-scfg-system-${id}`;
const MONITORING = `scfg-monitoring-${id}`;
const TEAM = `scfg-team-${id}`;
const TOKEN = `consul-token-${id}`;

let admin: KubeConfig;
let core: CoreV1Api;
let custom: CustomObjectsApi;
let operator: Operator | undefined;
const logLines: string[] = [];

const where = (namespace: string) => ({ group: GROUP, version: API_VERSIONS.ScrapeConfig, plural: PLURALS.ScrapeConfig, namespace });
type Bound = { status?: { acceptedBy?: number; rejectedBy?: number; bindings?: { name: string; namespace: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] }[] } };
const read = async (name: string) => (await custom.getNamespacedCustomObject({ ...where(TEAM), name })) as Bound;
const accepted = (object: Bound) => object.status?.bindings?.find((b) => b.name === 'main' && b.namespace === MONITORING)?.conditions?.find((c) => c.type === 'Accepted');
const configText = (secret: V1Secret) => Buffer.from(secret.data?.['prometheus.yaml'] ?? '', 'base64').toString('utf8');
const readConfig = () => core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main' });

async function create(name: string, spec: object): Promise<void> {
  await custom.createNamespacedCustomObject({ ...where(TEAM), body: { apiVersion: `${GROUP}/${API_VERSIONS.ScrapeConfig}`, kind: 'ScrapeConfig', metadata: { name }, spec } });
}

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  core = admin.makeApiClient(CoreV1Api);
  custom = admin.makeApiClient(CustomObjectsApi);
  await applyCrds(admin);
  for (const name of [OPERATOR_NS, MONITORING, TEAM]) await core.createNamespace({ body: { metadata: { name, labels: { 'promop.test/scfg': id } } } });
  const kc = await operatorIdentity(admin, OPERATOR_NS, `promop-${id}`);
  await core.createNamespacedSecret({ namespace: TEAM, body: { metadata: { name: 'consul' }, stringData: { token: TOKEN } } });
  await untilServed(() => custom.createNamespacedCustomObject({
    group: GROUP, version: API_VERSIONS.Prometheus, plural: PLURALS.Prometheus, namespace: MONITORING,
    body: {
      apiVersion: `${GROUP}/${API_VERSIONS.Prometheus}`, kind: 'Prometheus', metadata: { name: 'main', labels: { 'promop.test/instance': id } },
      spec: { replicas: 1, scrapeConfigSelector: {}, scrapeConfigNamespaceSelector: { matchLabels: { 'promop.test/scfg': id } } },
    },
  }));
  await untilServed(() => create('nodes', {
    staticConfigs: [{ targets: ['node-1:9100'] }],
    consulSDConfigs: [{ server: 'consul.example:8500', tokenRef: { name: 'consul', key: 'token' }, services: ['web'] }],
  }));
  await create('cloud', { ec2SDConfigs: [{ region: 'eu-west-1' }] });

  const log = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  operator = new Operator({ kubeConfig: kc, log, prometheusSelector: `promop.test/instance=${id}`, workers: 2 });
  await operator.start();
}, 60_000);

afterAll(async () => {
  await operator?.stop();
});

describe('a Prometheus selecting ScrapeConfigs', () => {
  it('gets the valid one as a job, with the Consul token from its namespace, and not the rejected one', async () => {
    const secret = await eventually(readConfig, (s) => configText(s).includes(`scrapeConfig/${TEAM}/nodes`));
    const text = configText(secret);
    expect(text).toContain(`job_name: scrapeConfig/${TEAM}/nodes`);
    expect(text).toContain(`token: ${TOKEN}`);
    expect(text).not.toContain(`scrapeConfig/${TEAM}/cloud`);
  });

  it('rejects the one with EC2 discovery, naming the field in its status binding and a Warning Event', async () => {
    const cloud = await eventually(() => read('cloud'), (o) => accepted(o)?.status === 'False');
    expect(accepted(cloud)?.message).toContain('spec.ec2SDConfigs: EC2 service discovery is not rendered by promop');
    expect((await eventually(() => read('nodes'), (o) => accepted(o)?.status === 'True')).status).toMatchObject({ acceptedBy: 1, rejectedBy: 0 });
    const events = admin.makeApiClient(EventsV1Api);
    const list = async () => (await events.listNamespacedEvent({ namespace: TEAM })).items.filter((e) => e.regarding?.kind === 'ScrapeConfig' && e.regarding.name === 'cloud');
    const found = await eventually(list, (items) => items.length > 0);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'Warning', reason: 'InvalidConfiguration', regarding: expect.objectContaining({ apiVersion: `${GROUP}/v1alpha1` }) });
    expect(logLines.join('\n')).not.toContain(TOKEN);
  });
});
