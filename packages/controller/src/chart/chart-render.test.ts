/**
 * charts/promop through the real helm, offline: lint, what `helm template` renders, and the values schema and
 * kubeVersion constraint refusing what they should. No cluster needed (chart-install.apiserver.test.ts installs it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import {
  CRD_MANAGER_RULES, LEADER_ELECTION_ROLE_RULES, OPERATOR_CLUSTER_ROLE_RULES, OPERATOR_CLUSTER_SCOPED_RULES, OPERATOR_NAMESPACE_ROLE_RULES,
} from '../rbac/index.ts';
import { CHART_DIR, KEEP_POLICY, REPO_CRDS_DIR } from './chart-files.ts';
import { helm } from '@promop/testkit';
import { ALL_KINDS } from '@promop/crds';

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  [key: string]: unknown;
}
interface PodSpec {
  serviceAccountName: string;
  securityContext: Record<string, unknown>;
  containers: { name: string; image: string; args: string[]; ports: { containerPort: number }[]; securityContext: Record<string, unknown>; resources: Record<string, unknown>; livenessProbe: { httpGet: { path: string; port: string } }; readinessProbe: { httpGet: { path: string; port: string } } }[];
  nodeSelector?: Record<string, string>;
  tolerations?: unknown[];
}
interface Deployment extends Manifest {
  spec: { replicas: number; strategy: { type: string; rollingUpdate?: Record<string, unknown> }; template: { metadata: { annotations?: Record<string, string> }; spec: PodSpec } };
}

/** `helm template` with `args`; throws with helm's stderr when it fails (these renders are meant to succeed). */
async function render(...args: string[]): Promise<Manifest[]> {
  const result = await helm(['template', 'rel', CHART_DIR, '--namespace', 'promop-system', ...args]);
  if (result.code !== 0) throw new Error(`helm template failed (${result.code}): ${result.stderr}`);
  return (loadAll(result.stdout) as (Manifest | null)[]).filter((m): m is Manifest => m !== null);
}
const ofKind = <T extends Manifest = Manifest>(manifests: Manifest[], kind: string) => manifests.filter((m) => m.kind === kind) as T[];

describe('charts/promop with helm', () => {
  it('passes helm lint (strict: warnings fail too)', async () => {
    const result = await helm(['lint', '--strict', CHART_DIR]);
    expect({ code: result.code, output: result.stdout + result.stderr }).toEqual({ code: 0, output: expect.stringContaining('0 chart(s) failed') });
  }, 60_000);

  describe('helm template with the default values', () => {
    let manifests: Manifest[];
    beforeAll(async () => {
      manifests = await render();
    }, 60_000);

    it('renders one Deployment running `promop run` as the chart ServiceAccount, and nothing unexpected', () => {
      expect(manifests.map((m) => m.kind).sort()).toEqual([
        'ClusterRole', 'ClusterRoleBinding', ...Array(ALL_KINDS.length).fill('CustomResourceDefinition'), 'Deployment', 'Service', 'ServiceAccount',
      ]);
      const [deployment] = ofKind<Deployment>(manifests, 'Deployment');
      expect(deployment?.spec.replicas).toBe(1);
      // Leader election is on: a rollout starts the new pod as a stand-by before the old one releases the Lease.
      expect(deployment?.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
      const pod = deployment?.spec.template.spec;
      expect(pod?.serviceAccountName).toBe(ofKind(manifests, 'ServiceAccount')[0]?.metadata.name);
      expect(pod?.containers.map((c) => [c.name, c.image, c.args])).toEqual([['promop', 'ghcr.io/promop/promop:0.1.0', ['run', '--metrics-address=:8080']]]);
      const container = pod?.containers[0];
      expect(container?.ports.map((p) => p.containerPort)).toEqual([8080]);
      expect([container?.livenessProbe.httpGet, container?.readinessProbe.httpGet]).toEqual([{ path: '/healthz', port: 'metrics' }, { path: '/readyz', port: 'metrics' }]);
      expect(container?.resources).toEqual({ requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '2Gi' } });
    });

    it('runs the container as the restricted Pod Security Standard requires', () => {
      const pod = ofKind<Deployment>(manifests, 'Deployment')[0]?.spec.template.spec;
      expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
      expect(pod?.containers[0]?.securityContext).toEqual({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
    });

    it('gives the ClusterRole exactly OPERATOR_CLUSTER_ROLE_RULES and CRD_MANAGER_RULES, bound to the chart ServiceAccount', () => {
      const [role] = ofKind(manifests, 'ClusterRole');
      expect(role?.rules).toEqual([...OPERATOR_CLUSTER_ROLE_RULES, ...CRD_MANAGER_RULES]);
      const [binding] = ofKind(manifests, 'ClusterRoleBinding');
      expect(binding?.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role?.metadata.name });
      expect(binding?.subjects).toEqual([{ kind: 'ServiceAccount', name: ofKind(manifests, 'ServiceAccount')[0]?.metadata.name, namespace: 'promop-system' }]);
    });

    it('renders the CRDs of crds/ with helm.sh/resource-policy: keep, so uninstall never deletes them', () => {
      const crds = ofKind(manifests, 'CustomResourceDefinition');
      const committed = readdirSync(REPO_CRDS_DIR).filter((n) => n.endsWith('.yaml')).sort().map((n) => loadAll(readFileSync(join(REPO_CRDS_DIR, n), 'utf8'))[0] as Manifest);
      expect(crds.map((c) => c.metadata.annotations)).toEqual(committed.map((c) => ({ ...c.metadata.annotations, ...KEEP_POLICY })));
      expect(crds.map((c) => ({ ...c, metadata: { ...c.metadata, annotations: undefined } }))).toEqual(committed.map((c) => ({ ...c, metadata: { ...c.metadata, annotations: undefined } })));
    });
  });

  it('with crds.managedByOperator=false runs promop run --manage-crds=false and grants no CRD rule', async () => {
    const manifests = await render('--set', 'crds.managedByOperator=false');
    expect(ofKind<Deployment>(manifests, 'Deployment')[0]?.spec.template.spec.containers[0]?.args).toEqual(['run', '--metrics-address=:8080', '--manage-crds=false']);
    expect(ofKind(manifests, 'ClusterRole')[0]?.rules).toEqual(OPERATOR_CLUSTER_ROLE_RULES);
  }, 60_000);

  it('leaves the CRDs out with crds.install=false', async () => {
    const manifests = await render('--set', 'crds.install=false');
    expect(ofKind(manifests, 'CustomResourceDefinition')).toEqual([]);
    expect(ofKind(manifests, 'Deployment')).toHaveLength(1);
  }, 60_000);

  it('applies the scheduling, pod and argument values', async () => {
    const manifests = await render(
      '--set', 'image.tag=dev-1', '--set', 'extraArgs[0]=--flag=x', '--set', 'podAnnotations.team=obs',
      '--set', 'nodeSelector.disk=ssd', '--set', 'tolerations[0].operator=Exists', '--set', 'metrics.service.enabled=false',
      '--set', 'probes.enabled=false',
    );
    const pod = ofKind<Deployment>(manifests, 'Deployment')[0]?.spec.template;
    expect(pod?.spec.containers[0]?.image).toBe('ghcr.io/promop/promop:dev-1');
    expect(pod?.spec.containers[0]?.args).toEqual(['run', '--metrics-address=:8080', '--flag=x']);
    expect(pod?.metadata.annotations).toEqual({ team: 'obs' });
    expect(pod?.spec.nodeSelector).toEqual({ disk: 'ssd' });
    expect(pod?.spec.tolerations).toEqual([{ operator: 'Exists' }]);
    expect(ofKind(manifests, 'Service')).toEqual([]);
    expect([pod?.spec.containers[0]?.livenessProbe, pod?.spec.containers[0]?.readinessProbe]).toEqual([undefined, undefined]);
  }, 60_000);

  it('mounts prometheusClientCertificate.secretName into promop\'s pod and passes it as the client certificate for Prometheus pods', async () => {
    const pod = ofKind<Deployment>(await render('--set', 'prometheusClientCertificate.secretName=promop-client-tls'), 'Deployment')[0]?.spec.template.spec as unknown as {
      containers: { args: string[]; volumeMounts?: unknown[] }[]; volumes?: unknown[];
    };
    expect(pod.containers[0]?.args).toEqual([
      'run', '--metrics-address=:8080', '--prometheus-client-cert=/etc/promop/prometheus-client/tls.crt', '--prometheus-client-key=/etc/promop/prometheus-client/tls.key',
    ]);
    expect(pod.containers[0]?.volumeMounts).toEqual([{ name: 'prometheus-client-certificate', mountPath: '/etc/promop/prometheus-client', readOnly: true }]);
    expect(pod.volumes).toEqual([{ name: 'prometheus-client-certificate', secret: { secretName: 'promop-client-tls' } }]);
    const without = ofKind<Deployment>(await render(), 'Deployment')[0]?.spec.template.spec as unknown as { containers: { volumeMounts?: unknown[] }[]; volumes?: unknown[] };
    expect([without.containers[0]?.volumeMounts, without.volumes]).toEqual([undefined, undefined]);
  }, 60_000);

  it('runs two replicas with a PodDisruptionBudget keeping one; without leader election, one pod and Recreate', async () => {
    const two = await render('--set', 'replicaCount=2');
    expect(ofKind<Deployment>(two, 'Deployment')[0]?.spec.replicas).toBe(2);
    const [budget] = ofKind<Manifest & { spec: { minAvailable: number; selector: unknown } }>(two, 'PodDisruptionBudget');
    expect(budget?.spec.minAvailable).toBe(1);
    expect(budget?.spec.selector).toEqual({ matchLabels: expect.objectContaining({ 'app.kubernetes.io/name': 'promop' }) });
    const single = await render('--set', 'leaderElection.enabled=false');
    const deployment = ofKind<Deployment>(single, 'Deployment')[0];
    expect(deployment?.spec.strategy).toEqual({ type: 'Recreate' });
    expect(deployment?.spec.template.spec.containers[0]?.args).toEqual(['run', '--metrics-address=:8080', '--leader-elect=false']);
    expect(ofKind(single, 'PodDisruptionBudget')).toEqual([]);
  }, 60_000);

  describe('with namespaces (promop run --namespaces)', () => {
    let manifests: Manifest[];
    beforeAll(async () => {
      manifests = await render('--set', 'namespaces={team-a,team-b}', '--set', 'prometheusInstanceSelector=operated-by=promop', '--set', 'logFormat=logfmt');
    }, 60_000);

    type Rbac = Manifest & { rules?: unknown; roleRef?: { kind: string; name: string }; subjects?: { kind: string; name: string; namespace: string }[] };
    const where = (kind: string) => ofKind<Rbac>(manifests, kind).map((m) => m.metadata.namespace);

    it('passes the flags to promop run', () => {
      expect(ofKind<Deployment>(manifests, 'Deployment')[0]?.spec.template.spec.containers[0]?.args).toEqual([
        'run', '--metrics-address=:8080', '--namespaces=team-a,team-b', '--prometheus-instance-selector=operated-by=promop', '--log-format=logfmt',
      ]);
    });

    it('grants a Role of OPERATOR_NAMESPACE_ROLE_RULES in each namespace, bound to the chart ServiceAccount', () => {
      const serviceAccount = ofKind(manifests, 'ServiceAccount')[0]?.metadata.name;
      const namespaceRoles = ofKind<Rbac>(manifests, 'Role').filter((role) => role.metadata.namespace !== 'promop-system');
      expect(namespaceRoles.map((role) => role.metadata.namespace)).toEqual(['team-a', 'team-b']);
      for (const role of namespaceRoles) expect(role.rules).toEqual(OPERATOR_NAMESPACE_ROLE_RULES);
      const bindings = ofKind<Rbac>(manifests, 'RoleBinding');
      expect(bindings.map((b) => [b.metadata.namespace, b.roleRef?.kind, b.roleRef?.name, b.subjects])).toEqual([
        ['team-a', 'Role', 'rel-promop', [{ kind: 'ServiceAccount', name: serviceAccount, namespace: 'promop-system' }]],
        ['team-b', 'Role', 'rel-promop', [{ kind: 'ServiceAccount', name: serviceAccount, namespace: 'promop-system' }]],
        ['promop-system', 'Role', 'rel-promop-leader-election', [{ kind: 'ServiceAccount', name: serviceAccount, namespace: 'promop-system' }]],
      ]);
    });

    it('grants the Lease in the release namespace, and cluster-wide only what no Role can grant', () => {
      expect(ofKind<Rbac>(manifests, 'Role').find((role) => role.metadata.namespace === 'promop-system')?.rules).toEqual(LEADER_ELECTION_ROLE_RULES);
      expect(ofKind<Rbac>(manifests, 'ClusterRole').map((role) => role.rules)).toEqual([[...OPERATOR_CLUSTER_SCOPED_RULES, ...CRD_MANAGER_RULES]]);
      expect(where('ClusterRoleBinding')).toHaveLength(1);
    });

    it('denyNamespaces keeps the ClusterRole and passes --deny-namespaces', async () => {
      const denied = await render('--set', 'denyNamespaces={kube-system}', '--set', 'thanosRulerInstanceSelector=team=sre', '--set', 'secretLabelSelector=promop.dev/readable=true', '--set', 'logLevel=debug');
      expect(ofKind<Rbac>(denied, 'ClusterRole').map((role) => role.rules)).toEqual([[...OPERATOR_CLUSTER_ROLE_RULES, ...CRD_MANAGER_RULES]]);
      expect(ofKind(denied, 'Role')).toEqual([]);
      expect(ofKind<Deployment>(denied, 'Deployment')[0]?.spec.template.spec.containers[0]?.args).toEqual([
        'run', '--metrics-address=:8080', '--deny-namespaces=kube-system', '--thanos-ruler-instance-selector=team=sre', '--secret-label-selector=promop.dev/readable=true', '--log-level=debug',
      ]);
    }, 60_000);
  });

  // Each bad value is refused by values.schema.json before anything renders, with the field named.
  it.each([
    [['--set', 'replicaCount=many'], "'/replicaCount': got string, want integer"],
    [['--set', 'replicaCount=2', '--set', 'leaderElection.enabled=false'], "'/replicaCount': maximum"],
    [['--set', 'replicaCount=-1'], "'/replicaCount': minimum"],
    [['--set', 'image.tag=5'], "'/image/tag': got number, want string"],
    [['--set', 'image.pullPolicy=Sometimes'], "'/image/pullPolicy'"],
    [['--set', 'crds.install=yes please'], "'/crds/install': got string, want boolean"],
    [['--set', 'replicas=1'], "additional properties 'replicas' not allowed"],
    [['--set', 'namespaces={team-a}', '--set', 'denyNamespaces={team-b}'], 'namespaces and denyNamespaces exclude each other'],
    [['--set', 'namespaces={Team_A}'], "'/namespaces/0'"],
    [['--set', 'logLevel=verbose'], "'/logLevel'"],
    [['--set', 'logFormat=text'], "'/logFormat'"],
  ])('refuses %j naming the field', async (args, message) => {
    const result = await helm(['template', 'rel', CHART_DIR, ...args]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 1, stderr: expect.stringContaining(message) });
  }, 60_000);

  it('accepts Kubernetes v1.37.2 (the test API server) and refuses one older than kubeVersion >=1.30', async () => {
    expect((await helm(['template', 'rel', CHART_DIR, '--kube-version', 'v1.37.2'])).code).toBe(0);
    expect((await helm(['template', 'rel', CHART_DIR, '--kube-version', 'v1.30.0-eks-1'])).code).toBe(0);
    const old = await helm(['template', 'rel', CHART_DIR, '--kube-version', 'v1.29.9']);
    expect({ code: old.code, stderr: old.stderr }).toEqual({ code: 1, stderr: expect.stringContaining('incompatible with Kubernetes v1.29.9') });
  }, 60_000);
});
