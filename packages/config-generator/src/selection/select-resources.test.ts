import { describeLabelSelector, matchLabelSelector } from './label-selector.ts';
import { indexNamespaces, selectResources, type SelectorPair } from './select-resources.ts';

const prometheus = { namespace: 'monitoring', name: 'main' };
const namespaces = indexNamespaces([
  { name: 'monitoring', labels: {} },
  { name: 'a', labels: { team: 'a' } },
  { name: 'b', labels: { team: 'b' } },
]);

function monitor(namespace: string, name: string, labels: Record<string, string> = {}) {
  return { metadata: { namespace, name, labels } };
}

function pair(selector: SelectorPair['selector'], namespaceSelector: SelectorPair['namespaceSelector']): SelectorPair {
  return { selectorField: 'serviceMonitorSelector', selector, namespaceSelectorField: 'serviceMonitorNamespaceSelector', namespaceSelector };
}

describe('label selectors', () => {
  it('match matchLabels and every matchExpressions operator', () => {
    const selector = {
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['front', 'back'] },
        { key: 'env', operator: 'NotIn', values: ['dev'] },
        { key: 'owner', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist' },
      ],
    };
    expect(matchLabelSelector(selector, { app: 'web', tier: 'front', owner: 'x' })).toEqual({ matches: true });
    expect(matchLabelSelector(selector, { app: 'api', tier: 'front', owner: 'x' })).toEqual({ matches: false, unmet: 'label app is "api", not "web"' });
    expect(matchLabelSelector(selector, { app: 'web', tier: 'mid', owner: 'x' })).toEqual({
      matches: false,
      unmet: 'label tier is "mid", not one of [front, back]',
    });
    expect(matchLabelSelector(selector, { app: 'web', tier: 'front', env: 'dev', owner: 'x' })).toEqual({
      matches: false,
      unmet: 'label env is "dev", which is excluded by NotIn [dev]',
    });
    expect(matchLabelSelector(selector, { app: 'web', tier: 'front' })).toEqual({ matches: false, unmet: 'label owner is missing' });
    expect(matchLabelSelector(selector, { app: 'web', tier: 'front', owner: 'x', legacy: '' })).toEqual({ matches: false, unmet: 'label legacy is present' });
  });

  it('describe themselves in words', () => {
    expect(describeLabelSelector({})).toBe('{}');
    expect(describeLabelSelector({ matchLabels: { team: 'a' }, matchExpressions: [{ key: 'x', operator: 'Exists' }] })).toBe('matchLabels team=a; matchExpressions x Exists');
  });
});

describe('a ServiceMonitor in a namespace the Prometheus does not select', () => {
  it('is not selected and its verdict names the namespace selector and the labels', () => {
    const result = selectResources('ServiceMonitor', [monitor('b', 'web')], prometheus, pair({}, { matchLabels: { team: 'a' } }), namespaces);
    expect(result.selected).toEqual([]);
    expect(result.notSelected).toEqual([
      {
        resource: { kind: 'ServiceMonitor', namespace: 'b', name: 'web' },
        selected: false,
        reason:
          'Prometheus monitoring/main\'s serviceMonitorNamespaceSelector (matchLabels team=a) does not match namespace "b" (labels: team=b): label team is "b", not "a"',
      },
    ]);
  });
});

describe('a Prometheus without serviceMonitorNamespaceSelector', () => {
  it('selects only its own namespace, and says so for the others', () => {
    const result = selectResources('ServiceMonitor', [monitor('monitoring', 'own'), monitor('a', 'other')], prometheus, pair({}, undefined), namespaces);
    expect(result.selected.map((m) => m.metadata.name)).toEqual(['own']);
    expect(result.notSelected[0]?.selected === false && result.notSelected[0].reason).toBe(
      'Prometheus monitoring/main\'s serviceMonitorNamespaceSelector is not set, so only ServiceMonitors in its own namespace "monitoring" are selected, not namespace "a"',
    );
  });
});

describe('a Prometheus without serviceMonitorSelector', () => {
  it('selects no ServiceMonitor at all', () => {
    const result = selectResources('ServiceMonitor', [monitor('monitoring', 'own')], prometheus, pair(undefined, undefined), namespaces);
    expect(result.selected).toEqual([]);
    expect(result.notSelected[0]?.selected === false && result.notSelected[0].reason).toBe(
      "Prometheus monitoring/main's serviceMonitorSelector is not set, so no ServiceMonitor is selected",
    );
  });
});

describe('an empty selector', () => {
  it('selects every monitor in every namespace, including namespaces not listed', () => {
    const candidates = [monitor('a', 'x'), monitor('b', 'y'), monitor('unknown', 'z')];
    const result = selectResources('ServiceMonitor', candidates, prometheus, pair({}, {}), namespaces);
    expect(result.selected).toEqual(candidates);
    expect(result.notSelected).toEqual([]);
  });
});

describe('a monitor whose labels do not match the selector', () => {
  it('is not selected and its verdict shows the selector, its labels and the unmet requirement', () => {
    const result = selectResources('ServiceMonitor', [monitor('a', 'web', { app: 'db' })], prometheus, pair({ matchLabels: { app: 'web' } }, {}), namespaces);
    expect(result.notSelected[0]?.selected === false && result.notSelected[0].reason).toBe(
      'Prometheus monitoring/main\'s serviceMonitorSelector (matchLabels app=web) does not match the ServiceMonitor\'s labels (labels: app=db): label app is "db", not "web"',
    );
  });
});

describe('a namespace that is not in the input', () => {
  it('is treated as unlabelled, and the verdict says it was not found', () => {
    const result = selectResources('ServiceMonitor', [monitor('ghost', 'x')], prometheus, pair({}, { matchExpressions: [{ key: 'team', operator: 'Exists' }] }), namespaces);
    expect(result.notSelected[0]?.selected === false && result.notSelected[0].reason).toBe(
      'Prometheus monitoring/main\'s serviceMonitorNamespaceSelector (matchExpressions team Exists) does not match namespace "ghost" (labels: none, namespace not found): label team is missing',
    );
  });
});
