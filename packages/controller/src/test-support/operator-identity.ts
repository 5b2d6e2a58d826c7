/**
 * The identity the operator runs as in API-server tests: a ServiceAccount bound to a ClusterRole made from exactly
 * OPERATOR_CLUSTER_ROLE_RULES, the rules the Helm chart installs. A test that runs the operator as this identity
 * fails when a rule is missing, instead of assuming the rules suffice.
 */
import { CoreV1Api, RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { sharedTestEnv, type ClusterAccess } from '@promop/e2e';
import { OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';

/**
 * Creates ServiceAccount `<namespace>/promop` (the namespace must exist) and ClusterRole + ClusterRoleBinding
 * `name`, and returns a client that impersonates the ServiceAccount (on `access`, by default the shared control
 * plane).
 */
export async function operatorIdentity(admin: KubeConfig, namespace: string, name: string, access: ClusterAccess = sharedTestEnv()): Promise<KubeConfig> {
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccount({ namespace, body: { metadata: { name: 'promop' } } });
  await rbac.createClusterRole({ body: { metadata: { name }, rules: [...OPERATOR_CLUSTER_ROLE_RULES] } });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ kind: 'ServiceAccount', name: 'promop', namespace }],
    },
  });
  return access.kubeConfigFor({ namespace, name: 'promop' });
}

