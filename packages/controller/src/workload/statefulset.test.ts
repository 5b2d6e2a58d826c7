import type { V1StatefulSet } from '@kubernetes/client-node';
import type { Prometheus } from '@promop/crds';
import { INPUT_HASH_ANNOTATION } from './input-hash.ts';
import { buildStatefulSets } from './statefulset.ts';
import { testOutput, testPrometheus, versionOf } from '../test-support/workload-fixtures.ts';

type Spec = NonNullable<Prometheus['spec']>;

function build(spec: Spec = {}, output = testOutput(), metadata: Partial<Prometheus['metadata']> = {}): V1StatefulSet[] {
  // The generator reads spec.version and hands the version on with the files.
  const result = buildStatefulSets(testPrometheus(spec, metadata), { ...output, version: versionOf(spec) });
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.value;
}
const one = (spec: Spec = {}, output = testOutput(), metadata: Partial<Prometheus['metadata']> = {}) => build(spec, output, metadata)[0]!;
const hash = (statefulSet: V1StatefulSet) => statefulSet.metadata?.annotations?.[INPUT_HASH_ANNOTATION];

describe('StatefulSets of a Prometheus', () => {
  it('are one per shard config: prometheus-<name>, then prometheus-<name>-shard-<n>, each mounting its own config', () => {
    const statefulSets = build({ shards: 3 }, testOutput(['0', '1', '2']));
    expect(statefulSets.map((s) => s.metadata?.name)).toEqual(['prometheus-main', 'prometheus-main-shard-1', 'prometheus-main-shard-2']);
    expect(statefulSets.map((s) => s.spec?.template.spec?.volumes?.[0]?.projected?.sources?.[0]?.secret?.name))
      .toEqual(['prometheus-main', 'prometheus-main-shard-1', 'prometheus-main-shard-2']);
    expect(statefulSets.map((s) => s.spec?.selector.matchLabels?.['operator.prometheus.io/shard'])).toEqual(['0', '1', '2']);
  });

  it('use the governing Service, one replica, parallel pod management and rolling updates by default', () => {
    const { spec } = one();
    expect([spec?.serviceName, spec?.replicas, spec?.podManagementPolicy, spec?.updateStrategy]).toEqual(['prometheus-operated', 1, 'Parallel', { type: 'RollingUpdate' }]);
    expect(one({ replicas: 2, serviceName: 'own' }).spec).toMatchObject({ replicas: 2, serviceName: 'own' });
  });

  it('label pods with the selector and the version, and let podMetadata add but not override selector labels', () => {
    const statefulSet = one({ version: 'v3.5.0', podMetadata: { labels: { team: 'a', prometheus: 'other' }, annotations: { note: 'x' } } });
    const template = statefulSet.spec?.template.metadata;
    expect(template?.labels).toEqual({ ...statefulSet.spec?.selector.matchLabels, team: 'a', 'app.kubernetes.io/version': '3.5.0' });
    expect(template?.labels?.prometheus).toBe('main');
    expect(template?.annotations).toEqual({ 'kubectl.kubernetes.io/default-container': 'prometheus', note: 'x' });
  });

  it('carry the Prometheus\' labels and annotations, minus kubectl\'s, and a controller owner reference', () => {
    const statefulSet = one({}, testOutput(), {
      labels: { team: 'a' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', owner: 'me' },
    });
    expect(statefulSet.metadata?.labels).toMatchObject({ team: 'a', 'operator.prometheus.io/mode': 'server', 'managed-by': 'promop' });
    expect(Object.keys(statefulSet.metadata?.annotations ?? {}).sort()).toEqual(['owner', INPUT_HASH_ANNOTATION]);
    expect(statefulSet.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'Prometheus', controller: true, blockOwnerDeletion: true })]);
  });

  it('run each topology shard in its zone: the zone joins the user\'s node selector (as prometheus-operator)', () => {
    const statefulSets = build({ shards: 2, nodeSelector: { disk: 'ssd' } }, { ...testOutput(['0', '1']), shardZones: ['zone-a', 'zone-b'] });
    expect(statefulSets.map((s) => s.spec?.template.spec?.nodeSelector)).toEqual([
      { disk: 'ssd', 'topology.kubernetes.io/zone': 'zone-a' },
      { disk: 'ssd', 'topology.kubernetes.io/zone': 'zone-b' },
    ]);
    expect(one({}, { ...testOutput(), shardZones: ['zone-a'] }).spec?.template.spec?.nodeSelector).toEqual({ 'topology.kubernetes.io/zone': 'zone-a' });
    expect(one({ nodeSelector: { disk: 'ssd' } }).spec?.template.spec?.nodeSelector).toEqual({ disk: 'ssd' });
  });

  it('pass the user\'s pod fields through as written', () => {
    const tolerations = [{ key: 'dedicated', operator: 'Equal', value: 'monitoring', effect: 'NoSchedule' }];
    const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } } };
    const resources = { requests: { memory: '400Mi' } };
    const securityContext = { runAsUser: 65534 };
    const statefulSet = one({
      tolerations, affinity, resources, securityContext, nodeSelector: { disk: 'ssd' }, serviceAccountName: 'prometheus', priorityClassName: 'high',
      containers: [{ name: 'prometheus', imagePullPolicy: 'Always' }, { name: 'sidecar', image: 's' }],
    });
    const pod = statefulSet.spec?.template.spec;
    expect(pod).toMatchObject({ tolerations, affinity, securityContext, nodeSelector: { disk: 'ssd' }, serviceAccountName: 'prometheus', priorityClassName: 'high' });
    expect(pod?.containers.map((c) => c.name)).toEqual(['prometheus', 'sidecar']);
    expect(pod?.containers[0]).toMatchObject({ resources, imagePullPolicy: 'Always', image: 'quay.io/prometheus/prometheus:v3.16.0' });
  });

  it('default the service account token and grace period like prometheus-operator, and the pod security context promop always set', () => {
    const pod = one().spec?.template.spec;
    expect(pod).toMatchObject({ automountServiceAccountToken: true, terminationGracePeriodSeconds: 600, shareProcessNamespace: false });
    expect(pod?.securityContext).toEqual({ runAsUser: 1000, runAsNonRoot: true, fsGroup: 2000 });
    expect(one({ reloadStrategy: 'ProcessSignal' }).spec?.template.spec?.shareProcessNamespace).toBe(false);
  });

  it('give a host-network pod cluster DNS unless the spec names a DNS policy, as prometheus-operator', () => {
    expect(one({ hostNetwork: true }).spec?.template.spec?.dnsPolicy).toBe('ClusterFirstWithHostNet');
    expect(one({ hostNetwork: true, dnsPolicy: 'Default' }).spec?.template.spec?.dnsPolicy).toBe('Default');
    expect(one().spec?.template.spec?.dnsPolicy).toBeUndefined();
  });

  it('add the selector labels to a topology spread constraint with additionalLabelSelectors, the shard\'s only for OnShard', () => {
    const constraint = { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule' };
    const spread = one({ topologySpreadConstraints: [
      { ...constraint, additionalLabelSelectors: 'OnResource', labelSelector: { matchLabels: { team: 'a' } } },
      { ...constraint, additionalLabelSelectors: 'OnShard' },
      constraint,
    ] }).spec?.template.spec?.topologySpreadConstraints;
    expect(spread?.[0]).toEqual({ ...constraint, labelSelector: { matchLabels: {
      team: 'a', 'app.kubernetes.io/instance': 'main', 'app.kubernetes.io/managed-by': 'promop', 'app.kubernetes.io/name': 'prometheus', 'operator.prometheus.io/name': 'main', prometheus: 'main',
    } } });
    expect(spread?.[1]?.labelSelector?.matchLabels).toMatchObject({ 'operator.prometheus.io/shard': '0', prometheus: 'main' });
    expect(spread?.[2]).toEqual(constraint);
  });

  it('mount a log directory for bare log file names, and put the sidecar\'s volumes before the data volume', () => {
    const pod = one({ queryLogFile: 'query.log', thanos: {} }).spec?.template.spec;
    expect(pod?.volumes?.map((volume) => volume.name).slice(-3)).toEqual(['prometheus-main-rulefiles-2', 'thanos-prometheus-http-client-file', 'prometheus-main-db']);
    expect(pod?.volumes).toContainEqual({ name: 'log-file', emptyDir: {} });
    expect(pod?.containers[0]?.volumeMounts?.at(-1)).toEqual({ name: 'log-file', mountPath: '/var/log/prometheus' });
    const failures = one({ scrapeFailureLogFile: 'scrape.log', queryLogFile: 'query.log' }).spec?.template.spec?.containers[0]?.volumeMounts?.map((mount) => mount.name);
    expect(failures).toEqual(['config', 'tls-assets', 'prometheus-main-db', 'log-file', 'prometheus-main-rulefiles-0', 'prometheus-main-rulefiles-1', 'prometheus-main-rulefiles-2']);
    expect(one({ queryLogFile: '/data/query.log' }).spec?.template.spec?.volumes?.map((volume) => volume.name)).not.toContain('log-file');
  });

  it('pass runtime.goGC as GOGC to Prometheus older than 2.53 only', () => {
    const env = (version: string) => one({ version, runtime: { goGC: 50 } }).spec?.template.spec?.containers[0]?.env?.map((variable) => variable.name);
    expect(env('v2.52.0')).toEqual(['GOGC', 'POD_NAME']);
    expect(env('v2.53.0')).toEqual(['POD_NAME']);
    expect(one({ version: 'v2.52.0', runtime: { goGC: 50 } }).spec?.template.spec?.containers[0]?.env?.[0]).toEqual({ name: 'GOGC', value: '50' });
  });

  it('let podMetadata set the version label but never a selector label', () => {
    const labels = one({ podMetadata: { labels: { 'app.kubernetes.io/version': 'pinned', prometheus: 'other', team: 'a' } } }).spec?.template.metadata?.labels;
    expect(labels).toMatchObject({ 'app.kubernetes.io/version': 'pinned', prometheus: 'main', team: 'a' });
  });

  it('mount in prometheus-operator\'s order: config, certificates, data, the user\'s mounts, Secrets, ConfigMaps, rules', () => {
    const mounts = one({ secrets: ['s'], configMaps: ['c'], volumeMounts: [{ name: 'extra', mountPath: '/extra' }], volumes: [{ name: 'extra', emptyDir: {} }] })
      .spec?.template.spec?.containers[0]?.volumeMounts?.map((mount) => mount.name);
    expect(mounts).toEqual(['config', 'tls-assets', 'prometheus-main-db', 'extra', 'secret-s', 'configmap-c', 'prometheus-main-rulefiles-0', 'prometheus-main-rulefiles-1', 'prometheus-main-rulefiles-2']);
  });

  it('use a claim template from spec.storage', () => {
    const statefulSet = one({ storage: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1Gi' } } } } } });
    expect(statefulSet.spec?.volumeClaimTemplates?.map((claim) => claim.metadata?.name)).toEqual(['prometheus-main-db']);
  });

  describe('input hash and selector', () => {
    const base = one();

    it('is deterministic', () => {
      expect(hash(one())).toBe(hash(base));
      expect(hash(base)).toMatch(/^[0-9a-f]{64}$/);
    });

    it('does not change when only the config or rule contents change (those are reloaded, not rolled)', () => {
      const output = testOutput(['scrape_configs: []\n']);
      output.ruleConfigMaps[0]!.files = { 'other.yaml': 'groups: [x]\n' };
      expect(hash(one({}, output))).toBe(hash(base));
    });

    it('changes when something the pods run with changes', () => {
      for (const spec of [{ resources: { limits: { memory: '1Gi' } } }, { version: 'v3.5.0' }, { replicas: 2 }, { additionalArgs: [{ name: 'x' }] }] as Spec[]) {
        expect(hash(one(spec))).not.toBe(hash(base));
      }
      expect(hash(one({}, testOutput(['c'], 4)))).not.toBe(hash(base));
    });

    it('never changes the selector, which Kubernetes does not allow to change', () => {
      const changed = one({ version: 'v2.45.0', replicas: 3, podMetadata: { labels: { x: 'y' } }, image: 'x' }, testOutput(['c'], 5), { labels: { team: 'b' } });
      expect(changed.spec?.selector).toEqual(base.spec?.selector);
    });
  });

  it('report additionalArgs that override promop\'s flags as problems', () => {
    const result = buildStatefulSets(testPrometheus({ additionalArgs: [{ name: 'storage.tsdb.path', value: '/x' }] }), testOutput());
    expect(result.ok || result.problems.map((p) => p.path)).toEqual(['spec.additionalArgs[0].name']);
  });
});
