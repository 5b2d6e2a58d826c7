/**
 * The DaemonSet of a PrometheusAgent with `spec.mode: DaemonSet`, and its per-node configuration Secret: one agent pod
 * per node, each scraping the pods of its own node (the generator limits every PodMonitor job with a
 * `spec.nodeName=$(NODE_NAME)` field selector, agent-mode.ts).
 *
 * prometheus-operator's pods expand that placeholder with their config-reloader sidecar. promop has none (it
 * reloads Prometheus itself), so the configuration Secret carries one copy of prometheus.yaml per node with the node's
 * name written in its field selectors only (`node-<node>.yaml`; a team's value keeps a literal `$(NODE_NAME)`), and
 * each pod reads its own: the container gets `NODE_NAME` from the downward
 * API (`spec.nodeName`) and Kubernetes expands `$(NODE_NAME)` in the `--config.file` argument. The pod is otherwise
 * the StatefulSet agent's pod (same args, probes, volumes, security settings): no volume claims, no governing Service.
 */
import type { V1Container, V1DaemonSet, V1Pod, V1PodSecurityContext, V1Secret } from '@kubernetes/client-node';
import { CONFIG_DIR, CONFIG_FILE_NAME, NODE_NAME_ENV, NODE_NAME_PLACEHOLDER, isDaemonSetAgent, toPrometheusYaml, type GeneratorOutput } from '@promop/config-generator';
import { load } from 'js-yaml';
import type { PrometheusAgent } from '@promop/crds';
import { asEmbedded } from './embedded-field.ts';
import type { BuildResult } from './build-result.ts';
import { INPUT_HASH_ANNOTATION, inputHash } from './input-hash.ts';
import { PROMETHEUS_NAME_LABEL, SHARD_LABEL, managedByLabels, shardSelectorLabels } from './labels.ts';
import { prometheusOwnerReference } from './owner-reference.ts';
import { prometheusArgs } from './prometheus-args.ts';
import { prometheusContainer } from './prometheus-container.ts';
import { mergeContainers } from './container-patch.ts';
import { podVolumes } from './pod-volumes.ts';
import { passedThroughPodFields } from './pod-fields.ts';
import { withCanonicalQuantities } from './quantity.ts';
import { MAX_SECRET_DATA_BYTES, base64Data, formatBytes, secretDataBytes } from './secret-size.ts';
import { configSecretName, statefulSetName } from './shard-names.ts';
import { DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS, prometheusPodMetadata } from './statefulset.ts';
import { MODE_LABEL, namingOf } from './workload-kind.ts';
import { WEB_CONFIG_DIR, WEB_CONFIG_FILE_NAME, webConfigOf } from './web-config.ts';

/** The key (and file name in CONFIG_DIR) of node `node`'s copy of prometheus.yaml. */
export function nodeConfigFileName(node: string): string {
  return `node-${node}.yaml`;
}

/**
 * The nodes the pods of DaemonSet agent `agentName` are bound to, among `pods` (one namespace): those that need a
 * copy of its configuration. A pod not yet bound (no `spec.nodeName`) needs none until it is.
 */
export function agentNodesOf(pods: readonly V1Pod[], agentName: string): string[] {
  const selector = Object.entries(daemonSetSelectorLabels(agentName));
  const nodes = pods.filter((pod) => selector.every(([key, value]) => pod.metadata?.labels?.[key] === value)).map((pod) => pod.spec?.nodeName ?? '');
  return [...new Set(nodes.filter((node) => node !== ''))].sort();
}

/**
 * The pod selector (and pod labels) of DaemonSet agent `agentName`'s DaemonSet: prometheus-operator's keys, that is
 * those of a StatefulSet shard without the shard number and the `prometheus` label. Fixed at creation like a
 * StatefulSet's, so it depends on the name alone.
 */
export function daemonSetSelectorLabels(agentName: string): Record<string, string> {
  const { [SHARD_LABEL]: _shard, prometheus: _prometheus, ...labels } = shardSelectorLabels(agentName, 0, 'PrometheusAgent');
  return labels;
}

/** The field selector the generator writes in each PodMonitor job's Kubernetes discovery (scrape/pod-monitor.ts). */
const NODE_FIELD_SELECTOR = `spec.nodeName=${NODE_NAME_PLACEHOLDER}`;

/** A generated configuration read back: its structure, and where promop wrote the placeholder. */
interface NodePlaceholders {
  text: string;
  parsed: unknown;
  /** The selector entries whose `field` is promop's node field selector. */
  selectors: Record<string, unknown>[];
  /** Whether every placeholder in the text is one of those (no team value contains it). */
  onlyPromops: boolean;
}

/** The last configuration read: every node's copy and every pod's verification reads the same text. */
let lastRead: NodePlaceholders | undefined;

/** Where promop wrote the placeholder in `text`: the `field` of the selectors of `scrape_configs[].kubernetes_sd_configs[]`. */
function nodePlaceholders(text: string): NodePlaceholders {
  if (lastRead?.text === text) return lastRead;
  const parsed = load(text) as { scrape_configs?: { kubernetes_sd_configs?: { selectors?: Record<string, unknown>[] }[] }[] } | null;
  const selectors = (parsed?.scrape_configs ?? []).flatMap((job) => (job?.kubernetes_sd_configs ?? []).flatMap((sd) => (sd?.selectors ?? [])))
    .filter((selector) => selector?.field === NODE_FIELD_SELECTOR);
  // The generator's main config has no aliases, so each of promop's selectors is one occurrence in the text.
  const onlyPromops = text.split(NODE_NAME_PLACEHOLDER).length - 1 === selectors.length;
  lastRead = { text, parsed, selectors, onlyPromops };
  return lastRead;
}

/**
 * `text` (a generated configuration) with node `node` in the field selectors promop wrote, and nowhere else: a team's
 * value that contains the placeholder (a relabeling replacement, a param) keeps it literally. When no team value
 * contains it, the text is kept as written but for those selectors; otherwise the copy is the configuration read back
 * with only those selectors changed, serialised as the generator does.
 */
export function configForNode(text: string, node: string): string {
  const read = nodePlaceholders(text);
  if (read.onlyPromops) return text.split(NODE_NAME_PLACEHOLDER).join(node);
  for (const selector of read.selectors) selector.field = `spec.nodeName=${node}`;
  try {
    return toPrometheusYaml(read.parsed);
  } finally {
    for (const selector of read.selectors) selector.field = NODE_FIELD_SELECTOR;
  }
}

/**
 * A problem when a team's value contains the placeholder and the configuration does not read back as exactly the
 * text generated (so the per-node copies, written from what was read, could change that value); undefined otherwise.
 */
export function nodeCopyProblem(text: string): { path: string; message: string } | undefined {
  const read = nodePlaceholders(text);
  if (read.onlyPromops || toPrometheusYaml(read.parsed) === text) return undefined;
  return { path: 'spec', message: `a selected PodMonitor's value contains ${NODE_NAME_PLACEHOLDER}, and its configuration cannot be copied per node exactly; remove ${NODE_NAME_PLACEHOLDER} from it` };
}

/**
 * The configuration Secret of a DaemonSet agent (`configSecretName(name, 0)`, the StatefulSet agent's name): the
 * generated prometheus.yaml as written (placeholder kept, for `promop diff` and people reading it) and one copy per
 * node in `nodes` with its name filled in. `nodes` are the nodes the agent's pods run on: a pod on a node without its
 * key waits for it (Prometheus exits until the file appears). Over 1 MiB in all is a problem at `spec`.
 */
export function buildNodeConfigSecret(agent: PrometheusAgent, output: Pick<GeneratorOutput, 'configs'>, nodes: readonly string[]): BuildResult<V1Secret> {
  const { name, namespace } = agent.metadata;
  const config = output.configs[0];
  if (config === undefined) throw new Error(`bug: no config for PrometheusAgent ${namespace}/${name}; keep the running config when generation fails`);
  const copyProblem = nodeCopyProblem(config);
  if (copyProblem) return { ok: false, problems: [copyProblem] };
  const data: Record<string, string> = { [CONFIG_FILE_NAME]: config };
  for (const node of [...new Set(nodes)].sort()) data[nodeConfigFileName(node)] = configForNode(config, node);
  const bytes = secretDataBytes(data);
  if (bytes > MAX_SECRET_DATA_BYTES) {
    return { ok: false, problems: [{ path: 'spec', message: `the configuration copies for ${nodes.length} nodes take ${formatBytes(bytes)}, more than the 1 MiB a Secret can hold; select fewer PodMonitors` }] };
  }
  return {
    ok: true,
    value: {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: configSecretName(name, 0, 'PrometheusAgent'),
        namespace,
        labels: { ...managedByLabels(), [PROMETHEUS_NAME_LABEL]: name, [SHARD_LABEL]: '0' },
        ownerReferences: [prometheusOwnerReference(agent)],
      },
      type: 'Opaque',
      data: base64Data(data),
    },
  };
}

/**
 * The DaemonSet `prom-agent-<name>` of a DaemonSet agent, as prometheus-operator builds it where promop's pod does not
 * differ (docs/compatibility.md): daemonSetSelectorLabels as selector and pod labels, the pod security context only
 * when the spec sets one, `shareProcessNamespace` only for the ProcessSignal reload strategy, `ClusterFirstWithHostNet`
 * DNS on the host's network. Problems (values):
 * those of the web config and of `additionalArgs`, as for a StatefulSet. Throws when `agent` is not in DaemonSet mode
 * or generation failed (no config): the caller's bug.
 */
export function buildDaemonSet(agent: PrometheusAgent, output: Pick<GeneratorOutput, 'configs' | 'version'>): BuildResult<V1DaemonSet> {
  const { name, namespace } = agent.metadata;
  if (!isDaemonSetAgent(agent)) throw new Error(`bug: PrometheusAgent ${namespace}/${name} is not in DaemonSet mode`);
  if (output.configs.length === 0) throw new Error(`bug: no config for PrometheusAgent ${namespace}/${name}; keep the running workload when generation fails`);
  const spec = agent.spec ?? {};
  const naming = namingOf(agent);
  const version = output.version;
  const webConfig = webConfigOf(agent, version);
  if (!webConfig.ok) return webConfig;
  const web = webConfig.value;
  const args = prometheusArgs(agent, version, web ? `${WEB_CONFIG_DIR}/${WEB_CONFIG_FILE_NAME}` : undefined);
  if (!args.ok) return args;
  const sharedConfig = `--config.file=${CONFIG_DIR}/${CONFIG_FILE_NAME}`;
  const nodeArgs = args.value.map((arg) => (arg === sharedConfig ? `--config.file=${CONFIG_DIR}/${nodeConfigFileName(NODE_NAME_PLACEHOLDER)}` : arg));
  const selector = daemonSetSelectorLabels(name);
  const volumes = podVolumes(agent, 0, 0, web);
  const base = prometheusContainer(spec, version, nodeArgs, volumes.mounts, web?.https ? 'https' : 'http');
  // NODE_NAME before use: Kubernetes expands $(VAR) in args from the container's own env.
  const container: V1Container = { ...base, env: [...(base.env ?? []), { name: NODE_NAME_ENV, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }] };
  const daemonSet: V1DaemonSet = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name: statefulSetName(name, 0, naming.kind),
      namespace,
      labels: { ...agent.metadata.labels, ...managedByLabels(), [MODE_LABEL]: naming.mode, ...selector },
      annotations: Object.fromEntries(Object.entries(agent.metadata.annotations ?? {}).filter(([key]) => !key.startsWith('kubectl.kubernetes.io/'))),
      ownerReferences: [prometheusOwnerReference(agent)],
    },
    spec: {
      selector: { matchLabels: selector },
      ...(spec.minReadySeconds !== undefined ? { minReadySeconds: spec.minReadySeconds } : {}),
      template: {
        metadata: prometheusPodMetadata(spec, selector, version, web),
        spec: {
          ...passedThroughPodFields(spec),
          // On the host's network a pod resolves cluster names only with this policy; upstream sets it unless the spec names one.
          ...(spec.hostNetwork === true && !spec.dnsPolicy ? { dnsPolicy: 'ClusterFirstWithHostNet' } : {}),
          // Upstream's DaemonSet pod has no default security context (its StatefulSet pod has); the WAL's emptyDir is
          // writable whatever the user.
          ...(spec.securityContext ? { securityContext: asEmbedded<V1PodSecurityContext>(spec.securityContext) } : {}),
          shareProcessNamespace: spec.reloadStrategy === 'ProcessSignal',
          automountServiceAccountToken: spec.automountServiceAccountToken ?? true,
          terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? DEFAULT_TERMINATION_GRACE_PERIOD_SECONDS,
          containers: mergeContainers([container], asEmbedded<V1Container[]>(spec.containers ?? [])),
          volumes: volumes.volumes,
        },
      },
    },
  };
  const canonical = withCanonicalQuantities(daemonSet);
  canonical.metadata!.annotations = { ...canonical.metadata!.annotations, [INPUT_HASH_ANNOTATION]: inputHash(canonical) };
  return { ok: true, value: canonical };
}
