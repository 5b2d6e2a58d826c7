import { prometheusOwnerReference } from './owner-reference.ts';
import { testPrometheus } from '../test-support/workload-fixtures.ts';

describe('an owner reference to the Prometheus', () => {
  it('is a blocking controller reference by default', () => {
    expect(prometheusOwnerReference(testPrometheus())).toEqual({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'Prometheus',
      name: 'main',
      uid: '0b5cf4a3-2d4e-4f7b-9a51-3c1f0b8e9d21',
      controller: true,
      blockOwnerDeletion: true,
    });
  });

  it('can be a non-controller reference (for the shared governing Service)', () => {
    expect(prometheusOwnerReference(testPrometheus(), { controller: false }).controller).toBe(false);
  });

  it('is a bug without a uid: only objects read from the API server may own children', () => {
    expect(() => prometheusOwnerReference(testPrometheus({}, { uid: undefined }))).toThrow(/no metadata.uid/);
  });
});
