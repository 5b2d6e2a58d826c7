import { NO_RULE_GROUPS, rulesCondition, rulesOf, summariseRules, type EvaluatedGroup } from './rule-health.ts';

const FILES = new Map([
  ['team-a-rules-0000-uid-a.yaml', 'PrometheusRule/team-a/rules'],
  ['team-b-rules-0000-uid-b.yaml', 'PrometheusRule/team-b/rules'],
]);
const dir = '/etc/prometheus/rules/prometheus-main-rulefiles-0';

describe('the rule groups of a PrometheusRule', () => {
  const shard0: EvaluatedGroup[] = [
    { name: 'a', file: `${dir}/team-a-rules-0000-uid-a.yaml`, evaluationTime: 0.0042, rules: [
      { type: 'recording', health: 'ok' },
      { type: 'alerting', health: 'ok', alerts: [{ state: 'firing' }, { state: 'pending' }] },
    ] },
    { name: 'b', file: `${dir}/team-b-rules-0000-uid-b.yaml`, evaluationTime: 0.25, rules: [
      { type: 'recording', health: 'err', lastError: 'Get "http://u:p@remote/api?key=zzz": vector cannot contain metrics with the same labelset' },
      { type: 'recording', health: 'unknown' },
    ] },
    { name: 'platform', file: '/etc/prometheus/platform.yaml', rules: [{ health: 'err', lastError: 'platform' }] },
  ];
  const shard1: EvaluatedGroup[] = [
    { name: 'a', file: `${dir}/team-a-rules-0000-uid-a.yaml`, evaluationTime: 0.0061, rules: [
      { type: 'recording', health: 'ok' },
      { type: 'alerting', health: 'ok', alerts: [{ state: 'firing' }] },
    ] },
  ];

  it('counts each object\'s groups, rules, failures and firing alerts (alerts summed over shards)', () => {
    const { summaries, notEvaluatedYet } = summariseRules([shard0, shard1], FILES);
    expect(notEvaluatedYet.size).toBe(0);
    expect(summaries.get('PrometheusRule/team-a/rules')).toEqual({ groups: 1, rules: 2, failing: 0, pending: 0, firingAlerts: 2, evaluationMilliseconds: 6 });
    expect(summaries.get('PrometheusRule/team-b/rules')).toEqual({
      groups: 1, rules: 2, failing: 1, pending: 1, firingAlerts: 0, evaluationMilliseconds: 250,
      lastError: 'Get "http://remote/api?key=<redacted>": vector cannot contain metrics with the same labelset',
    });
    expect(summaries.size).toBe(2);
  });

  it('gives each object only its own file\'s errors', () => {
    const { summaries } = summariseRules([shard0], FILES);
    expect(JSON.stringify(summaries.get('PrometheusRule/team-a/rules'))).not.toContain('labelset');
  });

  it('has a Healthy condition per outcome', () => {
    const { summaries } = summariseRules([shard0, shard1], FILES);
    expect(rulesCondition(summaries.get('PrometheusRule/team-a/rules')!)).toEqual({ status: 'True', reason: 'RulesEvaluated', message: '1 group, 2 rules evaluated, 2 alerts firing' });
    expect(rulesCondition(summaries.get('PrometheusRule/team-b/rules')!)).toMatchObject({ status: 'False', reason: 'RulesFailing' });
    expect(rulesCondition({ groups: 0, rules: 0, failing: 0, pending: 0, firingAlerts: 0, evaluationMilliseconds: 0 })).toMatchObject({ status: 'False', reason: 'NoRuleGroups' });
  });

  it('gives no summary of an object none of whose rules was evaluated yet, on any shard: nothing is known of it', () => {
    const loaded = (health: string): EvaluatedGroup[] => [{ name: 'a', file: `${dir}/team-a-rules-0000-uid-a.yaml`, rules: [{ health: 'unknown' }, { health }] }];
    const fresh = summariseRules([loaded('unknown'), loaded('unknown')], FILES);
    expect([...fresh.notEvaluatedYet]).toEqual(['PrometheusRule/team-a/rules']);
    expect(fresh.summaries.size).toBe(0);
    expect(rulesOf(fresh, 'PrometheusRule/team-a/rules')).toBeUndefined();
    expect(rulesOf(fresh, 'PrometheusRule/team-b/rules')).toEqual(NO_RULE_GROUPS);
    // One evaluated rule is something known: a summary, with the rest pending.
    const half = summariseRules([loaded('ok')], FILES);
    expect(half.notEvaluatedYet.size).toBe(0);
    expect(rulesCondition(half.summaries.get('PrometheusRule/team-a/rules')!)).toEqual({ status: 'True', reason: 'RulesEvaluated', message: '1 group, 2 rules evaluated' });
  });
});
