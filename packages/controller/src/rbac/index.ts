/** The RBAC rules promop needs, as data for the Helm chart and the tests. */
export {
  CRD_MANAGER_RULES, LEADER_ELECTION_ROLE_RULES, OPERATOR_CLUSTER_ROLE_RULES, OPERATOR_CLUSTER_SCOPED_RULES, OPERATOR_NAMESPACE_ROLE_RULES, OWN_CRD_NAMES,
} from './operator-cluster-role.ts';
