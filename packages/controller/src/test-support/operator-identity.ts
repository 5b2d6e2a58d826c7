/**
 * The identity the operator runs as in API-server tests: a ServiceAccount bound to a ClusterRole made from exactly
 * OPERATOR_CLUSTER_ROLE_RULES, the rules the Helm chart installs. A test that runs the operator as this identity
 * fails when a rule is missing, instead of assuming the rules suffice.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { serviceAccountIdentity, sharedTestEnv, type ClusterAccess } from '@promop/testkit';
import { OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';

/**
 * Creates ServiceAccount `<namespace>/promop` (the namespace must exist) and ClusterRole + ClusterRoleBinding
 * `name`, and returns a client that impersonates the ServiceAccount (on `access`, by default the shared control
 * plane).
 */
export function operatorIdentity(admin: KubeConfig, namespace: string, name: string, access: ClusterAccess = sharedTestEnv()): Promise<KubeConfig> {
  return serviceAccountIdentity(admin, { namespace, serviceAccount: 'promop', clusterRole: name, rules: OPERATOR_CLUSTER_ROLE_RULES }, access);
}
