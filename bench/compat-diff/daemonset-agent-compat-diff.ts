/**
 * Differential comparison of a PrometheusAgent in DaemonSet mode (`spec.mode: DaemonSet`) as promop renders it with
 * prometheus-operator v0.93.1's own DaemonSet and configuration, case by case.
 *
 *   node bench/compat-diff/daemonset-agent-compat-diff.ts [--only name,name] [--out file.json]
 *
 * One control plane on loopback (etcd + kube-apiserver, no kubelet or DaemonSet controller, so no pod ever starts),
 * prometheus-operator's CRDs, one namespace per case with a PrometheusAgent `a`, a PodMonitor it selects and the
 * Secrets it names. prometheus-operator runs with `--feature-gates=PrometheusAgentDaemonSet=true` (its DaemonSet mode
 * is alpha and refused without it) and writes DaemonSet `prom-agent-a` and Secret `prom-agent-a` (gzipped
 * configuration). promop renders the same objects as the API server returns them (CRD defaults applied): the
 * generator's prometheus.yaml for the agent and the PodMonitor, and its DaemonSet, sent to the API server with dryRun
 * so both sides carry the API server's defaults.
 *
 * Compared: the configuration (parsed), the prometheus container's args without the documented `--config.file`
 * difference, its ports, probes, env and volume mounts, the pod's volumes and the fields of the pod spec both set, the
 * DaemonSet's labels. Documented differences (docs/compatibility.md, "PrometheusAgents") are named per item and
 * listed apart, not counted as differences. Exit status 1 on a difference.
 */
import { gunzipSync } from 'node:zlib';
import type { V1Container, V1DaemonSet, V1Secret } from '@kubernetes/client-node';
import { load } from 'js-yaml';
import { generate, parsePrometheusVersion } from '@promop/config-generator';
import type { PodMonitor, PrometheusAgent } from '@promop/crds';
import { startProcess, toolPath } from '@promop/testkit';
import { buildDaemonSet } from '@promop/controller/workload';
import type { BenchApi } from '../side-by-side/api-client.ts';
import { runObjectCompatDiff, sortKeys, waitForObject, type ObjectCaseResult } from './object-compat-run.ts';

const GROUP = 'monitoring.coreos.com';
const NAME = 'a';
const CHILD = `prom-agent-${NAME}`;
const MONITOR_LABELS = { scraped: 'per-node' };
const SELECTS = { podMonitorSelector: { matchLabels: MONITOR_LABELS } };
const WRITE = [{ url: 'http://receiver.example:9090/api/v1/write' }];

/** One agent spec (mode DaemonSet is added) and the PodMonitor spec it selects. */
interface DaemonSetCase {
  name: string;
  spec: Record<string, unknown>;
  podMonitor?: Record<string, unknown>;
}

const PODS = { selector: { matchLabels: { app: 'web' } }, podMetricsEndpoints: [{ port: 'metrics' }] };

const CASES: DaemonSetCase[] = [
  { name: 'bare', spec: { version: 'v3.16.0', ...SELECTS, remoteWrite: WRITE } },
  { name: 'no-monitor', spec: { version: 'v3.16.0', remoteWrite: WRITE } },
  { name: 'old-prometheus', spec: { version: 'v2.55.1', ...SELECTS, remoteWrite: WRITE } },
  {
    name: 'pod-fields',
    spec: {
      version: 'v3.16.0', ...SELECTS, remoteWrite: WRITE, serviceAccountName: 'agent', priorityClassName: 'system-node-critical',
      tolerations: [{ operator: 'Exists' }], nodeSelector: { 'kubernetes.io/os': 'linux' }, hostNetwork: true, minReadySeconds: 5,
      resources: { requests: { cpu: '100m', memory: '128Mi' } }, podMetadata: { labels: { team: 'infra' }, annotations: { note: 'x' } },
    },
  },
  { name: 'args-and-flags', spec: { version: 'v3.16.0', ...SELECTS, remoteWrite: WRITE, logLevel: 'debug', logFormat: 'json', walCompression: false, enableFeatures: ['exemplar-storage'], additionalArgs: [{ name: 'scrape.timestamp-tolerance', value: '10ms' }] } },
  { name: 'listen-local-route-prefix', spec: { version: 'v3.16.0', ...SELECTS, remoteWrite: WRITE, listenLocal: true, routePrefix: '/agent' } },
  // Not `spec.volumes`: upstream's DaemonSet leaves the pod's volumes out and mounts them, which the API server refuses
  // (docs/compatibility.md).
  { name: 'secrets-configmaps', spec: { version: 'v3.16.0', ...SELECTS, remoteWrite: WRITE, secrets: ['extra'], configMaps: ['extra'] } },
  { name: 'web-tls', spec: { version: 'v3.16.0', ...SELECTS, remoteWrite: WRITE, web: { tlsConfig: { cert: { secret: { name: 'extra', key: 'tls.crt' } }, keySecret: { name: 'extra', key: 'tls.key' } } } } },
  { name: 'external-labels-intervals', spec: { version: 'v3.16.0', ...SELECTS, remoteWrite: WRITE, scrapeInterval: '15s', externalLabels: { cluster: 'prod' }, replicaExternalLabelName: 'node_agent' } },
  { name: 'monitor-options', spec: { version: 'v3.16.0', ...SELECTS, remoteWrite: WRITE }, podMonitor: { ...PODS, podMetricsEndpoints: [{ port: 'metrics', interval: '10s', path: '/m', relabelings: [{ targetLabel: 'tier', replacement: 'node' }] }], podTargetLabels: ['app'] } },
  { name: 'namespace-selector-any', spec: { version: 'v3.16.0', ...SELECTS, podMonitorNamespaceSelector: {}, remoteWrite: WRITE }, podMonitor: { ...PODS, namespaceSelector: { any: true } } },
];

const namespaceOf = (item: DaemonSetCase) => `ds-${item.name}`;

async function createCase(api: BenchApi, item: DaemonSetCase): Promise<void> {
  const namespace = namespaceOf(item);
  await api.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  await api.json('POST', `/api/v1/namespaces/${namespace}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'extra' }, stringData: { token: 'x', 'tls.crt': 'x', 'tls.key': 'x' } });
  await api.json('POST', `/api/v1/namespaces/${namespace}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' }, data: { file: 'x' } });
  await api.json('POST', `/apis/${GROUP}/v1/namespaces/${namespace}/podmonitors?fieldValidation=Strict`, {
    apiVersion: `${GROUP}/v1`, kind: 'PodMonitor', metadata: { name: 'web', labels: MONITOR_LABELS }, spec: item.podMonitor ?? PODS,
  });
  await api.json('POST', `/apis/${GROUP}/v1alpha1/namespaces/${namespace}/prometheusagents?fieldValidation=Strict`, {
    apiVersion: `${GROUP}/v1alpha1`, kind: 'PrometheusAgent', metadata: { name: NAME }, spec: { mode: 'DaemonSet', ...item.spec },
  });
}

/** The configuration as data: upstream's `$(POD_NAME)` replica label and promop's `${POD_NAME}` (documented) read alike. */
function configData(text: string): unknown {
  return sortKeys(load(text.replace(/\$\(POD_NAME\)/g, '${POD_NAME}')));
}

const isConfigFile = (arg: string) => arg.startsWith('--config.file=');
const WEB_CONFIG_FLAG = '--web.config.file=/etc/prometheus/web_config/web-config.yaml';

/**
 * The flags to compare, sorted (documented: promop's order differs), without the documented differences: the
 * `--config.file` path, the empty web config file upstream passes without `spec.web`, the console flags upstream
 * passes to a Prometheus 2 agent, and `expand-external-labels` (promop's replica label).
 */
function comparableArgs(args: readonly string[] | undefined, web: boolean): string[] {
  return (args ?? []).filter((arg) => !isConfigFile(arg) && !arg.startsWith('--web.console.') && (web || arg !== WEB_CONFIG_FLAG)).flatMap((arg) => {
    if (!arg.startsWith('--enable-feature=')) return [arg];
    const features = arg.slice('--enable-feature='.length).split(',').filter((feature) => feature !== 'expand-external-labels');
    return features.length > 0 ? [`--enable-feature=${features.sort().join(',')}`] : [];
  }).sort();
}

/**
 * Whether a volume (or mount) is compared: not upstream's reloader output directory, nor promop's config mount
 * (promop's Prometheus reads the Secret itself) and WAL emptyDir, nor upstream's empty web config without `spec.web`.
 */
function comparableVolume(name: string, web: boolean): boolean {
  if (name === 'config-out' || name === 'config' || name === `${CHILD}-db`) return false;
  return web || name !== 'web-config';
}

async function compareCase(api: BenchApi, item: DaemonSetCase): Promise<ObjectCaseResult> {
  const namespace = namespaceOf(item);
  const differences: ObjectCaseResult['differences'] = [];
  const documented: string[] = [];
  const compare = (what: string, theirs: unknown, mine: unknown) => {
    if (JSON.stringify(sortKeys(theirs)) !== JSON.stringify(sortKeys(mine))) differences.push({ what, prometheusOperator: theirs, promop: mine });
  };
  try {
    const upstream = await waitForObject<V1DaemonSet>(api, `/apis/apps/v1/namespaces/${namespace}/daemonsets/${CHILD}`);
    const upstreamSecret = await waitForObject<V1Secret>(api, `/api/v1/namespaces/${namespace}/secrets/${CHILD}`);
    const agent = await api.json<PrometheusAgent>('GET', `/apis/${GROUP}/v1alpha1/namespaces/${namespace}/prometheusagents/${NAME}`);
    // Every case's PodMonitor and namespace: an agent selecting all namespaces selects them all, as upstream's does.
    const podMonitors = (await api.json<{ items: PodMonitor[] }>('GET', `/apis/${GROUP}/v1/podmonitors`)).items;
    const namespaces = (await api.json<{ items: { metadata: { name: string; labels?: Record<string, string> } }[] }>('GET', '/api/v1/namespaces')).items
      .map((item) => ({ name: item.metadata.name, labels: item.metadata.labels ?? {} }));
    const output = generate({
      prometheus: agent, serviceMonitors: [], podMonitors, probes: [], scrapeConfigs: [], prometheusRules: [], namespaces, secrets: [], configMaps: [],
    });
    if (!output.ok) return { case: item.name, outcome: 'failed', differences, documented, failure: `promop refused: ${JSON.stringify(output.prometheusProblems)}` };
    const theirConfig = gunzipSync(Buffer.from(upstreamSecret.data?.['prometheus.yaml.gz'] ?? '', 'base64')).toString('utf8');
    compare('prometheus.yaml', configData(theirConfig), configData(output.configs[0] ?? ''));
    documented.push('replica label ${POD_NAME}');

    const version = parsePrometheusVersion(agent.spec?.version ?? undefined)!;
    const built = buildDaemonSet(agent, { configs: output.configs, version });
    if (!built.ok) return { case: item.name, outcome: 'failed', differences, documented, failure: `promop refused the DaemonSet: ${JSON.stringify(built.problems)}` };
    const ours = built.value;
    ours.metadata!.name = `promop-${NAME}`;
    const defaulted = await api.json<V1DaemonSet>('POST', `/apis/apps/v1/namespaces/${namespace}/daemonsets?dryRun=All`, ours);
    const container = (ds: V1DaemonSet, name: string): V1Container | undefined => ds.spec?.template.spec?.containers.find((c) => c.name === name);
    const theirs = container(upstream, 'prometheus');
    const mine = container(defaulted, 'prometheus');
    const web = agent.spec?.web !== undefined;
    compare('prometheus args (sorted; without --config.file)', comparableArgs(theirs?.args, web), comparableArgs(mine?.args, web));
    documented.push('--config.file names the node\'s copy', 'flag order');
    if (!web) documented.push('no --web.config.file without spec.web');
    // With listenLocal the probes are exec commands: promop's call wget on 127.0.0.1, upstream's try curl, then wget, on
    // localhost (the Prometheus pod's difference, documented).
    const probes = agent.spec?.listenLocal === true ? [] : ['startupProbe', 'readinessProbe', 'livenessProbe'] as const;
    if (probes.length === 0) documented.push('listenLocal exec probes');
    for (const key of ['image', 'ports', ...probes, 'resources', 'securityContext', 'terminationMessagePolicy', 'imagePullPolicy'] as const) {
      compare(`prometheus.${key}`, theirs?.[key], mine?.[key]);
    }
    // Upstream's prometheus container has no env (its reloader has NODE_NAME); promop's has POD_NAME and NODE_NAME.
    documented.push('env POD_NAME, NODE_NAME in the prometheus container');
    const mounts = (c: V1Container | undefined) => (c?.volumeMounts ?? []).filter((mount) => comparableVolume(mount.name, web)).map((mount) => mount.mountPath).sort();
    compare('prometheus volume mount paths', mounts(theirs), mounts(mine));
    documented.push('config read from /etc/prometheus/config', 'WAL in an emptyDir');
    const containerNames = (ds: V1DaemonSet) => [...(ds.spec?.template.spec?.initContainers ?? []), ...(ds.spec?.template.spec?.containers ?? [])].map((c) => c.name).filter((name) => !/config-reloader/.test(name));
    compare('containers (besides config-reloader)', containerNames(upstream), containerNames(defaulted));
    documented.push('no config-reloader containers');
    // Upstream suffixes the web TLS volumes with a hash of the name; promop only when the name is too long (documented).
    const volumes = (ds: V1DaemonSet) => (ds.spec?.template.spec?.volumes ?? []).filter((volume) => comparableVolume(volume.name, web))
      .map((volume) => volume.name.replace(/^(web-config-tls-.*)-[0-9a-f]{8}$/, '$1')).sort();
    if (web) documented.push('web TLS volume names');
    compare('pod volume names', volumes(upstream), volumes(defaulted));
    const podSpec = (ds: V1DaemonSet) => {
      const { containers: _c, initContainers: _i, volumes: _v, ...rest } = ds.spec?.template.spec ?? { containers: [] };
      return rest;
    };
    compare('pod spec (besides containers and volumes)', podSpec(upstream), podSpec(defaulted));
    compare('minReadySeconds', upstream.spec?.minReadySeconds, defaulted.spec?.minReadySeconds);
    const podLabelKeys = (ds: V1DaemonSet) => Object.keys(ds.spec?.template.metadata?.labels ?? {}).sort();
    compare('pod label keys', podLabelKeys(upstream), podLabelKeys(defaulted));
    return { case: item.name, outcome: differences.length === 0 ? 'equal' : 'different', differences, documented };
  } catch (error) {
    return { case: item.name, outcome: 'failed', differences, documented, failure: String(error) };
  }
}

await runObjectCompatDiff({
  cases: CASES,
  logPrefix: 'daemonset-compat-diff-',
  create: createCase,
  compare: compareCase,
  startOperator: (kubeconfig, logFile) => startProcess('prometheus-operator', toolPath('prometheus-operator'), [
    '--web.listen-address=127.0.0.1:0', '--log-level=info', '--feature-gates=PrometheusAgentDaemonSet=true',
  ], logFile, { ...process.env, KUBECONFIG: kubeconfig }),
  equalMeans: 'besides the documented differences',
});
