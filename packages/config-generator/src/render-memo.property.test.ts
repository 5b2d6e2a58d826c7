/**
 * The memo's promise: generate() with a RenderMemo kept across calls gives byte-identical output to generate()
 * without one, whatever changed between the calls — a monitor or rule replaced, a Secret value changed, the
 * Prometheus' settings changed, monitors added or removed, a monitor's status written — and it does reuse
 * renderings (or it would be a no-op that merely passes this test). Monitors carry a uid and a generation as the
 * API server keeps them: a new spec under the same namespace/name is the same uid with the next generation, a
 * status write (promop's binding) a new object with the same uid and generation.
 */
import fc from 'fast-check';
import type { PodMonitor, Prometheus, PrometheusRule, ServiceMonitor } from '@promop/crds';
import { generate } from './generate.ts';
import type { GeneratorInput, KeyValueSource } from './model.ts';
import { RenderMemo } from './render-memo.ts';
import { podMonitor, serviceMonitor } from './scrape/monitor-arbitraries.ts';
import { TEST_CONFIG_MAPS, TEST_SECRETS } from './test-support/scrape-harness.ts';

const prometheusRule: fc.Arbitrary<PrometheusRule> = fc.record({
  name: fc.constantFrom('a', 'b', 'c', 'd'),
  namespace: fc.constantFrom('default', 'team'),
  exprs: fc.array(fc.constantFrom('up == 0', 'rate(http_requests_total[5m]) > 1', 'rate(up)', 'sum by (job) (up)', 'up{namespace="x"}', 'foo('), { minLength: 1, maxLength: 3 }),
  alert: fc.boolean(),
}).map(({ name, namespace, exprs, alert }) => ({
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'PrometheusRule',
  metadata: { name, namespace, uid: `uid-${namespace}-${name}` },
  spec: { groups: [{ name: 'g', rules: exprs.map((expr, i) => (alert ? { alert: `A${i}`, expr, for: '5m', labels: { severity: 'page' } } : { record: `job:r${i}:x`, expr })) }] },
}) as PrometheusRule);

const prometheusSpec = fc.record({
  version: fc.constantFrom('v2.40.0', 'v3.5.0', 'v3.16.0'),
  enforcedNamespaceLabel: fc.constantFrom(undefined, 'namespace', 'tenant'),
  scrapeInterval: fc.constantFrom('30s', '1m'),
  shards: fc.constantFrom(1, 1, 2),
  overrideHonorLabels: fc.boolean(),
  enableFeatures: fc.constantFrom([], ['promql-experimental-functions']),
  // Selections that change with labels, so a kept selection decision is put to the test too.
  serviceMonitorSelector: fc.constantFrom({}, { matchLabels: { tier: 'web' } }, { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] }),
  serviceMonitorNamespaceSelector: fc.constantFrom({}, { matchLabels: { watched: 'yes' } }),
});

type SpecChoice = typeof prometheusSpec extends fc.Arbitrary<infer T> ? T : never;

/** One change between two generate() calls. */
type Step =
  | { kind: 'replace-service-monitor'; index: number; monitor: ServiceMonitor; sameName: boolean }
  | { kind: 'copy-service-monitor'; index: number }
  | { kind: 'status-service-monitor'; index: number }
  | { kind: 'add-pod-monitor'; monitor: PodMonitor }
  | { kind: 'remove-service-monitor'; index: number }
  | { kind: 'replace-rule'; index: number; rule: PrometheusRule }
  | { kind: 'secret'; key: 'user' | 'password' | 'token' | 'header'; value: string }
  | { kind: 'drop-secret' }
  | { kind: 'prometheus'; spec: SpecChoice }
  | { kind: 'prometheus-status'; generation: number }
  | { kind: 'namespace-labels'; namespace: 'default' | 'team'; watched: boolean }
  | { kind: 'label-service-monitor'; index: number; tier: 'web' | 'db' | undefined }
  | { kind: 'nothing' };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('replace-service-monitor' as const), index: fc.nat(), monitor: serviceMonitor, sameName: fc.boolean() }),
  fc.record({ kind: fc.constant('copy-service-monitor' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('status-service-monitor' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('add-pod-monitor' as const), monitor: podMonitor }),
  fc.record({ kind: fc.constant('remove-service-monitor' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('replace-rule' as const), index: fc.nat(), rule: prometheusRule }),
  fc.record({ kind: fc.constant('secret' as const), key: fc.constantFrom('user' as const, 'password' as const, 'token' as const, 'header' as const), value: fc.constantFrom('bob', 'hunter2', 'x y') }),
  fc.record({ kind: fc.constant('drop-secret' as const) }),
  fc.record({ kind: fc.constant('prometheus' as const), spec: prometheusSpec }),
  fc.record({ kind: fc.constant('prometheus-status' as const), generation: fc.nat() }),
  fc.record({ kind: fc.constant('namespace-labels' as const), namespace: fc.constantFrom('default' as const, 'team' as const), watched: fc.boolean() }),
  fc.record({ kind: fc.constant('label-service-monitor' as const), index: fc.nat(), tier: fc.constantFrom('web' as const, 'db' as const, undefined) }),
  fc.constant({ kind: 'nothing' as const }),
);

function prometheusWith(spec: SpecChoice): Prometheus {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { name: 'main', namespace: 'default', uid: 'prometheus-uid' },
    spec: {
      serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, podMonitorSelector: {}, podMonitorNamespaceSelector: {},
      ruleSelector: {}, ruleNamespaceSelector: {}, evaluationInterval: '30s',
      ...Object.fromEntries(Object.entries(spec).filter(([, value]) => value !== undefined)),
    },
  } as Prometheus;
}

/** `prometheus` after a status write: a new object, a new resourceVersion and status, the same spec. */
function withNewStatus(prometheus: GeneratorInput['prometheus'], version: number): GeneratorInput['prometheus'] {
  return {
    ...prometheus,
    metadata: { ...prometheus.metadata, resourceVersion: String(1_000 + version), managedFields: [{ manager: 'promop', operation: 'Apply', subresource: 'status' }] },
    status: { ...prometheus.status, shards: version } as Prometheus['status'],
  } as GeneratorInput['prometheus'];
}

let nextUid = 0;

/**
 * `monitor` as the API server would hand it out in place of `previous` (the object at the same place before): the
 * same uid and the next generation when it has the same namespace and name (an update of its spec), else a new
 * uid (another object).
 */
function stored<T extends ServiceMonitor | PodMonitor>(monitor: T, previous?: T): T {
  const { namespace, name } = monitor.metadata;
  const same = previous !== undefined && previous.metadata.namespace === namespace && previous.metadata.name === name;
  const uid = same ? previous.metadata.uid : `uid-${(nextUid += 1)}`;
  const generation = same ? (previous.metadata.generation ?? 1) + 1 : 1;
  return { ...monitor, metadata: { ...monitor.metadata, uid, generation } };
}

/** `monitor` after a status write: a new object and resourceVersion, the same uid, generation and spec. */
function withStatusWritten(monitor: ServiceMonitor): ServiceMonitor {
  const copy = structuredClone(monitor);
  return {
    ...copy,
    metadata: { ...copy.metadata, resourceVersion: String((nextUid += 1)) },
    status: { bindings: [{ group: 'monitoring.coreos.com', resource: 'prometheuses', name: 'main', namespace: 'default', conditions: [] }] },
  } as ServiceMonitor;
}

/** The next input after `change`: every changed object is a new object, unchanged ones are kept as they are. */
function apply(input: GeneratorInput, change: Step): GeneratorInput {
  const at = <T>(list: readonly T[], index: number) => index % Math.max(1, list.length);
  switch (change.kind) {
    case 'replace-service-monitor': {
      const serviceMonitors = [...input.serviceMonitors];
      const index = at(serviceMonitors, change.index);
      const previous = serviceMonitors[index];
      // Half the time a new spec of the same object (same namespace and name), else another object in its place.
      const monitor = change.sameName && previous ? { ...change.monitor, metadata: { ...change.monitor.metadata, namespace: previous.metadata.namespace, name: previous.metadata.name } } : change.monitor;
      serviceMonitors[index] = stored(monitor, previous);
      return { ...input, serviceMonitors };
    }
    case 'status-service-monitor': {
      const index = at(input.serviceMonitors, change.index);
      return { ...input, serviceMonitors: input.serviceMonitors.map((monitor, i) => (i === index ? withStatusWritten(monitor) : monitor)) };
    }
    case 'copy-service-monitor': {
      // A new object with the same content (a relist): a miss, and the same output.
      const serviceMonitors = input.serviceMonitors.map((monitor, index) => (index === at(input.serviceMonitors, change.index) ? structuredClone(monitor) : monitor));
      return { ...input, serviceMonitors };
    }
    case 'add-pod-monitor':
      return { ...input, podMonitors: [...input.podMonitors, stored(change.monitor)] };
    case 'remove-service-monitor':
      return { ...input, serviceMonitors: input.serviceMonitors.filter((_, index) => index !== at(input.serviceMonitors, change.index)) };
    case 'replace-rule': {
      const prometheusRules = [...input.prometheusRules];
      prometheusRules[at(prometheusRules, change.index)] = change.rule;
      return { ...input, prometheusRules };
    }
    case 'secret':
      return { ...input, secrets: input.secrets.map((secret): KeyValueSource => (secret.name === 'creds' && secret.namespace === 'default' ? { ...secret, data: { ...secret.data, [change.key]: change.value } } : secret)) };
    case 'drop-secret':
      return { ...input, secrets: input.secrets.filter((secret) => !(secret.name === 'creds' && secret.namespace === 'default')) };
    case 'prometheus':
      return { ...input, prometheus: prometheusWith(change.spec) };
    case 'prometheus-status':
      return { ...input, prometheus: withNewStatus(input.prometheus, change.generation) };
    case 'namespace-labels':
      // A new list of new objects, as the controller builds it on every call.
      return { ...input, namespaces: input.namespaces.map((namespace) => (namespace.name === change.namespace ? { name: namespace.name, labels: change.watched ? { watched: 'yes' } : {} } : { ...namespace })) };
    case 'label-service-monitor': {
      const serviceMonitors = [...input.serviceMonitors];
      const index = at(serviceMonitors, change.index);
      const previous = serviceMonitors[index];
      if (!previous) return input;
      const { tier: _tier, ...labels } = previous.metadata.labels ?? {};
      // Labels are metadata: a new object with the same uid and generation, as the API server keeps it.
      serviceMonitors[index] = { ...previous, metadata: { ...previous.metadata, labels: change.tier ? { ...labels, tier: change.tier } : labels } };
      return { ...input, serviceMonitors };
    }
    case 'nothing':
      return input;
  }
}

describe('generate() with a RenderMemo', () => {
  it('gives byte-identical output to generate() without one, over random sequences of changes', () => {
    const totals = { hits: 0, misses: 0 };
    fc.assert(
      fc.property(
        fc.array(serviceMonitor, { minLength: 1, maxLength: 8 }),
        fc.array(podMonitor, { maxLength: 3 }),
        fc.array(prometheusRule, { minLength: 1, maxLength: 4 }),
        prometheusSpec,
        fc.array(step, { minLength: 1, maxLength: 8 }),
        (serviceMonitors, podMonitors, prometheusRules, spec, steps) => {
          const memo = new RenderMemo();
          let input: GeneratorInput = {
            prometheus: prometheusWith(spec), serviceMonitors: serviceMonitors.map((m) => stored(m)), podMonitors: podMonitors.map((m) => stored(m)), prometheusRules,
            namespaces: [{ name: 'default', labels: { watched: 'yes' } }, { name: 'team', labels: {} }],
            secrets: TEST_SECRETS, configMaps: TEST_CONFIG_MAPS,
          };
          for (const change of [{ kind: 'nothing' as const }, ...steps]) {
            input = apply(input, change);
            expect(JSON.stringify(generate({ ...input, memo }))).toBe(JSON.stringify(generate(input)));
          }
          totals.hits += memo.stats.hits;
          totals.misses += memo.stats.misses;
        },
      ),
      { numRuns: 300, seed: 20261202 },
    );
    // The memo did work: most renderings of unchanged objects were kept.
    expect(totals.hits).toBeGreaterThan(totals.misses);
  });

  it('keeps the scrape files byte-identical too, when the jobs are too many to stay inline', () => {
    const monitor = (i: number, port = 'web'): ServiceMonitor => ({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'ServiceMonitor',
      metadata: { namespace: i % 2 ? 'default' : 'team', name: `app-${i}` },
      spec: {
        selector: { matchLabels: { app: `app-${i}` } },
        endpoints: [
          { port, interval: '30s', relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node' }] },
          { port: 'metrics', path: '/internal/metrics', basicAuth: { username: { name: 'creds', key: 'user' }, password: { name: 'creds', key: 'password' } } },
        ],
      },
    } as ServiceMonitor);
    const memo = new RenderMemo();
    let input: GeneratorInput = {
      prometheus: prometheusWith({ version: 'v3.16.0', enforcedNamespaceLabel: undefined, scrapeInterval: '30s', shards: 1, overrideHonorLabels: false, enableFeatures: [], serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {} }),
      serviceMonitors: Array.from({ length: 300 }, (_, i) => stored(monitor(i))), podMonitors: [], prometheusRules: [],
      namespaces: [{ name: 'default', labels: {} }, { name: 'team', labels: {} }],
      secrets: TEST_SECRETS, configMaps: TEST_CONFIG_MAPS,
    };
    const same = () => {
      const withMemo = generate({ ...input, memo });
      expect(withMemo.scrapeFiles[0]!.length).toBeGreaterThan(1);
      expect(JSON.stringify(withMemo)).toBe(JSON.stringify(generate(input)));
    };
    same();
    expect(memo.stats).toEqual({ hits: 0, misses: 300 });
    input = { ...input, serviceMonitors: input.serviceMonitors.map((m, i) => (i === 7 ? stored(monitor(7, 'other'), m) : m)) };
    same();
    expect(memo.stats).toEqual({ hits: 299, misses: 301 });
    // promop's own status write (one per config change) gives the Prometheus a new resourceVersion: every monitor
    // keeps its rendering.
    input = { ...input, prometheus: withNewStatus(input.prometheus, 1) };
    same();
    expect(memo.stats).toEqual({ hits: 599, misses: 301 });
    // promop's binding written into every monitor's status: new objects, same uid and generation, no render.
    input = { ...input, serviceMonitors: input.serviceMonitors.map((m) => withStatusWritten(m)) };
    same();
    expect(memo.stats).toEqual({ hits: 899, misses: 301 });
    // A new spec of one of them (same uid, next generation) is rendered again.
    input = { ...input, serviceMonitors: input.serviceMonitors.map((m, i) => (i === 8 ? stored(monitor(8, 'other'), m) : m)) };
    same();
    expect(memo.stats).toEqual({ hits: 1198, misses: 302 });
    input = { ...input, secrets: input.secrets.map((s) => (s.name === 'creds' && s.namespace === 'default' ? { ...s, data: { ...s.data, password: 'changed' } } : s)) };
    same(); // the 150 monitors in "default" read it; those in "team" read their own namespace's
    input = { ...input, prometheus: prometheusWith({ version: 'v3.16.0', enforcedNamespaceLabel: undefined, scrapeInterval: '30s', shards: 2, overrideHonorLabels: false, enableFeatures: [], serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {} }) };
    same();
  });
});
