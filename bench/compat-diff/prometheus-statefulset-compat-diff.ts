/**
 * Differential comparison of the Prometheus StatefulSets promop renders with prometheus-operator v0.93.1's own, case
 * by case.
 *
 *   node bench/compat-diff/prometheus-statefulset-compat-diff.ts [--only name,name] [--out file.json]
 *
 * One control plane on loopback (etcd + kube-apiserver, no kubelet, so no pod ever starts), prometheus-operator's
 * CRDs, one namespace per case with a Prometheus `p` and the Secrets and ConfigMaps it names. prometheus-operator
 * runs and writes StatefulSet `prometheus-p` (and `prometheus-p-shard-<n>`). promop's generator and pure builders
 * render the same Prometheus as the API server returns it (CRD defaults applied); promop's StatefulSets are then sent
 * to the API server with dryRun, so both sides carry the API server's defaults. Compared, shard by shard: the
 * `prometheus` container whole (args in order), the names of the other containers, the pod's volumes, every other
 * pod spec field, the pod's labels and annotations, the claim templates and the StatefulSet's serviceName, replicas,
 * pod management policy, update strategy and minReadySeconds.
 *
 * What docs/compatibility.md explains is taken out before comparing and named per case (`documented`): upstream's
 * config-reloader containers and what only they use (the `config-out` volume, the gzipped config Secret), promop's
 * config read from its own projected volume, `--web.enable-lifecycle` always (promop reloads over HTTP), `POD_NAME`
 * and `expand-external-labels` for the replica label, no `--web.config.file` without `spec.web`, the web config hash
 * annotation, the web TLS volume names (no hash), the exec probes of `listenLocal`, `shareProcessNamespace` with
 * ProcessSignal, and the default Prometheus version. Exit status 1 on any other difference.
 */
import type { V1Container, V1StatefulSet, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { DEFAULT_PROMETHEUS_VERSION, generate } from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';
import { buildStatefulSets, DEFAULT_POD_SECURITY_CONTEXT } from '@promop/controller/workload';
import type { BenchApi } from '../side-by-side/api-client.ts';
import { caseComparison, runObjectCompatDiff, waitForObject, WEB_TLS_FROM_SECRET, type ObjectCaseResult, type SpecCase } from './object-compat-run.ts';

const GROUP = 'monitoring.coreos.com';
const NAME = 'p';
const V3 = 'v3.16.0';

const TLS = WEB_TLS_FROM_SECRET;

const CASES: SpecCase[] = [
  { name: 'bare', spec: {} },
  { name: 'version-2-55', spec: { version: 'v2.55.1' } },
  { name: 'version-2-30', spec: { version: 'v2.30.3', externalLabels: { cluster: 'a' } } },
  { name: 'replicas-shards', spec: { version: V3, replicas: 2, shards: 2 } },
  { name: 'listen-local', spec: { version: V3, listenLocal: true } },
  { name: 'route-prefix-external-url', spec: { version: V3, routePrefix: '/prom', externalUrl: 'https://prom.example/prom' } },
  { name: 'retention-old', spec: { version: 'v3.5.0', retention: '15d', retentionSize: '40GB', walCompression: false } },
  { name: 'retention-new', spec: { version: V3, retention: '15d', retentionSize: '40GB', walCompression: true } },
  { name: 'storage-claim', spec: { version: V3, storage: { volumeClaimTemplate: { metadata: { name: 'data' }, spec: { resources: { requests: { storage: '50Gi' } } } } } } },
  { name: 'storage-emptydir', spec: { version: V3, storage: { emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } } } },
  { name: 'storage-ephemeral', spec: { version: V3, storage: { ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } } } },
  {
    name: 'resources-containers',
    spec: {
      version: V3, resources: { requests: { cpu: '500m', memory: '2Gi' }, limits: { memory: '4Gi' } },
      containers: [
        { name: 'prometheus', env: [{ name: 'GOMEMLIMIT', value: '3GiB' }], resources: { limits: { cpu: '2' } }, startupProbe: { failureThreshold: 300 } },
        { name: 'extra', image: 'busybox:1.36', args: ['sleep', 'infinity'] },
      ],
      initContainers: [{ name: 'init-chown', image: 'busybox:1.36', command: ['sh', '-c', 'true'] }],
    },
  },
  {
    name: 'pod-fields',
    spec: {
      version: V3, serviceAccountName: 'prometheus', priorityClassName: 'high', nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'monitoring', effect: 'NoSchedule' }],
      affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } } } }] } },
      securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true, fsGroup: 65534, seccompProfile: { type: 'RuntimeDefault' } },
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' }],
      terminationGracePeriodSeconds: 120, hostAliases: [{ ip: '10.0.0.1', hostnames: ['db.local'] }], imagePullSecrets: [{ name: 'regcred' }],
      dnsPolicy: 'ClusterFirst', dnsConfig: { options: [{ name: 'ndots', value: '2' }] }, automountServiceAccountToken: false,
      podManagementPolicy: 'OrderedReady', minReadySeconds: 30, updateStrategy: { type: 'OnDelete' },
    },
  },
  { name: 'host-network', spec: { version: V3, hostNetwork: true } },
  {
    name: 'flags',
    spec: {
      version: V3, enableFeatures: ['exemplar-storage', 'native-histograms'], enableRemoteWriteReceiver: true, enableAdminAPI: true,
      query: { lookbackDelta: '10m', maxConcurrency: 50, timeout: '2m', maxSamples: 1000000 }, logLevel: 'debug', logFormat: 'json',
      scrapeInterval: '15s', evaluationInterval: '15s', disableCompaction: true, enableOTLPReceiver: true,
      additionalArgs: [{ name: 'storage.tsdb.no-lockfile' }, { name: 'query.max-samples-ignored-x', value: '1' }],
    },
  },
  { name: 'web', spec: { version: V3, web: { pageTitle: 'Team Prometheus', maxConnections: 100, tlsConfig: TLS } } },
  { name: 'web-2-55', spec: { version: 'v2.55.1', web: { tlsConfig: TLS, httpConfig: { headers: { xFrameOptions: 'Deny' } } } } },
  {
    name: 'secrets-configmaps-volumes',
    spec: {
      version: V3, secrets: ['extra'], configMaps: ['extra'], volumes: [{ name: 'scratch', emptyDir: {} }],
      volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
      podMetadata: { labels: { team: 'infra' }, annotations: { 'example.com/note': 'x' } },
    },
  },
  { name: 'image-base-tag', spec: { baseImage: 'registry.example/prometheus', tag: 'v3.5.0', version: 'v3.5.0', imagePullPolicy: 'IfNotPresent' } },
  { name: 'image-sha', spec: { baseImage: 'quay.io/prometheus/prometheus', sha: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', version: V3 } },
  { name: 'image-explicit', spec: { image: 'registry.example/prom:custom', version: 'v2.55.1' } },
  { name: 'reload-process-signal', spec: { version: V3, reloadStrategy: 'ProcessSignal' } },
  { name: 'rules-tsdb', spec: { version: V3, ruleSelector: {}, tsdb: { outOfOrderTimeWindow: '30m' }, walCompression: true } },
  { name: 'thanos-upload', spec: { version: V3, tsdb: { outOfOrderTimeWindow: '10m' }, thanos: { objectStorageConfig: { name: 'extra', key: 'token' } }, additionalArgs: [{ name: 'storage.tsdb.no-lockfile' }] } },
  {
    name: 'rule-alert-receiver',
    spec: {
      version: 'v3.2.0', rules: { alert: { forOutageTolerance: '1h', forGracePeriod: '10m', resendDelay: '2m' } }, enableRemoteWriteReceiver: true,
      remoteWriteReceiverMessageVersions: ['V1.0', 'V2.0'], enableFeatures: ['exemplar-storage'],
    },
  },
  { name: 'otlp-prometheus-2', spec: { version: 'v2.55.1', otlp: { promoteResourceAttributes: ['service.name'] } } },
  { name: 'query-log-gogc-old', spec: { version: 'v2.50.1', queryLogFile: 'query.log', runtime: { goGC: 50 } } },
  { name: 'scrape-failure-log', spec: { version: V3, scrapeFailureLogFile: 'scrape.log', queryLogFile: '/var/log/query.log' } },
  {
    name: 'pod-misc',
    spec: {
      version: V3, enableServiceLinks: false, hostUsers: false, schedulerName: 'custom', persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
      storage: { disableMountSubPath: true, volumeClaimTemplate: { spec: { resources: { requests: { storage: '5Gi' } } } } },
      podMetadata: { labels: { 'app.kubernetes.io/version': 'pinned' } }, dnsPolicy: 'None', dnsConfig: { nameservers: ['10.0.0.10'] },
    },
  },
  { name: 'version-without-v', spec: { version: '3.5.0', image: 'quay.io/prometheus/prometheus@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', imagePullPolicy: 'Always' } },
  {
    name: 'containers-override-probes',
    spec: {
      version: V3, routePrefix: '/p',
      containers: [{ name: 'prometheus', readinessProbe: { periodSeconds: 10, timeoutSeconds: 5 }, livenessProbe: { failureThreshold: 10 }, securityContext: { runAsNonRoot: true }, volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }],
      volumes: [{ name: 'scratch', emptyDir: {} }],
    },
  },
  { name: 'port-name-startup', spec: { version: V3, portName: 'http-web', maximumStartupDurationSeconds: 900 } },
  { name: 'remote-write-v2-old', spec: { version: 'v3.2.0', remoteWrite: [{ url: 'http://rw.example/api/v1/write', messageVersion: 'V2.0' }] } },
  { name: 'web-page-title-only', spec: { version: V3, web: { pageTitle: 'Only a title' } } },
  { name: 'web-client-ca', spec: { version: V3, web: { tlsConfig: { ...TLS, client_ca: { configMap: { name: 'extra', key: 'file' } }, clientAuthType: 'RequireAndVerifyClientCert' } } } },
  {
    name: 'claim-metadata',
    spec: {
      version: V3,
      storage: { volumeClaimTemplate: { metadata: { labels: { tier: 'fast' }, annotations: { 'example.com/backup': 'daily' } }, spec: { accessModes: ['ReadWriteOnce'], volumeMode: 'Filesystem', selector: { matchLabels: { disk: 'ssd' } }, resources: { requests: { storage: '10Gi' } } } } },
    },
  },
  {
    name: 'topology-spread-selectors',
    spec: { version: V3, shards: 2, topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', additionalLabelSelectors: 'OnShard' }] },
  },
];

const namespaceOf = (item: SpecCase) => `sts-${item.name}`;

async function createCase(api: BenchApi, item: SpecCase): Promise<void> {
  const namespace = namespaceOf(item);
  await api.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (const name of ['extra', 'web-tls']) {
    await api.json('POST', `/api/v1/namespaces/${namespace}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { 'tls.crt': 'x', 'tls.key': 'x', token: 'x' } });
  }
  await api.json('POST', `/api/v1/namespaces/${namespace}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' }, data: { file: 'x' } });
  await api.json('POST', `/apis/${GROUP}/v1/namespaces/${namespace}/prometheuses?fieldValidation=Strict`, { apiVersion: `${GROUP}/v1`, kind: 'Prometheus', metadata: { name: NAME }, spec: item.spec });
}

/** The upstream config file flag and promop's (each reads its own volume: upstream the reloader's output). */
const CONFIG_FILE_FLAGS = new Set(['--config.file=/etc/prometheus/config_out/prometheus.env.yaml', '--config.file=/etc/prometheus/config/prometheus.yaml']);
const EMPTY_WEB_CONFIG_FLAG = '--web.config.file=/etc/prometheus/web_config/web-config.yaml';

/** What docs/compatibility.md lists for the prometheus container and the pod, taken out of one side. */
interface Documented {
  /** Names the difference for the report when taking it out changed something. */
  note(name: string, changed: boolean): void;
}

/**
 * The prometheus container's args without the documented differences: the config file flag (each side its own
 * path), `--web.enable-lifecycle` (promop always sets it: ProcessSignal changes nothing), `expand-external-labels`
 * (promop's replica label on Prometheus 2), and upstream's empty web config file without `spec.web`.
 */
function comparableArgs(args: readonly string[] | undefined, web: boolean, documented: Documented, side: 'upstream' | 'promop'): string[] {
  const kept: string[] = [];
  for (const arg of args ?? []) {
    if (CONFIG_FILE_FLAGS.has(arg)) continue;
    if (arg === '--web.enable-lifecycle') { documented.note('--web.enable-lifecycle', true); continue; }
    if (!web && arg === EMPTY_WEB_CONFIG_FLAG && side === 'upstream') { documented.note('no --web.config.file without spec.web', true); continue; }
    if (arg.startsWith('--enable-feature=') && side === 'promop') {
      const features = arg.slice('--enable-feature='.length).split(',');
      const others = features.filter((feature) => feature !== 'expand-external-labels');
      documented.note('expand-external-labels (replica label)', others.length !== features.length);
      if (others.length > 0) kept.push(`--enable-feature=${others.join(',')}`);
      continue;
    }
    kept.push(arg);
  }
  return kept;
}

/** Volumes (and mounts) only one side has by design: upstream's reloader output and gzipped config, promop's config. */
function comparableVolume(name: string, web: boolean): boolean {
  if (name === 'config-out' || name === 'config') return false;
  return web || name !== 'web-config';
}

/** Upstream suffixes the web TLS volumes with a hash of the name; promop only when the name is too long (documented). */
function withoutNameHash(name: string): string {
  return name.replace(/^(web-config-tls-.*)-[0-9a-f]{8}$/, '$1');
}

async function compareCase(api: BenchApi, item: SpecCase): Promise<ObjectCaseResult> {
  const namespace = namespaceOf(item);
  const comparison = caseComparison(item.name);
  const { compare, result } = comparison;
  const documented: Documented = comparison;
  try {
    const prometheus = await api.json<Prometheus>('GET', `/apis/${GROUP}/v1/namespaces/${namespace}/prometheuses/${NAME}`);
    const output = generate({
      prometheus, serviceMonitors: [], podMonitors: [], probes: [], scrapeConfigs: [], prometheusRules: [], namespaces: [{ name: namespace, labels: {} }], secrets: [], configMaps: [],
    });
    if (!output.ok) return result('failed', `promop's generator refused: ${JSON.stringify(output.prometheusProblems)}`);
    const built = buildStatefulSets(prometheus, output);
    if (!built.ok) return result('failed', `promop refused: ${JSON.stringify(built.problems)}`);
    const spec = prometheus.spec ?? {};
    // promop writes a web config file only for tlsConfig or httpConfig (documented); upstream for every Prometheus.
    const web = Boolean(spec.web?.tlsConfig || spec.web?.httpConfig);
    for (const [shard, ours] of built.value.entries()) {
      const upstreamName = shard === 0 ? `prometheus-${NAME}` : `prometheus-${NAME}-shard-${shard}`;
      compare(`shard ${shard} StatefulSet name`, upstreamName, ours.metadata?.name);
      const upstream = await waitForObject<V1StatefulSet>(api, `/apis/apps/v1/namespaces/${namespace}/statefulsets/${upstreamName}`);
      const podLabels = ours.spec!.template.metadata!.labels!;
      ours.metadata!.name = `promop-${NAME}-${shard}`;
      ours.spec!.selector = { matchLabels: { promop: 'dry-run' } };
      ours.spec!.template.metadata!.labels = { promop: 'dry-run' };
      const defaulted = await api.json<V1StatefulSet>('POST', `/apis/apps/v1/namespaces/${namespace}/statefulsets?dryRun=All`, ours);
      const at = (what: string) => (shard === 0 ? what : `shard ${shard}: ${what}`);

      const containerOf = (sts: V1StatefulSet) => sts.spec?.template.spec?.containers.find((c) => c.name === 'prometheus');
      const theirs = { ...containerOf(upstream) } as Record<string, unknown> & V1Container;
      const mine = { ...containerOf(defaulted) } as Record<string, unknown> & V1Container;
      const theirLabels = { ...upstream.spec?.template.metadata?.labels };
      // Without spec.version each deploys the release it is tested with (docs/compatibility.md, StatefulSets).
      if (!spec.version && !spec.image && !spec.tag && !spec.sha) {
        const upstreamVersion = theirLabels['app.kubernetes.io/version'];
        if (upstreamVersion && theirs.image?.endsWith(`:v${upstreamVersion}`)) {
          theirs.image = `${theirs.image.slice(0, -upstreamVersion.length)}${DEFAULT_PROMETHEUS_VERSION.slice(1)}`;
          theirLabels['app.kubernetes.io/version'] = DEFAULT_PROMETHEUS_VERSION.slice(1);
          documented.note(`default version ${DEFAULT_PROMETHEUS_VERSION}`, upstreamVersion !== DEFAULT_PROMETHEUS_VERSION.slice(1));
        }
      }
      // With listenLocal the probes are exec commands: promop's call wget on 127.0.0.1, upstream's try curl, then wget,
      // on localhost (docs/compatibility.md, the web server and PrometheusAgents).
      if (spec.listenLocal) {
        for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe'] as const) {
          const withoutCommand = (value: V1Container[typeof probe]) => (value?.exec ? { ...value, exec: { command: ['exec probe'] } } : value);
          documented.note('listenLocal exec probes', JSON.stringify(theirs[probe]) !== JSON.stringify(mine[probe]));
          theirs[probe] = withoutCommand(theirs[probe]);
          mine[probe] = withoutCommand(mine[probe]);
        }
      }
      theirs.args = comparableArgs(theirs.args, web, documented, 'upstream');
      mine.args = comparableArgs(mine.args, web, documented, 'promop');
      // POD_NAME: promop's replica label is expanded by Prometheus itself (docs/compatibility.md, "Replica label").
      const withoutPodName = (env: V1Container['env']) => env?.filter((variable) => variable.name !== 'POD_NAME');
      documented.note('env POD_NAME (replica label)', (mine.env?.length ?? 0) !== (withoutPodName(mine.env)?.length ?? 0));
      mine.env = withoutPodName(mine.env);
      if (mine.env?.length === 0) delete mine.env;
      const mounts = (c: V1Container) => c.volumeMounts?.filter((mount: V1VolumeMount) => comparableVolume(mount.name, web)).map((mount) => ({ ...mount, name: withoutNameHash(mount.name) }));
      theirs.volumeMounts = mounts(theirs);
      mine.volumeMounts = mounts(mine);
      for (const key of new Set([...Object.keys(theirs), ...Object.keys(mine)])) compare(at(`prometheus.${key}`), theirs[key], mine[key]);

      const names = (list: V1Container[] | undefined) => (list ?? []).map((c) => c.name).filter((name) => name !== 'config-reloader' && name !== 'init-config-reloader');
      const theirPod = upstream.spec?.template.spec;
      const myPod = defaulted.spec?.template.spec;
      documented.note('no config-reloader containers', names(theirPod?.containers).length !== (theirPod?.containers.length ?? 0));
      compare(at('containers besides the config-reloader'), names(theirPod?.containers), names(myPod?.containers));
      compare(at('initContainers besides init-config-reloader'), names(theirPod?.initContainers), names(myPod?.initContainers));
      for (const extra of myPod?.containers ?? []) {
        if (extra.name === 'prometheus') continue;
        compare(at(`container ${extra.name}`), theirPod?.containers.find((c) => c.name === extra.name), extra);
      }
      for (const init of myPod?.initContainers ?? []) compare(at(`initContainer ${init.name}`), theirPod?.initContainers?.find((c) => c.name === init.name), init);
      const volumes = (list: V1Volume[] | undefined) => (list ?? []).filter((volume) => comparableVolume(volume.name, web)).map((volume) => ({ ...volume, name: withoutNameHash(volume.name) }));
      if (web) documented.note('web TLS volume names without a hash', true);
      compare(at('volumes (besides config and config-out)'), volumes(theirPod?.volumes), volumes(myPod?.volumes));
      documented.note('config from promop\'s projected volume', true);
      const { containers: _a, initContainers: _b, volumes: _c, ...theirRest } = theirPod ?? { containers: [] };
      if (spec.reloadStrategy === 'ProcessSignal' && theirRest.shareProcessNamespace === true) {
        // Upstream shares the process namespace for its reloader's SIGHUP; promop reloads over HTTP (documented).
        theirRest.shareProcessNamespace = false;
        documented.note('ProcessSignal changes nothing', true);
      }
      const { containers: _d, initContainers: _e, volumes: _f, ...myRest } = myPod ?? { containers: [] };
      const unset = (context: object | undefined) => context === undefined || Object.keys(context).length === 0;
      if (!spec.securityContext && unset(theirRest.securityContext) && JSON.stringify(myRest.securityContext) === JSON.stringify(DEFAULT_POD_SECURITY_CONTEXT)) {
        // promop keeps the pod security context it always set, for data its earlier pods wrote (documented); the API
        // server's default for upstream's none is an empty one.
        myRest.securityContext = theirRest.securityContext;
        documented.note('default pod security context (backward compatible)', true);
      }
      // Each operator's pods carry its own managed-by label, which the added selector labels then hold.
      const withoutManagedBy = (pod: typeof theirRest) => ({
        ...pod,
        ...(pod.topologySpreadConstraints ? {
          topologySpreadConstraints: pod.topologySpreadConstraints.map((constraint) => (constraint.labelSelector?.matchLabels
            ? { ...constraint, labelSelector: { ...constraint.labelSelector, matchLabels: Object.fromEntries(Object.entries(constraint.labelSelector.matchLabels).filter(([key]) => key !== 'app.kubernetes.io/managed-by')) } }
            : constraint)),
        } : {}),
      });
      compare(at('pod spec besides containers and volumes'), withoutManagedBy(theirRest), withoutManagedBy(myRest));

      const annotations = { ...defaulted.spec?.template.metadata?.annotations };
      if ('promop.prometheus.io/web-config-hash' in annotations) documented.note('web config hash annotation', true);
      delete annotations['promop.prometheus.io/web-config-hash'];
      compare(at('pod annotations'), upstream.spec?.template.metadata?.annotations, annotations);
      const labels = (all: Record<string, string> | undefined) => Object.fromEntries(Object.entries(all ?? {}).filter(([key]) => key !== 'app.kubernetes.io/managed-by'));
      compare(at('pod labels besides managed-by'), labels(theirLabels), labels(podLabels));
      const claims = (sts: V1StatefulSet) => sts.spec?.volumeClaimTemplates?.map((claim) => ({
        metadata: { name: claim.metadata?.name, labels: claim.metadata?.labels, annotations: claim.metadata?.annotations }, spec: claim.spec,
      }));
      compare(at('volumeClaimTemplates'), claims(upstream), claims(defaulted));
      for (const field of ['serviceName', 'replicas', 'podManagementPolicy', 'updateStrategy', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy'] as const) {
        compare(at(`spec.${field}`), upstream.spec?.[field], defaulted.spec?.[field]);
      }
    }
    return result();
  } catch (error) {
    return result('failed', String(error));
  }
}

await runObjectCompatDiff({
  cases: CASES,
  logPrefix: 'prometheus-statefulset-compat-diff-',
  create: createCase,
  compare: compareCase,
  equalMeans: 'besides the documented differences',
});
