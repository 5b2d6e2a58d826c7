/**
 * The used-by story, end to end, with real pods: promop installed by Helm from the image built here runs as a pod;
 * a platform team's Prometheus and a team's app run as pods; Prometheus scrapes the app and fires the team's
 * alert; another team's mistake is rejected alone; replicas, an upgrade and the operator's absence are survived;
 * and the platform's Alertmanager delivers a team's new alert to that team's webhook only (its AlertmanagerConfig);
 * another team's broken AlertmanagerConfig is rejected alone, and a team's silence holds back only what it matches.
 *
 * Cluster: by default a real one-node cluster started here (node/node-cluster.ts: kubelet, containerd, kube-proxy
 * in a network namespace of its own). With PROMOP_E2E_KUBECONFIG set, any cluster whose node already has the
 * images (`pnpm e2e:kind` does that with kind) — everything below goes through kubectl, helm and the API server,
 * so the story is the same on both.
 *
 * The steps share one cluster and run in order; each says what it proves. Figures are printed to stderr.
 */
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { ClusterCli, waitFor } from './cluster-cli.ts';
import { queryPrometheus, rawGet, rawPost, podProxyPath } from './kube-raw.ts';
import { buildImages, type BuiltImages } from './images/index.ts';
import { describeNetworkNamespace } from './node/netns.ts';
import { startNodeCluster, type NodeCluster } from './node/node-cluster.ts';
import { NODE_NETWORKS } from './node/node-config.ts';
import { REPO_ROOT } from '@promop/testkit';
import {
  EXAMPLES, FIRST_POD, MONITORING, PROMETHEUS, PROMOP_NS, WEBHOOK_RECEIVER, installPromop, loadedConfig, prometheusPods, teamAAlertFiring, teamATargetUp, webhookReceiverObjects, type PodJson,
} from './story.ts';

/**
 * The Prometheus version the story starts with and the one it upgrades to: the tags of the two Prometheus images
 * built here (tools/build.sh pins both), or given for an external cluster.
 */
let firstVersion = process.env.PROMOP_E2E_FIRST_VERSION ?? '';
let upgradedVersion = process.env.PROMOP_E2E_UPGRADED_VERSION ?? '';
const tagOf = (image: string): string => image.slice(image.lastIndexOf(':') + 1);
const P5_CHANGES = Number(process.env.PROMOP_E2E_P5_CHANGES ?? 50);

const external = process.env.PROMOP_E2E_KUBECONFIG;
let node: NodeCluster | undefined;
let images: BuiltImages | undefined;
let cli: ClusterCli;
let kc: KubeConfig;
const figures: string[] = [];

function report(line: string): void {
  figures.push(line);
  process.stderr.write(`[used-by] ${line}\n`);
}

/** `promop run --health-interval` in the story, in seconds. */
const HEALTH_INTERVAL_S = 10;
/** A first report, then one that changed class, which waits out the minute between two health writes of an object. */
const HEALTH_WAIT_MS = 2 * HEALTH_INTERVAL_S * 1000 + 60_000 + 30_000;

type HealthCondition = { type: string; status: string; reason?: string; message?: string };
type WithBindings = { status?: { bindings?: { name: string; targets?: { active?: number; up?: number; down?: number; lastError?: string }; rules?: { failing?: number; pending?: number; firingAlerts?: number; lastError?: string }; conditions?: HealthCondition[] }[] } };

/** The binding of the story's Prometheus in `kind/name`'s status, and its Healthy condition. */
async function healthOf(kind: string, namespace: string, name: string) {
  const object = await cli.getJson<WithBindings>([kind, name, '-n', namespace]);
  const binding = object.status?.bindings?.find((b) => b.name === PROMETHEUS);
  return { binding, healthy: binding?.conditions?.find((c) => c.type === 'Healthy') };
}

/** Waits until `kind/name`'s health of the story's Prometheus has `reason` (and whatever else `also` asks of it). */
function healthReason(kind: string, namespace: string, name: string, reason: string, also: (health: Awaited<ReturnType<typeof healthOf>>) => boolean = () => true) {
  return waitFor(`${kind} ${namespace}/${name} ${reason}`, async () => {
    const health = await healthOf(kind, namespace, name);
    return health.healthy?.reason === reason && also(health) ? health : undefined;
  }, HEALTH_WAIT_MS, 1000);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

beforeAll(async () => {
  const started = Date.now();
  if (external) {
    cli = new ClusterCli(external);
  } else {
    images = await buildImages();
    firstVersion = tagOf(images.previousPrometheus.name);
    upgradedVersion = tagOf(images.prometheus.name);
    report(`images ready in ${Date.now() - started} ms`);
    node = await startNodeCluster({
      sandboxImage: images.pause.name,
      images: Object.values(images).map((image) => image.archive),
      // PROMOP_E2E_KEEP_LOGS=1 keeps every component's log after the run, for a failure to be read.
      keepDir: process.env.PROMOP_E2E_KEEP_LOGS === '1',
      log: (line) => process.stderr.write(`[node] ${line}\n`),
    });
    report(`node Ready in ${Date.now() - started} ms`);
    cli = new ClusterCli(node.kubeconfigPath);
  }
  kc = new KubeConfig();
  kc.loadFromFile(cli.kubeconfigPath);
}, 600_000);

afterAll(async () => {
  process.stderr.write(`\n[used-by] figures:\n${figures.map((line) => `  ${line}`).join('\n')}\n`);
  await node?.stop();
}, 120_000);

/** The resourceVersions of everything promop writes for the story's Prometheus, and of the monitors' status. */
async function writtenVersions(): Promise<Record<string, string>> {
  const versions: Record<string, string> = {};
  for (const [kind, namespace, selector] of [
    ['statefulsets', MONITORING, 'app.kubernetes.io/managed-by=promop'],
    ['secrets', MONITORING, 'app.kubernetes.io/managed-by=promop'],
    ['configmaps', MONITORING, 'app.kubernetes.io/managed-by=promop'],
    ['services', MONITORING, 'app.kubernetes.io/managed-by=promop'],
    ['servicemonitors', 'team-a', ''],
    ['prometheusrules', 'team-a', ''],
    ['servicemonitors', 'team-b', ''],
  ] as const) {
    const list = await cli.getJson<{ items: { metadata: { name: string; resourceVersion: string } }[] }>([kind, '-n', namespace, ...(selector ? ['-l', selector] : [])]);
    for (const item of list.items) versions[`${kind}/${namespace}/${item.metadata.name}`] = item.metadata.resourceVersion;
  }
  return versions;
}

test('the node has no way out: its namespace holds only loopback, the pod bridge and pod veths, and no route leaves it', () => {
  if (!node) return; // an external cluster is its owner's business
  const { links, addresses, routes } = describeNetworkNamespace(node.netns.name);
  const linkNames = links.map((line) => /^\d+:\s+([^:@]+)/.exec(line)?.[1]);
  for (const [index, name] of linkNames.entries()) {
    // A veth's other end lives in a pod's namespace (link-netnsid), never in the host's.
    const ok = name === 'lo' || name === 'cni0' || (name?.startsWith('veth') && /link-netns(id)?\s/.test(links[index]!));
    expect({ link: links[index], ok }).toEqual({ link: links[index], ok: true });
  }
  const inside = (address: string): boolean =>
    address.startsWith('127.') || address === node!.netns.nodeAddress || address.startsWith('10.244.0.') || address === '::1' || address.startsWith('fe80:');
  for (const line of addresses) {
    const address = /inet6?\s+([^/\s]+)/.exec(line)?.[1] ?? '';
    expect({ line, inside: inside(address) }).toEqual({ line, inside: true });
  }
  expect(routes.filter((route) => route.startsWith('default'))).toEqual([]);
  for (const route of routes) {
    const destination = route.replace(/^(local|broadcast|multicast|unicast)\s+/, '').split(/\s+/)[0]!;
    // Loopback, the node address, the pod network; IPv6 link-local and multicast never leave a link.
    const ok = destination.startsWith('127.') || destination === node.netns.nodeAddress || destination.startsWith(NODE_NETWORKS.podCidr.slice(0, -4))
      || destination === '::1' || destination.startsWith('fe80:') || destination === 'ff00::/8';
    expect({ route, ok }).toEqual({ route, ok: true });
  }
  // And the host is untouched: no forwarding switched on, no pod bridge outside.
  expect(readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8').trim()).toBe('0');
});

test('helm installs promop from the image built here and its pod becomes Ready', async () => {
  const image = images?.promop.name ?? process.env.PROMOP_E2E_IMAGE ?? '';
  expect(image).not.toBe('');
  const started = Date.now();
  // Health every 10 s (default 30 s), so the health steps below wait seconds, not minutes.
  await installPromop(cli, image, ['--set', `extraArgs[0]=--health-interval=${HEALTH_INTERVAL_S}s`]);
  const deployment = await cli.getJson<{ status: { readyReplicas?: number } }>(['deployment', 'promop', '-n', PROMOP_NS]);
  expect(deployment.status.readyReplicas).toBe(1);
  report(`helm install → promop pod Ready: ${Date.now() - started} ms`);
}, 300_000);

test('the platform team\'s Prometheus scrapes team-a\'s app (target up) and team-a\'s alert fires', async () => {
  await cli.kubectlOk(['apply', '-f', join(EXAMPLES, 'namespaces.yaml')]);
  expect([firstVersion, upgradedVersion]).toEqual([expect.stringMatching(/^v\d/), expect.stringMatching(/^v\d/)]);
  // The example as a user would write it, but on the older version: the upgrade comes later.
  const prometheusYaml = readFileSync(join(EXAMPLES, 'prometheus.yaml'), 'utf8').replace(/\n  version: \S+\n/, `\n  version: ${firstVersion}\n`);
  expect(prometheusYaml).toContain(`version: ${firstVersion}`);
  const prometheusCreated = Date.now();
  await cli.kubectlOk(['apply', '-f', '-'], prometheusYaml);
  await waitFor('the Prometheus pod Ready', async () => ((await prometheusPods(cli)).some((p) => p.ready) ? true : undefined), 180_000);
  report(`Prometheus applied → its pod Ready: ${Date.now() - prometheusCreated} ms`);

  const applied = Date.now();
  await cli.kubectlOk(['apply', '-f', join(EXAMPLES, 'team-a.yaml')]);
  const pod = FIRST_POD;
  await waitFor('up{namespace="team-a"} == 1', async () => ((await teamATargetUp(kc, pod)) ? true : undefined), 180_000);
  report(`ServiceMonitor applied → team-a target up: ${Date.now() - applied} ms`);
  await waitFor('CheckoutErrorsHigh firing', async () => ((await teamAAlertFiring(kc, pod)) ? true : undefined), 240_000, 1000);
  report(`ServiceMonitor applied → team-a alert firing: ${Date.now() - applied} ms`);

  // The monitor and the rule say they were accepted, in their own status.
  for (const [kind, name] of [['servicemonitor', 'checkout'], ['prometheusrule', 'checkout-alerts']] as const) {
    const object = await cli.getJson<{ status?: { bindings?: { name: string; conditions?: { type: string; status: string }[] }[] } }>([kind, name, '-n', 'team-a']);
    const accepted = object.status?.bindings?.find((b) => b.name === PROMETHEUS)?.conditions?.find((c) => c.type === 'Accepted');
    expect({ kind, accepted: accepted?.status }).toEqual({ kind, accepted: 'True' });
  }
  // And how they run, in the same place: the target up, the rule evaluated.
  const monitor = await healthReason('servicemonitor', 'team-a', 'checkout', 'TargetsUp');
  expect(monitor.binding?.targets).toMatchObject({ active: 1, up: 1, down: 0 });
  expect(monitor.healthy?.message).toBe('1/1 up');
  await healthReason('prometheusrule', 'team-a', 'checkout-alerts', 'RulesEvaluated');
  report(`ServiceMonitor applied → its status says 1/1 up: ${Date.now() - applied} ms`);
}, 600_000);

test('team-b\'s broken ServiceMonitor is rejected with its reason; team-a\'s target and alert are untouched', async () => {
  await cli.kubectlOk(['apply', '-f', join(EXAMPLES, 'team-b.yaml')]);
  const rejection = await waitFor('team-b/search rejected', async () => {
    const object = await cli.getJson<{ status?: { bindings?: { name: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] }[] } }>(['servicemonitor', 'search', '-n', 'team-b']);
    const accepted = object.status?.bindings?.find((b) => b.name === PROMETHEUS)?.conditions?.find((c) => c.type === 'Accepted');
    return accepted?.status === 'False' ? accepted : undefined;
  }, 60_000);
  expect(rejection.message).toMatch(/relabelings\[0\]\.regex.*lookahead/);
  // The Event says the same, for `kubectl describe` and `kubectl events`.
  const events = await cli.getJson<{ items: { reason?: string; note?: string; regarding?: { name?: string } }[] }>(['events.v1.events.k8s.io', '-n', 'team-b']);
  expect(events.items.some((e) => e.regarding?.name === 'search' && e.reason === 'InvalidConfiguration' && /lookahead/.test(e.note ?? ''))).toBe(true);

  // Everyone else keeps working: the config still loads, team-a is still scraped and alerted on.
  const pod = FIRST_POD;
  const runtime = JSON.parse((await rawGet(kc, podProxyPath(MONITORING, pod, 9090, 'api/v1/status/runtimeinfo'))).body) as { data: { reloadConfigSuccess: boolean } };
  expect(runtime.data.reloadConfigSuccess).toBe(true);
  expect(await loadedConfig(kc, pod)).not.toContain('team-b');
  expect(await teamATargetUp(kc, pod)).toBe(true);
  expect(await teamAAlertFiring(kc, pod)).toBe(true);
  const prometheus = await cli.getJson<{ status?: { conditions?: { type: string; status: string }[] } }>(['prometheus', PROMETHEUS, '-n', MONITORING]);
  expect(prometheus.status?.conditions?.find((c) => c.type === 'Reconciled')?.status).toBe('True');
}, 120_000);

/** A line break Go's YAML readers honour (U+2029), then a job of the attacker's choosing that takes Prometheus' token. */
const INJECTED_JOB = ['x', '- job_name: injected', '  bearer_token_file: /var/run/secrets/kubernetes.io/serviceaccount/token',
  '  static_configs:', '  - targets: [127.0.0.1:1]'].join('\u2029');
/** The same trick in a rule label: a recording rule over every namespace's series. */
const INJECTED_RULE = ['x', '- record: stolen', '  expr: sum by (namespace) (up)'].join('\u2029');
/** Alternations nested 600 deep: over Go's 1000 levels of nesting, so Prometheus would refuse the whole file. */
const DEEP_REGEX = `${'(a|'.repeat(600)}b${')'.repeat(600)}`;

function teamB(kind: 'ServiceMonitor' | 'PrometheusRule', name: string, spec: Record<string, unknown>): string {
  return JSON.stringify({
    apiVersion: 'monitoring.coreos.com/v1', kind, metadata: { name, namespace: 'team-b', labels: { 'team-monitoring': 'enabled' } }, spec,
  });
}

async function acceptedCondition(kind: string, name: string): Promise<{ status: string; message?: string } | undefined> {
  const object = await cli.getJson<{ status?: { bindings?: { name: string; conditions?: { type: string; status: string; message?: string }[] }[] } }>([kind, name, '-n', 'team-b']);
  return object.status?.bindings?.find((b) => b.name === PROMETHEUS)?.conditions?.find((c) => c.type === 'Accepted');
}

test('a hostile team-b: its injected line breaks stay inside its own values, its regexes Go refuses are rejected, team-a\'s next change loads, and Prometheus runs no job or rule nobody wrote', async () => {
  await cli.kubectlOk(['apply', '-f', '-'], teamB('ServiceMonitor', 'hostile-inject', {
    selector: { matchLabels: { app: 'search' } },
    endpoints: [{ port: 'web', relabelings: [{ targetLabel: 'note', replacement: INJECTED_JOB }] }],
  }));
  await cli.kubectlOk(['apply', '-f', '-'], teamB('ServiceMonitor', 'hostile-regex', {
    selector: { matchLabels: { app: 'search' } },
    endpoints: [{ port: 'web', relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_name'], regex: DEEP_REGEX, action: 'keep' }] }],
  }));
  await cli.kubectlOk(['apply', '-f', '-'], teamB('PrometheusRule', 'hostile-inject', {
    groups: [{ name: 'hostile', rules: [{ alert: 'HostileLabel', expr: 'vector(0) > 1', labels: { severity: INJECTED_RULE } }] }],
  }));
  await cli.kubectlOk(['apply', '-f', '-'], teamB('PrometheusRule', 'hostile-regex', {
    groups: [{ name: 'hostile-regex', rules: [{ alert: 'HostileRegex', expr: `up{job=~"${DEEP_REGEX}"} == 0` }] }],
  }));

  // The objects Go would refuse are rejected alone, with the field and the reason, in their own status.
  for (const [kind, path] of [['servicemonitor', /spec\.endpoints\[0\]\.relabelings\[0\]\.regex: .*nests too deeply/], ['prometheusrule', /spec\.groups\[0\]\.rules\[0\]\.expr: .*nests too deeply/]] as const) {
    const rejected = await waitFor(`team-b/${kind} hostile-regex rejected`, async () => {
      const accepted = await acceptedCondition(kind, 'hostile-regex');
      return accepted?.status === 'False' ? accepted : undefined;
    }, 60_000);
    expect(rejected.message).toMatch(path);
  }
  for (const kind of ['servicemonitor', 'prometheusrule']) {
    await waitFor(`team-b/${kind} hostile-inject accepted`, async () => ((await acceptedCondition(kind, 'hostile-inject'))?.status === 'True' ? true : undefined), 60_000);
  }

  // team-a's next change is loaded: the shared file is still one Prometheus reads.
  const marker = 'after-hostile-team-b';
  const patch = [{ op: 'replace', path: '/spec/endpoints/0/relabelings', value: [{ targetLabel: 'change', replacement: marker, action: 'replace' }] }];
  await cli.kubectlOk(['patch', 'servicemonitor', 'checkout', '-n', 'team-a', '--type=json', '-p', JSON.stringify(patch)]);
  const pod = FIRST_POD;
  await waitFor(`${pod} loads ${marker}`, async () => ((await loadedConfig(kc, pod)).includes(marker) ? true : undefined), 120_000, 200);
  await waitFor('the hostile rule group loaded', async () => ((await loadedRules(pod)).some((rule) => rule.name === 'HostileLabel') ? true : undefined), 120_000, 500);

  // What Prometheus runs: exactly the jobs and rules of accepted objects, the injected text a label value.
  const pools = JSON.parse((await rawGet(kc, podProxyPath(MONITORING, pod, 9090, 'api/v1/scrape_pools'))).body) as { data: { scrapePools: string[] } };
  expect(pools.data.scrapePools.sort()).toEqual(['serviceMonitor/team-a/checkout/0', 'serviceMonitor/team-b/hostile-inject/0']);
  const rules = await loadedRules(pod);
  expect(rules.map((rule) => rule.name).sort()).toEqual(['CheckoutErrorsHigh', 'HostileLabel']);
  expect(rules.find((rule) => rule.name === 'HostileLabel')?.labels.severity).toBe(INJECTED_RULE);
  // The loaded config, as Prometheus writes it back: the injected text is team-b's replacement, no job's field.
  const loaded = load(await loadedConfig(kc, pod)) as { scrape_configs: Array<Record<string, unknown>> };
  expect(loaded.scrape_configs.map((job) => job.job_name).sort()).toEqual(['serviceMonitor/team-a/checkout/0', 'serviceMonitor/team-b/hostile-inject/0']);
  for (const job of loaded.scrape_configs) expect({ job: job.job_name, token: job.bearer_token_file }).toEqual({ job: job.job_name, token: undefined });
  const hostileJob = loaded.scrape_configs.find((job) => job.job_name === 'serviceMonitor/team-b/hostile-inject/0')!;
  expect((hostileJob.relabel_configs as Array<Record<string, unknown>>).some((rule) => rule.replacement === INJECTED_JOB)).toBe(true);
  expect(await teamATargetUp(kc, pod)).toBe(true);
}, 300_000);

/** The rules pod `pod` evaluates (its /api/v1/rules), with their labels. */
async function loadedRules(pod: string): Promise<{ name: string; labels: Record<string, string> }[]> {
  const response = await rawGet(kc, podProxyPath(MONITORING, pod, 9090, 'api/v1/rules'));
  if (response.status !== 200) return [];
  const body = JSON.parse(response.body) as { data: { groups: { rules: { name: string; labels?: Record<string, string> }[] }[] } };
  return body.data.groups.flatMap((group) => group.rules.map((rule) => ({ name: rule.name, labels: rule.labels ?? {} })));
}

test('replicas: 2 gives two pods that both scrape and both run the written config', async () => {
  await cli.kubectlOk(['patch', 'prometheus', PROMETHEUS, '-n', MONITORING, '--type=merge', '-p', '{"spec":{"replicas":2}}']);
  const pods = await waitFor('two Ready Prometheus pods', async () => {
    const current = await prometheusPods(cli);
    return current.length === 2 && current.every((p) => p.ready) ? current : undefined;
  }, 180_000);
  for (const pod of pods) {
    await waitFor(`${pod.name} scrapes team-a`, async () => ((await teamATargetUp(kc, pod.name)) ? true : undefined), 120_000);
  }
  const configs = await Promise.all(pods.map((pod) => loadedConfig(kc, pod.name)));
  // The same config in both, except the replica label, which each pod expands to its own name.
  for (const [index, pod] of pods.entries()) expect(configs[index]).toContain(`prometheus_replica: ${pod.name}\n`);
  const [first, second] = configs.map((config) => config.replace(/prometheus_replica: \S+/, 'prometheus_replica: <pod>'));
  expect(first).toContain('job_name: serviceMonitor/team-a/checkout/0');
  expect(second).toBe(first);
  // promop says the same in the Prometheus' status: both replicas run the config it wrote.
  const status = await waitFor('both replicas reported as loaded', async () => {
    const prometheus = await cli.getJson<{ status?: { configStatus?: { shardID: string; loadedReplicas?: string[] }[] } }>(['prometheus', PROMETHEUS, '-n', MONITORING]);
    const loaded = prometheus.status?.configStatus?.find((shard) => shard.shardID === '0')?.loadedReplicas ?? [];
    return loaded.length === 2 ? loaded : undefined;
  }, 60_000);
  expect([...status].sort()).toEqual(pods.map((pod) => pod.name));
}, 400_000);

test('a spec.version change (the previous Prometheus release → the default) rolls the pods one at a time', async () => {
  const before = await prometheusPods(cli);
  expect(before.map((p) => p.image)).toEqual(before.map(() => `quay.io/prometheus/prometheus:${firstVersion}`));
  await cli.kubectlOk(['patch', 'prometheus', PROMETHEUS, '-n', MONITORING, '--type=merge', '-p', JSON.stringify({ spec: { version: upgradedVersion } })]);
  const started = Date.now();
  let minimumReady = Number.POSITIVE_INFINITY;
  const after = await waitFor('every pod on the new version and Ready', async () => {
    const pods = await prometheusPods(cli);
    minimumReady = Math.min(minimumReady, pods.filter((p) => p.ready).length);
    const done = pods.length === 2 && pods.every((p) => p.ready && p.image === `quay.io/prometheus/prometheus:${upgradedVersion}`);
    return done ? pods : undefined;
  }, 300_000, 250);
  report(`version change rolled 2 pods in ${Date.now() - started} ms; fewest Ready pods at any moment: ${minimumReady}`);
  // One at a time: a pod was always serving.
  expect(minimumReady).toBeGreaterThanOrEqual(1);
  expect(after.every((p) => !before.some((b) => b.uid === p.uid))).toBe(true);
  for (const pod of after) {
    await waitFor(`${pod.name} scrapes team-a after the upgrade`, async () => ((await teamATargetUp(kc, pod.name)) ? true : undefined), 120_000);
    const build = JSON.parse((await rawGet(kc, podProxyPath(MONITORING, pod.name, 9090, 'api/v1/status/buildinfo'))).body) as { data: { version: string } };
    expect(build.data.version).toBe(upgradedVersion.slice(1));
  }
}, 400_000);

test('without promop, Prometheus keeps scraping; promop back makes no needless writes', async () => {
  // The pods just rolled: their health is reported once they scraped again and the alert fires again, past its 20 s
  // pending (promop writes that; it is no needless write).
  await healthReason('servicemonitor', 'team-a', 'checkout', 'TargetsUp');
  await healthReason('prometheusrule', 'team-a', 'checkout-alerts', 'RulesEvaluated', ({ binding }) => (binding?.rules?.firingAlerts ?? 0) >= 1 && (binding?.rules?.pending ?? 0) === 0);
  const podsBefore = await prometheusPods(cli);
  const versionsBefore = await writtenVersions();
  await cli.kubectlOk(['scale', 'deployment', 'promop', '-n', PROMOP_NS, '--replicas=0']);
  await waitFor('promop pod gone', async () => {
    const pods = await cli.getJson<{ items: unknown[] }>(['pods', '-n', PROMOP_NS, '-l', 'app.kubernetes.io/name=promop']);
    return pods.items.length === 0 ? true : undefined;
  }, 60_000);
  const stoppedAt = Date.now() / 1000;
  // Two scrape intervals with no operator at all.
  await new Promise((resolve) => setTimeout(resolve, 25_000));
  for (const pod of podsBefore) {
    const recent = await queryPrometheus(kc, MONITORING, pod.name, 'timestamp(up{namespace="team-a"} == 1)');
    expect(Number(recent?.[0]?.value[1] ?? 0)).toBeGreaterThan(stoppedAt);
  }
  expect((await prometheusPods(cli)).map((p) => [p.uid, p.restarts])).toEqual(podsBefore.map((p) => [p.uid, p.restarts]));

  await cli.kubectlOk(['scale', 'deployment', 'promop', '-n', PROMOP_NS, '--replicas=1']);
  await cli.kubectlOk(['rollout', 'status', 'deployment/promop', '-n', PROMOP_NS, '--timeout=180s'], undefined, 200_000);
  // Settled: give the new promop time to reconcile everything once.
  await new Promise((resolve) => setTimeout(resolve, 15_000));
  expect(await writtenVersions()).toEqual(versionsBefore);
}, 400_000);

test(`P5: ServiceMonitor changed → new config loaded in every replica, over ${P5_CHANGES} changes`, async () => {
  const pods = (await prometheusPods(cli)).map((p) => p.name);
  expect(pods).toHaveLength(2);
  const latencies: number[] = [];
  for (let change = 1; change <= P5_CHANGES; change += 1) {
    const marker = `p5-change-${change}`;
    const patch = [{ op: 'replace', path: '/spec/endpoints/0/relabelings', value: [{ targetLabel: 'change', replacement: marker, action: 'replace' }] }];
    const started = Date.now();
    await cli.kubectlOk(['patch', 'servicemonitor', 'checkout', '-n', 'team-a', '--type=json', '-p', JSON.stringify(patch)]);
    for (const pod of pods) {
      await waitFor(`${pod} loads ${marker}`, async () => ((await loadedConfig(kc, pod)).includes(marker) ? true : undefined), 90_000, 50);
    }
    latencies.push(Date.now() - started);
  }
  latencies.sort((a, b) => a - b);
  report(`P5 ServiceMonitor applied → loaded in both replicas (${P5_CHANGES} changes, observed from outside): p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`);

  // promop's own view of the same thing, from its metrics.
  const promopPod = (await cli.getJson<{ items: { metadata: { name: string } }[] }>(['pods', '-n', PROMOP_NS, '-l', 'app.kubernetes.io/name=promop'])).items[0]!.metadata.name;
  const metrics = (await rawGet(kc, podProxyPath(PROMOP_NS, promopPod, 8080, 'metrics'))).body;
  const verified = /promop_reload_total\{outcome="verified"\} (\d+)/.exec(metrics)?.[1];
  expect(Number(verified)).toBeGreaterThanOrEqual(P5_CHANGES * pods.length);
  const histogram = metrics.split('\n').filter((line) => /^promop_config_.*_seconds_(sum|count)/.test(line));
  report(`promop metrics: ${histogram.join('; ')}`);
}, 900_000);

/** Where the teams' webhooks land in the alerting step: one receiver pod, a path per team (tools/webhook-receiver). */
const WEBHOOKS_NS = 'webhooks';
const RECEIVER_POD = WEBHOOK_RECEIVER;
/** The story's Alertmanager, and its two pods. */
const ALERTMANAGER = 'main';
const ALERTMANAGER_PODS = [`alertmanager-${ALERTMANAGER}-0`, `alertmanager-${ALERTMANAGER}-1`];

interface AlertmanagerStatus { config: { original: string }; cluster: { status: string; peers: { name: string; address: string }[] } }

/** GET /api/v2/status of one Alertmanager pod, through the pod proxy; undefined while it does not answer. */
async function alertmanagerStatus(pod: string): Promise<AlertmanagerStatus | undefined> {
  const response = await rawGet(kc, podProxyPath(MONITORING, pod, 9093, 'api/v2/status')).catch(() => undefined);
  return response?.status === 200 ? JSON.parse(response.body) as AlertmanagerStatus : undefined;
}

interface Delivery {
  path: string;
  receivedAt: string;
  /** As Alertmanager sends it; `externalURL` names the replica that sent it (its pod name, without --web.external-url). */
  body: { receiver: string; status: string; externalURL: string; alerts: { status: string; labels: Record<string, string> }[] };
}

async function deliveries(): Promise<Delivery[]> {
  const response = await rawGet(kc, podProxyPath(WEBHOOKS_NS, RECEIVER_POD, 8080, 'received'));
  if (response.status !== 200) throw new Error(`webhook receiver answered ${response.status}: ${response.body.slice(0, 200)}`);
  return JSON.parse(response.body) as Delivery[];
}

const manifest = (objects: Record<string, unknown>[]): string => objects.map((object) => JSON.stringify(object)).join('\n---\n');

test('alerting: Alertmanager runs on the node; team-a\'s new rule reaches team-a\'s webhook through its AlertmanagerConfig, and only team-b\'s own alert reaches team-b\'s', async () => {
  // The teams' endpoints: a pod the test reads back, behind a Service (named by its IP here; examples/ names it by DNS).
  await cli.kubectlOk(['apply', '-f', '-'], manifest([
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: WEBHOOKS_NS } },
    ...webhookReceiverObjects(WEBHOOKS_NS),
  ]));
  const receiverIp = (await cli.getJson<{ spec: { clusterIP: string } }>(['service', RECEIVER_POD, '-n', WEBHOOKS_NS])).spec.clusterIP;
  const hook = (team: string): string => `http://${receiverIp}:8080/${team}`;

  // The platform's Alertmanager, taking the teams' AlertmanagerConfigs; each team routes its pages to its own webhook.
  // team-b's route asks for every page; promop confines it to team-b's namespace.
  const teamRoute = (team: string, object: string) => ({
    apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig',
    metadata: { name: object, namespace: team, labels: { 'team-monitoring': 'enabled' } },
    spec: {
      route: { receiver: 'pager', groupBy: ['alertname'], groupWait: '1s', groupInterval: '5s', matchers: [{ name: 'severity', value: 'page' }] },
      // A CA from a ConfigMap of the team's namespace (every namespace has kube-root-ca.crt): promop writes it beside
      // the configuration, and Alertmanager reads it when it loads it. The hooks are plain HTTP, so it is not used.
      receivers: [{ name: 'pager', webhookConfigs: [{ url: hook(team), sendResolved: false, httpConfig: { tlsConfig: { ca: { configMap: { name: 'kube-root-ca.crt', key: 'ca.crt' } } } } }] }],
    },
  });
  const amApplied = Date.now();
  await cli.kubectlOk(['apply', '-f', '-'], manifest([
    teamRoute('team-a', 'paging'),
    teamRoute('team-b', 'all-pages'),
    {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'Alertmanager', metadata: { name: ALERTMANAGER, namespace: MONITORING },
      spec: {
        // Two meshed replicas: Prometheus sends every alert to both, the mesh makes one notification of it.
        replicas: 2,
        clusterPeerTimeout: '5s',
        alertmanagerConfigSelector: { matchLabels: { 'team-monitoring': 'enabled' } },
        alertmanagerConfigNamespaceSelector: { matchLabels: { monitoring: 'enabled' } },
      },
    },
  ]));
  const amPod = `alertmanager-${ALERTMANAGER}-0`;
  for (const pod of ALERTMANAGER_PODS) {
    await waitFor(`${pod} Ready with both teams' receivers, in a mesh of ${ALERTMANAGER_PODS.length}`, async () => {
      const secret = await cli.getJson<{ data?: Record<string, string> }>(['secret', `alertmanager-${ALERTMANAGER}-generated`, '-n', MONITORING]).catch(() => undefined);
      const config = Buffer.from(secret?.data?.['alertmanager.yaml'] ?? '', 'base64').toString('utf8');
      if (!config.includes('team-a/paging/pager') || !config.includes('team-b/all-pages/pager')) return undefined;
      const status = await alertmanagerStatus(pod);
      // The pod runs the configuration with both receivers (promop reloads it as soon as it is Ready), and found its
      // peer by its DNS name (the node's cluster DNS).
      return status?.config.original.includes('team-b/all-pages/pager') && status.cluster.status === 'ready' && status.cluster.peers.length === ALERTMANAGER_PODS.length ? status : undefined;
    }, 180_000);
  }
  report(`Alertmanager (${ALERTMANAGER_PODS.length} replicas) + AlertmanagerConfigs applied → its pods Ready and meshed with both receivers: ${Date.now() - amApplied} ms`);
  // The teams' CA files came with the configuration, and the pods loaded the configuration that names them.
  const generatedSecret = await cli.getJson<{ data: Record<string, string> }>(['secret', `alertmanager-${ALERTMANAGER}-generated`, '-n', MONITORING]);
  expect(Object.keys(generatedSecret.data).sort()).toEqual(['1_team-a_kube-root-ca.crt_ca.crt', '1_team-b_kube-root-ca.crt_ca.crt', 'alertmanager.yaml']);
  for (const pod of ALERTMANAGER_PODS) {
    expect((await alertmanagerStatus(pod))?.config.original).toContain('ca_file: /etc/alertmanager/config/1_team-a_kube-root-ca.crt_ca.crt');
  }
  const amImage = (await cli.getJson<PodJson>(['pod', amPod, '-n', MONITORING])).spec.containers.find((c) => c.name === 'alertmanager')?.image;
  if (images) expect(amImage).toBe(images.alertmanager.name);
  for (const team of ['team-a', 'team-b']) {
    const object = await cli.getJson<{ status?: { bindings?: { name: string; conditions?: { type: string; status: string }[] }[] } }>(['alertmanagerconfig', team === 'team-a' ? 'paging' : 'all-pages', '-n', team]);
    expect({ team, accepted: object.status?.bindings?.find((b) => b.name === ALERTMANAGER)?.conditions?.find((c) => c.type === 'Accepted')?.status }).toEqual({ team, accepted: 'True' });
  }

  // The platform's Prometheus sends to it (found through the Endpoints of alertmanager-operated), and pins every
  // team's rules and alerts to the team's namespace: the label the AlertmanagerConfig routes match.
  const prometheusPatched = Date.now();
  await cli.kubectlOk(['patch', 'prometheus', PROMETHEUS, '-n', MONITORING, '--type=merge', '-p', JSON.stringify({
    spec: { enforcedNamespaceLabel: 'namespace', alerting: { alertmanagers: [{ namespace: MONITORING, name: 'alertmanager-operated', port: 'web' }] } },
  })]);
  const prometheusReplicas = (await prometheusPods(cli)).map((p) => p.name);
  for (const pod of prometheusReplicas) {
    await waitFor(`${pod} sends to both Alertmanager replicas`, async () => {
      const response = await rawGet(kc, podProxyPath(MONITORING, pod, 9090, 'api/v1/alertmanagers'));
      if (response.status !== 200) return undefined;
      const active = (JSON.parse(response.body) as { data: { activeAlertmanagers: { url: string }[] } }).data.activeAlertmanagers;
      return active.length === ALERTMANAGER_PODS.length ? active : undefined;
    }, 120_000, 250);
  }
  report(`Prometheus spec.alerting set → every replica (${prometheusReplicas.length}) sends to both Alertmanagers: ${Date.now() - prometheusPatched} ms`);
  expect((await deliveries()).length).toBe(0);

  // team-a's new rule, and one of team-b's own, both paging.
  const rule = (team: string, name: string, alert: string, expr: string) => ({
    apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name, namespace: team, labels: { 'team-monitoring': 'enabled' } },
    spec: { groups: [{ name, rules: [{ alert, expr, labels: { severity: 'page', team: team === 'team-a' ? 'checkout' : 'search' } }] }] },
  });
  const ruleCreated = Date.now();
  await cli.kubectlOk(['apply', '-f', '-'], manifest([
    rule('team-a', 'checkout-paging', 'CheckoutFailing', 'sum(rate(http_requests_total{job="checkout",code=~"5.."}[1m])) > 0'),
    rule('team-b', 'search-paging', 'SearchPaged', 'vector(1)'),
  ]));
  const firstOf = async (path: string, alertname: string): Promise<Delivery> => waitFor(`${alertname} delivered to ${path}`, async () => {
    return (await deliveries()).find((d) => d.path === path && d.body.alerts.some((a) => a.labels.alertname === alertname));
  }, 180_000, 200);
  const [teamA, teamB] = await Promise.all([firstOf('/team-a', 'CheckoutFailing'), firstOf('/team-b', 'SearchPaged')]);
  const deliveredIn = (d: Delivery): number => Date.parse(d.receivedAt) - ruleCreated;
  report(`PrometheusRule created → alert delivered to the team's webhook: team-a ${deliveredIn(teamA)} ms, team-b ${deliveredIn(teamB)} ms`);

  // What team-a's webhook got: its alert, with team-a's labels, through team-a's receiver; one copy for both replicas.
  expect(teamA.body.receiver).toBe('team-a/paging/pager');
  expect(teamA.body.alerts).toHaveLength(1);
  expect(teamA.body.alerts[0]).toMatchObject({ status: 'firing', labels: { alertname: 'CheckoutFailing', namespace: 'team-a', severity: 'page', team: 'checkout' } });
  expect(Object.keys(teamA.body.alerts[0]!.labels)).not.toContain('prometheus_replica');
  expect(teamB.body.receiver).toBe('team-b/all-pages/pager');

  // A while longer (past the routes' 5 s group interval, and the second replica's turn, 5 s after the first's):
  // each webhook got its own team's alerts and nothing else, and each alert once though both replicas have it.
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  const all = await deliveries();
  expect(all.filter((d) => d.path === '/team-a' && d.body.alerts.some((a) => a.labels.alertname === 'CheckoutFailing'))).toHaveLength(1);
  for (const pod of ALERTMANAGER_PODS) {
    const alerts = await rawGet(kc, podProxyPath(MONITORING, pod, 9093, `api/v2/alerts?filter=${encodeURIComponent('alertname="CheckoutFailing"')}`));
    expect({ pod, received: (JSON.parse(alerts.body) as unknown[]).length }).toEqual({ pod, received: 1 });
  }
  const alertsAt = (path: string): string[] => [...new Set(all.filter((d) => d.path === path).flatMap((d) => d.body.alerts.map((a) => `${a.labels.namespace}/${a.labels.alertname}`)))].sort();
  expect(alertsAt('/team-a')).toEqual(['team-a/CheckoutFailing']);
  expect(alertsAt('/team-b')).toEqual(['team-b/SearchPaged']);
  expect(all.filter((d) => d.path !== '/team-a' && d.path !== '/team-b')).toEqual([]);
}, 600_000);

interface AlertmanagerConfigJson { status?: { bindings?: { name: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] }[] } }

test('team-b\'s broken AlertmanagerConfig is rejected alone with its reason; team-a\'s silence through Alertmanager\'s API holds back only the silenced alert', async () => {
  const amPod = `alertmanager-${ALERTMANAGER}-0`;
  const hook = (await cli.getJson<{ spec: { clusterIP: string } }>(['service', RECEIVER_POD, '-n', WEBHOOKS_NS])).spec.clusterIP;
  // A route naming a receiver the object does not define.
  await cli.kubectlOk(['apply', '-f', '-'], manifest([{
    apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'AlertmanagerConfig',
    metadata: { name: 'broken-pages', namespace: 'team-b', labels: { 'team-monitoring': 'enabled' } },
    spec: { route: { receiver: 'nobody' }, receivers: [{ name: 'pager', webhookConfigs: [{ url: `http://${hook}:8080/team-b` }] }] },
  }]));
  const rejected = await waitFor('team-b/broken-pages rejected', async () => {
    const object = await cli.getJson<AlertmanagerConfigJson>(['alertmanagerconfig', 'broken-pages', '-n', 'team-b']);
    const accepted = object.status?.bindings?.find((b) => b.name === ALERTMANAGER)?.conditions?.find((c) => c.type === 'Accepted');
    return accepted?.status === 'False' ? accepted : undefined;
  }, 60_000);
  expect(rejected).toMatchObject({ reason: 'InvalidConfiguration', message: 'spec.route.receiver: no receiver named "nobody" in spec.receivers' });
  const events = await waitFor('a Warning Event on team-b/broken-pages', async () => {
    const list = await cli.getJson<{ items: { type: string; message?: string; involvedObject: { kind: string; name: string } }[] }>(['events', '-n', 'team-b']);
    const found = list.items.filter((e) => e.type === 'Warning' && e.involvedObject.kind === 'AlertmanagerConfig' && e.involvedObject.name === 'broken-pages');
    return found.length > 0 ? found : undefined;
  }, 60_000);
  expect(events[0]?.message).toContain('no receiver named "nobody"');
  // The others are written and loaded: the Alertmanager stays Reconciled and its pod runs team-a's route.
  const alertmanager = await cli.getJson<{ status?: { conditions?: { type: string; status: string }[]; configStatus?: { loadedReplicas?: string[] } } }>(['alertmanager', ALERTMANAGER, '-n', MONITORING]);
  expect(alertmanager.status?.conditions?.find((c) => c.type === 'Reconciled')?.status).toBe('True');
  const loaded = await rawGet(kc, podProxyPath(MONITORING, amPod, 9093, 'api/v2/status'));
  expect(loaded.body).toContain('team-a/paging/pager');
  expect(loaded.body).not.toContain('broken-pages');

  // team-a silences one alert for a maintenance window, through Alertmanager's API, before it fires.
  // One replica is asked; the mesh gives the silence to the other.
  const silence = await rawPost(kc, podProxyPath(MONITORING, amPod, 9093, 'api/v2/silences'), {
    matchers: [{ name: 'alertname', value: 'CheckoutMaintenance', isRegex: false, isEqual: true }, { name: 'namespace', value: 'team-a', isRegex: false, isEqual: true }],
    startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + 3_600_000).toISOString(), createdBy: 'team-a', comment: 'maintenance window',
  });
  expect(silence.status).toBe(200);
  // Two alerts of one rule group, evaluated together: the silenced one and one that still pages.
  await cli.kubectlOk(['apply', '-f', '-'], manifest([{
    apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'checkout-maintenance', namespace: 'team-a', labels: { 'team-monitoring': 'enabled' } },
    spec: { groups: [{ name: 'checkout-maintenance', rules: ['CheckoutMaintenance', 'CheckoutStillPaging'].map((alert) => ({ alert, expr: 'vector(1)', labels: { severity: 'page' } })) }] },
  }]));
  await waitFor('CheckoutStillPaging delivered to /team-a', async () =>
    (await deliveries()).find((d) => d.path === '/team-a' && d.body.alerts.some((a) => a.labels.alertname === 'CheckoutStillPaging')), 180_000, 200);
  // Alertmanager received the silenced alert too, and holds it back.
  const suppressed = await waitFor('CheckoutMaintenance suppressed in Alertmanager', async () => {
    const response = await rawGet(kc, podProxyPath(MONITORING, amPod, 9093, `api/v2/alerts?filter=${encodeURIComponent('alertname="CheckoutMaintenance"')}`));
    const alerts = response.status === 200 ? JSON.parse(response.body) as { status: { state: string; silencedBy: string[] } }[] : [];
    return alerts.length > 0 ? alerts : undefined;
  }, 60_000, 500);
  expect(suppressed[0]?.status).toMatchObject({ state: 'suppressed', silencedBy: [JSON.parse(silence.body).silenceID] });
  const otherReplica = await rawGet(kc, podProxyPath(MONITORING, ALERTMANAGER_PODS[1]!, 9093, 'api/v2/silences'));
  expect((JSON.parse(otherReplica.body) as { id: string }[]).map((each) => each.id)).toContain(JSON.parse(silence.body).silenceID);
  // Past the routes' group wait and interval: the silenced alert reached no webhook.
  await new Promise((resolve) => setTimeout(resolve, 7_000));
  expect((await deliveries()).filter((d) => d.body.alerts.some((a) => a.labels.alertname === 'CheckoutMaintenance'))).toEqual([]);
}, 600_000);

test('one Alertmanager replica down: the other still delivers team-a\'s next alert, and the replica rejoins the mesh', async () => {
  const [first, second] = ALERTMANAGER_PODS as [string, string];
  // The replica that notifies first (the mesh's first in order) goes, and cannot come back while the nodes are
  // cordoned: its StatefulSet's new pod waits unscheduled.
  const nodes = (await cli.getJson<{ items: { metadata: { name: string } }[] }>(['nodes'])).items.map((each) => each.metadata.name);
  await cli.kubectlOk(['cordon', ...nodes]);
  try {
    await cli.kubectlOk(['delete', 'pod', first, '-n', MONITORING, '--grace-period=0', '--force', '--wait=true']);
    // Every Prometheus replica now sends to the remaining Alertmanager only (it follows alertmanager-operated).
    for (const pod of (await prometheusPods(cli)).map((p) => p.name)) {
      await waitFor(`${pod} sends to ${second} only`, async () => {
        const response = await rawGet(kc, podProxyPath(MONITORING, pod, 9090, 'api/v1/alertmanagers'));
        if (response.status !== 200) return undefined;
        const active = (JSON.parse(response.body) as { data: { activeAlertmanagers: { url: string }[] } }).data.activeAlertmanagers;
        return active.length === 1 ? active : undefined;
      }, 120_000, 250);
    }
    const ruleCreated = Date.now();
    await cli.kubectlOk(['apply', '-f', '-'], manifest([{
      apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'checkout-failover', namespace: 'team-a', labels: { 'team-monitoring': 'enabled' } },
      spec: { groups: [{ name: 'checkout-failover', rules: [{ alert: 'CheckoutDuringFailover', expr: 'vector(1)', labels: { severity: 'page' } }] }] },
    }]));
    const delivered = await waitFor('CheckoutDuringFailover delivered to /team-a', async () =>
      (await deliveries()).find((d) => d.path === '/team-a' && d.body.alerts.some((a) => a.labels.alertname === 'CheckoutDuringFailover')), 180_000, 200);
    report(`one of two Alertmanager replicas down: PrometheusRule created → delivered by the other: ${Date.parse(delivered.receivedAt) - ruleCreated} ms`);
    expect(delivered.body.externalURL).toContain(second);
    expect(delivered.body.alerts[0]?.labels).toMatchObject({ alertname: 'CheckoutDuringFailover', namespace: 'team-a' });
  } finally {
    await cli.kubectlOk(['uncordon', ...nodes]);
  }
  // Back: the new pod loads the configuration, finds its peer again, and has the silence the mesh kept.
  const rejoined = await waitFor(`${first} back in the mesh`, async () => {
    const status = await alertmanagerStatus(first);
    return status?.cluster.status === 'ready' && status.cluster.peers.length === ALERTMANAGER_PODS.length && status.config.original.includes('team-a/paging/pager') ? status : undefined;
  }, 180_000, 500);
  expect(rejoined.cluster.peers.map((peer) => peer.name)).toHaveLength(2);
  await waitFor(`${first} has team-a's silence again`, async () => {
    const response = await rawGet(kc, podProxyPath(MONITORING, first, 9093, 'api/v2/silences'));
    return response.status === 200 && response.body.includes('maintenance window') ? true : undefined;
  }, 60_000, 500);
}, 600_000);

test('a PrometheusAgent on the node: its pod scrapes team-a and remote-writes the samples into another Prometheus', async () => {
  const applied = Date.now();
  // The receiving end: a Prometheus of its own namespace that accepts remote write and scrapes nothing itself.
  await cli.kubectlOk(['apply', '-f', '-'], manifest([
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge' } },
    { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'sink', namespace: 'edge' }, spec: { replicas: 1, enableRemoteWriteReceiver: true } },
    {
      apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', metadata: { name: 'edge', namespace: MONITORING },
      spec: {
        replicas: 1,
        serviceAccountName: 'prometheus',
        scrapeInterval: '10s',
        serviceMonitorSelector: { matchLabels: { 'team-monitoring': 'enabled' } },
        serviceMonitorNamespaceSelector: { matchLabels: { monitoring: 'enabled' } },
        // Found by its Service's DNS name (the node's cluster DNS).
        remoteWrite: [{ url: 'http://prometheus-operated.edge.svc:9090/api/v1/write' }],
      },
    },
  ]));
  const agentPod = 'prom-agent-edge-0';
  const agent = await waitFor(`${agentPod} Ready`, async () => {
    const pod = await cli.getJson<PodJson>(['pod', agentPod, '-n', MONITORING]).catch(() => undefined);
    return pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? pod : undefined;
  }, 180_000);
  // promop reloads it itself: Prometheus in agent mode, no sidecar.
  expect(agent.spec.containers.map((c) => c.name)).toEqual(['prometheus']);
  const received = await waitFor('team-a\'s up in the sink, from the agent', async () => {
    const result = await queryPrometheus(kc, 'edge', 'prometheus-sink-0', `up{namespace="team-a", prometheus="${MONITORING}/edge"} == 1`).catch(() => undefined);
    return result && result.length > 0 ? result : undefined;
  }, 180_000, 1000);
  report(`PrometheusAgent and a remote-write sink applied → team-a's samples scraped by the agent are in the sink: ${Date.now() - applied} ms`);
  expect(received[0]?.metric).toMatchObject({ namespace: 'team-a', job: 'checkout', prometheus_replica: agentPod });
  // promop verified what the agent loaded (reloaded through its API, as a server's).
  type AgentJson = { status?: { conditions?: { type: string; status: string; message?: string }[]; configStatus?: { loadedReplicas?: string[] }[] } };
  const read = () => cli.getJson<AgentJson>(['prometheusagent', 'edge', '-n', MONITORING]);
  const loaded = (agentObject: AgentJson) => agentObject.status?.conditions?.find((c) => c.type === 'Reconciled')?.status === 'True' && agentObject.status.configStatus?.[0]?.loadedReplicas?.includes(agentPod);
  const stored = await waitFor('the agent Reconciled, its pod verified', async () => { const found = await read(); return loaded(found) ? found : undefined; }, 60_000).catch(read);
  expect(stored.status?.conditions?.find((c) => c.type === 'Reconciled')).toMatchObject({ status: 'True' });
  expect(stored.status?.configStatus?.[0]?.loadedReplicas).toEqual([agentPod]);
}, 600_000);

test('team-b\'s monitors that find no target or whose targets fail, and its rule that fails, each say so in their own status and a Warning', async () => {
  // Both point at team-a's Service (namespaceSelector), one through a port it does not have, one at a path it does
  // not serve; the rule multiplies two series by two with no label to match them by.
  const monitor = (name: string, endpoint: Record<string, unknown>) => teamB('ServiceMonitor', name, {
    selector: { matchLabels: { app: 'checkout' } }, namespaceSelector: { matchNames: ['team-a'] }, endpoints: [{ interval: '10s', ...endpoint }],
  });
  const pair = '(vector(1) or label_replace(vector(1), "copy", "x", "", ""))';
  await cli.kubectlOk(['apply', '-f', '-'], [
    monitor('wrong-port', { port: 'web' }),
    monitor('wrong-path', { port: 'metrics', path: '/not-metrics' }),
    teamB('PrometheusRule', 'unmatched', { groups: [{ name: 'unmatched', rules: [{ record: 'team_b:pairs', expr: `${pair} * on() ${pair}` }] }] }),
  ].join('\n---\n'));
  const noTargets = await healthReason('servicemonitor', 'team-b', 'wrong-port', 'NoTargets');
  expect(noTargets.healthy?.status).toBe('False');
  // The reason names the field and the port the Service lacks (health/no-targets-reason.ts).
  expect(noTargets.healthy?.message).toMatch(/spec\.endpoints\[0\]\.port: no Service selected by spec\.selector .*has a port named "web"/);
  const down = await healthReason('servicemonitor', 'team-b', 'wrong-path', 'TargetsDown');
  expect(down.binding?.targets).toMatchObject({ active: 1, up: 0, down: 1 });
  expect(down.binding?.targets?.lastError).toMatch(/404/);
  const failing = await healthReason('prometheusrule', 'team-b', 'unmatched', 'RulesFailing');
  expect(failing.binding?.rules?.lastError).toMatch(/many-to-many matching not allowed/);
  // One Warning each, on team-b's objects; team-a's are healthy and hear nothing of them.
  // (A PrometheusAgent selecting them too warns for itself, related to it.)
  const events = await cli.getJson<{ items: { type?: string; reason?: string; regarding?: { name?: string }; related?: { name?: string } }[] }>(['events.v1.events.k8s.io', '-n', 'team-b']);
  const warnings = events.items
    .filter((e) => e.type === 'Warning' && e.related?.name === PROMETHEUS && ['wrong-port', 'wrong-path', 'unmatched'].includes(e.regarding?.name ?? ''))
    .map((e) => `${e.regarding?.name} ${e.reason}`);
  expect(warnings.sort()).toEqual(['unmatched RulesFailing', 'wrong-path AllTargetsDown', 'wrong-port NoTargets']);
  const teamA = JSON.stringify((await cli.getJson<WithBindings>(['servicemonitor', 'checkout', '-n', 'team-a'])).status);
  expect(teamA).not.toContain('404');
  expect(teamA).not.toContain('team-b');
}, 300_000);
