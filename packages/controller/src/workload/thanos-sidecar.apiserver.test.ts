/**
 * `spec.thanos` against the real API server, the operator running as the chart's identity: a Prometheus whose
 * sidecar uploads to object storage gets the `thanos-sidecar` container with `OBJSTORE_CONFIG` from its Secret key,
 * Prometheus' block-duration flags (the CRD's default blockSize, 2h), the HTTP client Secret and the `grpc` port on
 * `prometheus-operated`; a Prometheus with a gRPC server certificate but no key is Reconciled=False naming
 * `spec.thanos.grpcServerTlsConfig.keyFile`, with a Warning Event, while the first keeps its sidecar; once fixed it
 * gets its sidecar, and once `spec.thanos` is removed its sidecar and Secret go.
 */
import { AppsV1Api, type V1Container, type V1StatefulSet } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { randomBytes } from 'node:crypto';
import { eventually } from '@promop/testkit';
import { OperatorWorld, type Condition } from '../test-support/operator-world.ts';

const id = randomBytes(3).toString('hex');
const MONITORING = `thanos-${id}`;
const INSTANCE = { 'promop.test/instance': id };
const OBJSTORE = { name: 'thanos-objstore', key: 'objstore.yaml' };

let world: OperatorWorld;
let apps: AppsV1Api;

interface Status { conditions?: Condition[] }
const reconciled = (object: { status?: Status }) => object.status?.conditions?.find((c) => c.type === 'Reconciled');
const readPrometheus = (name: string) => world.readObject<{ status?: Status }>('Prometheus', MONITORING, name);
const readStatefulSet = (name: string) => apps.readNamespacedStatefulSet({ namespace: MONITORING, name });
const containerOf = (statefulSet: V1StatefulSet, name: string): V1Container | undefined => statefulSet.spec?.template.spec?.containers.find((c) => c.name === name);
const secretNames = async () => (await world.core.listNamespacedSecret({ namespace: MONITORING })).items.map((s) => s.metadata?.name);
const patchThanos = (name: string, operation: object) => world.custom.patchNamespacedCustomObject({
  group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING, name, body: [operation],
});

beforeAll(async () => {
  world = await OperatorWorld.create({ operatorNamespace: `promop-thanos-system-${id}`, identity: `promop-thanos-${id}`, namespaces: { [MONITORING]: {} } });
  apps = world.admin.makeApiClient(AppsV1Api);
  await world.createSecret(MONITORING, OBJSTORE.name, { [OBJSTORE.key]: 'type: FILESYSTEM\nconfig:\n  directory: /tmp/bucket\n' });
  // Thanos 0.40 predates delayed compaction, so Prometheus gets the block-duration flags.
  await world.createObject('Prometheus', MONITORING, 'uploading', { version: 'v3.16.0', thanos: { version: 'v0.40.0', objectStorageConfig: OBJSTORE } }, INSTANCE);
  await world.createObject('Prometheus', MONITORING, 'broken', { version: 'v3.16.0', thanos: { grpcServerTlsConfig: { certFile: '/tls/tls.crt' } } }, INSTANCE);
  await world.startOperator({ prometheusSelector: `promop.test/instance=${id}`, alertmanagerSelector: `promop.test/instance=${id}`, thanosRulerSelector: `promop.test/instance=${id}` });
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe('a Prometheus whose Thanos sidecar uploads blocks (objectStorageConfig)', () => {
  it('gets the thanos-sidecar container with OBJSTORE_CONFIG from the Secret key and the data volume', async () => {
    const statefulSet = await eventually(() => readStatefulSet('prometheus-uploading'), (s) => containerOf(s, 'thanos-sidecar') !== undefined);
    const sidecar = containerOf(statefulSet, 'thanos-sidecar')!;
    expect(sidecar.image).toBe('quay.io/thanos/thanos:v0.40.0');
    expect(sidecar.env).toEqual([{ name: 'OBJSTORE_CONFIG', valueFrom: { secretKeyRef: OBJSTORE } }]);
    expect(sidecar.args).toEqual([
      'sidecar', '--prometheus.url=http://localhost:9090/', '--grpc-address=:10901', '--http-address=:10902',
      '--objstore.config=$(OBJSTORE_CONFIG)', '--tsdb.path=/prometheus',
      '--prometheus.http-client-file=/etc/thanos/config/prometheus.http-client-file.yaml',
    ]);
    expect(sidecar.volumeMounts).toEqual([
      { name: 'prometheus-uploading-db', mountPath: '/prometheus' },
      { name: 'thanos-prometheus-http-client-file', mountPath: '/etc/thanos/config' },
    ]);
  });

  it('makes Prometheus cut 2h blocks without compacting them (blockSize defaulted by the CRD)', async () => {
    const statefulSet = await readStatefulSet('prometheus-uploading');
    expect(containerOf(statefulSet, 'prometheus')?.args?.slice(-2)).toEqual(['--storage.tsdb.max-block-duration=2h', '--storage.tsdb.min-block-duration=2h']);
  });

  it('gets the HTTP client Secret the sidecar mounts, and the grpc port on prometheus-operated', async () => {
    expect(await eventually(secretNames, (names) => names.includes('prometheus-uploading-thanos-prometheus-http-client-file'))).toContain('prometheus-uploading-thanos-prometheus-http-client-file');
    const service = await eventually(() => world.core.readNamespacedService({ namespace: MONITORING, name: 'prometheus-operated' }), (s) => (s.spec?.ports ?? []).length === 2);
    expect(service.spec?.ports?.map((port) => [port.name, port.port, port.targetPort])).toEqual([['web', 9090, 'web'], ['grpc', 10901, 'grpc']]);
  });
});

describe('a Prometheus with a gRPC server certificate but no key', () => {
  it('is Reconciled=False naming spec.thanos.grpcServerTlsConfig.keyFile, with a Warning Event, and gets no StatefulSet', async () => {
    const prometheus = await eventually(() => readPrometheus('broken'), (p) => reconciled(p)?.status === 'False');
    expect(reconciled(prometheus)?.message).toContain('spec.thanos.grpcServerTlsConfig.keyFile');
    const events = await eventually(() => world.warningEvents(MONITORING, 'Prometheus', 'broken'), (list) => list.length > 0);
    expect(events.map((event) => event.note).join('\n')).toContain('spec.thanos.grpcServerTlsConfig.keyFile');
    expect((await apps.listNamespacedStatefulSet({ namespace: MONITORING })).items.map((s) => s.metadata?.name)).not.toContain('prometheus-broken');
  });

  it('does not stop the other Prometheus: it keeps its sidecar and is Reconciled=True', async () => {
    const other = await eventually(() => readPrometheus('uploading'), (p) => reconciled(p)?.status === 'True');
    expect(reconciled(other)?.status).toBe('True');
    expect(containerOf(await readStatefulSet('prometheus-uploading'), 'thanos-sidecar')).toBeDefined();
  });

  it('gets its sidecar with the TLS files once the key is given, and loses it and its Secret once spec.thanos is removed', async () => {
    await patchThanos('broken', { op: 'add', path: '/spec/thanos/grpcServerTlsConfig/keyFile', value: '/tls/tls.key' });
    const statefulSet = await eventually(() => readStatefulSet('prometheus-broken').catch(() => undefined), (s) => s !== undefined && containerOf(s, 'thanos-sidecar') !== undefined);
    expect(containerOf(statefulSet!, 'thanos-sidecar')?.args).toEqual(expect.arrayContaining(['--grpc-server-tls-cert=/tls/tls.crt', '--grpc-server-tls-key=/tls/tls.key']));
    // Delayed compaction (Prometheus 3.16, Thanos 0.42.2) only applies to a sidecar that uploads: none here.
    expect(containerOf(statefulSet!, 'prometheus')?.args?.filter((arg) => /block-duration|delay-compact/.test(arg))).toEqual([]);
    expect(await eventually(secretNames, (names) => names.includes('prometheus-broken-thanos-prometheus-http-client-file'))).toContain('prometheus-broken-thanos-prometheus-http-client-file');

    await patchThanos('broken', { op: 'remove', path: '/spec/thanos' });
    const without = await eventually(() => readStatefulSet('prometheus-broken'), (s) => containerOf(s, 'thanos-sidecar') === undefined);
    expect(without.spec?.template.spec?.volumes?.map((v) => v.name)).not.toContain('thanos-prometheus-http-client-file');
    expect(await eventually(secretNames, (names) => !names.includes('prometheus-broken-thanos-prometheus-http-client-file'))).not.toContain('prometheus-broken-thanos-prometheus-http-client-file');
    // The other Prometheus still has a sidecar, so the Service keeps the grpc port.
    const service = await world.core.readNamespacedService({ namespace: MONITORING, name: 'prometheus-operated' });
    expect(service.spec?.ports?.map((port) => port.name)).toEqual(['web', 'grpc']);
  });
});
