/**
 * Chaos scenario 7, on the real node: the Prometheus pod is down when a reload is due, and later a config
 * Prometheus itself refuses.
 *
 * Down: the Prometheus process in the pod is frozen (SIGSTOP; the pod, its IP and its files stay, as with a stalled
 * process or a node under pressure) until the kubelet marks it not Ready; then a team adds a ServiceMonitor. promop
 * writes the config and reports the pod as not having loaded it; the process is thawed, the pod turns Ready and
 * promop reloads it: Prometheus' own /api/v1/status/config then holds the new job, in the same process (same start
 * time, no container restart), so it was the reload and not a restart that brought it.
 *
 * Refused: promop checks every monitor and rule the way Prometheus would (field values, PromQL, feature flags), so
 * none of those reaches Prometheus broken. What it passes on unchecked, like prometheus-operator, is the platform
 * team's `additionalScrapeConfigs` Secret: jobs copied as they are, checked only to be a YAML list of mappings.
 * A typo there (`scrape_intervall`) is refused by Prometheus' strict YAML parser alone. The Prometheus' status then
 * carries Prometheus' own reason, Prometheus keeps running the previous config (its /api/v1/status/config is
 * unchanged) and keeps scraping every team's target; the fixed Secret is loaded.
 *
 * It ends like every chaos scenario: no team's monitoring lost, asked of Prometheus, and a fresh promop that finds
 * nothing to write.
 */
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { writesBy } from './audit-log.ts';
import { MONITORING, PROMETHEUS, TEAMS } from './chaos-cluster.ts';
import { freshPromopWrites } from './convergence.ts';
import { APP, PROMETHEUS_POD, monitoringIntact, prometheusHostPid, startNodeWorld, type NodeWorld } from './node-world.ts';
import type { PromopProcess } from './promop-process.ts';
import { configText, readPrometheus } from './rendered-state.ts';
import { until, untilSettled } from './settle.ts';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const jobOf = (namespace: string, name: string): string => `serviceMonitor/${namespace}/${name}/0`;
const LATE = { namespace: 'team-0', name: 'late' };
const EXTRA_JOB = 'platform-extra';
const ADDITIONAL = { name: 'additional-scrape-configs', key: 'jobs.yaml' };
const additionalJobs = (intervalKey: string): string =>
  `- job_name: ${EXTRA_JOB}\n  ${intervalKey}: 30s\n  static_configs:\n  - targets: ['127.0.0.1:9090']\n`;

type PendingReplica = { pod: string; reason: string; message: string };
type ShardStatus = { shardID: string; configHash: string; loadedReplicas?: string[]; pendingReplicas?: PendingReplica[] };
type Condition = { type: string; status: string; reason?: string; message?: string };

async function shard0(world: NodeWorld): Promise<ShardStatus | undefined> {
  const prometheus = (await readPrometheus(world.cluster.custom)) as { status?: { configStatus?: ShardStatus[] } };
  return prometheus.status?.configStatus?.find((shard) => shard.shardID === '0');
}

async function reconciled(world: NodeWorld): Promise<Condition | undefined> {
  return (await readPrometheus(world.cluster.custom)).status?.conditions?.find((c) => c.type === 'Reconciled') as Condition | undefined;
}

async function loadedConfig(world: NodeWorld): Promise<string> {
  return (await world.prometheusApi<{ yaml: string }>('/api/v1/status/config')).yaml;
}

async function runtimeInfo(world: NodeWorld): Promise<{ startTime: string; reloadConfigSuccess: boolean; lastConfigTime: string }> {
  return world.prometheusApi('/api/v1/status/runtimeinfo');
}

function serviceMonitor(name: string) {
  return { apiVersion: `${GROUP}/${VERSION}`, kind: 'ServiceMonitor', metadata: { name }, spec: { selector: { matchLabels: { app: APP } }, endpoints: [{ port: 'metrics' }] } };
}

describe('chaos 7: a Prometheus pod down when a reload is due; a config Prometheus refuses', () => {
  let world: NodeWorld;
  let promop: PromopProcess;
  let user: string;
  const jobs = TEAMS.map((team) => jobOf(team, APP));
  const alerts = TEAMS.map((_, index) => `Team${index}AppDown`);
  const figures: string[] = [];

  beforeAll(async () => {
    const started = Date.now();
    world = await startNodeWorld();
    const { custom } = world.cluster;
    for (const [index, namespace] of TEAMS.entries()) {
      await custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.ServiceMonitor, namespace, body: serviceMonitor(APP) });
      await custom.createNamespacedCustomObject({
        group: GROUP, version: VERSION, plural: PLURALS.PrometheusRule, namespace,
        body: { apiVersion: `${GROUP}/${VERSION}`, kind: 'PrometheusRule', metadata: { name: 'alerts' }, spec: { groups: [{ name: namespace, rules: [{ alert: `Team${index}AppDown`, expr: `up{namespace="${namespace}"} == 0`, for: '1m' }] }] } },
      });
    }
    ({ promop, user } = await world.startPromop('promop'));
    await promop.untilReady();
    await until(`${PROMETHEUS_POD} Ready and running the written config`, async () => (await world.prometheusPod()).ready && ((await shard0(world))?.loadedReplicas ?? []).includes(PROMETHEUS_POD), 180_000);
    await monitoringIntact(world, { jobs, alerts, scrapedAfter: Date.now() }, 90_000);
    figures.push(`node world up, Prometheus scraping every team in ${Date.now() - started} ms`);
    // Up to 10 minutes: the node may first wait for another test's node to finish (one per machine).
  }, 600_000);

  afterAll(async () => {
    process.stdout.write(`chaos 7 (real node):\n  ${figures.join('\n  ')}\n`);
    await promop?.stop();
    await world?.stop();
  }, 120_000);

  it('reloads a pod that was down when the reload was due, once it is back (a reload, not a restart)', async () => {
    const before = await world.prometheusPod();
    const startTime = (await runtimeInfo(world)).startTime;
    const hashBefore = (await shard0(world))?.configHash;
    const pid = prometheusHostPid(before.containerId);
    process.kill(pid, 'SIGSTOP');
    const frozenAt = Date.now();
    let pending: ShardStatus | undefined;
    try {
      // Down as far as Kubernetes knows: the readiness probe failed.
      await until(`${PROMETHEUS_POD} not Ready`, async () => !(await world.prometheusPod()).ready, 30_000);
      await world.cluster.custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.ServiceMonitor, namespace: LATE.namespace, body: serviceMonitor(LATE.name) });
      // promop wrote the new config and reports that the pod does not run it yet.
      await until('the new config written, the pod pending', async () => {
        pending = await shard0(world);
        return pending !== undefined && pending.configHash !== hashBefore && (pending.pendingReplicas ?? []).some((p) => p.pod === PROMETHEUS_POD)
          && (await configText(world.cluster.core)).includes(jobOf(LATE.namespace, LATE.name));
      }, 20_000);
    } finally {
      // Thawed before the liveness probe (6 failures 5 s apart) would have the kubelet restart the container.
      process.kill(pid, 'SIGCONT');
    }
    const thawedAt = Date.now();
    figures.push(`Prometheus frozen ${thawedAt - frozenAt} ms; meanwhile status said: ${JSON.stringify(pending?.pendingReplicas)}`);
    expect(pending?.loadedReplicas ?? []).not.toContain(PROMETHEUS_POD);

    // Both from the thaw: the pod Ready again in the API server, and the new job in what Prometheus runs.
    const [loadedMs, readyMs] = await Promise.all([
      until('the new job in Prometheus\' loaded config', async () => (await loadedConfig(world)).includes(`job_name: ${jobOf(LATE.namespace, LATE.name)}`), 60_000),
      until(`${PROMETHEUS_POD} Ready again`, async () => (await world.prometheusPod()).ready, 60_000),
    ]);
    figures.push(`back: pod Ready ${readyMs} ms and new config loaded ${loadedMs} ms after the thaw (polled every 250 ms)`);
    const after = await world.prometheusPod();
    expect({ uid: after.uid, restarts: after.restarts }).toEqual({ uid: before.uid, restarts: before.restarts });
    const runtime = await runtimeInfo(world);
    expect(runtime.startTime).toBe(startTime);
    expect(runtime.reloadConfigSuccess).toBe(true);
    // Prometheus' own record of its last successful reload: after the thaw (its clock is this machine's; the
    // timestamp has whole seconds).
    expect(Date.parse(runtime.lastConfigTime)).toBeGreaterThanOrEqual(Math.floor(thawedAt / 1000) * 1000);
    await until('the status reports the pod loaded', async () => ((await shard0(world))?.loadedReplicas ?? []).includes(PROMETHEUS_POD), 30_000);
    expect((await shard0(world))?.configHash).toBe(pending?.configHash);
    expect((await reconciled(world))?.status).toBe('True');
    jobs.push(jobOf(LATE.namespace, LATE.name));
    await monitoringIntact(world, { jobs, alerts, scrapedAfter: thawedAt });
  }, 180_000);

  it('reports Prometheus\' own reason for a config it refuses, and the previous config stays loaded and scraping', async () => {
    const { core, custom } = world.cluster;
    const loadedBefore = await loadedConfig(world);
    await core.createNamespacedSecret({ namespace: MONITORING, body: { metadata: { name: ADDITIONAL.name }, stringData: { [ADDITIONAL.key]: additionalJobs('scrape_intervall') } } });
    const refusedAt = Date.now();
    await custom.patchNamespacedCustomObject({
      group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING, name: PROMETHEUS, body: { spec: { additionalScrapeConfigs: ADDITIONAL } },
    }, mergePatch);
    let condition: Condition | undefined;
    const reportedMs = await until('Reconciled=False with Prometheus\' reason', async () => {
      condition = await reconciled(world);
      return condition?.status === 'False';
    }, 60_000);
    figures.push(`refused config: reported ${reportedMs} ms after the change: ${condition?.reason}: ${condition?.message}`);
    // Prometheus' words (its YAML parser's), not promop's: promop passed the job on.
    expect(condition).toMatchObject({ reason: 'ReloadFailed' });
    expect(condition?.message).toContain(`pod ${PROMETHEUS_POD}: Prometheus refused the configuration`);
    expect(condition?.message).toMatch(/field scrape_intervall not found in type config\.ScrapeConfig/);
    expect(await configText(core)).toContain('scrape_intervall');
    const pending = (await shard0(world))?.pendingReplicas?.find((p) => p.pod === PROMETHEUS_POD);
    expect(pending).toMatchObject({ reason: 'Rejected' });
    expect(pending?.message).toMatch(/scrape_intervall not found/);

    // Prometheus itself: the reload failed, the previous config is still what it runs, every team still scraped.
    expect((await runtimeInfo(world)).reloadConfigSuccess).toBe(false);
    expect(await world.prometheusMetrics()).toMatch(/^prometheus_config_last_reload_successful 0$/m);
    expect(await loadedConfig(world)).toBe(loadedBefore);
    const intact = await monitoringIntact(world, { jobs, alerts, scrapedAfter: Date.now() });
    figures.push(`while refused: ${intact.targets} targets of ${jobs.length} jobs up and scraped again, ${intact.alerts} alert rules loaded, loaded config unchanged`);

    // Promop retries no faster than its backoff: a refused config is not a hot loop of reloads.
    const reloadsWhileRefused = (await promop.metrics())?.get('promop_reload_total') ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const reloadsLater = (await promop.metrics())?.get('promop_reload_total') ?? 0;
    figures.push(`reload attempts in 10 s while refused: ${reloadsLater - reloadsWhileRefused}`);
    expect(reloadsLater - reloadsWhileRefused).toBeLessThanOrEqual(5);

    // Fixed: the job is loaded.
    await core.patchNamespacedSecret({ namespace: MONITORING, name: ADDITIONAL.name, body: { stringData: { [ADDITIONAL.key]: additionalJobs('scrape_interval') } } }, mergePatch);
    const fixedMs = await until('the fixed job loaded', async () => (await loadedConfig(world)).includes(`job_name: ${EXTRA_JOB}`), 60_000);
    figures.push(`fixed Secret loaded in ${fixedMs} ms; refused for ${Date.now() - refusedAt} ms in all`);
    expect((await runtimeInfo(world)).reloadConfigSuccess).toBe(true);
    await until('Reconciled=True again', async () => (await reconciled(world))?.status === 'True', 30_000);
    jobs.push(EXTRA_JOB);
  }, 180_000);

  it('ends converged (a fresh promop writes nothing) with no team\'s monitoring lost', async () => {
    await untilSettled(promop, { activity: () => writesBy(world.cluster.auditLogPath, user).length });
    await promop.stop();
    const fresh = await freshPromopWrites(world.cluster);
    figures.push(`fresh promop settled in ${fresh.settledMs} ms, ${fresh.writes.length} writes`);
    expect(fresh.writes).toEqual([]);
    const intact = await monitoringIntact(world, { jobs, alerts, scrapedAfter: Date.now() });
    figures.push(`end: ${intact.targets} targets of ${jobs.length} jobs up and scraped, ${intact.alerts} alert rules loaded`);
  }, 180_000);
});
