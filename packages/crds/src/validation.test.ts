import { corpusObjects } from './test-support/corpus.ts';
import { NEGATIVE_CASES } from './test-support/negative-cases.ts';
import { ALL_KINDS, type Kind } from './kinds.ts';
import { validatePrometheus, validateServiceMonitor, VALIDATORS } from './validation.ts';

describe('the kube-prometheus manifests', () => {
  // Every object of a kind promop serves, Alertmanager included.
  const objects = corpusObjects(ALL_KINDS);

  it('contain the objects this suite is about', () => {
    expect(objects.filter((o) => o.kind === 'Prometheus')).toHaveLength(1);
    expect(objects.filter((o) => o.kind === 'ServiceMonitor')).toHaveLength(13);
    expect(objects.filter((o) => o.kind === 'PrometheusRule')).toHaveLength(8);
    expect(objects.filter((o) => o.kind === 'Alertmanager')).toHaveLength(1);
  });

  it.each(objects.map((o) => [`${o.file} ${o.kind} ${o.name}`, o] as const))('%s is valid', (_title, { kind, object }) => {
    const result = VALIDATORS[kind as Kind](object);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });
});

describe('objects the schema rejects', () => {
  it('are at least twenty', () => {
    expect(NEGATIVE_CASES.length).toBeGreaterThanOrEqual(20);
  });

  it.each(NEGATIVE_CASES.map((c) => [c.title, c] as const))('%s is rejected at its field path', (_title, negative) => {
    const result = VALIDATORS[negative.kind](negative.object);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toEqual([negative.path]);
    expect(result.errors[0]?.message.startsWith(`${negative.path}: `)).toBe(true);
  });
});

describe('validation messages', () => {
  const monitor = (endpoint: Record<string, unknown>, spec: Record<string, unknown> = {}) => ({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { name: 'web', namespace: 'team-a' },
    spec: { selector: {}, endpoints: [{ port: 'web', ...endpoint }], ...spec },
  });

  it('say a duration in words is not a duration', () => {
    expect(validateServiceMonitor(monitor({ interval: '5 minutes' }))).toEqual({
      ok: false,
      errors: [{ path: 'spec.endpoints[0].interval', message: 'spec.endpoints[0].interval: "5 minutes" is not a duration like 30s or 1m' }],
    });
  });

  it('list the allowed values of an enum', () => {
    const result = validateServiceMonitor(monitor({ relabelings: [{ action: 'explode' }] }));
    expect(result.ok ? '' : result.errors[0]?.message).toMatch(/^spec\.endpoints\[0\]\.relabelings\[0\]\.action: "explode" is not one of: replace, Replace, keep,/);
  });

  it('name the missing field, not its parent', () => {
    const result = validateServiceMonitor({ ...monitor({}), spec: { endpoints: [] } });
    expect(result).toEqual({ ok: false, errors: [{ path: 'spec.selector', message: 'spec.selector: is required' }] });
  });

  it('report an int-or-string field once, not once per alternative', () => {
    const result = validateServiceMonitor(monitor({ targetPort: 1.5 }));
    expect(result).toEqual({
      ok: false,
      errors: [{ path: 'spec.endpoints[0].targetPort', message: 'spec.endpoints[0].targetPort: must be an integer or a string, not 1.5' }],
    });
  });

  it('quote label keys that are not identifiers', () => {
    const result = validateServiceMonitor(monitor({}, { selector: { matchLabels: { 'app.kubernetes.io/name': 3 } } }));
    expect(result).toEqual({
      ok: false,
      errors: [{ path: 'spec.selector.matchLabels["app.kubernetes.io/name"]', message: 'spec.selector.matchLabels["app.kubernetes.io/name"]: must be a string, not 3' }],
    });
  });

  it('report every problem at once', () => {
    const result = validateServiceMonitor(monitor({ interval: 'often', scheme: 'ftp' }, { sampleLimit: -5 }));
    expect(result.ok ? [] : result.errors.map((e) => e.path).sort()).toEqual(['spec.endpoints[0].interval', 'spec.endpoints[0].scheme', 'spec.sampleLimit']);
  });

  it('describe a value of the wrong type', () => {
    const result = validatePrometheus({ apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'k8s', namespace: 'monitoring' }, spec: { replicas: 'two' } });
    expect(result).toEqual({ ok: false, errors: [{ path: 'spec.replicas', message: 'spec.replicas: must be an integer, not "two"' }] });
  });
});

describe('validating never throws', () => {
  it.each([null, undefined, 42, 'ServiceMonitor', [], { kind: 'ServiceMonitor' }, { spec: null }, { toJSON: () => 1, f: () => 1 }])('for %p', (input) => {
    const result = validateServiceMonitor(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.length).toBeGreaterThan(0);
  });
});

describe('a valid object', () => {
  const prometheus = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { name: 'k8s', namespace: 'monitoring' },
    spec: { serviceMonitorSelector: {}, remoteWrite: [{ url: 'https://example.com/write', writeRelabelConfigs: [{ sourceLabels: ['a'] }] }] },
  };

  it('comes back with the CRD defaults the API server would fill in', () => {
    const result = validatePrometheus(prometheus);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.spec).toEqual({
      ...prometheus.spec,
      scrapeInterval: '30s',
      evaluationInterval: '30s',
      portName: 'web',
      shards: 1,
      remoteWrite: [{ url: 'https://example.com/write', writeRelabelConfigs: [{ sourceLabels: ['a'], action: 'replace' }] }],
    });
  });

  it('is not changed by validation', () => {
    const before = structuredClone(prometheus);
    validatePrometheus(prometheus);
    expect(prometheus).toEqual(before);
  });
});
