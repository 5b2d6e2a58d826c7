/** replacementOf (pure): what a replace of a promop Secret or ConfigMap sends over the object as it is stored. */
import type { V1Secret } from '@kubernetes/client-node';
import { replacementOf } from './child-writer.ts';

describe('replacementOf', () => {
  const current: V1Secret = {
    apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
    metadata: {
      name: 'prometheus-main', namespace: 'monitoring', uid: 'u-1', resourceVersion: '42',
      labels: { managed: 'promop', theirs: 'a' }, annotations: { 'promop.prometheus.io/applied-hash': 'old', note: 'kept' },
      finalizers: ['example.com/hold'],
      ownerReferences: [
        { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', name: 'main', uid: 'p-1', controller: true },
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'c-9' },
      ],
      managedFields: [{ manager: 'kubectl', operation: 'Update' }],
    },
    data: { 'old.yaml': 'b2xk', 'extra.yaml': 'eA==' },
  };
  const desired: V1Secret = {
    apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
    metadata: {
      name: 'prometheus-main', namespace: 'monitoring', labels: { managed: 'promop' }, annotations: { 'promop.prometheus.io/applied-hash': 'new' },
      ownerReferences: [{ apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', name: 'main', uid: 'p-1', controller: true, blockOwnerDeletion: true }],
    },
    data: { 'new.yaml': 'bmV3' },
  };

  it("sends promop's data, labels, annotations and ownerReference over what others added, guarded by uid and resourceVersion", () => {
    const replacement = replacementOf(desired, current);
    expect(replacement.data).toEqual({ 'new.yaml': 'bmV3' });
    expect(replacement.metadata).toEqual({
      name: 'prometheus-main', namespace: 'monitoring', uid: 'u-1', resourceVersion: '42',
      labels: { managed: 'promop', theirs: 'a' },
      annotations: { 'promop.prometheus.io/applied-hash': 'new', note: 'kept' },
      finalizers: ['example.com/hold'],
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'c-9' },
        { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', name: 'main', uid: 'p-1', controller: true, blockOwnerDeletion: true },
      ],
    });
    // managedFields left out: the API server keeps its record instead of taking one from the client.
    expect(replacement.metadata).not.toHaveProperty('managedFields');
  });
});
