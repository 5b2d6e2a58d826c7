import { CRD_REVISION, CRD_REVISION_ANNOTATION, CRD_SCHEMA_HASH_ANNOTATION, revisionedCrdManifests } from '@promop/crds';
import { crdAction } from './crd-installer.ts';

describe('whether promop applies its CRD over the stored one', () => {
  const own = revisionedCrdManifests()[0]!;
  const stored = (annotations: Record<string, string>, labels: Record<string, string> = { 'app.kubernetes.io/part-of': 'promop' }) => ({ metadata: { annotations, labels } });
  const hash = own.metadata.annotations[CRD_SCHEMA_HASH_ANNOTATION]!;

  it('creates an absent one and upgrades one of a lower revision', () => {
    expect(crdAction(undefined, own)).toEqual({ apply: true, reason: 'absent' });
    expect(crdAction(stored({ [CRD_REVISION_ANNOTATION]: String(CRD_REVISION - 1), [CRD_SCHEMA_HASH_ANNOTATION]: 'x' }), own)).toEqual({ apply: true, reason: 'older revision' });
  });

  it('writes nothing over its own revision and hash, and never downgrades a higher revision', () => {
    expect(crdAction(stored({ [CRD_REVISION_ANNOTATION]: String(CRD_REVISION), [CRD_SCHEMA_HASH_ANNOTATION]: hash }), own)).toEqual({ apply: false, reason: 'current' });
    expect(crdAction(stored({ [CRD_REVISION_ANNOTATION]: String(CRD_REVISION + 1), [CRD_SCHEMA_HASH_ANNOTATION]: 'x' }), own)).toEqual({ apply: false, reason: 'newer revision' });
  });

  it('applies the same revision with another schema hash (a schema changed without a revision bump)', () => {
    expect(crdAction(stored({ [CRD_REVISION_ANNOTATION]: String(CRD_REVISION), [CRD_SCHEMA_HASH_ANNOTATION]: 'other' }), own)).toEqual({ apply: true, reason: 'same revision, other schema' });
  });

  it('upgrades a promop CRD from before the annotations, and leaves any other CRD of the same name alone', () => {
    expect(crdAction(stored({}), own)).toEqual({ apply: true, reason: 'promop CRD without a revision' });
    expect(crdAction(stored({ 'operator.prometheus.io/version': '0.93.1' }, {}), own)).toEqual({ apply: false, reason: 'not promop\'s' });
    expect(crdAction(stored({ [CRD_REVISION_ANNOTATION]: 'v2' }), own)).toEqual({ apply: false, reason: 'not promop\'s' });
  });
});
