import { generate } from '@promop/config-generator';
import type { PodMonitor, PrometheusAgent } from '@promop/crds';
import { load } from 'js-yaml';
import { agentNodesOf, buildDaemonSet, buildNodeConfigSecret, configForNode, nodeConfigFileName } from './daemonset.ts';
import { buildStatefulSets } from './statefulset.ts';
import { versionOf } from '../test-support/workload-fixtures.ts';

type Spec = NonNullable<PrometheusAgent['spec']>;

const CONFIG = 'scrape_configs:\n- kubernetes_sd_configs:\n  - role: pod\n    selectors:\n    - role: pod\n      field: spec.nodeName=$(NODE_NAME)\n';

function agent(spec: Spec): PrometheusAgent {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', metadata: { namespace: 'monitoring', name: 'nodes', uid: 'uid-nodes', labels: { team: 'infra' } }, spec } as PrometheusAgent;
}

function daemonSet(spec: Spec = {}) {
  const result = buildDaemonSet(agent({ mode: 'DaemonSet', ...spec }), { configs: [CONFIG], version: versionOf(spec) });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
}

describe('the DaemonSet of a PrometheusAgent in DaemonSet mode', () => {
  it('is prom-agent-<name>, labelled mode agent, selecting its pods by upstream\'s DaemonSet labels (no shard number)', () => {
    const built = daemonSet();
    expect(built.metadata?.name).toBe('prom-agent-nodes');
    expect(built.metadata?.labels).toMatchObject({ team: 'infra', 'operator.prometheus.io/mode': 'agent', 'app.kubernetes.io/name': 'prometheus-agent' });
    expect(built.spec?.selector.matchLabels).toEqual({
      'app.kubernetes.io/instance': 'nodes', 'app.kubernetes.io/managed-by': 'promop', 'app.kubernetes.io/name': 'prometheus-agent', 'operator.prometheus.io/name': 'nodes',
    });
    expect(built.spec?.template.metadata?.labels).toMatchObject(built.spec?.selector.matchLabels ?? { missing: true });
    // The StatefulSet agent's shard 0 pods carry more labels: a DaemonSet never adopts a StatefulSet's pods by accident,
    // but each of its pods is one of this agent's.
    const statefulSet = buildStatefulSets(agent({}), { configs: [CONFIG], ruleConfigMaps: [], version: versionOf({}) });
    if (!statefulSet.ok) throw new Error('statefulset');
    expect(statefulSet.value[0]?.spec?.selector.matchLabels).toMatchObject(built.spec?.selector.matchLabels ?? { missing: true });
  });

  it('sets no pod security context unless the spec does, and shares the process namespace only for ProcessSignal reloads, as upstream', () => {
    expect(daemonSet().spec?.template.spec).not.toHaveProperty('securityContext');
    expect(daemonSet().spec?.template.spec?.shareProcessNamespace).toBe(false);
    expect(daemonSet({ securityContext: { runAsUser: 65534 }, reloadStrategy: 'ProcessSignal' }).spec?.template.spec).toMatchObject({ securityContext: { runAsUser: 65534 }, shareProcessNamespace: true });
  });

  it('resolves cluster names on the host\'s network (ClusterFirstWithHostNet) unless the spec names a DNS policy', () => {
    expect(daemonSet({ hostNetwork: true }).spec?.template.spec).toMatchObject({ hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet' });
    expect(daemonSet({ hostNetwork: true, dnsPolicy: 'Default' }).spec?.template.spec?.dnsPolicy).toBe('Default');
    expect(daemonSet().spec?.template.spec).not.toHaveProperty('dnsPolicy');
  });

  it('runs Prometheus in agent mode reading its node\'s copy of the configuration, with NODE_NAME from the downward API', () => {
    const container = daemonSet({ version: 'v3.16.0' }).spec?.template.spec?.containers[0];
    expect(container?.name).toBe('prometheus');
    expect(container?.args).toContain('--agent');
    expect(container?.args).toContain('--config.file=/etc/prometheus/config/node-$(NODE_NAME).yaml');
    expect(container?.args?.filter((arg) => arg.startsWith('--config.file'))).toHaveLength(1);
    expect(container?.env).toEqual(expect.arrayContaining([{ name: 'NODE_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } }]));
    // Declared after POD_NAME and before any use: Kubernetes expands $(NODE_NAME) in args from the container's env.
    expect(container?.env?.map((variable) => variable.name)).toEqual(['POD_NAME', 'NODE_NAME']);
    expect(container?.ports).toEqual([{ name: 'web', containerPort: 9090, protocol: 'TCP' }]);
  });

  it('mounts the config Secret whole (kubelet updates it in place) and keeps the WAL in an emptyDir, with no volume claim', () => {
    const built = daemonSet();
    const volumes = built.spec?.template.spec?.volumes ?? [];
    expect(volumes.find((volume) => volume.name === 'config')).toBeDefined();
    expect(JSON.stringify(volumes)).not.toContain('persistentVolumeClaim');
    expect(built.spec?.template.spec?.containers[0]?.volumeMounts?.find((mount) => mount.name === 'config')).toEqual({ name: 'config', mountPath: '/etc/prometheus/config', readOnly: true });
    expect(built.spec).not.toHaveProperty('volumeClaimTemplates');
  });

  it('passes the pod fields through (tolerations, node selector, priority class) as the StatefulSet does', () => {
    const built = daemonSet({ tolerations: [{ operator: 'Exists' }], nodeSelector: { 'kubernetes.io/os': 'linux' }, priorityClassName: 'system-node-critical' });
    expect(built.spec?.template.spec).toMatchObject({ tolerations: [{ operator: 'Exists' }], nodeSelector: { 'kubernetes.io/os': 'linux' }, priorityClassName: 'system-node-critical' });
  });

  it('refuses additionalArgs that override promop\'s flags at their path, as a value', () => {
    const result = buildDaemonSet(agent({ mode: 'DaemonSet', additionalArgs: [{ name: 'config.file', value: '/x.yaml' }] }), { configs: [CONFIG], version: versionOf({}) });
    expect(result).toEqual({ ok: false, problems: [{ path: 'spec.additionalArgs[0].name', message: '"config.file" is set by promop and cannot be overridden' }] });
  });
});

describe('the configuration Secret of a DaemonSet agent', () => {
  it('holds prometheus.yaml as generated and one copy per node with the node\'s name in the field selector', () => {
    const result = buildNodeConfigSecret(agent({ mode: 'DaemonSet' }), { configs: [CONFIG] }, ['node-b', 'node-a', 'node-b']);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const data = Object.fromEntries(Object.entries(result.value.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
    expect(Object.keys(data)).toEqual(['prometheus.yaml', 'node-node-a.yaml', 'node-node-b.yaml']);
    expect(data['prometheus.yaml']).toBe(CONFIG);
    expect(data['node-node-a.yaml']).toContain('field: spec.nodeName=node-a\n');
    expect(data['node-node-a.yaml']).not.toContain('$(');
    expect(result.value.metadata?.name).toBe('prom-agent-nodes');
  });

  it('is refused at spec when the copies exceed what a Secret holds', () => {
    const big = CONFIG + `# ${'x'.repeat(20_000)}\n`;
    const nodes = Array.from({ length: 60 }, (_, index) => `node-${index}`);
    const result = buildNodeConfigSecret(agent({ mode: 'DaemonSet' }), { configs: [big] }, nodes);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems[0]).toMatchObject({ path: 'spec', message: expect.stringContaining('60 nodes') });
  });

  it('is written for the nodes the agent\'s pods are bound to, found by the DaemonSet\'s labels', () => {
    const labels = daemonSet().spec?.template.metadata?.labels ?? {};
    const pod = (name: string, nodeName: string | undefined, podLabels: Record<string, string> = labels) => ({ metadata: { name, labels: podLabels }, spec: { containers: [], ...(nodeName ? { nodeName } : {}) } });
    const pods = [pod('a', 'node-b'), pod('b', 'node-a'), pod('c', undefined), pod('d', 'node-a'), pod('other', 'node-c', { ...labels, 'operator.prometheus.io/name': 'other' })];
    expect(agentNodesOf(pods, 'nodes')).toEqual(['node-a', 'node-b']);
  });

  it('names each node\'s file after the node, and fills in only the placeholder', () => {
    expect(nodeConfigFileName('worker-1.example')).toBe('node-worker-1.example.yaml');
    expect(configForNode(CONFIG, 'n1')).toBe(CONFIG.replace('$(NODE_NAME)', 'n1'));
  });

  it('keeps a literal $(NODE_NAME) a team wrote (a relabeling replacement, a param) in every node\'s copy', () => {
    const monitor = {
      apiVersion: 'monitoring.coreos.com/v1', kind: 'PodMonitor', metadata: { namespace: 'team-a', name: 'workers', labels: { team: 'a' } },
      spec: {
        selector: { matchLabels: { app: 'worker' } },
        podMetricsEndpoints: [{ port: 'metrics', params: { node: ['$(NODE_NAME)'] }, relabelings: [{ targetLabel: 'literal', replacement: '$(NODE_NAME)' }, { targetLabel: 'lines', replacement: 'a\nfield: spec.nodeName=$(NODE_NAME)\n' }] }],
      },
    } as PodMonitor;
    const output = generate({
      prometheus: agent({ mode: 'DaemonSet', podMonitorSelector: { matchLabels: { team: 'a' } }, podMonitorNamespaceSelector: {}, remoteWrite: [{ url: 'http://receiver.example/api/v1/write' }] }),
      serviceMonitors: [], podMonitors: [monitor], probes: [], scrapeConfigs: [], prometheusRules: [],
      namespaces: [{ name: 'monitoring', labels: {} }, { name: 'team-a', labels: {} }], secrets: [], configMaps: [],
    });
    expect(output.ok).toBe(true);
    const config = output.configs[0]!;
    const secret = buildNodeConfigSecret(agent({ mode: 'DaemonSet' }), output, ['node-a', 'node-b']);
    if (!secret.ok) throw new Error(JSON.stringify(secret.problems));
    for (const node of ['node-a', 'node-b']) {
      const copy = Buffer.from(secret.value.data![nodeConfigFileName(node)]!, 'base64').toString();
      const job = (load(copy) as { scrape_configs: Record<string, unknown>[] }).scrape_configs[0] as {
        kubernetes_sd_configs: { selectors: { field: string }[] }[]; params: Record<string, string[]>; relabel_configs: { target_label?: string; replacement?: string }[];
      };
      expect(job.kubernetes_sd_configs.flatMap((sd) => sd.selectors.map((selector) => selector.field))).toEqual([`spec.nodeName=${node}`]);
      expect(job.params.node).toEqual(['$(NODE_NAME)']);
      expect(job.relabel_configs.find((relabel) => relabel.target_label === 'literal')?.replacement).toBe('$(NODE_NAME)');
      expect(job.relabel_configs.find((relabel) => relabel.target_label === 'lines')?.replacement).toBe('a\nfield: spec.nodeName=$(NODE_NAME)\n');
      // Only the selector differs from the configuration as generated.
      expect(copy).toBe(config.replace('field: spec.nodeName=$(NODE_NAME)\n', `field: spec.nodeName=${node}\n`));
    }
  });

  it('is refused at spec, naming the placeholder, when a team\'s $(NODE_NAME) is in a configuration that does not read back exactly', () => {
    // Single quotes the generator would not write: read back and written again, the text would change.
    const config = `${CONFIG}  relabel_configs:\n  - target_label: literal\n    replacement: '$(NODE_NAME)'\n`;
    const result = buildNodeConfigSecret(agent({ mode: 'DaemonSet' }), { configs: [config] }, ['node-a']);
    expect(result).toMatchObject({ ok: false, problems: [{ path: 'spec', message: expect.stringContaining('contains $(NODE_NAME)') }] });
  });
});
