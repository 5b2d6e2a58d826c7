/**
 * Chaos scenario 8: promop is stopped for a stretch while teams keep changing monitors and rules; started again, it
 * converges in one pass (one reconcile of the Prometheus) and writes nothing for objects that did not change: every
 * status it writes belongs to a monitor or rule changed meanwhile (from the audit log), and the objects it made are
 * written only where their content changed. A fresh promop then finds nothing to write.
 */
import { writesBy } from './audit-log.ts';
import { startChaosCluster, type ChaosCluster } from './chaos-cluster.ts';
import { freshPromopWrites } from './convergence.ts';
import { MonitorBurst } from './monitor-burst.ts';
import { startPromop, type PromopProcess } from './promop-process.ts';
import { configText, isReconciled, rulesText } from './rendered-state.ts';
import { until, untilSettled } from './settle.ts';

const TEAM_KINDS = new Set(['servicemonitors', 'prometheusrules']);

describe('chaos 8: promop stopped while teams keep changing monitors', () => {
  let cluster: ChaosCluster;
  let promop: PromopProcess | undefined;
  let burst: MonitorBurst;
  let identity: { kubeconfigPath: string; user: string };

  beforeAll(async () => {
    cluster = await startChaosCluster();
    burst = new MonitorBurst(cluster.custom, 8);
    await burst.seed(40);
    identity = await cluster.identity('promop');
    promop = await startPromop({ name: 'promop', kubeconfigPath: identity.kubeconfigPath, dir: cluster.env.dir });
    await promop.untilReady();
    await until('the first config', async () => burst.differences(await configText(cluster.core), await rulesText(cluster.core)).length === 0, 60_000);
    await untilSettled(promop, { activity: () => writesBy(cluster.auditLogPath, identity.user).length });
  }, 120_000);

  afterAll(async () => {
    await promop?.stop();
    await cluster?.stop();
  });

  it('back, converges in one reconcile and writes only for what changed', async () => {
    await promop!.stop();
    burst.takeTouched();
    await burst.burst(30);
    const touched = burst.takeTouched();
    const writesBefore = writesBy(cluster.auditLogPath, identity.user).length;
    const restartedAt = Date.now();
    promop = await startPromop({ name: 'promop-back', kubeconfigPath: identity.kubeconfigPath, dir: cluster.env.dir });
    await promop.untilReady();
    const convergedMs = await until('every change in the config', async () =>
      burst.differences(await configText(cluster.core), await rulesText(cluster.core)).length === 0 && (await isReconciled(cluster.custom)), 60_000);
    await untilSettled(promop, { activity: () => writesBy(cluster.auditLogPath, identity.user).length });
    const reconciles = (await promop.metrics())?.get('promop_reconcile_total');
    const writes = writesBy(cluster.auditLogPath, identity.user).slice(writesBefore);
    // `verb resource[/subresource] namespace/name`: a team object's status or Event must be about a changed object.
    const forUnchanged = writes.filter((write) => {
      const [, resource = '', where = ''] = write.split(' ');
      const base = resource.split('/')[0] as string;
      if (TEAM_KINDS.has(base)) return !touched.has(`${base} ${where}`);
      if (base === 'events') {
        const [namespace, name = ''] = where.split('/');
        const object = name.split('.')[0];
        return namespace !== 'monitoring' && ![...touched].some((key) => key.endsWith(` ${namespace}/${object}`));
      }
      return false;
    });
    const byResource = new Map<string, number>();
    for (const write of writes) {
      const resource = write.split(' ')[1] as string;
      byResource.set(resource, (byResource.get(resource) ?? 0) + 1);
    }
    process.stdout.write(`chaos 8 (stopped while teams changed ${touched.size} of ${burst.liveCount('ServiceMonitor') + burst.liveCount('PrometheusRule')} live objects): `
      + `back, config complete ${convergedMs} ms after ready (${Date.now() - restartedAt} ms after start, settled), ${reconciles} reconcile(s), `
      + `${writes.length} writes: ${[...byResource].map(([r, n]) => `${r} ${n}`).join(', ')}\n`);
    expect(reconciles).toBe(1);
    expect(forUnchanged).toEqual([]);
    // Nothing about the StatefulSet or the governing Service changed.
    expect(writes.filter((write) => / (services|statefulsets) /.test(write))).toEqual([]);
  }, 150_000);

  it('ends converged: a fresh promop finds nothing to write', async () => {
    await promop?.stop();
    const fresh = await freshPromopWrites(cluster);
    process.stdout.write(`chaos 8: fresh promop settled in ${fresh.settledMs} ms, ${fresh.writes.length} writes\n`);
    expect(fresh.writes).toEqual([]);
  }, 90_000);
});
