import { OperatorMetrics } from './operator-metrics.ts';
import { recordedReconcile } from './recorded-reconcile.ts';

describe('a recorded reconcile', () => {
  it('counts and times each run by result, rethrows a throw as an error, and keeps the first sighting of a change across retries', async () => {
    let clock = 0;
    let wall = 100_000;
    const metrics = new OperatorMetrics({ processMetrics: false, now: () => wall });
    const outcomes: (() => Promise<'done' | 'retry'>)[] = [
      async () => { clock += 2_000; return 'retry'; },
      async () => { clock += 500; throw new Error('API unavailable'); },
      async () => {
        clock += 1_000;
        wall = 112_000;
        // The reload verified the written config during this run.
        metrics.recordConfigLoaded(0.8, 0.5, metrics.changeSeenAt('monitoring/main'));
        return 'done';
      },
    ];
    const logged: string[] = [];
    const process = recordedReconcile(metrics, () => (outcomes.shift() as () => Promise<'done' | 'retry'>)(), {
      now: () => clock,
      onReconciled: (key, outcome, ms) => logged.push(`${key} ${outcome} ${ms}`),
    });
    // Seen at 100 s; the retry and the rethrown error are queued again later, which does not move the first sighting.
    expect(await process('monitoring/main', 100_000)).toBe('retry');
    await expect(process('monitoring/main', 103_000)).rejects.toThrow('API unavailable');
    expect(await process('monitoring/main', 106_000)).toBe('done');

    const text = await metrics.metricsText();
    expect(text).toContain('promop_reconcile_total{result="success"} 1');
    expect(text).toContain('promop_reconcile_total{result="retry"} 1');
    expect(text).toContain('promop_reconcile_total{result="error"} 1');
    expect(text).toContain('promop_reconcile_duration_seconds_sum{result="retry"} 2');
    expect(text).toContain('promop_reconcile_duration_seconds_sum{result="error"} 0.5');
    expect(text).toContain('promop_reconcile_duration_seconds_sum{result="success"} 1');
    expect(text).toMatch(/^promop_config_change_to_loaded_seconds_sum 12$/m);
    expect(logged).toEqual(['monitoring/main retry 2000', 'monitoring/main done 1000']);
  });
});
