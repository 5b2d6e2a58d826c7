/**
 * What every chaos scenario starts from and ends with: a chaos cluster, the teams' seeded monitors and rules and
 * one promop (directly or behind a fault proxy) that has put them all in the config and gone quiet; during the
 * scenario, waiting until the config holds the model again; at the end, the fresh-promop convergence check.
 */
import { writesBy } from './audit-log.ts';
import { startChaosCluster, type ChaosCluster } from './chaos-cluster.ts';
import { freshPromopWrites, type FreshPromopResult } from './convergence.ts';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';
import { MonitorBurst } from './monitor-burst.ts';
import { startPromop, type PromopProcess } from './promop-process.ts';
import { configText, isReconciled, rulesText } from './rendered-state.ts';
import { until, untilSettled } from './settle.ts';

/** Options of {@link startScenario}. */
export interface ScenarioOptions {
  /** Seed of the teams' changes. */
  seed: number;
  /** ServiceMonitors, and as many PrometheusRules, created before promop starts. */
  objects: number;
  /** Put a fault proxy between promop and the API server (default false). */
  proxy?: boolean;
}

/** A running scenario; see the module comment. */
export interface Scenario {
  cluster: ChaosCluster;
  burst: MonitorBurst;
  /** The fault proxy when asked for. */
  proxy: FaultProxy | undefined;
  /** The identity of the promop under test; every process started by startPromop() uses it. */
  user: string;
  /** The promop under test; a scenario that restarts it assigns the new process here. */
  promop: PromopProcess;
  /** Starts another promop process as the same identity (through the proxy if there is one). */
  startPromop(name: string): Promise<PromopProcess>;
  /** The writes of the promop identity so far, as `verb resource namespace/name`. */
  writes(): string[];
  /**
   * Waits until the config and rule files hold the teams' model and the Prometheus is Reconciled; resolves with the
   * time it took, or throws naming what still differs.
   */
  untilApplied(what: string, timeoutMs?: number): Promise<number>;
  /** Waits until the promop under test is settled (its writes count as activity). */
  settle(): Promise<number>;
  /** Stops the promop under test, runs the fresh-promop check and prints its result under `label`. */
  freshCheck(label: string): Promise<FreshPromopResult>;
  stop(): Promise<void>;
}

/** Starts a scenario and waits until its promop has applied the seeded objects and settled. */
export async function startScenario(options: ScenarioOptions): Promise<Scenario> {
  const cluster = await startChaosCluster();
  let proxy: FaultProxy | undefined;
  let promop: PromopProcess | undefined;
  try {
    proxy = options.proxy ? await startFaultProxy(cluster.env) : undefined;
    const burst = new MonitorBurst(cluster.custom, options.seed);
    await burst.seed(options.objects);
    const { kubeconfigPath, user } = await cluster.identity('promop', proxy?.url);
    const writes = () => writesBy(cluster.auditLogPath, user);
    const start = (name: string) => startPromop({ name, kubeconfigPath, dir: cluster.env.dir });
    promop = await start('promop');
    const scenario: Scenario = {
      cluster,
      burst,
      proxy,
      user,
      promop,
      startPromop: start,
      writes,
      async untilApplied(what, timeoutMs = 60_000) {
        let last: string[] = [];
        return until(what, async () => {
          last = burst.differences(await configText(cluster.core), await rulesText(cluster.core));
          return last.length === 0 && (await isReconciled(cluster.custom));
        }, timeoutMs).catch((error: Error) => {
          throw new Error(`${error.message}; still different: ${last.slice(0, 10).join('; ')}\n${scenario.promop.logTail(10)}`);
        });
      },
      settle: () => untilSettled(scenario.promop, { activity: () => writes().length }),
      async freshCheck(label) {
        await scenario.promop.stop();
        const fresh = await freshPromopWrites(cluster);
        process.stdout.write(`${label}: fresh promop settled in ${fresh.settledMs} ms, ${fresh.writes.length} writes\n`);
        return fresh;
      },
      async stop() {
        await scenario.promop.stop();
        await proxy?.close();
        await cluster.stop();
      },
    };
    await promop.untilReady();
    await scenario.untilApplied('the first config with every seeded monitor and rule');
    await scenario.settle();
    return scenario;
  } catch (error) {
    await promop?.stop();
    await proxy?.close();
    await cluster.stop();
    throw error;
  }
}
