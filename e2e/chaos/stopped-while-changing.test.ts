/**
 * Chaos scenario 8: promop is stopped for a stretch while teams keep changing monitors and rules; started again, it
 * converges in one pass (one reconcile of the Prometheus) and writes nothing for objects that did not change: every
 * status it writes belongs to a monitor or rule changed meanwhile (from the audit log), and the objects it made are
 * written only where their content changed. A fresh promop then finds nothing to write.
 */
import { startScenario, type Scenario } from './scenario.ts';

const TEAM_KINDS = new Set(['servicemonitors', 'prometheusrules']);

describe('chaos 8: promop stopped while teams keep changing monitors', () => {
  let scenario: Scenario;

  beforeAll(async () => {
    scenario = await startScenario({ seed: 8, objects: 40 });
  }, 120_000);

  afterAll(async () => {
    await scenario?.stop();
  });

  it('back, converges in one reconcile and writes only for what changed', async () => {
    const { burst } = scenario;
    await scenario.promop.stop();
    burst.takeTouched();
    await burst.burst(30);
    const touched = burst.takeTouched();
    const writesBefore = scenario.writes().length;
    const restartedAt = Date.now();
    scenario.promop = await scenario.startPromop('promop-back');
    await scenario.promop.untilReady();
    const convergedMs = await scenario.untilApplied('every change in the config');
    await scenario.settle();
    const reconciles = (await scenario.promop.metrics())?.get('promop_reconcile_total');
    const writes = scenario.writes().slice(writesBefore);
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
    expect((await scenario.freshCheck('chaos 8')).writes).toEqual([]);
  }, 90_000);
});
