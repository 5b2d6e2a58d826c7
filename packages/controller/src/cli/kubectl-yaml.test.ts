import { loadManifestDocuments, resolvePlainScalar } from './kubectl-yaml.ts';
import { collectManifests, parseManifestText } from './manifest-reader.ts';
import { renderManifests } from './render-command.ts';

describe('plain scalars, read as kubectl reads them', () => {
  it.each([
    ['y', true], ['Yes', true], ['ON', true], ['True', true], ['n', false], ['no', false], ['Off', false],
    ['~', null], ['', null], ['Null', null],
    ['0x10', 16], ['0X1f', 31], ['0o17', 15], ['0b101', 5], ['010', 8], ['0777', 511], ['-010', -8], ['+0x10', 16],
    ['1_000', 1000], ['0x_1F', 31], ['08', 8], ['1.', 1], ['1e3', 1000], ['+.5', 0.5], ['.5', 0.5], ['-0b11', -3],
    ['yEs', 'yEs'], ['nULL', 'nULL'], ['0x1p-2', '0x1p-2'], ['12:30', '12:30'], ['2001-12-14', '2001-12-14'], ['1.2.3', '1.2.3'],
    ['_1', '_1'], ['1e', '1e'], ['.', '.'], ['+', '+'], ['1e400', '1e400'], ['Infinity', 'Infinity'], ['.e3', '.e3'],
  ])('%j is %j', (text, expected) => {
    const resolved = resolvePlainScalar(text);
    expect(resolved.kind === 'str' ? text : resolved.value).toEqual(expected);
  });

  it('leave quoted scalars alone, let the last of duplicate keys win and merge `<<` keys', () => {
    const { documents } = loadManifestDocuments('a: "yes"\nb: yes\nc: 1\nc: 2\nd: {<<: {e: on}, f: 0x10}\ny: n\n', 'test.yaml');
    expect(documents).toEqual([{ a: 'yes', b: true, c: 2, d: { e: true, f: 16 }, true: false }]);
  });

  it('report numbers JSON cannot hold, which make kubectl refuse the file', () => {
    expect(() => parseManifestText('kind: ConfigMap\ndata:\n  ratio: .inf\n', 'cm.yaml')).toThrow('cm.yaml: data.ratio: Infinity is not a number JSON can hold (YAML\'s .inf/.nan): kubectl refuses the file');
  });
});

describe('a manifest whose unquoted yes means something else to the API server', () => {
  const monitor = 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: web, namespace: team-a}\nspec:\n  selector: {matchLabels: {enabled: yes}}\n  endpoints: [{port: web}]\n';

  it('is refused by render with the path, as the API server refuses it', () => {
    const prometheus = 'apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: main, namespace: monitoring}\nspec: {serviceMonitorSelector: {}}\n';
    const result = renderManifests(collectManifests(parseManifestText(`${prometheus}---\n${monitor}`, 'in.yaml')));
    expect(result.invalidResources.map(({ verdict }) => verdict.selected && !verdict.accepted && verdict.problems)).toEqual([
      [{ path: 'spec.selector.matchLabels.enabled', message: 'must be a string, not true (YAML as kubectl reads it makes unquoted y/yes/on/true and n/no/off/false booleans: quote the value)' }],
    ]);
  });

  it('and a Secret, ConfigMap or Namespace with such a value is refused, not read as the text "true"', () => {
    const manifests = collectManifests(parseManifestText('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: team-a}\ndata: {enabled: on, port: 0x1F90}\n---\nkind: Namespace\nmetadata: {name: team-b, labels: {monitored: yes}}\n', 'in.yaml'));
    expect(manifests.configMaps).toEqual([]);
    expect(manifests.declaredNamespaces).toEqual([]);
    expect(manifests.refused.map(({ kind, name, problems }) => [kind, name, problems.map((problem) => `${problem.path}: ${problem.message.split(' (')[0]}`)])).toEqual([
      ['ConfigMap', 'settings', ['data.enabled: must be a string, not true', 'data.port: must be a string, not the number 8080']],
      ['Namespace', 'team-b', ['metadata.labels.monitored: must be a string, not true']],
    ]);
  });
});
