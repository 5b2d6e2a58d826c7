/**
 * Differential comparison of the ThanosRuler children promop renders with prometheus-operator v0.93.1's own, case
 * by case.
 *
 *   node bench/compat-diff/thanos-ruler-compat-diff.ts [--only name,name] [--out file.json]
 *
 * One control plane on loopback (etcd + kube-apiserver, no kubelet, so no pod ever starts), prometheus-operator's
 * CRDs, one namespace per case with a ThanosRuler `r` and, for the rule cases, the PrometheusRules it selects.
 * prometheus-operator runs and writes StatefulSet `thanos-ruler-r`, Service `thanos-ruler-operated` and the rule
 * ConfigMaps `thanos-ruler-r-rulefiles-<i>`. promop's pure builders render the same ThanosRuler and PrometheusRules
 * as the API server returns them (CRD defaults applied, uids set); promop's StatefulSet and Service are then sent to
 * the API server with dryRun, so both sides carry the API server's defaults. Compared: the `thanos-ruler` container
 * whole, the pod's volumes, the claim templates, the StatefulSet's serviceName, replicas, pod management policy and
 * update strategy, the pod's annotations and the labels about Thanos, the Service's ports and selector, and the
 * rule ConfigMaps' names and data, and for a stateless ruler (`remoteWrite`, credentials from the case's Secrets and
 * ConfigMaps) the remote write file and the TLS assets Secret, and the web configuration file. Not compared: upstream's config-reloader container (promop reloads thanos rule
 * itself; docs/compatibility.md) and the managed-by label. Exit status 1 on a difference.
 */
import type { V1ConfigMap, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import { TEST_CERT, TEST_KEY } from '@promop/config-generator/test-support';
import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import { buildThanosRulerRuleConfigMaps, buildThanosRulerService, buildThanosRulerStatefulSet, renderThanosRuler, THANOS_RULER_TLS_ASSETS_DIR } from '@promop/controller/thanos-ruler';
import type { BenchApi } from '../side-by-side/api-client.ts';
import { runObjectCompatDiff, waitForObject, type ObjectCaseResult } from './object-compat-run.ts';

const GROUP = 'monitoring.coreos.com';
const NAME = 'r';
const QUERY = { queryEndpoints: ['dnssrv+_http._tcp.thanos-query.monitoring.svc.cluster.local'] };

/** One ThanosRuler spec (and the PrometheusRules of its namespace) to render on both sides. */
interface RulerCase {
  name: string;
  spec: Record<string, unknown>;
  rules?: { name: string; labels?: Record<string, string>; groups: unknown[] }[];
  /** Secrets and ConfigMaps of its namespace (what remote write endpoints reference). */
  secrets?: { name: string; data: Record<string, string> }[];
  configMaps?: { name: string; data: Record<string, string> }[];
}

/** The Secrets and ConfigMaps the remote write cases reference. */
const REMOTE_WRITE_DATA: Pick<RulerCase, 'secrets' | 'configMaps'> = {
  secrets: [{ name: 'rw-auth', data: { user: 'ruler', password: 'pw', token: 'tok', 'client-secret': 'cs' } }, { name: 'rw-tls', data: { 'tls.crt': TEST_CERT, 'tls.key': TEST_KEY } }],
  configMaps: [{ name: 'rw-ca', data: { 'ca.crt': TEST_CERT } }],
};

const RULES: RulerCase['rules'] = [
  {
    name: 'slo', labels: { role: 'ruler' },
    groups: [
      { name: 'slo', partial_response_strategy: 'warn', interval: '1m', rules: [{ alert: 'HighErrorRate', expr: 'sum(rate(errors_total[5m])) by (job) > 1', for: '5m', labels: { severity: 'page' }, annotations: { summary: '{{ $labels.job }} fails' } }] },
      { name: 'records', limit: 10, rules: [{ record: 'job:up:sum', expr: 'sum by (job) (up)' }] },
    ],
  },
  { name: 'exempt', labels: { role: 'ruler' }, groups: [{ name: 'exempt', partial_response_strategy: 'abort', rules: [{ record: 'all:up:sum', expr: 'sum(up)', keep_firing_for: '1m' }] }] },
  { name: 'other', labels: { role: 'other' }, groups: [{ name: 'other', rules: [{ record: 'x', expr: 'up' }] }] },
];

const CASES: RulerCase[] = [
  { name: 'bare', spec: { ...QUERY } },
  {
    name: 'everything',
    spec: {
      version: 'v0.42.2', replicas: 2, imagePullPolicy: 'Always', logLevel: 'debug', logFormat: 'json',
      queryConfig: { name: 'thanos-query', key: 'query.yaml' }, alertmanagersConfig: { name: 'thanos-am', key: 'am.yaml' },
      objectStorageConfig: { name: 'thanos-objstore', key: 'objstore.yaml' }, tracingConfig: { name: 'thanos-tracing', key: 'tracing.yaml' },
      alertRelabelConfigs: { name: 'thanos-relabel', key: 'relabel.yaml' },
      labels: { region: 'eu', cluster: 'a' }, alertDropLabels: ['cluster'], evaluationInterval: '30s', retention: '48h',
      resendDelay: '2m', ruleOutageTolerance: '1h', ruleGracePeriod: '10m', ruleQueryOffset: '30s', ruleConcurrentEval: 2, enableFeatures: ['promql-experimental-functions'],
      externalPrefix: '/ruler', routePrefix: '/ruler', alertQueryUrl: 'https://query.example',
      grpcServerTlsConfig: { certFile: '/tls/tls.crt', keyFile: '/tls/tls.key', caFile: '/tls/ca.crt', minVersion: 'TLS12' },
      resources: { requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '1Gi' } },
      storage: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1Gi' } } } } },
      volumes: [{ name: 'tls', secret: { secretName: 'ruler-tls' } }], volumeMounts: [{ name: 'tls', mountPath: '/tls' }],
      podMetadata: { labels: { app: 'ruler' }, annotations: { note: 'x' } }, nodeSelector: { disk: 'ssd' }, terminationGracePeriodSeconds: 60,
      additionalArgs: [{ name: 'query.http-method', value: 'GET' }, { name: 'rule.evaluate-with-stale' }],
    },
  },
  {
    name: 'files-listen-local-old',
    spec: {
      ...QUERY, version: 'v0.29.0', alertmanagersUrl: ['dnssrv+http://alertmanager-operated.monitoring.svc:9093'], listenLocal: true,
      objectStorageConfigFile: '/etc/objstore.yaml', tracingConfigFile: '/etc/tracing.yaml', alertRelabelConfigFile: '/etc/relabel.yaml',
      ruleQueryOffset: '30s', ruleConcurrentEval: 2, ruleOutageTolerance: '1h', enableFeatures: ['x'], portName: 'http',
    },
  },
  { name: 'before-web-config', spec: { ...QUERY, version: '0.20.0' } },
  {
    name: 'containers-patched',
    spec: {
      ...QUERY,
      containers: [{ name: 'thanos-ruler', env: [{ name: 'EXTRA', value: 'x' }], resources: { limits: { cpu: '1' } } }, { name: 'extra', image: 'busybox' }],
      initContainers: [{ name: 'init', image: 'busybox' }],
    },
  },
  {
    name: 'pod-fields',
    spec: {
      ...QUERY, serviceAccountName: 'ruler', securityContext: { runAsUser: 1000 }, tolerations: [{ key: 'k', operator: 'Exists' }],
      affinity: { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { a: 'b' } } }] } },
      topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { a: 'b' } } }],
      priorityClassName: 'high', hostAliases: [{ ip: '10.0.0.1', hostnames: ['a.example'] }], imagePullSecrets: [{ name: 'pull' }], dnsPolicy: 'ClusterFirst',
      dnsConfig: { nameservers: ['10.0.0.10'] }, enableServiceLinks: false, image: 'quay.io/thanos/thanos:v0.40.0', version: 'v0.41.0',
    },
  },
  { name: 'storage-memory', spec: { ...QUERY, storage: { emptyDir: { medium: 'Memory' } }, podManagementPolicy: 'OrderedReady', minReadySeconds: 10 } },
  { name: 'storage-ephemeral', spec: { ...QUERY, storage: { ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } } } } },
  {
    name: 'rules-enforced', rules: RULES,
    spec: { ...QUERY, ruleSelector: { matchLabels: { role: 'ruler' } }, enforcedNamespaceLabel: 'namespace', excludedFromEnforcement: [{ resource: 'prometheusrules', namespace: 'thanos-ruler-rules-enforced', name: 'exempt' }] },
  },
  { name: 'rules-old-thanos', rules: RULES, spec: { ...QUERY, version: 'v0.33.0', ruleSelector: {} } },
  {
    name: 'remote-write', ...REMOTE_WRITE_DATA, rules: RULES,
    spec: {
      ...QUERY, ruleSelector: {},
      remoteWrite: [
        {
          url: 'https://receive.example:19291/api/v1/receive', name: 'central', remoteTimeout: '10s', headers: { 'X-Scope-OrgID': 'team-a' },
          basicAuth: { username: { name: 'rw-auth', key: 'user' }, password: { name: 'rw-auth', key: 'password' } },
          writeRelabelConfigs: [{ sourceLabels: ['__name__'], regex: 'debug_.*', action: 'drop' }],
          queueConfig: { capacity: 2500, maxShards: 10, batchSendDeadline: '5s', retryOnRateLimit: true }, metadataConfig: { send: false },
          sendExemplars: true, followRedirects: true, enableHTTP2: false,
        },
        { url: 'http://second.example/api/v1/write', authorization: { credentials: { name: 'rw-auth', key: 'token' } }, proxyUrl: 'http://proxy.example:3128' },
        { url: 'http://third.example/api/v1/write', oauth2: { clientId: { secret: { name: 'rw-auth', key: 'user' } }, clientSecret: { name: 'rw-auth', key: 'client-secret' }, tokenUrl: 'https://auth.example/token', scopes: ['write'] } },
      ],
    },
  },
  {
    name: 'remote-write-tls', ...REMOTE_WRITE_DATA,
    spec: {
      ...QUERY,
      remoteWrite: [{
        url: 'https://receive.example/api/v1/receive',
        tlsConfig: { ca: { configMap: { name: 'rw-ca', key: 'ca.crt' } }, cert: { secret: { name: 'rw-tls', key: 'tls.crt' } }, keySecret: { name: 'rw-tls', key: 'tls.key' }, serverName: 'receive', minVersion: 'TLS12' },
      }],
    },
  },
  {
    name: 'web-tls', ...REMOTE_WRITE_DATA,
    spec: {
      ...QUERY,
      web: {
        tlsConfig: { cert: { secret: { name: 'rw-tls', key: 'tls.crt' } }, keySecret: { name: 'rw-tls', key: 'tls.key' }, client_ca: { configMap: { name: 'rw-ca', key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert', minVersion: 'TLS12' },
        httpConfig: { headers: { xFrameOptions: 'Deny' } },
      },
    },
  },
  { name: 'remote-write-old-thanos', spec: { ...QUERY, version: 'v0.29.0', remoteWrite: [{ url: 'http://x.example/api/v1/write', sendNativeHistograms: true, roundRobinDNS: true, messageVersion: 'V2.0' }] } },
];

const namespaceOf = (item: RulerCase) => `thanos-ruler-${item.name}`;

async function createCase(api: BenchApi, item: RulerCase): Promise<void> {
  const namespace = namespaceOf(item);
  await api.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (const secret of item.secrets ?? []) await api.json('POST', `/api/v1/namespaces/${namespace}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: secret.name }, stringData: secret.data });
  for (const configMap of item.configMaps ?? []) await api.json('POST', `/api/v1/namespaces/${namespace}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: configMap.name }, data: configMap.data });
  for (const rule of item.rules ?? []) {
    await api.json('POST', `/apis/${GROUP}/v1/namespaces/${namespace}/prometheusrules?fieldValidation=Strict`, {
      apiVersion: `${GROUP}/v1`, kind: 'PrometheusRule', metadata: { name: rule.name, labels: rule.labels ?? {} }, spec: { groups: rule.groups },
    });
  }
  await api.json('POST', `/apis/${GROUP}/v1/namespaces/${namespace}/thanosrulers?fieldValidation=Strict`, { apiVersion: `${GROUP}/v1`, kind: 'ThanosRuler', metadata: { name: NAME }, spec: item.spec });
}

const sortKeys = (value: unknown): unknown => (Array.isArray(value) ? value.map(sortKeys)
  : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortKeys(v)])) : value);

async function compareCase(api: BenchApi, item: RulerCase): Promise<ObjectCaseResult> {
  const namespace = namespaceOf(item);
  const differences: ObjectCaseResult['differences'] = [];
  const documented: string[] = [];
  const compare = (what: string, theirs: unknown, mine: unknown) => {
    if (JSON.stringify(sortKeys(theirs)) !== JSON.stringify(sortKeys(mine))) differences.push({ what, prometheusOperator: theirs, promop: mine });
  };
  try {
    const upstream = await waitForObject<V1StatefulSet>(api, `/apis/apps/v1/namespaces/${namespace}/statefulsets/thanos-ruler-${NAME}`);
    const thanosRuler = await api.json<ThanosRuler>('GET', `/apis/${GROUP}/v1/namespaces/${namespace}/thanosrulers/${NAME}`);
    const prometheusRules = (await api.json<{ items: PrometheusRule[] }>('GET', `/apis/${GROUP}/v1/namespaces/${namespace}/prometheusrules`)).items;
    const decode = (data: Record<string, string> | undefined) => Object.fromEntries(Object.entries(data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64').toString('utf8')]));
    const secrets = (await api.json<{ items: { metadata: { name: string }; data?: Record<string, string> }[] }>('GET', `/api/v1/namespaces/${namespace}/secrets`)).items
      .map((each) => ({ namespace, name: each.metadata.name, data: decode(each.data) }));
    const configMaps = (await api.json<{ items: { metadata: { name: string }; data?: Record<string, string> }[] }>('GET', `/api/v1/namespaces/${namespace}/configmaps`)).items
      .map((each) => ({ namespace, name: each.metadata.name, data: each.data ?? {} }));
    const rendering = renderThanosRuler(thanosRuler, { prometheusRules, namespaces: [{ name: namespace, labels: {} }], secrets, configMaps });
    const { rules, command } = rendering;
    if (!command.ok || rendering.problems.length > 0) return { case: item.name, outcome: 'failed', differences, failure: `promop refused: ${JSON.stringify(rendering.problems)}` };
    const ruleConfigMaps = buildThanosRulerRuleConfigMaps(thanosRuler, rules.ruleConfigMaps);
    const ours = buildThanosRulerStatefulSet(thanosRuler, command.value, ruleConfigMaps.map((each) => each.metadata!.name!));
    const podLabels = ours.spec!.template.metadata!.labels!;
    ours.metadata!.name = `promop-${NAME}`;
    ours.spec!.selector = { matchLabels: { promop: 'dry-run' } };
    ours.spec!.template.metadata!.labels = { promop: 'dry-run' };
    const defaulted = await api.json<V1StatefulSet>('POST', `/apis/apps/v1/namespaces/${namespace}/statefulsets?dryRun=All`, ours);

    const containerOf = (sts: V1StatefulSet) => sts.spec?.template.spec?.containers.find((c) => c.name === 'thanos-ruler') as Record<string, unknown> | undefined;
    const theirs = containerOf(upstream);
    const mine = containerOf(defaulted);
    for (const key of new Set([...Object.keys(theirs ?? {}), ...Object.keys(mine ?? {})])) compare(`thanos-ruler.${key}`, theirs?.[key], mine?.[key]);
    compare('containers besides the config-reloader', upstream.spec?.template.spec?.containers.map((c) => c.name).filter((name) => name !== 'config-reloader'), defaulted.spec?.template.spec?.containers.map((c) => c.name));
    compare('volumes', upstream.spec?.template.spec?.volumes, defaulted.spec?.template.spec?.volumes);
    compare('volumeClaimTemplates', upstream.spec?.volumeClaimTemplates?.map((claim) => ({ metadata: { name: claim.metadata?.name }, spec: claim.spec })), defaulted.spec?.volumeClaimTemplates?.map((claim) => ({ metadata: { name: claim.metadata?.name }, spec: claim.spec })));
    for (const field of ['serviceName', 'replicas', 'podManagementPolicy', 'updateStrategy', 'minReadySeconds'] as const) compare(`spec.${field}`, upstream.spec?.[field], defaulted.spec?.[field]);
    const { containers: _theirContainers, volumes: _theirVolumes, ...theirPod } = upstream.spec?.template.spec ?? { containers: [] };
    const { containers: _myContainers, volumes: _myVolumes, ...myPod } = defaulted.spec?.template.spec ?? { containers: [] };
    compare('pod spec besides containers and volumes', theirPod, myPod);
    compare('pod annotations', upstream.spec?.template.metadata?.annotations, defaulted.spec?.template.metadata?.annotations);
    const aboutThanos = (labels: Record<string, string> | undefined) => Object.fromEntries(Object.entries(labels ?? {}).filter(([key]) => key !== 'app.kubernetes.io/managed-by'));
    compare('pod labels besides managed-by', aboutThanos(upstream.spec?.template.metadata?.labels), aboutThanos(podLabels));

    if (!thanosRuler.spec?.serviceName) {
      const upstreamService = await waitForObject<V1Service>(api, `/api/v1/namespaces/${namespace}/services/thanos-ruler-operated`);
      const ourService = buildThanosRulerService(namespace, [thanosRuler]);
      ourService.metadata!.name = 'promop-operated';
      const defaultedService = await api.json<V1Service>('POST', `/api/v1/namespaces/${namespace}/services?dryRun=All`, ourService);
      compare('Service ports', upstreamService.spec?.ports, defaultedService.spec?.ports);
      compare('Service selector', upstreamService.spec?.selector, defaultedService.spec?.selector);
    }
    const upstreamConfigMaps = (await api.json<{ items: V1ConfigMap[] }>('GET', `/api/v1/namespaces/${namespace}/configmaps?labelSelector=thanos-ruler-name%3D${NAME}`)).items;
    compare('rule ConfigMaps', upstreamConfigMaps.map((each) => ({ name: each.metadata?.name, data: each.data ?? {} })), ruleConfigMaps.map((each) => ({ name: each.metadata?.name, data: each.data ?? {} })));

    const upstreamConfig = await waitForObject<{ data?: Record<string, string> }>(api, `/api/v1/namespaces/${namespace}/secrets/thanos-ruler-${NAME}-config`);
    // Upstream points the TLS files at the Prometheus certificate directory, which a ruler pod does not mount
    // (docs/compatibility.md): compared with that directory put back, and the difference named.
    const ourFile = rendering.remoteWrite.text.replaceAll(`${THANOS_RULER_TLS_ASSETS_DIR}/`, '/etc/prometheus/certs/');
    if (ourFile !== rendering.remoteWrite.text) documented.push('remote-write.yaml TLS files under /etc/thanos/certs');
    compare('remote-write.yaml', decode(upstreamConfig.data)['remote-write.yaml'], ourFile);
    const upstreamWeb = await waitForObject<{ data?: Record<string, string> }>(api, `/api/v1/namespaces/${namespace}/secrets/thanos-ruler-${NAME}-web-config`);
    compare('web-config.yaml', decode(upstreamWeb.data)['web-config.yaml'], command.value.web?.text ?? '');
    const upstreamAssets = await waitForObject<{ data?: Record<string, string> }>(api, `/api/v1/namespaces/${namespace}/secrets/thanos-ruler-${NAME}-tls-assets-0`);
    compare('TLS assets', decode(upstreamAssets.data), rendering.remoteWrite.tlsAssets);
    return { case: item.name, outcome: differences.length === 0 ? 'equal' : 'different', differences, ...(documented.length > 0 ? { documented } : {}) };
  } catch (error) {
    return { case: item.name, outcome: 'failed', differences, failure: String(error) };
  }
}

await runObjectCompatDiff({
  cases: CASES,
  logPrefix: 'thanos-ruler-compat-diff-',
  create: createCase,
  compare: compareCase,
});
