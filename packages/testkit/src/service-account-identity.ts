/**
 * A least-privilege identity for API-server tests: a ServiceAccount bound to a ClusterRole made of exactly the
 * rules the caller passes (the operator's tests pass OPERATOR_CLUSTER_ROLE_RULES, the rules its Helm chart
 * installs). A test that acts as this identity fails when a rule is missing, instead of assuming the rules suffice.
 * The rules are a parameter so that the kit knows nothing of promop's own packages.
 */
import { CoreV1Api, RbacAuthorizationV1Api, type KubeConfig, type V1PolicyRule } from '@kubernetes/client-node';
import { sharedTestEnv, type ClusterAccess } from './test-env.ts';

export interface ServiceAccountIdentity {
  /** The ServiceAccount's namespace (it must exist). */
  namespace: string;
  /** The ServiceAccount's name. */
  serviceAccount: string;
  /** The name of the ClusterRole and of its ClusterRoleBinding. */
  clusterRole: string;
  rules: readonly V1PolicyRule[];
}

/**
 * Creates the ServiceAccount, the ClusterRole and its ClusterRoleBinding, and returns a client that impersonates
 * the ServiceAccount (on `access`, by default the shared control plane).
 */
export async function serviceAccountIdentity(admin: KubeConfig, identity: ServiceAccountIdentity, access: ClusterAccess = sharedTestEnv()): Promise<KubeConfig> {
  const { namespace, serviceAccount, clusterRole, rules } = identity;
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  await admin.makeApiClient(CoreV1Api).createNamespacedServiceAccount({ namespace, body: { metadata: { name: serviceAccount } } });
  await rbac.createClusterRole({ body: { metadata: { name: clusterRole }, rules: [...rules] } });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: clusterRole },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
      subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace }],
    },
  });
  return access.kubeConfigFor({ namespace, name: serviceAccount });
}
