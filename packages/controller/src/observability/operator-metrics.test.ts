/**
 * The typed metrics API the controller calls, read back from the registry.
 */
import { parseListenAddress } from './listen-address.ts';
import { OperatorMetrics } from './operator-metrics.ts';

async function sample(metrics: OperatorMetrics, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const metric = await metrics.registry.getSingleMetric(name)?.get();
  return metric?.values.find((value) => Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted))?.value;
}

describe('the operator metrics', () => {
  it('add up the monitors of every Prometheus, and drop a deleted Prometheus\' share', async () => {
    const metrics = new OperatorMetrics({ processMetrics: false });
    metrics.setManagedResources('monitoring/main', 'ServiceMonitor', { selected: 10, rejected: 2 });
    metrics.setManagedResources('team-a/apps', 'ServiceMonitor', { selected: 3, rejected: 0 });
    metrics.setManagedResources('monitoring/main', 'ServiceMonitor', { selected: 11, rejected: 1 });
    expect(await sample(metrics, 'promop_managed_resources', { kind: 'ServiceMonitor', state: 'selected' })).toBe(14);
    expect(await sample(metrics, 'promop_managed_resources', { kind: 'ServiceMonitor', state: 'rejected' })).toBe(1);
    metrics.forgetPrometheus('monitoring/main');
    expect(await sample(metrics, 'promop_managed_resources', { kind: 'ServiceMonitor', state: 'selected' })).toBe(3);
  });

  it('start every outcome at zero, so rate() sees the first rejected reload', async () => {
    const metrics = new OperatorMetrics({ processMetrics: false });
    for (const outcome of ['verified', 'stale', 'rejected', 'unreachable', 'refused', 'failed']) {
      expect(await sample(metrics, 'promop_reload_total', { outcome })).toBe(0);
    }
    expect(await sample(metrics, 'promop_ready', {})).toBe(0);
  });

  it('observe how long a written config took to be loaded, and the kubelet\'s share of it', async () => {
    const metrics = new OperatorMetrics({ processMetrics: false });
    metrics.recordConfigLoaded(1.4, 1.1);
    metrics.recordConfigLoaded(0.3, 0.2);
    const text = await metrics.metricsText();
    expect(text).toMatch(/^promop_config_apply_to_loaded_seconds_count 2$/m);
    expect(text).toMatch(/^promop_config_apply_to_loaded_seconds_sum 1\.7$/m);
    expect(text).toMatch(/^promop_config_apply_to_loaded_seconds_bucket\{le="1"\} 1$/m);
    expect(text).toMatch(/^promop_config_kubelet_wait_seconds_count 2$/m);
    expect(text).toMatch(/^promop_config_kubelet_wait_seconds_bucket\{le="0\.25"\} 1$/m);
  });

  it('keep separate registries, so two operators (or tests) never share counts', async () => {
    const one = new OperatorMetrics({ processMetrics: false });
    const two = new OperatorMetrics({ processMetrics: false });
    one.recordReload('verified');
    expect(await sample(two, 'promop_reload_total', { outcome: 'verified' })).toBe(0);
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
