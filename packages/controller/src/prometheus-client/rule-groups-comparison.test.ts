/**
 * Rule files promop wrote vs. the groups GET /api/v1/rules reports (real-server proof with all kube-prometheus
 * rules in loaded-config-comparison.prometheus.test.ts).
 */
import { compareLoadedRules, type LoadedRuleGroup } from './rule-groups-comparison.ts';

const FILE = '/etc/prometheus/rules/prometheus-main-rulefiles-0/team-rules.yaml';
const written = `groups:
- name: second
  rules:
  - record: job:up:sum
    expr: sum(up) BY (job)
- name: first
  interval: 30s
  rules:
  - alert: TooManyErrors
    expr: |
      # errors over requests, see the runbook
      rate(errors_total{job='web', }[300s]) / ON(job) GROUP_LEFT rate(requests_total[5m]) > 0.050
    for: 10m
    labels:
      severity: warning
    annotations:
      summary: errors
`;

const loaded: LoadedRuleGroup[] = [
  { name: 'first', file: FILE, interval: 30, rules: [{
    type: 'alerting', name: 'TooManyErrors', duration: 600, labels: { severity: 'warning' }, annotations: { summary: 'errors' },
    query: 'rate(errors_total{job="web"}[5m]) / on (job) group_left () rate(requests_total[5m]) > 0.05',
  }] },
  { name: 'second', file: FILE, interval: 60, rules: [{ type: 'recording', name: 'job:up:sum', query: 'sum by (job) (up)', labels: {} }] },
];

describe('comparing rule files with the rule groups Prometheus reports loaded', () => {
  it('sees through the PromQL printer (comments, case, clause order, quotes, numbers, durations) and the sorted group list', () => {
    expect(compareLoadedRules({ [FILE]: written }, loaded)).toEqual({ equal: true });
  });

  it('sees a new threshold', () => {
    expect(compareLoadedRules({ [FILE]: written.replace('0.050', '0.06') }, loaded)).toEqual({
      equal: false, reason: `${FILE}: group first, rule 0 (TooManyErrors): the expression differs`,
    });
  });

  it('sees a changed for, label and interval', () => {
    expect(compareLoadedRules({ [FILE]: written.replace('for: 10m', 'for: 15m') }, loaded)).toMatchObject({ equal: false, reason: expect.stringMatching(/for 15m expected, 600s loaded/) });
    expect(compareLoadedRules({ [FILE]: written.replace('severity: warning', 'severity: critical') }, loaded)).toMatchObject({ equal: false, reason: expect.stringMatching(/labels differ/) });
    expect(compareLoadedRules({ [FILE]: written.replace('interval: 30s', 'interval: 1m') }, loaded)).toMatchObject({ equal: false, reason: expect.stringMatching(/interval 1m expected, 30s loaded/) });
  });

  it('leaves ignored label names out of both sides (thanos rule\'s external labels replace a rule\'s own of the same name)', () => {
    // A team's rule labelled cluster=team-a, loaded by a thanos rule whose external labels are cluster=eu and the replica.
    const withCluster = written.replace('severity: warning', 'severity: warning\n      cluster: team-a');
    const [first, second] = loaded;
    const overwritten = [{ ...first!, rules: [{ ...first!.rules[0]!, labels: { severity: 'warning', cluster: 'eu', thanos_ruler_replica: 'r-0' } }] }, second!];
    expect(compareLoadedRules({ [FILE]: withCluster }, overwritten)).toMatchObject({ equal: false, reason: expect.stringMatching(/labels differ/) });
    expect(compareLoadedRules({ [FILE]: withCluster }, overwritten, { ignoredLabels: ['cluster', 'thanos_ruler_replica'] })).toEqual({ equal: true });
    // The other labels are still compared.
    expect(compareLoadedRules({ [FILE]: withCluster.replace('severity: warning', 'severity: critical') }, overwritten, { ignoredLabels: ['cluster', 'thanos_ruler_replica'] }))
      .toMatchObject({ equal: false, reason: expect.stringMatching(/labels differ/) });
  });

  it('sees a rule file Prometheus still evaluates after promop removed it', () => {
    const removed = [...loaded, { name: 'old', file: '/etc/prometheus/rules/prometheus-main-rulefiles-0/gone.yaml', interval: 60, rules: [] }];
    expect(compareLoadedRules({ [FILE]: written }, removed)).toMatchObject({ equal: false, reason: expect.stringMatching(/gone\.yaml, which is not an expected rule file/) });
  });

  it('sees a file not loaded yet', () => {
    expect(compareLoadedRules({ [FILE]: written, '/etc/prometheus/rules/x/new.yaml': 'groups:\n- name: n\n  rules: []\n' }, loaded))
      .toMatchObject({ equal: false, reason: expect.stringMatching(/new\.yaml: 1 groups expected, 0 loaded/) });
  });
});
