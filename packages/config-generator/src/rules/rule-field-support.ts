/**
 * Which optional rule-file fields a Prometheus version understands. An older Prometheus refuses a
 * rule file with an unknown field, so unsupported fields are dropped (with a warning), as
 * prometheus-operator does.
 */
import { isAtLeast, type PrometheusVersion } from '../prometheus-version.ts';

/** The fields of a PrometheusRule that only some Prometheus versions accept. */
export interface RuleFieldSupport {
  /** Group `limit` (Prometheus >= 2.31). */
  limit: boolean;
  /** Group `query_offset` (>= 2.53). */
  queryOffset: boolean;
  /** Group `labels` (>= 3.0). */
  groupLabels: boolean;
  /** Rule `keep_firing_for` (>= 2.42). */
  keepFiringFor: boolean;
}

/** The minimum Prometheus version of each gated field, as written in warnings. */
export const RULE_FIELD_MINIMUM_VERSIONS: Readonly<Record<keyof RuleFieldSupport, string>> = {
  limit: 'v2.31.0',
  queryOffset: 'v2.53.0',
  groupLabels: 'v3.0.0',
  keepFiringFor: 'v2.42.0',
};

/** What `version` supports. */
export function ruleFieldSupport(version: PrometheusVersion): RuleFieldSupport {
  return {
    limit: isAtLeast(version, RULE_FIELD_MINIMUM_VERSIONS.limit),
    queryOffset: isAtLeast(version, RULE_FIELD_MINIMUM_VERSIONS.queryOffset),
    groupLabels: isAtLeast(version, RULE_FIELD_MINIMUM_VERSIONS.groupLabels),
    keepFiringFor: isAtLeast(version, RULE_FIELD_MINIMUM_VERSIONS.keepFiringFor),
  };
}
