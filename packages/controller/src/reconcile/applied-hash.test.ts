/** When promop skips an apply: it sent exactly this body last time and nobody changed those fields since. */
import type { V1Secret, V1StatefulSet } from '@kubernetes/client-node';
import { APPLIED_HASH_ANNOTATION, appliedHashOf, isUpToDate, withAppliedHash } from './applied-hash.ts';

const secret = (config: string): V1Secret => ({
  apiVersion: 'v1', kind: 'Secret',
  metadata: { name: 'prometheus-main', namespace: 'monitoring', labels: { 'app.kubernetes.io/managed-by': 'promop' } },
  data: { 'prometheus.yaml': Buffer.from(config).toString('base64') },
});

/** The object as the API server returns it after the apply: defaults, server fields, status added. */
function stored<T extends { metadata?: object }>(applied: T, extra: object = {}): T {
  return { ...applied, ...extra, metadata: { ...applied.metadata, uid: 'u1', resourceVersion: '7', creationTimestamp: '2026-01-01T00:00:00Z' } };
}

describe('the applied-hash annotation', () => {
  it('is the same for the same body, whatever hash it carried before, and differs for another body', () => {
    const once = withAppliedHash(secret('a'));
    expect(appliedHashOf(withAppliedHash(once))).toBe(appliedHashOf(once));
    expect(appliedHashOf(withAppliedHash(secret('b')))).not.toBe(appliedHashOf(once));
    expect(once.metadata?.annotations?.[APPLIED_HASH_ANNOTATION]).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('a child in the cache', () => {
  it('is up to date when promop applied this body and the server only added fields', () => {
    const desired = withAppliedHash(secret('a'));
    expect(isUpToDate(desired, stored(desired, { type: 'Opaque' }))).toBe(true);
  });

  it('is not up to date when the body changed, when promop never applied it with a hash, or when it is not there', () => {
    const cached = stored(withAppliedHash(secret('a')));
    expect(isUpToDate(withAppliedHash(secret('b')), cached)).toBe(false);
    expect(isUpToDate(withAppliedHash(secret('a')), stored(secret('a')))).toBe(false);
    expect(isUpToDate(withAppliedHash(secret('a')), undefined)).toBe(false);
  });

  it('is not up to date when someone edited a field promop sets (kubectl edit), so the apply puts it back', () => {
    const desired = withAppliedHash(secret('a'));
    const edited = stored(desired);
    edited.data = { 'prometheus.yaml': Buffer.from('edited').toString('base64') };
    expect(isUpToDate(desired, edited)).toBe(false);
    const relabelled = stored(desired);
    relabelled.metadata = { ...relabelled.metadata, labels: {} };
    expect(isUpToDate(desired, relabelled)).toBe(false);
  });

  it('is not up to date when promop stops sending a field (the hash changes), so the apply removes it', () => {
    const withTolerations: V1StatefulSet = { metadata: { name: 'prometheus-main', namespace: 'monitoring' }, spec: { selector: {}, serviceName: 'prometheus-operated', template: { spec: { containers: [], tolerations: [{ key: 'dedicated', operator: 'Exists' }] } } } };
    const without: V1StatefulSet = { ...withTolerations, spec: { ...withTolerations.spec!, template: { spec: { containers: [] } } } };
    expect(isUpToDate(withAppliedHash(without), stored(withAppliedHash(withTolerations)))).toBe(false);
  });

  it('is up to date when an empty list promop sends was stored as absent', () => {
    const desired = withAppliedHash<V1StatefulSet>({ metadata: { name: 'prometheus-main', namespace: 'monitoring' }, spec: { selector: {}, serviceName: 'prometheus-operated', template: { spec: { containers: [], initContainers: [] } } } });
    const cached = stored(desired);
    cached.spec = { ...cached.spec!, template: { spec: { containers: [], dnsPolicy: 'ClusterFirst' } } };
    expect(isUpToDate(desired, cached)).toBe(true);
  });
});
