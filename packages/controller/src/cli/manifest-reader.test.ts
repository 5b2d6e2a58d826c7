import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManifestReadError, collectManifests, parseManifestText, placeholderUid, readManifests } from './manifest-reader.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'promop-manifests-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('reading manifests from a directory', () => {
  it('reads YAML and JSON files recursively in name order, skipping other files', async () => {
    mkdirSync(join(dir, 'nested'));
    writeFileSync(join(dir, 'b.yaml'), 'kind: ServiceMonitor\nmetadata: {name: b, namespace: x}\n');
    writeFileSync(join(dir, 'nested', 'a.json'), '{"kind": "PodMonitor", "metadata": {"name": "a", "namespace": "x"}}');
    writeFileSync(join(dir, 'a.yml'), 'kind: PrometheusRule\nmetadata: {name: a, namespace: x}\n');
    writeFileSync(join(dir, 'README.md'), '# not a manifest');
    writeFileSync(join(dir, '.hidden.yaml'), 'kind: Prometheus\nmetadata: {name: hidden}\n');
    const manifests = await readManifests([dir]);
    expect(manifests.resources.map((resource) => `${resource.kind}/${resource.name}`)).toEqual(['PrometheusRule/a', 'ServiceMonitor/b', 'PodMonitor/a']);
  });

  it('fails for a path that does not exist, naming it', async () => {
    const missing = join(dir, 'missing.yaml');
    await expect(readManifests([missing])).rejects.toThrow(new ManifestReadError(`${missing}: cannot read: ENOENT`));
  });

  it('fails for malformed YAML, naming the file', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'kind: [unclosed\n');
    await expect(readManifests([dir])).rejects.toThrow(/bad\.yaml: not valid YAML: /);
  });
});

describe('a multi-document file', () => {
  const text = [
    'apiVersion: v1',
    'kind: Namespace',
    'metadata: {name: team-a, labels: {team: a}}',
    '---',
    '# an empty document is skipped',
    '---',
    'apiVersion: monitoring.coreos.com/v1',
    'kind: ServiceMonitor',
    'metadata: {name: api}',
    '---',
    'apiVersion: v1',
    'kind: List',
    'items:',
    '- {kind: Service, metadata: {name: svc}}',
    '- {kind: PrometheusRule, metadata: {name: rules, namespace: team-a, uid: "1234"}}',
  ].join('\n');

  it('yields every object with its source, flattening Lists', () => {
    expect(parseManifestText(text, 'all.yaml').map(({ source }) => source)).toEqual(['all.yaml#0', 'all.yaml#1', 'all.yaml#2 items[0]', 'all.yaml#2 items[1]']);
  });

  it('defaults the namespace to "default", adds placeholder uids only where missing, and counts unused kinds', () => {
    const manifests = collectManifests(parseManifestText(text, 'all.yaml'));
    const [monitor, rule] = manifests.resources;
    expect(monitor).toMatchObject({ kind: 'ServiceMonitor', namespace: 'default', name: 'api', source: 'all.yaml#1' });
    expect(monitor!.object.metadata).toEqual({ name: 'api', namespace: 'default', uid: placeholderUid('ServiceMonitor', 'default', 'api') });
    expect((rule!.object.metadata as { uid: unknown }).uid).toBe('1234');
    expect(manifests.ignoredKinds).toEqual({ Service: 1 });
    expect(manifests.placeholderUids).toBe(1);
  });

  it('labels Namespaces with their name as the API server does, and adds namespaces that have no manifest', () => {
    const manifests = collectManifests(parseManifestText(text, 'all.yaml'));
    expect(manifests.namespaces).toEqual([
      { name: 'default', labels: { 'kubernetes.io/metadata.name': 'default' } },
      { name: 'team-a', labels: { team: 'a', 'kubernetes.io/metadata.name': 'team-a' } },
    ]);
  });

  it('rejects a document that is not an object', () => {
    expect(() => parseManifestText('kind: Secret\n---\n- a list\n', 'x.yaml')).toThrow(new ManifestReadError('x.yaml#1: expected a Kubernetes object, found a list'));
  });
});

describe('Secrets and ConfigMaps', () => {
  it('decode base64 data, with stringData taking precedence as the API server merges it', () => {
    const text = [
      'kind: Secret',
      'metadata: {name: creds, namespace: team-a}',
      `data: {user: ${Buffer.from('alice').toString('base64')}, password: ${Buffer.from('old').toString('base64')}}`,
      'stringData: {password: new}',
      '---',
      'kind: ConfigMap',
      'metadata: {name: ca}',
      'data: {ca.crt: "-----BEGIN CERTIFICATE-----", port: "8080"}',
    ].join('\n');
    const manifests = collectManifests(parseManifestText(text, 'x.yaml'));
    expect(manifests.secrets).toEqual([{ namespace: 'team-a', name: 'creds', data: { user: 'alice', password: 'new' } }]);
    expect(manifests.configMaps).toEqual([{ namespace: 'default', name: 'ca', data: { 'ca.crt': '-----BEGIN CERTIFICATE-----', port: '8080' } }]);
  });

  it('refuse Secret data that is not base64', () => {
    expect(() => collectManifests(parseManifestText('kind: Secret\nmetadata: {name: s}\ndata: {key: "not base64!"}\n', 'x.yaml'))).toThrow(
      new ManifestReadError('x.yaml: s data.key is not base64'),
    );
  });
});

describe('placeholder uids', () => {
  it('are stable and UUID-shaped', () => {
    expect(placeholderUid('PrometheusRule', 'a', 'b')).toBe(placeholderUid('PrometheusRule', 'a', 'b'));
    expect(placeholderUid('PrometheusRule', 'a', 'b')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(placeholderUid('PrometheusRule', 'a', 'b')).not.toBe(placeholderUid('PrometheusRule', 'a', 'c'));
  });
});
