/**
 * The bound checked before a monitor is rendered never refuses a monitor whose jobs fit: it counts fewer bytes
 * than the jobs take, with either selector mechanism and the shortest keys.
 */
import type { PodMonitor, Prometheus, ServiceMonitor } from '@promop/crds';
import { generate } from '../generate.ts';
import { repeatedSelectorProblem } from './repeated-selector.ts';

const prometheus = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main', uid: 'u' },
  spec: { version: 'v3.5.0', serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, podMonitorSelector: {}, podMonitorNamespaceSelector: {} },
} as Prometheus;

/** The plain YAML bytes of the jobs a monitor renders to (no other monitor in the Prometheus). */
function jobBytes(monitors: { serviceMonitors?: ServiceMonitor[]; podMonitors?: PodMonitor[] }): number {
  const output = generate({ prometheus, serviceMonitors: monitors.serviceMonitors ?? [], podMonitors: monitors.podMonitors ?? [], prometheusRules: [], namespaces: [{ name: 'a', labels: {} }], secrets: [], configMaps: [] });
  expect(output.verdicts.every((verdict) => verdict.selected && verdict.accepted)).toBe(true);
  const jobs = output.scrapeFiles[0]!.length > 0
    ? output.scrapeFiles[0]!.map((file) => file.text).join('')
    : output.configs[0]!.slice(output.configs[0]!.indexOf('scrape_configs:'));
  return Buffer.byteLength(jobs);
}

describe('the least size of a monitor\'s jobs, from its endpoints and selector', () => {
  const selector = { matchLabels: { a: 'b' }, matchExpressions: [{ key: 'c', operator: 'Exists' as const }, { key: 'd', operator: 'In' as const, values: ['e'] }] };
  for (const selectorMechanism of ['RelabelConfig', 'RoleSelector'] as const) {
    it(`is never more than the selector takes in the jobs, with one-character keys (${selectorMechanism})`, () => {
      const endpoints = Array.from({ length: 5 }, (_, i) => ({ port: `${i}` }));
      const serviceMonitor = (withSelector: typeof selector | object) => ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { namespace: 'a', name: 's' }, spec: { selectorMechanism, selector: withSelector, endpoints } }) as ServiceMonitor;
      const podMonitor = (withSelector: typeof selector | object) => ({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: { namespace: 'a', name: 'p' }, spec: { selectorMechanism, selector: withSelector, podMetricsEndpoints: endpoints } }) as PodMonitor;
      const least = 5 * 3 * (selectorMechanism === 'RoleSelector' ? 2 : 40);
      // What the selector adds to the jobs: the same monitor with and without it.
      const serviceShare = jobBytes({ serviceMonitors: [serviceMonitor(selector)] }) - jobBytes({ serviceMonitors: [serviceMonitor({})] });
      const podShare = jobBytes({ podMonitors: [podMonitor(selector)] }) - jobBytes({ podMonitors: [podMonitor({})] });
      expect(Math.min(serviceShare, podShare)).toBeGreaterThanOrEqual(least);
      expect(repeatedSelectorProblem(serviceMonitor(selector), least)).toBeUndefined();
      expect(repeatedSelectorProblem(podMonitor(selector), least - 1)).toMatchObject({
        path: 'spec',
        message: expect.stringMatching(new RegExp(`^its 5 endpoints each repeat the 3 requirements of its selector in their scrape jobs, at least ${least} bytes of YAML; `)),
      });
    });
  }
});
