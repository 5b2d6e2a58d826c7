/**
 * The health reporter's status writes (issue 27, "cheap and quiet"): how many status writes promop makes to report
 * targets' health when nothing changes, and when a share of the targets flaps. See docs/performance.md, "Health
 * writes", for the figures.
 *
 * Run: `node bench/health-writes.bench.ts [--monitors 1000] [--idle-minutes 10] [--flap-minutes 5]
 * [--flap-fraction 0.1] [--flap-period-seconds 60]` (defaults as shown; about 20 minutes on 2 cores).
 *
 * On a fresh control plane (etcd + kube-apiserver with an audit log of write requests; no controller manager):
 * promop's Operator in this process, as its own user in system:masters, with its default health period (30 s) and
 * least time between two writes of one object (60 s); one real Prometheus process playing the pod of a one-shard
 * Prometheus (a fake kubelet copies the configuration Secret into its file); N ScrapeConfigs, each scraping one
 * target of its own at 127.0.0.1 (a path of one HTTP server in this process) every 10 s. ScrapeConfigs stand for
 * the monitors: this Prometheus has no in-cluster Kubernetes settings, so a ServiceMonitor's discovery would find
 * nothing, and the health reporter treats every scraping kind alike.
 * 1. the ScrapeConfigs are created; once every one says TargetsUp and the operator has written nothing for a minute,
 * 2. **idle**: the operator's write requests in the audit log over the idle minutes, nothing changing;
 * 3. **flapping**: a fraction of the targets answers 503 and then 200 again, alternating every flap period, for the
 *    flap minutes: the operator's write requests in that window, and per minute.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS } from '@promop/crds';
import { PrometheusPodsFixture, REPO_ROOT, SHARED_KUBECONFIG_ENV, createClientCert, kubeconfigYaml, startTestEnv, untilServed } from '@promop/testkit';
import { Operator, OPERATOR_CLUSTER_ROLE_RULES } from '@promop/controller';
import { shardSelectorLabels } from '@promop/controller/workload';
import { sleep } from './side-by-side/api-client.ts';
import { countWrites, writeWritesOnlyAuditPolicy, type WriteCount } from './side-by-side/audit-log.ts';

/** The operator's user (its client certificate's CN): whose writes the audit log counts. */
const OPERATOR_USER = 'promop-health-bench';
const MONITORING = 'monitoring';
const TEAM = 'team-a';
const NAME = 'main';
const INSTANCE = { 'promop.bench/health': 'yes' };

interface Plan {
  monitors: number;
  idleMinutes: number;
  flapMinutes: number;
  flapFraction: number;
  flapPeriodSeconds: number;
}

function parsePlan(argv: readonly string[]): Plan {
  const number = (name: string, fallback: number): number => {
    const index = argv.indexOf(name);
    if (index < 0) return fallback;
    const value = Number(argv[index + 1]);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} needs a non-negative number`);
    return value;
  };
  return {
    monitors: number('--monitors', 1000),
    idleMinutes: number('--idle-minutes', 10),
    flapMinutes: number('--flap-minutes', 5),
    flapFraction: number('--flap-fraction', 0.1),
    flapPeriodSeconds: number('--flap-period-seconds', 60),
  };
}

const log = (message: string) => console.log(`[${new Date().toISOString()}] ${message}`);

/** One HTTP server answering `/m/<i>` for every target; those in `down` answer 503. */
async function startTargets(down: ReadonlySet<number>): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    const index = Number(/^\/m\/(\d+)$/.exec(request.url ?? '')?.[1] ?? -1);
    if (index < 0) return void response.writeHead(404).end();
    if (down.has(index)) return void response.writeHead(503).end('flapping\n');
    response.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(`bench_target_info{index="${index}"} 1\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function main(): Promise<void> {
  const plan = parsePlan(process.argv.slice(2));
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace(/^(\d{8})/, (d) => `${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 8)}`);
  const rawDir = join(REPO_ROOT, 'bench', 'results', `raw-${stamp}-health`);
  mkdirSync(rawDir, { recursive: true });
  const auditLogPath = join(rawDir, 'audit.log');
  const auditPolicyFile = join(rawDir, 'audit-policy.yaml');
  writeWritesOnlyAuditPolicy(auditPolicyFile);
  log(`plan ${JSON.stringify(plan)}; ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

  const env = await startTestEnv({ controllerManager: false, auditLogPath, auditPolicyFile });
  process.env[SHARED_KUBECONFIG_ENV] = env.kubeconfigPath;
  const down = new Set<number>();
  const targets = await startTargets(down);
  let fixture: PrometheusPodsFixture | undefined;
  try {
    fixture = await PrometheusPodsFixture.start({ identity: 'promop-health-bench', operatorNamespace: 'promop-system', namespaces: [MONITORING, TEAM], operatorRules: OPERATOR_CLUSTER_ROLE_RULES });
    const { custom } = fixture;
    // No controller manager: the namespace's default ServiceAccount, which a Pod needs, is made here.
    await fixture.core.createNamespacedServiceAccount({ namespace: MONITORING, body: { metadata: { name: 'default' } } });
    await fixture.startPrometheusPod({ namespace: MONITORING, name: 'replica-a', labels: shardSelectorLabels(NAME, 0), configSecret: `prometheus-${NAME}` });
    const identity = createClientCert(env.dir, OPERATOR_USER, OPERATOR_USER, ['system:masters']);
    const kubeconfigPath = join(env.dir, 'operator.kubeconfig');
    writeFileSync(kubeconfigPath, kubeconfigYaml(env.apiServerUrl, env.pki.caCert, identity), { mode: 0o600 });
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromFile(kubeconfigPath);
    // The health reporter's defaults (period 30 s, a minute between two writes of an object): what a cluster runs.
    await fixture.startOperator(new Operator({
      // Its log (pino's default level) goes to stdout with the benchmark's lines: one line per write, among others.
      kubeConfig, podNetworks: ['127.0.0.1/32'], reloadTimeoutMs: 60_000, prometheusPortOf: fixture.portOf,
    }));
    const create = (kind: 'Prometheus' | 'ScrapeConfig', namespace: string, name: string, spec: object) => custom.createNamespacedCustomObject({
      group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace,
      body: { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, metadata: { name, labels: INSTANCE }, spec },
    });
    await untilServed(() => create('Prometheus', MONITORING, NAME, { replicas: 1, version: 'v3.16.0', scrapeConfigSelector: { matchLabels: INSTANCE }, scrapeConfigNamespaceSelector: {} }));
    log(`creating ${plan.monitors} ScrapeConfigs`);
    for (let first = 0; first < plan.monitors; first += 20) {
      await Promise.all(Array.from({ length: Math.min(20, plan.monitors - first) }, (_, offset) => {
        const index = first + offset;
        return create('ScrapeConfig', TEAM, `target-${index}`, { scrapeInterval: '10s', metricsPath: `/m/${index}`, staticConfigs: [{ targets: [`127.0.0.1:${targets.port}`] }] });
      }));
    }

    // Ready: every ScrapeConfig says TargetsUp, then the operator quiet (no write) for a minute.
    const listed = async () => ((await custom.listNamespacedCustomObject({ group: GROUP, version: API_VERSIONS.ScrapeConfig, plural: PLURALS.ScrapeConfig, namespace: TEAM })) as {
      items: { status?: { bindings?: { conditions?: { type: string; reason?: string }[] }[] } }[];
    }).items;
    const readyBy = Date.now() + 20 * 60_000;
    for (;;) {
      const up = (await listed()).filter((item) => item.status?.bindings?.[0]?.conditions?.some((c) => c.type === 'Healthy' && c.reason === 'TargetsUp')).length;
      log(`${up}/${plan.monitors} TargetsUp`);
      if (up === plan.monitors) break;
      if (Date.now() > readyBy) throw new Error(`only ${up} of ${plan.monitors} ScrapeConfigs said TargetsUp within 20 minutes`);
      await sleep(15_000);
    }
    for (;;) {
      const to = Date.now();
      if (countWrites(auditLogPath, OPERATOR_USER, to - 60_000, to).total === 0) break;
      await sleep(10_000);
    }

    const window = async (minutes: number): Promise<{ count: WriteCount; perMinute: number[] }> => {
      const from = Date.now();
      const perMinute: number[] = [];
      for (let minute = 0; minute < minutes; minute += 1) {
        const start = Date.now();
        await sleep(60_000);
        perMinute.push(countWrites(auditLogPath, OPERATOR_USER, start, Date.now()).total);
      }
      // Writes answered in the last moments are in the log by now.
      await sleep(2000);
      return { count: countWrites(auditLogPath, OPERATOR_USER, from, Date.now() - 2000), perMinute };
    };

    log(`idle: ${plan.idleMinutes} minutes`);
    const idle = await window(plan.idleMinutes);
    log(`idle: ${idle.count.total} writes (${JSON.stringify(idle.count.byRequest)}), per minute ${idle.perMinute.join(' ')}`);

    const flapping = Array.from({ length: Math.round(plan.monitors * plan.flapFraction) }, (_, i) => Math.floor((i * plan.monitors) / Math.max(1, Math.round(plan.monitors * plan.flapFraction))));
    log(`flapping: ${flapping.length} targets, down and up every ${plan.flapPeriodSeconds} s, for ${plan.flapMinutes} minutes`);
    const flipper = setInterval(() => {
      const goDown = down.size === 0;
      for (const index of flapping) if (goDown) down.add(index); else down.delete(index);
    }, plan.flapPeriodSeconds * 1000);
    for (const index of flapping) down.add(index);
    const flaps = await window(plan.flapMinutes);
    clearInterval(flipper);
    const written = flaps.count.byRequest['patch scrapeconfigs/status'] ?? 0;
    log(`flapping: ${flaps.count.total} writes (${JSON.stringify(flaps.count.byRequest)}), per minute ${flaps.perMinute.join(' ')}; `
      + `${(flaps.count.total / Math.max(1, plan.flapMinutes)).toFixed(1)} per minute for ${flapping.length} flapping monitors (${(written / Math.max(1, plan.flapMinutes) / Math.max(1, flapping.length)).toFixed(2)} status writes per flapping monitor per minute)`);

    const result = { date: new Date().toISOString(), plan, cores: cpus().length, load: loadavg(), idle, flapping: { monitors: flapping.length, ...flaps } };
    const resultFile = join(REPO_ROOT, 'bench', 'results', `${stamp}-health.json`);
    writeFileSync(resultFile, `${JSON.stringify(result, null, 2)}\n`);
    log(`written to ${resultFile}`);
  } finally {
    await fixture?.stop();
    await new Promise((resolve) => targets.server.close(resolve));
    await env.stop();
  }
}

main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
