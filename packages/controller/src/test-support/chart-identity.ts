/**
 * The identity the Helm chart gives promop, in API-server tests: `helm template` of charts/promop with the given
 * values, and its ServiceAccount and RBAC objects (Roles, RoleBindings, ClusterRole, ClusterRoleBinding) created as
 * rendered. A test that runs the operator as this identity fails when the chart grants too little.
 */
import { KubernetesObjectApi, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import { sharedTestEnv, type ClusterAccess, helm } from '@promop/testkit';
import { loadAll } from 'js-yaml';
import { CHART_DIR } from '../chart/chart-files.ts';

const IDENTITY_KINDS = ['ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'];

/**
 * Renders release `release` (its name should contain "promop", so the ServiceAccount is named just `release`) into
 * `namespace` (which must exist) with `--set` values `values`, creates its identity objects with `admin`, and returns
 * a client that impersonates the chart's ServiceAccount.
 */
export async function chartIdentity(admin: KubeConfig, release: string, namespace: string, values: readonly string[], access: ClusterAccess = sharedTestEnv()): Promise<KubeConfig> {
  const rendered = await helm(['template', release, CHART_DIR, '--namespace', namespace, '--set', 'crds.install=false', ...values.flatMap((value) => ['--set', value])]);
  if (rendered.code !== 0) throw new Error(`helm template failed: ${rendered.stderr}`);
  const objects = (loadAll(rendered.stdout) as (KubernetesObject | null)[]).filter((object): object is KubernetesObject => object !== null);
  const api = KubernetesObjectApi.makeApiClient(admin);
  for (const object of objects.filter((o) => IDENTITY_KINDS.includes(o.kind ?? ''))) {
    // helm template leaves metadata.namespace out of the objects it puts in the release namespace.
    const inNamespace = object.kind?.startsWith('Cluster') ? {} : { namespace: object.metadata?.namespace ?? namespace };
    await api.create({ ...object, metadata: { ...object.metadata, ...inNamespace } });
  }
  const serviceAccount = objects.find((object) => object.kind === 'ServiceAccount')?.metadata?.name;
  if (!serviceAccount) throw new Error('the chart rendered no ServiceAccount');
  return access.kubeConfigFor({ namespace, name: serviceAccount });
}
