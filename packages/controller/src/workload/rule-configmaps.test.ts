import { buildRuleConfigMaps } from './rule-configmaps.ts';
import { testOutput, testPrometheus } from '../test-support/workload-fixtures.ts';

describe('rule ConfigMaps', () => {
  it('are the generator\'s ConfigMaps with its files, labelled prometheus-name and managed-by, owned by the Prometheus', () => {
    const configMaps = buildRuleConfigMaps(testPrometheus(), testOutput(['c'], 2));
    expect(configMaps.map((configMap) => configMap.metadata?.name)).toEqual(['prometheus-main-rulefiles-0', 'prometheus-main-rulefiles-1']);
    expect(configMaps[1]?.data).toEqual({ 'monitoring-rules1-uid.yaml': 'groups: []\n' });
    expect(configMaps[0]?.metadata?.labels).toEqual({ 'prometheus-name': 'main', 'managed-by': 'promop', 'app.kubernetes.io/managed-by': 'promop' });
    expect(configMaps[0]?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'Prometheus', name: 'main', controller: true });
  });
});
