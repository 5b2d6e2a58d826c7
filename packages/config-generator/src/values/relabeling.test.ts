import type { RelabelConfig } from '@promop/crds';
import { parsePrometheusVersion, type PrometheusVersion } from '../prometheus-version.ts';
import { renderRelabelConfigs, validateRelabelConfigs } from './relabeling.ts';

const v3 = { version: parsePrometheusVersion('v3.16.0') as PrometheusVersion, nameValidationScheme: 'utf8' as const };
const v2 = { version: parsePrometheusVersion('v2.45.0') as PrometheusVersion, nameValidationScheme: 'legacy' as const };

describe('relabel configs', () => {
  it('render only the fields set, in prometheus-operator order, with the action lowercased', () => {
    const rendered = renderRelabelConfigs([
      { action: 'HashMod', modulus: 3, targetLabel: '__tmp', sourceLabels: ['__address__'], separator: ';' },
      { replacement: '', regex: '(.+)', targetLabel: 'x', sourceLabels: ['a'] },
    ]);
    expect(rendered.map((r) => Object.keys(r))).toEqual([
      ['source_labels', 'separator', 'target_label', 'modulus', 'action'],
      ['source_labels', 'target_label', 'regex', 'replacement'],
    ]);
    expect(rendered[0]?.action).toBe('hashmod');
  });

  it('accept every action with its required fields', () => {
    const problems = validateRelabelConfigs(
      [
        { sourceLabels: ['a'], targetLabel: 'b' },
        { sourceLabels: ['a'], regex: 'x', action: 'keep' },
        { sourceLabels: ['a'], regex: 'x', action: 'Drop' },
        { sourceLabels: ['a'], targetLabel: 'b', modulus: 2, action: 'hashmod' },
        { regex: 'x_(.+)', replacement: 'y_$1', action: 'labelmap' },
        { regex: 'x', action: 'labeldrop' },
        { regex: 'x', action: 'labelkeep' },
        { sourceLabels: ['a'], targetLabel: 'b', action: 'uppercase' },
        { sourceLabels: ['a'], targetLabel: 'b', action: 'dropequal' },
        { sourceLabels: ['a'], targetLabel: '${1}_x', regex: '(.+)', action: 'replace' },
      ],
      'spec.writeRelabelConfigs',
      v2,
    );
    expect(problems).toEqual([]);
  });

  it('accept UTF-8 label names from Prometheus 3 only', () => {
    const configs: RelabelConfig[] = [{ sourceLabels: ['service.name'], targetLabel: 'k8s.pod', action: 'replace' }];
    expect(validateRelabelConfigs(configs, 'r', v3)).toEqual([]);
    expect(validateRelabelConfigs(configs, 'r', v2)).toEqual([
      { path: 'r[0].sourceLabels[0]', message: '"service.name" is not a valid label name' },
      { path: 'r[0].targetLabel', message: '"k8s.pod" is not a valid target label for the replace action' },
    ]);
  });

  it('refuse keepequal with other fields set', () => {
    expect(validateRelabelConfigs([{ sourceLabels: ['a'], targetLabel: 'b', regex: 'x', action: 'keepequal' }], 'r', v3)).toEqual([
      { path: 'r[0]', message: 'the keepequal action takes only sourceLabels and targetLabel' },
    ]);
  });
});
