/**
 * ThanosRuler objects against the real API server, with the operator running as the ServiceAccount its ClusterRole
 * rules give (so a missing rule fails here): a ThanosRuler selecting the teams' PrometheusRules gets its rule
 * ConfigMap (partial_response_strategy kept, the namespace label enforced), the three Secrets its pods mount, the
 * thanos-ruler-operated Service and a StatefulSet of `thanos rule` pods with upstream's args, all owned by it; each
 * PrometheusRule gets a binding (a broken one rejected alone, with its path in its status and a Warning Event); the
 * ThanosRuler's own status says Reconciled, and Available False while no pod runs (no kubelet here). A ThanosRuler
 * with no query endpoint is refused with the reason in its status and an Event, and nothing is created for it.
 *
 * Then a running pod: a real `thanos rule` process (started with the args promop renders, against a real `thanos
 * query`) plays a pod of a second ThanosRuler, and a fake kubelet copies the rule ConfigMaps into the files it reads
 * whenever promop touches the Pod object. A changed PrometheusRule reaches the running process through promop's
 * reload, with no change of the pod template. The rule files must sit where promop's reload check expects them
 * (`/etc/thanos/rules/<ConfigMap>/<file>`, as mounted in the pod), so the fake kubelet writes them there under
 * ConfigMap names unique to this run and they are removed afterwards (the test runs as root, as CI does, like
 * reload/bad-rule.apiserver.test.ts for Prometheus).
 */
import { AppsV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeKubelet, eventually, freePort, startProcess, startUntilReady, toolPath } from '@promop/testkit';
import { bindingCondition, OperatorWorld } from './test-support/operator-world.ts';
import { INVALID_CONFIGURATION_REASON } from './thanos-ruler/reconcile-thanos-ruler.ts';
import { THANOS_RULES_DIR, thanosRulerCommand, thanosRulerSelectorLabels } from './thanos-ruler/thanos-ruler-children.ts';
import type { ThanosRuler } from '@promop/crds';

const id = randomBytes(3).toString('hex');
const MONITORING = `tr-monitoring-${id}`;
const TEAM = `tr-team-${id}`;
const TEAM_LABEL = { 'promop.test/thanos-rules': id };
/** This test's workloads: its operator manages only these (other test files' objects share the control plane). */
const INSTANCE = { 'promop.test/instance': id };
const INSTANCE_SELECTOR = `promop.test/instance=${id}`;

interface StoredRuler {
  status?: { paused?: boolean; replicas?: number; conditions?: { type: string; status: string; reason?: string; message?: string; observedGeneration?: number }[] };
}
const condition = (ruler: StoredRuler, type: string) => ruler.status?.conditions?.find((each) => each.type === type);

let world: OperatorWorld;
let apps: AppsV1Api;
/** The HTTP port of each hand-made pod's thanos rule (the operator's test-only port override). */
const ports = new Map<string, number>();

beforeAll(async () => {
  world = await OperatorWorld.create({
    operatorNamespace: `promop-tr-system-${id}`, identity: `promop-tr-${id}`,
    namespaces: { [MONITORING]: {}, [TEAM]: TEAM_LABEL },
  });
  apps = world.admin.makeApiClient(AppsV1Api);
  await world.createObject('PrometheusRule', TEAM, 'slo', {
    groups: [{ name: 'slo', partial_response_strategy: 'warn', rules: [{ alert: 'HighErrorRate', expr: 'rate(errors_total[5m]) > 1', for: '5m' }] }],
  });
  await world.createObject('PrometheusRule', TEAM, 'broken', { groups: [{ name: 'broken', rules: [{ record: 'x:y', expr: 'sum(' }] }] });
  await world.createObject('ThanosRuler', MONITORING, 'main', {
    queryEndpoints: [`dnssrv+_http._tcp.thanos-query.${MONITORING}.svc`],
    alertmanagersUrl: [`dnssrv+http://_web._tcp.alertmanager-operated.${MONITORING}.svc`],
    objectStorageConfig: { name: 'thanos-objstore', key: 'objstore.yaml' },
    ruleSelector: {}, ruleNamespaceSelector: { matchLabels: TEAM_LABEL }, enforcedNamespaceLabel: 'namespace',
    labels: { cluster: 'test' }, replicas: 2,
  }, INSTANCE);
  await world.createObject('ThanosRuler', MONITORING, 'noquery', { ruleSelector: {} }, INSTANCE);
  await world.createObject('ThanosRuler', MONITORING, 'custom', { queryEndpoints: ['thanos-query:10902'], ruleSelector: {}, serviceName: 'custom-rulers' }, INSTANCE);
  await world.startOperator({ prometheusSelector: INSTANCE_SELECTOR, alertmanagerSelector: INSTANCE_SELECTOR, thanosRulerSelector: INSTANCE_SELECTOR, podNetworks: ['127.0.0.1/32'], reloadTimeoutMs: 20_000, thanosRulerPortOf: (pod) => ports.get(pod.metadata?.name ?? '') ?? 10902 });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

test('a ThanosRuler gets its rule files, Secrets, Service and StatefulSet, and says Reconciled', async () => {
  const stored = await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, 'main'), (ruler) => condition(ruler, 'Reconciled')?.status === 'True');
  expect(condition(stored, 'Available')).toMatchObject({ status: 'False', reason: 'NoReplicasAvailable' });

  const configMap = await world.core.readNamespacedConfigMap({ namespace: MONITORING, name: 'thanos-ruler-main-rulefiles-0' });
  expect(configMap.metadata?.labels?.['thanos-ruler-name']).toBe('main');
  const files = Object.entries(configMap.data ?? {});
  expect(files).toHaveLength(1);
  expect(files[0]![0]).toMatch(new RegExp(`^${TEAM}-slo-`));
  expect(files[0]![1]).toContain('partial_response_strategy: warn');
  expect(files[0]![1]).toContain(`rate(errors_total{namespace="${TEAM}"}[5m]) > 1`);

  for (const name of ['thanos-ruler-main-config', 'thanos-ruler-main-tls-assets-0', 'thanos-ruler-main-web-config']) {
    const secret = await world.core.readNamespacedSecret({ namespace: MONITORING, name });
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ThanosRuler', name: 'main', controller: true });
  }

  const statefulSet = await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'thanos-ruler-main' });
  expect(statefulSet.spec?.replicas).toBe(2);
  expect(statefulSet.spec?.serviceName).toBe('thanos-ruler-operated');
  const container = statefulSet.spec?.template.spec?.containers[0];
  expect(container?.image).toBe('quay.io/thanos/thanos:v0.42.2');
  expect(container?.args).toEqual(expect.arrayContaining([
    'rule', `--query=dnssrv+_http._tcp.thanos-query.${MONITORING}.svc`, `--alertmanagers.url=dnssrv+http://_web._tcp.alertmanager-operated.${MONITORING}.svc`,
    '--objstore.config-file=/etc/thanos/config/objstorage-config/objstore.yaml', '--label=cluster="test"', '--rule-file=/etc/thanos/rules/*/*.yaml',
  ]));
  const service = await world.core.readNamespacedService({ namespace: MONITORING, name: 'thanos-ruler-operated' });
  expect(service.spec?.ports?.map((port) => `${port.name}:${port.port}`)).toEqual(['web:10902', 'grpc:10901']);
  // Every ThanosRuler of the namespace that uses the shared Service owns it (the refused one too, as upstream, which
  // writes the Service before it builds the StatefulSet): it goes with the last of them.
  expect(service.metadata?.ownerReferences?.map((owner) => owner.name)).toEqual(['main', 'noquery']);
}, 60_000);

test('each selected PrometheusRule gets a binding; a broken one is rejected alone, with its path and an Event', async () => {
  const owner = { namespace: MONITORING, name: 'main', resource: 'thanosrulers' };
  const good = await eventually(() => world.readObject('PrometheusRule', TEAM, 'slo'), (rule) => bindingCondition(rule, owner)?.status === 'True');
  expect(bindingCondition(good, owner)).toMatchObject({ status: 'True' });
  const bad = await eventually(() => world.readObject('PrometheusRule', TEAM, 'broken'), (rule) => bindingCondition(rule, owner)?.status === 'False');
  expect(bindingCondition(bad, owner)).toMatchObject({ status: 'False', reason: 'InvalidConfiguration', message: expect.stringContaining('spec.groups[0].rules[0].expr') });
  const events = await eventually(() => world.warningEvents(TEAM, 'PrometheusRule', 'broken'), (found) => found.length > 0);
  expect(events[0]?.related?.kind).toBe('ThanosRuler');
}, 60_000);

test('a ThanosRuler without a query endpoint is refused with the reason and an Event, and nothing is created for it', async () => {
  const stored = await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, 'noquery'), (ruler) => condition(ruler, 'Reconciled')?.status === 'False');
  expect(condition(stored, 'Reconciled')).toMatchObject({ reason: INVALID_CONFIGURATION_REASON, message: expect.stringContaining('spec.queryEndpoints: thanos rule needs an API') });
  const events = await eventually(() => world.warningEvents(MONITORING, 'ThanosRuler', 'noquery'), (found) => found.length > 0);
  expect(events[0]?.reason).toBe(INVALID_CONFIGURATION_REASON);
  await expect(apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'thanos-ruler-noquery' })).rejects.toMatchObject({ code: 404 });

  // Reconciled again for a change that leaves the refusal as it was: its status follows the new generation, and
  // no second Warning is written (one per refusal, not one per reconcile).
  const changed = await world.custom.patchNamespacedCustomObject({
    group: 'monitoring.coreos.com', version: 'v1', plural: 'thanosrulers', namespace: MONITORING, name: 'noquery',
    body: [{ op: 'add', path: '/spec/evaluationInterval', value: '45s' }],
  }) as { metadata: { generation?: number } };
  await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, 'noquery'),
    (ruler) => ruler.status?.conditions?.find((each) => each.type === 'Reconciled')?.observedGeneration === changed.metadata.generation);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(await world.warningEvents(MONITORING, 'ThanosRuler', 'noquery')).toHaveLength(1);
}, 60_000);

test('a ThanosRuler whose serviceName Service does not exist is refused until it exists and selects its pods', async () => {
  const stored = await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, 'custom'), (ruler) => condition(ruler, 'Reconciled')?.status === 'False');
  expect(condition(stored, 'Reconciled')).toMatchObject({ reason: INVALID_CONFIGURATION_REASON, message: `spec.serviceName: Service ${MONITORING}/custom-rulers does not exist; create the headless Service that governs the pods, or leave spec.serviceName unset` });
  await expect(apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'thanos-ruler-custom' })).rejects.toMatchObject({ code: 404 });

  await world.core.createNamespacedService({ namespace: MONITORING, body: { metadata: { name: 'custom-rulers' }, spec: { clusterIP: 'None', selector: thanosRulerSelectorLabels('custom'), ports: [{ name: 'web', port: 10902 }] } } });
  // Looked at again within 30 s; a change of the ruler makes it now.
  await world.custom.patchNamespacedCustomObject({
    group: 'monitoring.coreos.com', version: 'v1', plural: 'thanosrulers', namespace: MONITORING, name: 'custom',
    body: [{ op: 'add', path: '/spec/evaluationInterval', value: '45s' }],
  });
  await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, 'custom'), (ruler) => condition(ruler, 'Reconciled')?.status === 'True');
  const statefulSet = await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'thanos-ruler-custom' });
  expect(statefulSet.spec?.serviceName).toBe('custom-rulers');
}, 60_000);

test('a stateless ThanosRuler gets its remote write file with the credentials of its namespace, follows their Secret, and is refused naming one it cannot find', async () => {
  const remoteWrite = (secret: string) => [{ url: 'https://receive.example:19291/api/v1/receive', basicAuth: { username: { name: secret, key: 'user' }, password: { name: secret, key: 'password' } } }];
  await world.core.createNamespacedSecret({ namespace: MONITORING, body: { metadata: { name: 'rw-auth' }, stringData: { user: 'ruler', password: `first-${id}` } } });
  await world.createObject('ThanosRuler', MONITORING, 'stateless', { queryEndpoints: ['thanos-query:10902'], ruleSelector: {}, remoteWrite: remoteWrite('rw-auth') }, INSTANCE);
  await world.createObject('ThanosRuler', MONITORING, 'stateless-missing', { queryEndpoints: ['thanos-query:10902'], ruleSelector: {}, remoteWrite: remoteWrite('absent') }, INSTANCE);
  const remoteWriteFile = async () => Buffer.from((await world.core.readNamespacedSecret({ namespace: MONITORING, name: 'thanos-ruler-stateless-config' }).catch(() => ({ data: {} as Record<string, string> }))).data?.['remote-write.yaml'] ?? '', 'base64').toString();
  expect(await eventually(remoteWriteFile, (text) => text !== '')).toBe(
    `remote_write:\n- url: https://receive.example:19291/api/v1/receive\n  basic_auth:\n    username: ruler\n    password: first-${id}\n`);
  const statefulSet = await eventually(() => apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'thanos-ruler-stateless' }).catch(() => undefined), (found) => found !== undefined);
  expect(statefulSet!.spec?.template.spec?.containers[0]?.args).toContain('--remote-write.config-file=/etc/thanos/config/remote-write-config/remote-write.yaml');

  // A new password reaches the file: the referenced Secret's change enqueues the ruler.
  await world.core.patchNamespacedSecret({ namespace: MONITORING, name: 'rw-auth', body: { stringData: { password: `second-${id}` } } }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
  await eventually(remoteWriteFile, (text) => text.includes(`password: second-${id}`));

  const missing = await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, 'stateless-missing'), (ruler) => condition(ruler, 'Reconciled')?.status === 'False');
  expect(condition(missing, 'Reconciled')?.message).toContain('spec.remoteWrite[0].basicAuth.username: Secret "absent" not found in namespace');
  await expect(apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'thanos-ruler-stateless-missing' })).rejects.toMatchObject({ code: 404 });
}, 60_000);

test('a ThanosRuler with spec.web.tlsConfig gets its web configuration file and the TLS material mounted, and is Reconciled', async () => {
  await world.createObject('ThanosRuler', MONITORING, 'secure', {
    queryEndpoints: ['thanos-query:10902'], ruleSelector: {},
    web: { tlsConfig: { cert: { secret: { name: 'ruler-web', key: 'tls.crt' } }, keySecret: { name: 'ruler-web', key: 'tls.key' } }, httpConfig: { http2: false } },
  }, INSTANCE);
  await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, 'secure'), (ruler) => condition(ruler, 'Reconciled')?.status === 'True');
  const secret = await world.core.readNamespacedSecret({ namespace: MONITORING, name: 'thanos-ruler-secure-web-config' });
  expect(Buffer.from(secret.data?.['web-config.yaml'] ?? '', 'base64').toString()).toBe([
    'tls_server_config:', '  cert_file: /etc/thanos/web_config/secret/ruler-web-cert/tls.crt', '  key_file: /etc/thanos/web_config/secret/ruler-web-key/tls.key',
    'http_server_config:', '  http2: false', '',
  ].join('\n'));
  const pod = (await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: 'thanos-ruler-secure' })).spec!.template;
  expect(pod.spec?.volumes?.filter((volume) => volume.name.startsWith('web-config-tls-')).map((volume) => volume.secret?.secretName)).toEqual(['ruler-web', 'ruler-web']);
  expect(pod.metadata?.annotations?.['promop.prometheus.io/web-config-hash']).toMatch(/^[0-9a-f]{16}$/);
}, 60_000);

describe('a running thanos rule pod, with the kubelet played by the test', () => {
  const NAME = `live-${id}`;
  const POD = `live-replica-${id}`;
  const LIVE_LABEL = { 'promop.test/live-ruler': id };
  const dir = mkdtempSync(join(tmpdir(), 'promop-tr-live-'));
  const stops: (() => Promise<void>)[] = [];
  let kubelet: FakeKubelet;
  let rulerHttp = 0;
  interface RulesAnswer { data: { groups: { name: string; file: string; rules: { name: string; query: string }[] }[] } }
  const loaded = async () => ((await (await fetch(`http://127.0.0.1:${rulerHttp}/api/v1/rules`)).json()) as RulesAnswer).data.groups;

  beforeAll(async () => {
    const queryHttp = await freePort();
    const query = startProcess('thanos-query', toolPath('thanos'), ['query', `--http-address=127.0.0.1:${queryHttp}`, `--grpc-address=127.0.0.1:${await freePort()}`], join(dir, 'query.log'));
    stops.push((await startUntilReady(query, `http://127.0.0.1:${queryHttp}/-/ready`, join(dir, 'query'))).stop);
    const spec = { queryEndpoints: [`127.0.0.1:${queryHttp}`], evaluationInterval: '1s', ruleSelector: { matchLabels: LIVE_LABEL }, ruleNamespaceSelector: {} };
    // thanos rule with the args promop renders, its paths and addresses this process' own; only this run's rule
    // ConfigMaps are read (other tests may write theirs under the same directory).
    const command = thanosRulerCommand({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ThanosRuler', metadata: { namespace: MONITORING, name: NAME, uid: 'u' }, spec } as ThanosRuler);
    if (!command.ok) throw new Error(JSON.stringify(command.problems));
    const webConfig = join(dir, 'web-config.yaml');
    writeFileSync(webConfig, '');
    rulerHttp = await freePort();
    const args = [
      ...command.value.args.map((arg) => arg
        .replace(/^--data-dir=.*/, `--data-dir=${join(dir, 'data')}`)
        .replace(/^--rule-file=.*/, `--rule-file=${THANOS_RULES_DIR}/thanos-ruler-${NAME}-rulefiles-*/*.yaml`)
        .replace(/^--http\.config=.*/, `--http.config=${webConfig}`)
        .replace('$(POD_NAME)', POD)),
      `--http-address=127.0.0.1:${rulerHttp}`, `--grpc-address=127.0.0.1:${await freePort()}`,
    ];
    const rule = startProcess('thanos-rule', toolPath('thanos'), args, join(dir, 'rule.log'));
    stops.push((await startUntilReady(rule, `http://127.0.0.1:${rulerHttp}/-/ready`, join(dir, 'rule'))).stop);
    ports.set(POD, rulerHttp);
    // A pod of the ThanosRuler's (its labels), named without an ordinal so the StatefulSet does not adopt it.
    await world.core.createNamespacedPod({
      namespace: MONITORING,
      body: { metadata: { name: POD, labels: thanosRulerSelectorLabels(NAME) }, spec: { automountServiceAccountToken: false, containers: [{ name: 'thanos-ruler', image: 'quay.io/thanos/thanos:v0.42.2' }] } },
    });
    await world.core.patchNamespacedPodStatus({
      namespace: MONITORING, name: POD,
      body: { status: { phase: 'Running', podIP: '127.0.0.1', podIPs: [{ ip: '127.0.0.1' }], conditions: [{ type: 'Ready', status: 'True' }] } },
    }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    kubelet = new FakeKubelet({
      core: world.core, namespace: MONITORING, pod: POD, configSecret: `thanos-ruler-${NAME}-config`, configKey: 'remote-write.yaml', configFile: join(dir, 'remote-write.yaml'),
      ruleFiles: { configMapPrefix: `thanos-ruler-${NAME}-rulefiles-`, directory: THANOS_RULES_DIR },
    });
    kubelet.start();
    await world.createObject('PrometheusRule', TEAM, 'live', { groups: [{ name: 'live', rules: [{ record: 'live:one', expr: 'vector(1)' }] }] }, LIVE_LABEL);
    await world.createObject('ThanosRuler', MONITORING, NAME, spec, INSTANCE);
  }, 90_000);

  afterAll(async () => {
    kubelet?.stop();
    for (const stop of stops.reverse()) await stop();
    rmSync(join(THANOS_RULES_DIR, `thanos-ruler-${NAME}-rulefiles-0`), { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  test('evaluates the selected rules, and a changed PrometheusRule reaches it by a reload, with no change of the pod template', async () => {
    const groups = await eventually(loaded, (found) => found.some((group) => group.name === 'live'), 60_000, 500);
    expect(groups.map((group) => [group.name, group.file, group.rules.map((rule) => rule.query)])).toEqual([
      ['live', expect.stringMatching(new RegExp(`^${THANOS_RULES_DIR}/thanos-ruler-${NAME}-rulefiles-0/${TEAM}-live-`)), ['vector(1)']],
    ]);
    const stored = await eventually(() => world.readObject<StoredRuler>('ThanosRuler', MONITORING, NAME), (ruler) => condition(ruler, 'Reconciled')?.status === 'True');
    expect(condition(stored, 'Reconciled')).toMatchObject({ reason: 'Reconciled' });
    const template = (await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: `thanos-ruler-${NAME}` })).spec?.template;

    await world.custom.patchNamespacedCustomObject({
      group: 'monitoring.coreos.com', version: 'v1', plural: 'prometheusrules', namespace: TEAM, name: 'live',
      body: { spec: { groups: [{ name: 'live', rules: [{ record: 'live:two', expr: 'vector(2)' }] }] } },
    }, setHeaderOptions('Content-Type', PatchStrategy.MergePatch));
    const changed = await eventually(loaded, (found) => found.some((group) => group.rules.some((rule) => rule.name === 'live:two')), 60_000, 500);
    expect(changed.flatMap((group) => group.rules.map((rule) => [rule.name, rule.query]))).toEqual([['live:two', 'vector(2)']]);
    expect(kubelet.syncs).toBeGreaterThan(0);
    expect((await apps.readNamespacedStatefulSet({ namespace: MONITORING, name: `thanos-ruler-${NAME}` })).spec?.template).toEqual(template);
  }, 120_000);
});
