import type { V1Pod, V1Service } from '@kubernetes/client-node';
import { discoveryNamespacesOf, noTargetsReason, noTargetsReasonClass, type DroppedPool, type NoTargetsFacts } from './no-targets-reason.ts';

const service = (namespace: string, name: string, ports: { name?: string; port: number; targetPort?: number | string }[]): V1Service =>
  ({ metadata: { namespace, name }, spec: { ports } });
const pod = (namespace: string, name: string, ports: { name?: string; containerPort: number }[], phase = 'Running'): V1Pod =>
  ({ metadata: { namespace, name }, spec: { containers: [{ name: 'app', ports }] }, status: { phase } });

function facts(more: Partial<NoTargetsFacts> & Pick<NoTargetsFacts, 'kind' | 'spec'>): NoTargetsFacts {
  return { namespace: 'team-b', name: 'web', ignoreNamespaceSelectors: false, existingNamespaces: new Set(['team-a', 'team-b']), dropped: new Map(), ...more };
}
const smon = (endpoints: object[], more: object = {}) => ({ selector: { matchLabels: { app: 'web' } }, endpoints, ...more });
const pmon = (podMetricsEndpoints: object[], more: object = {}) => ({ selector: { matchLabels: { app: 'web' } }, podMetricsEndpoints, ...more });
const complete = (items: (V1Service | V1Pod)[]) => ({ items, complete: true });
const dropped = (count: number, targets: Record<string, string>[] = []): DroppedPool => ({ count, targets });

describe('the namespaces a monitor discovers targets in', () => {
  it('are its own by default, the names it lists, all with any, and its own when the Prometheus ignores selectors', () => {
    expect(discoveryNamespacesOf(undefined, 'team-b', false)).toEqual(['team-b']);
    expect(discoveryNamespacesOf({ matchNames: ['x', 'y', 'x'] }, 'team-b', false)).toEqual(['x', 'y']);
    expect(discoveryNamespacesOf({ any: true, matchNames: ['x'] }, 'team-b', false)).toBe('all');
    expect(discoveryNamespacesOf({ any: true }, 'team-b', true)).toEqual(['team-b']);
  });
});

describe('why a ServiceMonitor has no target', () => {
  it('is a namespace selector naming only namespaces that do not exist', () => {
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ port: 'web' }], { namespaceSelector: { matchNames: ['team-c'] } }) })))
      .toBe('spec.namespaceSelector.matchNames: namespace "team-c" does not exist');
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ port: 'web' }], { namespaceSelector: { matchNames: ['c', 'd'] } }) })))
      .toBe('spec.namespaceSelector.matchNames: none of the namespaces "c", "d" exists');
  });

  it('never says a namespace does not exist when promop does not see every namespace', () => {
    const spec = smon([{ port: 'web' }], { namespaceSelector: { matchNames: ['team-c'] } });
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec, existingNamespaces: undefined }))).toBeUndefined();
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec, existingNamespaces: undefined, selected: complete([]) })))
      .toBe('spec.selector (matchLabels app=web): no Service in namespace team-c matches it');
  });

  it('is a selector that matches no Service in the namespaces, named with the selector', () => {
    const reason = noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ port: 'web' }], { namespaceSelector: { matchNames: ['team-a', 'team-b', 'gone'] } }), selected: complete([]) }));
    expect(reason).toBe('spec.selector (matchLabels app=web): no Service in namespaces team-a, team-b matches it');
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ port: 'web' }], { namespaceSelector: { any: true } }), selected: complete([]) })))
      .toBe('spec.selector (matchLabels app=web): no Service in any namespace matches it');
  });

  it('is an endpoint port no selected Service has, with the endpoint\'s path', () => {
    const selected = complete([service('team-b', 'web', [{ name: 'http', port: 80 }, { name: 'metrics', port: 9090 }])]);
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ port: 'metricz' }]), selected })))
      .toBe('spec.endpoints[0].port: no Service selected by spec.selector in namespace team-b has a port named "metricz"');
    // The port is a regex Prometheus anchors: `metric.` keeps `metrics`.
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ port: 'metric.' }]), selected }))).toBeUndefined();
  });

  it('is a targetPort no Service port targets, only when that is certain', () => {
    const named = complete([service('team-b', 'web', [{ name: 'http', port: 80, targetPort: 'http' }])]);
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ targetPort: 'metrics' }]), selected: named })))
      .toBe('spec.endpoints[0].targetPort: no port of a Service selected by spec.selector in namespace team-b targets "metrics"');
    const numbered = complete([service('team-b', 'web', [{ name: 'http', port: 80 }])]);
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ targetPort: 8080 }]), selected: numbered })))
      .toBe('spec.endpoints[0].targetPort: no port of a Service selected by spec.selector in namespace team-b targets 8080');
    // A Service port targeting 80 by number may reach a container port named "metrics": nothing is claimed.
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ targetPort: 'metrics' }]), selected: numbered }))).toBeUndefined();
  });

  it('is what Prometheus dropped when the Services and the port are right', () => {
    const selected = complete([service('team-b', 'web', [{ name: 'metrics', port: 9090 }])]);
    const own = { __meta_kubernetes_namespace: 'team-b', __meta_kubernetes_service_name: 'web' };
    const other = { __meta_kubernetes_namespace: 'team-b', __meta_kubernetes_service_name: 'db' };
    const at = (pool: DroppedPool) => noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ port: 'metrics' }]), selected, dropped: new Map([['serviceMonitor/team-b/web/0', pool]]) }));
    expect(at(dropped(3, [own, own, other]))).toBe('spec.endpoints[0]: Prometheus discovered 2 targets of the selected Services and relabeling dropped them all');
    expect(at(dropped(1, [other]))).toBe('spec.endpoints[0]: the Services selected by spec.selector in namespace team-b have no endpoints (no Pod matches their selector?)');
    expect(at(dropped(0))).toBe('spec.endpoints[0]: Prometheus discovered no target in namespace team-b');
    // Prometheus listed fewer than it dropped (keep_dropped_targets): the selected Services' may be among the others.
    expect(at(dropped(5, [other]))).toBeUndefined();
  });

  it('is unknown when nothing could be read', () => {
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ port: 'metrics' }]) }))).toBeUndefined();
    // Only a first page of Services was read: no claim that none matches.
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec: smon([{ port: 'metrics' }]), selected: { items: [], complete: false } }))).toBeUndefined();
  });

  it('names each endpoint that has a reason', () => {
    const selected = complete([service('team-b', 'web', [{ name: 'metrics', port: 9090 }])]);
    const spec = smon([{ port: 'metrics' }, { port: 'admin' }]);
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', spec, selected, dropped: new Map([['serviceMonitor/team-b/web/0', dropped(0)]]) })))
      .toBe('spec.endpoints[0]: Prometheus discovered no target in namespace team-b; spec.endpoints[1].port: no Service selected by spec.selector in namespace team-b has a port named "admin"');
  });

  it('uses the own namespace when the Prometheus ignores namespace selectors', () => {
    expect(noTargetsReason(facts({ kind: 'ServiceMonitor', namespace: 'gone', spec: smon([{ port: 'x' }], { namespaceSelector: { any: true } }), ignoreNamespaceSelectors: true })))
      .toBe('metadata.namespace: namespace "gone" does not exist');
  });
});

describe('why a PodMonitor has no target', () => {
  it('is a selector that matches no Pod, a container port no selected Pod has, or Pods that all finished', () => {
    expect(noTargetsReason(facts({ kind: 'PodMonitor', spec: pmon([{ port: 'metrics' }]), selected: complete([]) })))
      .toBe('spec.selector (matchLabels app=web): no Pod in namespace team-b matches it');
    const running = complete([pod('team-b', 'web-1', [{ name: 'http', containerPort: 8080 }])]);
    expect(noTargetsReason(facts({ kind: 'PodMonitor', spec: pmon([{ port: 'metrics' }]), selected: running })))
      .toBe('spec.podMetricsEndpoints[0].port: no container of a Pod selected by spec.selector in namespace team-b has a port named "metrics"');
    expect(noTargetsReason(facts({ kind: 'PodMonitor', spec: pmon([{ portNumber: 9090 }]), selected: running })))
      .toBe('spec.podMetricsEndpoints[0].portNumber: no container of a Pod selected by spec.selector in namespace team-b has a port numbered 9090');
    expect(noTargetsReason(facts({ kind: 'PodMonitor', spec: pmon([{ portNumber: 8080 }]), selected: running }))).toBeUndefined();
    const finished = complete([pod('team-b', 'job-1', [{ name: 'metrics', containerPort: 9090 }], 'Succeeded')]);
    expect(noTargetsReason(facts({ kind: 'PodMonitor', spec: pmon([{ port: 'metrics' }]), selected: finished })))
      .toBe('spec.podMetricsEndpoints[0]: every Pod selected by spec.selector in namespace team-b has finished (Succeeded or Failed), and filterRunning keeps only running ones');
    expect(noTargetsReason(facts({ kind: 'PodMonitor', spec: pmon([{ port: 'metrics', filterRunning: false }]), selected: finished }))).toBeUndefined();
  });
});

describe('why a Probe or ScrapeConfig has no target', () => {
  it('is what Prometheus discovered and dropped of its one scrape pool', () => {
    const at = (kind: 'Probe' | 'ScrapeConfig', pool: string, count: number) => noTargetsReason(facts({ kind, spec: {}, dropped: new Map([[pool, dropped(count)]]) }));
    expect(at('Probe', 'probe/team-b/web', 2)).toBe('Prometheus discovered 2 targets and relabeling dropped them all');
    expect(at('ScrapeConfig', 'scrapeConfig/team-b/web', 0)).toBe('Prometheus discovered no target');
    expect(noTargetsReason(facts({ kind: 'Probe', spec: {} }))).toBeUndefined();
  });
});

describe('the class of a reason', () => {
  it('leaves out how many targets were discovered, and nothing else', () => {
    expect(noTargetsReasonClass('spec.endpoints[0]: Prometheus discovered 2 targets of the selected Services and relabeling dropped them all'))
      .toBe(noTargetsReasonClass('spec.endpoints[0]: Prometheus discovered 1 target of the selected Services and relabeling dropped them all'));
    expect(noTargetsReasonClass('spec.podMetricsEndpoints[0].portNumber: no container of a Pod selected by spec.selector in namespace team-1 has a port numbered 9090'))
      .not.toBe(noTargetsReasonClass('spec.podMetricsEndpoints[0].portNumber: no container of a Pod selected by spec.selector in namespace team-1 has a port numbered 9091'));
  });
});
