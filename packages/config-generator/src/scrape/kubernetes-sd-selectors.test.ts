/**
 * A ScrapeConfig's Kubernetes discovery selectors: a string or role Prometheus would refuse rejects the
 * ScrapeConfig alone, at the selector's path, instead of being written into a file Prometheus refuses as a whole.
 * kubernetes-sd-selectors.differential.test.ts checks the same verdicts against the real promtool.
 */
import type { ScrapeConfig } from '@promop/crds';
import { renderScrapeConfig } from './scrape-config.ts';
import { testContext } from '../test-support/scrape-harness.ts';

type KubernetesSd = NonNullable<ScrapeConfig['spec']['kubernetesSDConfigs']>[number];

function withDiscovery(sd: KubernetesSd): ScrapeConfig {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: { name: 'web', namespace: 'team-a' }, spec: { kubernetesSDConfigs: [sd] } };
}

function problemsOf(sd: KubernetesSd, version = ''): Array<{ path: string; message: string }> {
  const result = renderScrapeConfig(withDiscovery(sd), testContext({}, version));
  return result.ok ? [] : result.problems;
}

describe("a team's ScrapeConfig with Kubernetes discovery selectors", () => {
  it('is rendered with its selectors when Prometheus would load them', () => {
    const result = renderScrapeConfig(
      withDiscovery({ role: 'Endpoints', selectors: [{ role: 'Service', label: 'app in (web,api)' }, { role: 'Pod', field: 'status.phase=Running' }] }),
      testContext(),
    );
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect((result.scrapeConfigs[0]!.kubernetes_sd_configs as Array<Record<string, unknown>>)[0]!.selectors).toEqual([
        { role: 'service', label: 'app in (web,api)' },
        { role: 'pod', field: 'status.phase=Running' },
      ]);
    }
  });

  it('is rejected at the label when the label selector does not parse (an unclosed value list)', () => {
    expect(problemsOf({ role: 'Pod', selectors: [{ role: 'Pod', label: 'app in (web' }] })).toEqual([
      { path: 'spec.kubernetesSDConfigs[0].selectors[0].label', message: expect.stringMatching(/^not a label selector Prometheus accepts: .*expected "," or "\)"/) },
    ]);
  });

  it('is rejected at the field when the field selector names a field without a value', () => {
    expect(problemsOf({ role: 'Pod', selectors: [{ role: 'Pod', field: 'status.phase' }] })).toEqual([
      { path: 'spec.kubernetesSDConfigs[0].selectors[0].field', message: expect.stringMatching(/^not a field selector Prometheus accepts: "status.phase" is not a term/) },
    ]);
  });

  it('is rejected at the role when the selector watches objects the discovery role does not (a Service selector under role Pod)', () => {
    expect(problemsOf({ role: 'Pod', selectors: [{ role: 'Service', label: 'app=web' }] })).toEqual([
      { path: 'spec.kubernetesSDConfigs[0].selectors[0].role', message: 'a pod discovery accepts only pod, node selectors' },
    ]);
  });

  it('is rejected at the second selector when two selectors have the same role', () => {
    expect(problemsOf({ role: 'Endpoints', selectors: [{ role: 'Pod', label: 'a=b' }, { role: 'Service' }, { role: 'Pod', label: 'c=d' }] })).toEqual([
      { path: 'spec.kubernetesSDConfigs[0].selectors[2].role', message: 'selectors[0] already selects pod objects; Prometheus takes one selector per role' },
    ]);
  });

  it('may select nodes under role Pod from Prometheus 3.11 (prometheus-operator still refuses it; Prometheus loads it)', () => {
    expect(problemsOf({ role: 'Pod', selectors: [{ role: 'Node', label: 'topology.kubernetes.io/zone=a' }] }, 'v3.11.0')).toEqual([]);
    expect(problemsOf({ role: 'Pod', selectors: [{ role: 'Node', label: 'topology.kubernetes.io/zone=a' }] }, 'v3.10.0')).toEqual([
      { path: 'spec.kubernetesSDConfigs[0].selectors[0].role', message: 'a pod discovery accepts only pod selectors (node selectors under role pod need Prometheus v3.11.0 or later; configured: v3.10.0)' },
    ]);
  });

  it('reports every bad selector, each at its own path', () => {
    expect(problemsOf({ role: 'Service', selectors: [{ role: 'Service', label: '!', field: 'a=b=c' }] }).map((p) => p.path)).toEqual([
      'spec.kubernetesSDConfigs[0].selectors[0].field',
      'spec.kubernetesSDConfigs[0].selectors[0].label',
    ]);
  });
});
