/**
 * patchContainer against the real API server's strategic merge patch: the same container is written in a
 * StatefulSet (replicas 0, so no pod is made), patched by each case's entry (as Go would have marshalled it, which
 * asMarshalled's own tests pin down) with a dry run, and the container the API server answers must be the one
 * promop's merge gives, written the same way.
 */
import { AppsV1Api, CoreV1Api, PatchStrategy, setHeaderOptions, type V1Container, type V1StatefulSet } from '@kubernetes/client-node';
import { sharedTestEnv } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { asMarshalled, patchContainer } from './container-patch.ts';

const NAMESPACE = `container-patch-${randomBytes(3).toString('hex')}`;
const LABELS = { app: 'container-patch' };

/** A container shaped like promop's own: env, ports, mounts, probes, resources and a security context. */
const BASE: V1Container = {
  name: 'main', image: 'example.invalid/main:v1', args: ['--config.file=/etc/config/main.yaml', '--web.listen-address=:9090'],
  env: [
    { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
    { name: 'FIRST', value: '1' }, { name: 'SECOND', value: '2' }, { name: 'THIRD', value: '3' },
  ],
  ports: [{ name: 'web', containerPort: 9090, protocol: 'TCP' }, { name: 'grpc', containerPort: 10901, protocol: 'TCP' }],
  volumeMounts: [
    { name: 'config', mountPath: '/etc/config', readOnly: true },
    { name: 'data', mountPath: '/data' },
    { name: 'rules', mountPath: '/etc/rules', readOnly: true },
  ],
  startupProbe: { httpGet: { path: '/-/ready', port: 'web', scheme: 'HTTP' }, timeoutSeconds: 3, periodSeconds: 15, failureThreshold: 60 },
  livenessProbe: { httpGet: { path: '/-/healthy', port: 'web', scheme: 'HTTP' }, timeoutSeconds: 3, periodSeconds: 5, failureThreshold: 6 },
  resources: { requests: { memory: '200Mi', cpu: '100m' } },
  securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
  terminationMessagePolicy: 'FallbackToLogsOnError',
};

/** Entries a user writes under spec.containers with promop's container's name. */
const CASES: Record<string, Partial<V1Container>> = {
  'a new environment variable': { env: [{ name: 'EXTRA', value: 'x' }] },
  'environment variables reordered, one new, one changed': { env: [{ name: 'THIRD', value: 'three' }, { name: 'NEW', value: 'n' }, { name: 'FIRST', value: 'one' }] },
  'an environment variable changed in place': { env: [{ name: 'SECOND', value: 'two' }] },
  'one limit': { resources: { limits: { cpu: '1', memory: '1Gi' } } },
  'a request replaced': { resources: { requests: { memory: '1Gi' } } },
  'a longer startup probe': { startupProbe: { failureThreshold: 120 } },
  'another liveness path': { livenessProbe: { httpGet: { path: '/other', port: 'web' } } },
  'an exec probe beside httpGet is merged in (and refused by the API server alike)': { readinessProbe: { exec: { command: ['true'] } } },
  'a new mount and a changed one': { volumeMounts: [{ name: 'extra', mountPath: '/extra' }, { name: 'data2', mountPath: '/data' }] },
  'ports: a host port and a new port': { ports: [{ containerPort: 9090, name: 'web', hostPort: 9090 }, { containerPort: 8080, name: 'extra' }] },
  'a writable root and root user': { securityContext: { readOnlyRootFilesystem: false, runAsUser: 0, capabilities: { add: ['NET_ADMIN'] } } },
  'args replaced': { args: ['--only'] },
  'image and pull policy': { image: 'example.invalid/main:v2', imagePullPolicy: 'Always' },
  'Go leaves out empty and zero values': { env: [], image: '', stdin: false, tty: false, startupProbe: { failureThreshold: 0, periodSeconds: 30 } },
  'a mount marked not read-only stays read-only': { volumeMounts: [{ name: 'config', mountPath: '/etc/config', readOnly: false }] },
  'a volume device and lifecycle': { volumeDevices: [{ name: 'raw', devicePath: '/dev/raw' }], lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } } },
};

/** Every volume a case mounts (a raw device needs a claim). */
const VOLUMES = [...['config', 'data', 'rules', 'extra', 'data2'].map((name) => ({ name, emptyDir: {} })), { name: 'raw', persistentVolumeClaim: { claimName: 'raw' } }];

let apps: AppsV1Api;

const statefulSet = (name: string, container: V1Container): V1StatefulSet => ({
  metadata: { name }, spec: { replicas: 0, serviceName: 'none', selector: { matchLabels: LABELS }, template: { metadata: { labels: LABELS }, spec: { containers: [container], volumes: VOLUMES } } },
});

beforeAll(async () => {
  const kubeConfig = sharedTestEnv().kubeConfig();
  apps = kubeConfig.makeApiClient(AppsV1Api);
  await kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: NAMESPACE } } });
  await apps.createNamespacedStatefulSet({ namespace: NAMESPACE, body: statefulSet('base', BASE) });
});

afterAll(async () => {
  await sharedTestEnv().kubeConfig().makeApiClient(CoreV1Api).deleteNamespace({ name: NAMESPACE }).catch(() => {});
});

/** The API server's answer, or its refusal's message. */
async function answer(request: () => Promise<V1StatefulSet>): Promise<V1Container | string> {
  try {
    return (await request()).spec!.template.spec!.containers[0]!;
  } catch (error) {
    const body = (error as { body?: string }).body;
    return `refused: ${body ? (JSON.parse(body) as { reason?: string }).reason : String(error)}`;
  }
}

describe('patchContainer', () => {
  it.each(Object.keys(CASES))('merges like the API server: %s', async (name) => {
    const patch = { name: 'main', ...CASES[name] } as V1Container;
    const marshalled = asMarshalled(patch as never, 'container');
    const theirs = await answer(() => apps.patchNamespacedStatefulSet({
      name: 'base', namespace: NAMESPACE, dryRun: 'All', body: { spec: { template: { spec: { containers: [marshalled] } } } },
    }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch)));
    const ours = await answer(() => apps.createNamespacedStatefulSet({ namespace: NAMESPACE, dryRun: 'All', body: statefulSet('ours', patchContainer(BASE, patch)) }));
    expect(ours).toEqual(theirs);
  });

  it('keeps the order Kubernetes gives a merged list', async () => {
    const merged = patchContainer(BASE, { name: 'main', env: [{ name: 'THIRD', value: 'three' }, { name: 'NEW', value: 'n' }, { name: 'FIRST', value: 'one' }] });
    // The patch's order, with POD_NAME and SECOND, which stood before THIRD in the container, put before it.
    expect(merged.env?.map((each) => each.name)).toEqual(['POD_NAME', 'SECOND', 'THIRD', 'NEW', 'FIRST']);
  });
});
