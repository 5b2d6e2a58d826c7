import { canonicalQuantity, withCanonicalQuantities } from './quantity.ts';

describe('canonicalQuantity', () => {
  it.each([
    ['0.5', '500m'], ['1000m', '1'], ['1.0', '1'], ['0.1', '100m'], ['1500', '1500'], ['1000', '1k'], ['2000m', '2'],
    ['1024Mi', '1Gi'], ['1.5Gi', '1536Mi'], ['0.5Ki', '512'], ['1Ki', '1Ki'], ['1.1Ki', '1126400m'], ['512Mi', '512Mi'],
    ['0', '0'], ['0Gi', '0'], ['0.0000000001', '1m'], ['1n', '1m'], ['1500u', '2m'], ['100Mi', '100Mi'],
    ['10G', '10G'], ['1000M', '1G'], ['.5', '500m'],
  ])('%s is stored as %s', (written, stored) => {
    expect(canonicalQuantity(written)).toBe(stored);
  });

  it.each([['abc'], [''], ['1x'], ['-1'], ['1.2.3'], ['Ki'], ['1e3'], ['1.'], ['1E6']])('leaves %j alone (not a quantity promop rewrites)', (text) => {
    expect(canonicalQuantity(text)).toBeUndefined();
  });
});

describe('withCanonicalQuantities', () => {
  it('rewrites the quantities of a StatefulSet and nothing else, in a copy', () => {
    const statefulSet = {
      metadata: { labels: { size: '1.0' } },
      spec: {
        template: {
          spec: {
            containers: [{ name: 'prometheus', resources: { requests: { cpu: '0.5', memory: '1024Mi' }, limits: { cpu: 2 } }, env: [{ name: 'X', value: '1.0' }] }],
            initContainers: [{ name: 'init', resources: { limits: { memory: '0.5Gi' } } }],
            volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '1000Mi' } }, { name: 'config', secret: { secretName: '1.0' } }],
          },
        },
        volumeClaimTemplates: [{ spec: { resources: { requests: { storage: '10240Mi' } } } }],
      },
    };
    const canonical = withCanonicalQuantities(statefulSet);
    expect(canonical.spec.template.spec.containers[0]!.resources).toEqual({ requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2' } });
    expect(canonical.spec.template.spec.initContainers[0]!.resources.limits.memory).toBe('512Mi');
    expect(canonical.spec.template.spec.volumes[0]!.emptyDir!.sizeLimit).toBe('1000Mi');
    expect(canonical.spec.volumeClaimTemplates[0]!.spec.resources.requests.storage).toBe('10Gi');
    expect(canonical.metadata.labels.size).toBe('1.0');
    expect(canonical.spec.template.spec.containers[0]!.env[0]!.value).toBe('1.0');
    expect(statefulSet.spec.template.spec.containers[0]!.resources.requests.cpu).toBe('0.5');
  });
});
