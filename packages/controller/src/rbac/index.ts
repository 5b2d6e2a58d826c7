/** The RBAC rules promop needs, as data for the Helm chart and the tests. */
export { OPERATOR_CLUSTER_ROLE_RULES } from './operator-cluster-role.ts';
