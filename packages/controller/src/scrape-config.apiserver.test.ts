/**
 * ScrapeConfigs (monitoring.coreos.com/v1alpha1) against the real API server, the operator running as the
 * ServiceAccount its ClusterRole rules give: a selected ScrapeConfig becomes a job in the config Secret with its
 * Consul token read from its namespace; one whose OpenStack discovery has a field OpenStack lacks (the CRD keeps
 * these lists opaque, so promop checks them when rendering) is rejected alone, with the field in its v1alpha1 status
 * binding and a Warning Event, never dropped silently.
 */
import { GROUP } from '@promop/crds';
import { randomBytes } from 'node:crypto';
import { eventually } from '@promop/testkit';
import { bindingCondition, configTextOf, OperatorWorld, type BoundResource } from './test-support/operator-world.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `scfg-monitoring-${id}`;
const TEAM = `scfg-team-${id}`;
const TOKEN = `consul-token-${id}`;
const MAIN = { namespace: MONITORING, name: 'main' };

let world: OperatorWorld;

const read = (name: string) => world.readObject('ScrapeConfig', TEAM, name);
const accepted = (object: BoundResource) => bindingCondition(object, MAIN);
const readConfig = () => world.core.readNamespacedSecret({ namespace: MONITORING, name: 'prometheus-main' });
const create = (name: string, spec: object) => world.createObject('ScrapeConfig', TEAM, name, spec);

beforeAll(async () => {
  const labels = { 'promop.test/scfg': id };
  world = await OperatorWorld.create({ operatorNamespace: `promop-scfg-system-${id}`, identity: `promop-${id}`, namespaces: { [MONITORING]: labels, [TEAM]: labels } });
  await world.createSecret(TEAM, 'consul', { token: TOKEN });
  await world.createObject('Prometheus', MONITORING, 'main', { replicas: 1, scrapeConfigSelector: {}, scrapeConfigNamespaceSelector: { matchLabels: labels } }, { 'promop.test/instance': id });
  await create('nodes', {
    staticConfigs: [{ targets: ['node-1:9100'] }],
    consulSDConfigs: [{ server: 'consul.example:8500', tokenRef: { name: 'consul', key: 'token' }, services: ['web'] }],
  });
  await create('cloud', { openstackSDConfigs: [{ role: 'Instance', region: 'eu-west-1', proxyUrl: 'http://proxy:3128' }] });
  await world.startOperator({ prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}` });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe('a Prometheus selecting ScrapeConfigs', () => {
  it('gets the valid one as a job, with the Consul token from its namespace, and not the rejected one', async () => {
    const secret = await eventually(readConfig, (s) => configTextOf(s).includes(`scrapeConfig/${TEAM}/nodes`));
    const text = configTextOf(secret);
    expect(text).toContain(`job_name: scrapeConfig/${TEAM}/nodes`);
    expect(text).toContain(`token: ${TOKEN}`);
    expect(text).not.toContain(`scrapeConfig/${TEAM}/cloud`);
  });

  it('rejects the one whose OpenStack discovery has a field OpenStack lacks, naming the field in its status binding and a Warning Event', async () => {
    const cloud = await eventually(() => read('cloud'), (o) => accepted(o)?.status === 'False');
    expect(accepted(cloud)?.message).toContain('spec.openstackSDConfigs[0].proxyUrl: is not a field of OpenStack discovery');
    expect((await eventually(() => read('nodes'), (o) => accepted(o)?.status === 'True')).status).toMatchObject({ acceptedBy: 1, rejectedBy: 0 });
    const found = await eventually(() => world.warningEvents(TEAM, 'ScrapeConfig', 'cloud'), (items) => items.length > 0);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ type: 'Warning', reason: 'InvalidConfiguration', regarding: expect.objectContaining({ apiVersion: `${GROUP}/v1alpha1` }) });
    expect(world.logLines.join('\n')).not.toContain(TOKEN);
  });
});
