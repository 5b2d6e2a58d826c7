import { load } from 'js-yaml';
import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import type { NamespaceInfo } from '../model.ts';
import { generateThanosRulerRules, parseThanosVersion, thanosVersionAtLeast } from './thanos-ruler-rules.ts';

const ruler = (spec: Record<string, unknown>, name = 'r'): ThanosRuler =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ThanosRuler', metadata: { namespace: 'monitoring', name, uid: 'u-1' }, spec } as ThanosRuler);
const rule = (namespace: string, name: string, groups: unknown[], labels: Record<string, string> = { role: 'ruler' }): PrometheusRule =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace, name, uid: `uid-${name}`, labels }, spec: { groups } } as PrometheusRule);
const NAMESPACES: NamespaceInfo[] = [{ name: 'monitoring', labels: {} }, { name: 'team-a', labels: { team: 'a' } }];

function onlyFile(result: ReturnType<typeof generateThanosRulerRules>): { groups: Record<string, unknown>[] } {
  const files = result.ruleConfigMaps.flatMap((each) => Object.values(each.files));
  expect(files).toHaveLength(1);
  return load(files[0]!) as { groups: Record<string, unknown>[] };
}

describe('the rule files of a ThanosRuler', () => {
  it('keeps partial_response_strategy, which Prometheus refuses and Thanos reads, and names the ConfigMaps thanos-ruler-<name>-rulefiles-<i>', () => {
    const result = generateThanosRulerRules({
      thanosRuler: ruler({ ruleSelector: {} }),
      prometheusRules: [rule('monitoring', 'slo', [{ name: 'g', partial_response_strategy: 'warn', rules: [{ alert: 'Down', expr: 'up == 0' }] }])],
      namespaces: NAMESPACES,
    });
    expect(result.problems).toEqual([]);
    expect(result.ruleConfigMaps.map((each) => each.name)).toEqual(['thanos-ruler-r-rulefiles-0']);
    expect(onlyFile(result).groups[0]).toEqual({ name: 'g', partial_response_strategy: 'warn', rules: [{ alert: 'Down', expr: 'up == 0' }] });
    expect(result.verdicts).toEqual([expect.objectContaining({ selected: true, accepted: true, warnings: [] })]);
  });

  it('rejects, alone and at its path, a strategy Thanos does not know (it would refuse every rule file at load)', () => {
    const result = generateThanosRulerRules({
      thanosRuler: ruler({ ruleSelector: {} }),
      prometheusRules: [
        rule('monitoring', 'bad', [{ name: 'g', partial_response_strategy: 'sometimes', rules: [{ record: 'a', expr: 'up' }] }]),
        rule('monitoring', 'good', [{ name: 'g', partial_response_strategy: 'ABORT', rules: [{ record: 'b', expr: 'up' }] }]),
      ],
      namespaces: NAMESPACES,
    });
    const bad = result.verdicts.find((verdict) => verdict.resource.name === 'bad');
    expect(bad).toMatchObject({ selected: true, accepted: false, problems: [{ path: 'spec.groups[0].partial_response_strategy', message: '"sometimes" is not a strategy Thanos knows: abort or warn' }] });
    expect(onlyFile(result).groups[0]).toMatchObject({ partial_response_strategy: 'ABORT' });
  });

  it('selects with ruleSelector and ruleNamespaceSelector, own namespace only when the latter is absent, and says why not', () => {
    const candidates = [rule('monitoring', 'own', [{ name: 'g', rules: [{ record: 'a', expr: 'up' }] }]), rule('team-a', 'team', [{ name: 'g', rules: [{ record: 'b', expr: 'up' }] }])];
    const own = generateThanosRulerRules({ thanosRuler: ruler({ ruleSelector: { matchLabels: { role: 'ruler' } } }), prometheusRules: candidates, namespaces: NAMESPACES });
    expect(own.verdicts.map((verdict) => [verdict.resource.name, verdict.selected])).toEqual([['own', true], ['team', false]]);
    expect(own.verdicts[1]).toMatchObject({ reason: expect.stringContaining("ThanosRuler monitoring/r's ruleNamespaceSelector is not set") });
    const all = generateThanosRulerRules({ thanosRuler: ruler({ ruleSelector: {}, ruleNamespaceSelector: { matchLabels: { team: 'a' } } }), prometheusRules: candidates, namespaces: NAMESPACES });
    expect(all.verdicts.map((verdict) => [verdict.resource.name, verdict.selected])).toEqual([['team', true], ['own', false]]);
    const none = generateThanosRulerRules({ thanosRuler: ruler({}), prometheusRules: candidates, namespaces: NAMESPACES });
    expect(none.verdicts.every((verdict) => !verdict.selected)).toBe(true);
    expect(none.ruleConfigMaps).toEqual([{ name: 'thanos-ruler-r-rulefiles-0', files: {} }]);
  });

  it('enforces the namespace label as for a Prometheus, except on the objects excludedFromEnforcement names', () => {
    const candidates = [rule('team-a', 'team', [{ name: 'g', rules: [{ record: 'a', expr: 'up' }] }]), rule('team-a', 'free', [{ name: 'h', rules: [{ record: 'b', expr: 'up' }] }])];
    const result = generateThanosRulerRules({
      thanosRuler: ruler({ ruleSelector: {}, ruleNamespaceSelector: {}, enforcedNamespaceLabel: 'namespace', excludedFromEnforcement: [{ resource: 'prometheusrules', namespace: 'team-a', name: 'free' }] }),
      prometheusRules: candidates,
      namespaces: NAMESPACES,
    });
    const texts = result.ruleConfigMaps.flatMap((each) => Object.values(each.files)).join('\n');
    expect(texts).toContain('expr: up{namespace="team-a"}');
    expect(texts).toContain('expr: up\n');
  });

  it('drops the fields its Thanos release does not read, with a warning naming the Thanos release', () => {
    const result = generateThanosRulerRules({
      thanosRuler: ruler({ ruleSelector: {}, version: 'v0.33.0' }),
      prometheusRules: [rule('monitoring', 'x', [{ name: 'g', labels: { a: 'b' }, query_offset: '1m', limit: 5, rules: [{ alert: 'A', expr: 'up == 0', keep_firing_for: '5m' }] }])],
      namespaces: NAMESPACES,
    });
    expect(onlyFile(result).groups[0]).toEqual({ limit: 5, name: 'g', rules: [{ alert: 'A', expr: 'up == 0' }] });
    expect(result.verdicts[0]).toMatchObject({ accepted: true, warnings: [
      'spec.groups[0].labels was dropped: Thanos v0.33.0 does not support it (needs v0.39.0 or later)',
      'spec.groups[0].query_offset was dropped: Thanos v0.33.0 does not support it (needs v0.38.0 or later)',
      'spec.groups[0].rules[0].keep_firing_for was dropped: Thanos v0.33.0 does not support it (needs v0.34.0 or later)',
    ] });
  });

  it('rejects a bad expression alone, with its path, and reports an unreadable version and selector as the ruler\'s problems', () => {
    const result = generateThanosRulerRules({
      thanosRuler: ruler({ ruleSelector: { matchExpressions: [{ key: 'a', operator: 'Sometimes' }] }, version: 'latest' }),
      prometheusRules: [rule('monitoring', 'x', [{ name: 'g', rules: [{ record: 'a', expr: 'up(' }] }])],
      namespaces: NAMESPACES,
    });
    expect(result.problems.map((problem) => problem.path)).toEqual(['spec.version', 'spec.ruleSelector.matchExpressions[0].operator']);
    const bad = generateThanosRulerRules({ thanosRuler: ruler({ ruleSelector: {} }), prometheusRules: [rule('monitoring', 'x', [{ name: 'g', rules: [{ record: 'a', expr: 'up(' }] }])], namespaces: NAMESPACES });
    expect(bad.verdicts[0]).toMatchObject({ accepted: false, problems: [expect.objectContaining({ path: 'spec.groups[0].rules[0].expr' })] });
  });

  it('reads Thanos versions as Go\'s semver.ParseTolerant', () => {
    expect(parseThanosVersion('0.30')).toMatchObject({ major: 0, minor: 30, patch: 0 });
    expect(parseThanosVersion(undefined)).toMatchObject({ text: 'v0.42.2' });
    expect(parseThanosVersion('banana')).toBeUndefined();
    expect(thanosVersionAtLeast(parseThanosVersion('v0.38.0-rc.0')!, '0.38.0')).toBe(false);
    expect(thanosVersionAtLeast(parseThanosVersion('v0.38.0')!, '0.38.0')).toBe(true);
  });
});
