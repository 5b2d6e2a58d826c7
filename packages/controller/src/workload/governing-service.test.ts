import { buildGoverningService } from './governing-service.ts';
import { testPrometheus } from '../test-support/workload-fixtures.ts';

describe('the governing Service', () => {
  const zeta = testPrometheus({}, { name: 'zeta', uid: 'uid-z' });
  const alpha = testPrometheus({}, { name: 'alpha', uid: 'uid-a' });

  it('is the headless prometheus-operated Service selecting every Prometheus pod on port web', () => {
    const service = buildGoverningService('monitoring', [alpha]);
    expect(service.metadata?.name).toBe('prometheus-operated');
    expect(service.metadata?.labels?.['operated-prometheus']).toBe('true');
    expect(service.spec).toEqual({
      clusterIP: 'None',
      ports: [{ name: 'web', port: 9090, targetPort: 'web' }],
      selector: { 'app.kubernetes.io/name': 'prometheus' },
    });
  });

  it('is owned, not controlled, by every Prometheus that uses it, in a stable order', () => {
    const refs = buildGoverningService('monitoring', [zeta, alpha]).metadata?.ownerReferences ?? [];
    expect(refs.map((ref) => [ref.name, ref.controller])).toEqual([['alpha', false], ['zeta', false]]);
    expect(buildGoverningService('monitoring', [alpha, zeta])).toEqual(buildGoverningService('monitoring', [zeta, alpha]));
  });
});
