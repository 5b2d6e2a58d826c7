/**
 * The Prometheus status writer on its own (fakes of test-reconciler-fakes.ts): a status equal to the cached one is
 * not written, a change of the Reconciled condition is logged once, and a new failure gets one Warning Event.
 */
import type { Prometheus } from '@promop/crds';
import { pino } from 'pino';
import { WORKLOADS } from '../workload/index.ts';
import { PrometheusStatusWriter } from './prometheus-status-writer.ts';
import { FakeCluster } from './test-reconciler-fakes.ts';

const NOW = new Date('2026-03-01T12:00:00Z');

function setUp() {
  const cluster = new FakeCluster();
  cluster.caches.prometheuses.put({
    apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus',
    metadata: { name: 'main', namespace: 'monitoring', uid: 'uid-main', generation: 1, resourceVersion: '1' }, spec: {},
  } as Prometheus);
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const writer = new PrometheusStatusWriter({ naming: WORKLOADS.Prometheus, caches: cluster.caches, status: cluster.status, now: () => NOW, events: cluster.recorder });
  const cached = () => cluster.caches.prometheuses.get('main', 'monitoring')!;
  const said = () => lines.map((line) => line.msg);
  return { cluster, writer, log, cached, said };
}

describe('the Prometheus status writer', () => {
  it('writes a failure once and says so once; the same status again writes nothing', async () => {
    const { cluster, writer, log, cached, said } = setUp();
    await writer.fail(cached(), 'spec.x: bad', log);
    expect(cached().status?.conditions?.find((c) => c.type === 'Reconciled')).toMatchObject({ status: 'False', reason: 'ReconciliationFailed', message: 'spec.x: bad' });
    expect(cluster.writesTo('status')).toHaveLength(1);
    expect(said()).toEqual(['Prometheus not reconciled']);

    await writer.fail(cached(), 'spec.x: bad', log);
    expect(cluster.writesTo('status')).toHaveLength(1);
    expect(said()).toEqual(['Prometheus not reconciled']);
  });

  it('gives a new failure one Warning Event on the Prometheus, with the problem and its path as the note', async () => {
    const { cluster, writer, log, cached } = setUp();
    await writer.fail(cached(), 'spec.thanos.version: "latest" is not a Thanos version such as v0.42.2', log);
    await writer.fail(cached(), 'spec.thanos.version: "latest" is not a Thanos version such as v0.42.2', log);
    expect(cluster.events).toEqual([{
      type: 'Warning', reason: 'ReconciliationFailed', action: 'Reconciling', note: 'spec.thanos.version: "latest" is not a Thanos version such as v0.42.2',
      regarding: { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', namespace: 'monitoring', name: 'main', uid: 'uid-main' },
    }]);
    await writer.fail(cached(), 'spec.thanos.minTime: "yesterday" is neither an RFC 3339 time nor a duration such as -2w or 36h', log);
    expect(cluster.events.map((event) => event.note)).toHaveLength(2);
  });

  it('a change is logged once even while the cache does not show the previous write yet', async () => {
    const { writer, log, cached, said } = setUp();
    const before = cached();
    await writer.write(before, [undefined], { status: 'True', reason: '', message: '' }, log);
    await writer.write(before, [undefined], { status: 'True', reason: '', message: '' }, log);
    expect(said()).toEqual(['Prometheus reconciled']);
    // Forgotten (the Prometheus went): the cache is what it compares with again.
    writer.forget('monitoring/main');
    await writer.write(before, [undefined], { status: 'True', reason: '', message: '' }, log);
    expect(said()).toEqual(['Prometheus reconciled', 'Prometheus reconciled']);
  });

  it('without a verdict (paused) keeps Reconciled as it is', async () => {
    const { writer, log, cached } = setUp();
    await writer.writeUnreconciled(cached(), log);
    expect(cached().status?.conditions?.find((c) => c.type === 'Reconciled')).toBeUndefined();
    expect(cached().status?.conditions?.find((c) => c.type === 'Available')).toBeDefined();
  });
});
