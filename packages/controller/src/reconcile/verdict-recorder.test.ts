/**
 * The verdict recorder on its own (fakes of test-reconciler-fakes.ts): the bindings and Events a Prometheus'
 * verdicts lead to, that the same verdicts again write nothing, and the removal of a gone Prometheus' bindings.
 */
import type { Verdict } from '@promop/config-generator';
import type { Prometheus, ServiceMonitor } from '@promop/crds';
import { pino } from 'pino';
import { WORKLOADS } from '../workload/index.ts';
import { FakeCluster } from './test-reconciler-fakes.ts';
import { VerdictRecorder } from './verdict-recorder.ts';

const NOW = new Date('2026-03-01T12:00:00Z');
const KEY = 'monitoring/main';
const log = pino({ level: 'silent' });

const main = {
  apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus',
  metadata: { name: 'main', namespace: 'monitoring', uid: 'uid-main', generation: 1, resourceVersion: '1' }, spec: {},
} as Prometheus;

function serviceMonitor(name: string): ServiceMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor',
    metadata: { name, namespace: 'monitoring', uid: `uid-${name}`, generation: 1, resourceVersion: '1' },
    spec: { selector: {}, endpoints: [{ port: 'web' }] },
  } as ServiceMonitor;
}

const accepted = (name: string): Verdict => ({ resource: { kind: 'ServiceMonitor', namespace: 'monitoring', name }, selected: true, accepted: true, warnings: [] });
const rejected = (name: string): Verdict => ({
  resource: { kind: 'ServiceMonitor', namespace: 'monitoring', name }, selected: true, accepted: false, reason: 'spec.endpoints[0].port: bad', warnings: [],
  problems: [{ path: 'spec.endpoints[0].port', message: 'bad' }],
});

function setUp(...names: string[]) {
  const cluster = new FakeCluster();
  for (const name of names) cluster.caches.serviceMonitors.put(serviceMonitor(name));
  const requeued: string[] = [];
  const recorder = new VerdictRecorder({
    naming: WORKLOADS.Prometheus, caches: cluster.caches, status: cluster.status, events: cluster.recorder,
    requeue: (key) => requeued.push(key), log, now: () => NOW,
  });
  const record = async (verdicts: Verdict[], prometheus?: Prometheus) => {
    recorder.hand(KEY, verdicts, log, prometheus);
    await recorder.settled(KEY);
  };
  const acceptedOf = (name: string) => cluster.caches.serviceMonitors.get(name, 'monitoring')?.status?.bindings?.find((b) => b.name === 'main')?.conditions?.[0];
  return { cluster, recorder, requeued, record, acceptedOf };
}

describe('the verdict recorder', () => {
  it('writes each binding once, with one Warning Event per new rejection', async () => {
    const { cluster, record, acceptedOf } = setUp('good', 'bad');
    await record([accepted('good'), rejected('bad')], main);
    expect(acceptedOf('good')).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(acceptedOf('bad')).toMatchObject({ status: 'False', reason: 'InvalidConfiguration' });
    expect(cluster.events).toHaveLength(1);
    expect(cluster.events[0]).toMatchObject({ regarding: { kind: 'ServiceMonitor', name: 'bad' }, related: { kind: 'Prometheus', name: 'main', uid: 'uid-main' } });

    const written = cluster.writes.length;
    await record([accepted('good'), rejected('bad')], main);
    expect(cluster.writes.slice(written)).toEqual([]);
    expect(cluster.events).toHaveLength(1);
  });

  it('a monitor whose verdict is gone loses its binding', async () => {
    const { record, acceptedOf } = setUp('one', 'two');
    await record([accepted('one'), accepted('two')], main);
    await record([accepted('one')], main);
    expect(acceptedOf('one')).toBeDefined();
    expect(acceptedOf('two')).toBeUndefined();
  });

  it('a gone Prometheus: it may have bindings while a monitor carries one; no verdicts remove them all', async () => {
    const { recorder, record, acceptedOf } = setUp('one');
    expect(recorder.mayHaveBindings(KEY)).toBe(false);
    await record([accepted('one')], main);
    expect(recorder.mayHaveBindings(KEY)).toBe(true);
    await record([]);
    expect(acceptedOf('one')).toBeUndefined();
    expect(recorder.mayHaveBindings(KEY)).toBe(false);
  });

  it('a 409 on a binding requeues the key', async () => {
    const { cluster, requeued, record } = setUp('one');
    // Another write moved the monitor on after the pass read it.
    cluster.hold = async (target) => {
      if (target.kind !== 'ServiceMonitor') return;
      const current = cluster.caches.serviceMonitors.get('one', 'monitoring')!;
      cluster.caches.serviceMonitors.put({ ...current, metadata: { ...current.metadata, resourceVersion: '2' } });
    };
    await record([accepted('one')], main);
    expect(requeued).toEqual([KEY]);
  });
});
