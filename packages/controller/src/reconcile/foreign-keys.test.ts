import { describeForeignKeys, foreignKeysOf, removalPatch } from './foreign-keys.ts';

describe('keys another manager added to maps promop owns entirely', () => {
  it('finds the stored keys promop does not send, per exclusive map, sorted', () => {
    const desired = { data: { 'a.yaml': 'x' } };
    const stored = { metadata: { annotations: { other: 'kept' } }, data: { 'z.yaml': '1', 'a.yaml': 'changed', 'b.yaml': '2' }, binaryData: { bin: 'AA==' } };
    expect(foreignKeysOf('ConfigMap', desired, stored)).toEqual([{ path: ['data'], keys: ['b.yaml', 'z.yaml'] }, { path: ['binaryData'], keys: ['bin'] }]);
  });

  it('looks only where promop owns the whole map: Secret data, Service selector; not labels or annotations', () => {
    const labels = { app: 'p', extra: 'theirs' };
    expect(foreignKeysOf('Secret', { data: {} }, { metadata: { labels }, data: { k: 'v' } })).toEqual([{ path: ['data'], keys: ['k'] }]);
    expect(foreignKeysOf('Service', { spec: { selector: { app: 'p' } } }, { metadata: { labels }, spec: { selector: { app: 'p', team: 'x' }, ports: [{ port: 1 }, { port: 2 }] } }))
      .toEqual([{ path: ['spec', 'selector'], keys: ['team'] }]);
    expect(foreignKeysOf('StatefulSet', { spec: {} }, { metadata: { labels }, spec: { template: { metadata: { labels } } } })).toEqual([]);
  });

  it('finds nothing when the stored object has only promop\'s keys, or does not exist', () => {
    expect(foreignKeysOf('ConfigMap', { data: { a: '1' } }, { data: { a: '2' } })).toEqual([]);
    expect(foreignKeysOf('ConfigMap', { data: { a: '1' } }, {})).toEqual([]);
    expect(foreignKeysOf('ConfigMap', { data: { a: '1' } }, undefined)).toEqual([]);
  });

  it('finds nothing in the metadata-only answer of a Secret or ConfigMap write (no map in it to look at)', () => {
    const answer = { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: { name: 's', labels: { theirs: 'x' }, annotations: { a: 'b' } } };
    expect(foreignKeysOf('Secret', { data: { a: 'eA==' } }, answer)).toEqual([]);
    expect(foreignKeysOf('ConfigMap', { data: { a: '1' }, binaryData: { b: 'eA==' } }, answer)).toEqual([]);
  });

  it('a key promop sends as undefined is not promop\'s (it is not sent at all)', () => {
    expect(foreignKeysOf('ConfigMap', { data: { a: undefined } }, { data: { a: '1' } })).toEqual([{ path: ['data'], keys: ['a'] }]);
  });

  it('builds a merge patch that nulls exactly those keys, guarded by the resourceVersion read', () => {
    const foreign = [{ path: ['spec', 'selector'], keys: ['team'] }, { path: ['data'], keys: ['x.yaml', 'y'] }];
    expect(removalPatch(foreign, '42')).toEqual({ metadata: { resourceVersion: '42' }, spec: { selector: { team: null } }, data: { 'x.yaml': null, y: null } });
    expect(removalPatch(foreign, undefined)).toEqual({ spec: { selector: { team: null } }, data: { 'x.yaml': null, y: null } });
  });

  it('names the keys for the log without any value', () => {
    expect(describeForeignKeys([{ path: ['data'], keys: ['x.yaml'] }, { path: ['spec', 'selector'], keys: ['team'] }])).toBe('data["x.yaml"], spec.selector["team"]');
  });
});
