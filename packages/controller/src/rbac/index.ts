/** The RBAC rules promop needs, as data for the Helm chart and the tests. */
export { LEADER_ELECTION_ROLE_RULES, OPERATOR_CLUSTER_ROLE_RULES, OPERATOR_CLUSTER_SCOPED_RULES, OPERATOR_NAMESPACE_ROLE_RULES } from './operator-cluster-role.ts';
