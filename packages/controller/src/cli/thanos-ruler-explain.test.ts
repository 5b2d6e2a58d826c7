import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import { noClusterObjects } from './cluster-objects.ts';
import { explainThanosRuler, formatThanosRulerExplanation } from './thanos-ruler-explain.ts';

const ruler = (spec: Record<string, unknown>): ThanosRuler =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ThanosRuler', metadata: { namespace: 'monitoring', name: 'r', uid: 'u', generation: 3 }, spec } as ThanosRuler);
const rule = (name: string, expr: string, labels: Record<string, string> = {}): PrometheusRule =>
  ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { namespace: 'monitoring', name, uid: `uid-${name}`, labels }, spec: { groups: [{ name, rules: [{ record: 'x', expr }] }] } } as PrometheusRule);

describe('promop explain thanosruler', () => {
  const objects = { ...noClusterObjects(), prometheusRules: [rule('good', 'up', { role: 'ruler' }), rule('bad', 'up(', { role: 'ruler' }), rule('other', 'up')], namespaces: [{ metadata: { name: 'monitoring' } }], secrets: [], configMaps: [] };

  it('says which PrometheusRules the ruler accepts, rejects (with the path) and does not select (with the selector), and what it writes', () => {
    const explanation = explainThanosRuler(objects, ruler({ queryEndpoints: ['q:10902'], ruleSelector: { matchLabels: { role: 'ruler' } } }));
    expect(explanation.problems).toEqual([]);
    expect(explanation.prometheusRules.map((each) => [each.name, each.selected, each.accepted])).toEqual([['bad', true, false], ['good', true, true], ['other', false, undefined]]);
    expect(explanation.prometheusRules[0]!.problems?.[0]?.path).toBe('spec.groups[0].rules[0].expr');
    expect(explanation.ruleConfigMaps).toEqual([{ name: 'thanos-ruler-r-rulefiles-0', files: ['monitoring-good-uid-good.yaml'] }]);
    const text = formatThanosRulerExplanation(explanation);
    expect(text).toContain('ThanosRuler monitoring/r (generation 3)');
    expect(text).toContain('PrometheusRules: 1 accepted, 1 rejected, 1 not selected');
    expect(text).toContain("ThanosRuler monitoring/r's ruleSelector (matchLabels role=ruler) does not match the PrometheusRule's labels (labels: none): label role is missing");
  });

  it('says why the ruler itself is refused', () => {
    const explanation = explainThanosRuler(objects, ruler({ ruleSelector: {} }));
    expect(explanation.problems.map((problem) => problem.path)).toEqual(['spec.queryEndpoints']);
    expect(formatThanosRulerExplanation(explanation)).toContain('REFUSED: promop writes nothing for it until these are fixed:\n    spec.queryEndpoints: thanos rule needs an API');
  });
});
