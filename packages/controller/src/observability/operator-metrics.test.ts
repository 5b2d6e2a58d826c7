/**
 * The typed metrics API the controller calls, read back from the registry.
 */
import { parseListenAddress } from './listen-address.ts';
import type { Verdict } from '@promop/config-generator';
import { configBytesPerShard, managedCounts } from './generator-output-metrics.ts';
import { resourceOfPath } from './metered-raw-api.ts';
import { OperatorMetrics } from './operator-metrics.ts';

async function sample(metrics: OperatorMetrics, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  return metric?.values.find((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted))?.value;
}

describe('the operator metrics', () => {
  const counts = (selected: number, rejected: number) => new Map([['ServiceMonitor' as const, { selected, rejected }]]);

  it('count the monitors and rules of each Prometheus by kind and state, and drop a deleted Prometheus\' series', async () => {
    const metrics = new OperatorMetrics({ processMetrics: false });
    metrics.setManagedResources('monitoring/main', counts(10, 2));
    metrics.setManagedResources('team-a/apps', counts(3, 0));
    metrics.setManagedResources('monitoring/main', counts(11, 1));
    expect(await sample(metrics, 'promop_managed_resources', { prometheus: 'monitoring/main', kind: 'ServiceMonitor', state: 'selected' })).toBe(11);
    expect(await sample(metrics, 'promop_managed_resources', { prometheus: 'monitoring/main', kind: 'ServiceMonitor', state: 'rejected' })).toBe(1);
    expect(await sample(metrics, 'promop_managed_resources', { prometheus: 'monitoring/main', kind: 'PrometheusRule', state: 'rejected' })).toBe(0);
    metrics.setConfigBytes('monitoring/main', [1200, 800]);
    metrics.setShardConfigLoaded('monitoring/main', 1, false);
    metrics.forgetPrometheus('monitoring/main');
    const text = await metrics.metricsText();
    expect(text).not.toContain('monitoring/main');
    expect(text).toContain('promop_managed_resources{prometheus="team-a/apps",kind="ServiceMonitor",state="selected"} 3');
  });

  it('record the config size per shard, and drop the series of a removed shard', async () => {
    const metrics = new OperatorMetrics({ processMetrics: false });
    metrics.setConfigBytes('monitoring/main', [1200, 800]);
    metrics.setShardConfigLoaded('monitoring/main', 1, true);
    expect(await sample(metrics, 'promop_config_bytes', { prometheus: 'monitoring/main', shard: '1' })).toBe(800);
    metrics.setConfigBytes('monitoring/main', [1300]);
    expect(await sample(metrics, 'promop_config_bytes', { prometheus: 'monitoring/main', shard: '0' })).toBe(1300);
    expect(await sample(metrics, 'promop_config_bytes', { prometheus: 'monitoring/main', shard: '1' })).toBeUndefined();
    expect(await sample(metrics, 'promop_shard_config_loaded', { prometheus: 'monitoring/main', shard: '1' })).toBeUndefined();
  });

  it('start every outcome at zero, so rate() sees the first rejected reload', async () => {
    const metrics = new OperatorMetrics({ processMetrics: false });
    for (const outcome of ['verified', 'stale', 'rejected', 'unreachable', 'refused', 'failed']) {
      expect(await sample(metrics, 'promop_reload_total', { outcome })).toBe(0);
    }
    for (const result of ['success', 'retry', 'error']) expect(await sample(metrics, 'promop_reconcile_total', { result })).toBe(0);
    expect(await sample(metrics, 'promop_ready', {})).toBe(0);
  });

  it('observe how long a written config took to be loaded, the kubelet\'s share, and the time since the change was seen', async () => {
    let now = 50_000;
    const metrics = new OperatorMetrics({ processMetrics: false, now: () => now });
    // Seen at 40 s; the first reconcile fails its reload (retry keeps the first sighting), the second loads it.
    metrics.reconcileStarting('monitoring/main', 40_000);
    metrics.recordReconcile('retry', 1, 'monitoring/main');
    metrics.reconcileStarting('monitoring/main', 45_000);
    // The files written then: the reloader keeps when their change was seen, and they load after the reconcile.
    const firstSeen = metrics.changeSeenAt('monitoring/main');
    metrics.recordReconcile('success', 2, 'monitoring/main');
    expect(metrics.changeSeenAt('monitoring/main')).toBeUndefined();
    metrics.recordConfigLoaded(1.4, 1.1, firstSeen);
    // A later change, loaded 0.3 s after the write and 2 s after it was seen.
    metrics.reconcileStarting('monitoring/main', 60_000);
    const secondSeen = metrics.changeSeenAt('monitoring/main');
    now = 62_000;
    metrics.recordConfigLoaded(0.3, 0.2, secondSeen);
    const text = await metrics.metricsText();
    expect(text).toMatch(/^promop_config_apply_to_loaded_seconds_count 2$/m);
    expect(text).toMatch(/^promop_config_apply_to_loaded_seconds_sum 1\.7$/m);
    expect(text).toMatch(/^promop_config_apply_to_loaded_seconds_bucket\{le="1"\} 1$/m);
    expect(text).toMatch(/^promop_config_kubelet_wait_seconds_count 2$/m);
    expect(text).toMatch(/^promop_config_kubelet_wait_seconds_bucket\{le="0\.25"\} 1$/m);
    expect(text).toMatch(/^promop_config_change_to_loaded_seconds_count 2$/m);
    expect(text).toMatch(/^promop_config_change_to_loaded_seconds_sum 12$/m);
  });

  it('count lists and watches per resource, failures from zero', async () => {
    const metrics = new OperatorMetrics({ processMetrics: false });
    metrics.cacheRequests.listStarted('secrets');
    metrics.cacheRequests.watchStarted('secrets');
    metrics.cacheRequests.watchFailed('secrets');
    metrics.cacheRequests.watchStarted('secrets');
    expect(await sample(metrics, 'promop_list_operations_total', { resource: 'secrets' })).toBe(1);
    expect(await sample(metrics, 'promop_list_operations_failed_total', { resource: 'secrets' })).toBe(0);
    expect(await sample(metrics, 'promop_watch_operations_total', { resource: 'secrets' })).toBe(2);
    expect(await sample(metrics, 'promop_watch_operations_failed_total', { resource: 'secrets' })).toBe(1);
  });

  it('keep separate registries, so two operators (or tests) never share counts', async () => {
    const one = new OperatorMetrics({ processMetrics: false });
    const two = new OperatorMetrics({ processMetrics: false });
    one.recordReload('verified', 1);
    expect(await sample(two, 'promop_reload_total', { outcome: 'verified' })).toBe(0);
  });
});

describe('the Prometheus objects by their Reconciled condition', () => {
  it('are counted at each scrape from the list the operator gives, Unknown without a condition', async () => {
    const metrics = new OperatorMetrics({ processMetrics: false });
    const reconciled = (status: string) => ({ status: { conditions: [{ type: 'Available', status: 'False' }, { type: 'Reconciled', status }] } });
    expect(await sample(metrics, 'promop_prometheus_reconciled', { status: 'True' })).toBe(0);
    const objects = [reconciled('True'), reconciled('True'), reconciled('False'), {}];
    metrics.countPrometheusObjects(() => objects);
    expect(await sample(metrics, 'promop_prometheus_reconciled', { status: 'True' })).toBe(2);
    expect(await sample(metrics, 'promop_prometheus_reconciled', { status: 'False' })).toBe(1);
    expect(await sample(metrics, 'promop_prometheus_reconciled', { status: 'Unknown' })).toBe(1);
    objects.splice(0, 3);
    expect(await sample(metrics, 'promop_prometheus_reconciled', { status: 'True' })).toBe(0);
  });
});

describe('what a render says', () => {
  const ref = (kind: string, name: string) => ({ kind, namespace: 'team-a', name }) as Verdict['resource'];
  it('counts selected and accepted as selected, selected but invalid as rejected, and not the unselected', () => {
    const verdicts: Verdict[] = [
      { resource: ref('ServiceMonitor', 'a'), selected: true, accepted: true, warnings: [] },
      { resource: ref('ServiceMonitor', 'b'), selected: true, accepted: false, reason: 'x', problems: [], warnings: [] },
      { resource: ref('ServiceMonitor', 'c'), selected: false, reason: 'not selected' },
      { resource: ref('PrometheusRule', 'r'), selected: true, accepted: true, warnings: [] },
      { resource: ref('Prometheus', 'main'), selected: true, accepted: true, warnings: [] },
    ];
    expect(Object.fromEntries(managedCounts(verdicts))).toEqual({
      ServiceMonitor: { selected: 1, rejected: 1 }, PodMonitor: { selected: 0, rejected: 0 }, Probe: { selected: 0, rejected: 0 }, ScrapeConfig: { selected: 0, rejected: 0 }, PrometheusRule: { selected: 1, rejected: 0 },
    });
  });

  it('sizes each shard as its prometheus.yaml plus its scrape files, in UTF-8 bytes', () => {
    const file = (text: string) => ({ slot: 0, name: 'f', text, jobNames: [] });
    expect(configBytesPerShard({ configs: ['abc', 'é'], scrapeFiles: [[file('12345'), file('6')], []] })).toEqual([9, 2]);
  });
});

describe('listen addresses', () => {
  it.each([
    [':8080', { host: undefined, port: 8080 }],
    ['127.0.0.1:0', { host: '127.0.0.1', port: 0 }],
    ['[::1]:9443', { host: '::1', port: 9443 }],
  ])('reads %s', (address, expected) => {
    expect(parseListenAddress(address)).toEqual(expected);
  });

  it.each(['8080', '127.0.0.1', ':99999', '[::1'])('rejects %s', (address) => {
    expect(() => parseListenAddress(address)).toThrow(/not host:port/);
  });
});

describe('the resource of a request path', () => {
  it.each([
    ['/api/v1/secrets', 'secrets'],
    ['/api/v1/namespaces/team-a/secrets', 'secrets'],
    ['/apis/monitoring.coreos.com/v1/namespaces/team-a/servicemonitors', 'servicemonitors'],
    ['/apis/apps/v1/statefulsets', 'statefulsets'],
    ['/api/v1/namespaces', 'namespaces'],
    ['/api/v1/watch/namespaces/team-a', 'namespaces'],
  ])('%s is %s', (path, resource) => {
    expect(resourceOfPath(path)).toBe(resource);
  });
});
