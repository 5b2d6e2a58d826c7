/**
 * Differential comparison of the Thanos sidecar promop renders (`spec.thanos`) with prometheus-operator v0.93.1's
 * own StatefulSet, case by case.
 *
 *   node bench/compat-diff/thanos-sidecar-compat-diff.ts [--only name,name] [--out file.json]
 *
 * One control plane on loopback (etcd + kube-apiserver, no kubelet, so no pod ever starts), prometheus-operator's
 * CRDs, one namespace per case with a Prometheus `p` and the Secrets it names. prometheus-operator runs and writes
 * StatefulSet `prometheus-p`, Service `prometheus-operated` and Secret `prometheus-p-thanos-prometheus-http-client-file`.
 * promop's pure builders render the same Prometheus as the API server returns it (CRD defaults applied); promop's
 * StatefulSet and Service are then sent to the API server with dryRun, so both sides carry the API server's
 * defaults. Compared: the `thanos-sidecar` container whole, the compaction flags of the prometheus container, the
 * sidecar's volume, the Service's `grpc` port, the HTTP client Secret's data and any pod label about Thanos.
 * Exit status 1 on a difference.
 */
import type { V1Container, V1Secret, V1Service, V1StatefulSet } from '@kubernetes/client-node';
import { parsePrometheusVersion } from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';
import { buildGoverningService, buildStatefulSets, buildThanosHttpClientSecret, usesHttpClientFile } from '@promop/controller/workload';
import type { BenchApi } from '../side-by-side/api-client.ts';
import { runObjectCompatDiff, waitForObject, type ObjectCaseResult } from './object-compat-run.ts';

const GROUP = 'monitoring.coreos.com';
const NAME = 'p';
const OBJSTORE = { name: 'thanos-objstore', key: 'objstore.yaml' };
const TRACING = { name: 'thanos-tracing', key: 'tracing.yaml' };

/** One Prometheus spec to render on both sides. */
interface ThanosCase {
  name: string;
  spec: Record<string, unknown>;
}

const CASES: ThanosCase[] = [
  { name: 'bare', spec: { version: 'v3.16.0', thanos: {} } },
  { name: 'upload-delayed', spec: { version: 'v3.16.0', thanos: { objectStorageConfig: OBJSTORE } } },
  { name: 'upload-disabled-old-thanos', spec: { version: 'v3.16.0', thanos: { version: 'v0.40.0', objectStorageConfig: OBJSTORE, blockSize: '1h' } } },
  { name: 'upload-disabled-old-prometheus', spec: { version: 'v3.5.0', thanos: { objectStorageConfig: OBJSTORE } } },
  { name: 'upload-ooo', spec: { version: 'v3.5.0', tsdb: { outOfOrderTimeWindow: '10m' }, thanos: { objectStorageConfig: { ...OBJSTORE, optional: true } } } },
  { name: 'disable-compaction-no-thanos', spec: { version: 'v3.16.0', disableCompaction: true } },
  { name: 'disable-compaction-blocksize', spec: { version: 'v3.16.0', disableCompaction: true, thanos: { blockSize: '3h' } } },
  {
    name: 'everything',
    spec: {
      version: 'v3.16.0', routePrefix: '/prom/', logLevel: 'warn', logFormat: 'json', imagePullPolicy: 'Always',
      storage: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '1Gi' } } } } },
      thanos: {
        image: 'registry.example/thanos:v0.42.2', version: 'v0.42.2', objectStorageConfigFile: '/etc/objstore/objstore.yaml', objectStorageConfig: OBJSTORE,
        tracingConfig: TRACING, grpcListenLocal: true, logLevel: 'debug', minTime: '-2w', readyTimeout: '20m', getConfigInterval: '1m', getConfigTimeout: '30s',
        grpcServerTlsConfig: { caFile: '/tls/ca.crt', certFile: '/tls/tls.crt', keyFile: '/tls/tls.key', minVersion: 'TLS12', cipherSuites: ['TLS_AES_128_GCM_SHA256'], curves: ['X25519'] },
        resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '1Gi' } },
        volumeMounts: [{ name: 'tls', mountPath: '/tls' }],
        additionalArgs: [{ name: 'shipper.upload-compacted' }, { name: 'store.limits.request-series', value: '1000' }],
      },
      volumes: [{ name: 'tls', emptyDir: {} }],
    },
  },
  { name: 'tracing-file-http-local', spec: { version: 'v3.16.0', thanos: { tracingConfigFile: '/etc/t.yaml', tracingConfig: TRACING, httpListenLocal: true, logFormat: 'logfmt' } } },
  { name: 'listen-local', spec: { version: 'v3.16.0', thanos: { listenLocal: true, objectStorageConfigFile: '/x.yaml' } } },
  { name: 'old-thanos-0-23', spec: { version: 'v3.16.0', thanos: { version: 'v0.23.0', getConfigTimeout: '30s', grpcServerTlsConfig: { minVersion: 'TLS13', certFile: '/c', keyFile: '/k' } } } },
  { name: 'thanos-0-30-no-v', spec: { version: 'v3.16.0', thanos: { version: '0.30.0', getConfigInterval: '2m', grpcServerTlsConfig: { minVersion: 'TLS13', certFile: '/c', keyFile: '/k', cipherSuites: ['X'] } } } },
  { name: 'base-image-tag', spec: { version: 'v3.16.0', thanos: { baseImage: 'thanos/thanos', tag: 'v0.39.0' } } },
  { name: 'base-image-sha', spec: { version: 'v3.16.0', thanos: { baseImage: 'quay.io/thanos/thanos', sha: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', tag: 'ignored' } } },
  { name: 'base-image-tagged', spec: { version: 'v3.16.0', thanos: { baseImage: 'quay.io/thanos/thanos:v0.41.0', version: 'v0.41.0' } } },
  { name: 'base-image-version', spec: { version: 'v3.16.0', thanos: { baseImage: 'busybox', version: 'v0.38.0' } } },
  { name: 'storage-no-subpath', spec: { version: 'v3.16.0', storage: { disableMountSubPath: true, emptyDir: { medium: 'Memory' } }, thanos: { objectStorageConfig: OBJSTORE } } },
];

async function createCase(api: BenchApi, item: ThanosCase): Promise<void> {
  const namespace = `thanos-${item.name}`;
  await api.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (const secret of [OBJSTORE, TRACING]) {
    await api.json('POST', `/api/v1/namespaces/${namespace}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: secret.name }, stringData: { [secret.key]: 'type: FILESYSTEM\nconfig:\n  directory: /tmp/x\n' } });
  }
  await api.json('POST', `/apis/${GROUP}/v1/namespaces/${namespace}/prometheuses?fieldValidation=Strict`, { apiVersion: `${GROUP}/v1`, kind: 'Prometheus', metadata: { name: NAME }, spec: item.spec });
}

/** The prometheus container's args from the first compaction flag promop or upstream may set. */
function compactionTail(container: V1Container | undefined): string[] {
  const args = container?.args ?? [];
  return args.filter((arg) => /^--(storage\.tsdb\.(max|min)-block-duration|storage\.tsdb\.delay-compact-file\.path|no-storage\.tsdb\.allow-overlapping-compaction)(=|$)/.test(arg));
}

async function compareCase(api: BenchApi, item: ThanosCase): Promise<ObjectCaseResult> {
  const namespace = `thanos-${item.name}`;
  const differences: ObjectCaseResult['differences'] = [];
  try {
    const upstream = await waitForObject<V1StatefulSet>(api, `/apis/apps/v1/namespaces/${namespace}/statefulsets/prometheus-${NAME}`);
    const upstreamService = await waitForObject<V1Service>(api, `/api/v1/namespaces/${namespace}/services/prometheus-operated`);
    const upstreamSecret = await waitForObject<V1Secret>(api, `/api/v1/namespaces/${namespace}/secrets/prometheus-${NAME}-thanos-prometheus-http-client-file`);
    const prometheus = await api.json<Prometheus>('GET', `/apis/${GROUP}/v1/namespaces/${namespace}/prometheuses/${NAME}`);
    const version = parsePrometheusVersion(prometheus.spec?.version ?? undefined)!;
    const built = buildStatefulSets(prometheus, { configs: ['global: {}\n'] as never, ruleConfigMaps: [], version });
    if (!built.ok) return { case: item.name, outcome: 'failed', differences, failure: `promop refused: ${JSON.stringify(built.problems)}` };
    const ours = built.value[0]!;
    ours.metadata!.name = `promop-${NAME}`;
    ours.spec!.selector = { matchLabels: { promop: 'dry-run' } };
    ours.spec!.template.metadata!.labels = { promop: 'dry-run' };
    const defaulted = await api.json<V1StatefulSet>('POST', `/apis/apps/v1/namespaces/${namespace}/statefulsets?dryRun=All`, ours);
    const containerOf = (sts: V1StatefulSet, name: string) => sts.spec?.template.spec?.containers.find((c) => c.name === name);
    const compare = (what: string, theirs: unknown, mine: unknown) => {
      if (JSON.stringify(theirs) !== JSON.stringify(mine)) differences.push({ what, prometheusOperator: theirs, promop: mine });
    };
    const sortKeys = (value: unknown): unknown => (Array.isArray(value) ? value.map(sortKeys)
      : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortKeys(v)])) : value);
    const theirSidecar = containerOf(upstream, 'thanos-sidecar');
    const mySidecar = containerOf(defaulted, 'thanos-sidecar');
    for (const key of new Set([...Object.keys(theirSidecar ?? {}), ...Object.keys(mySidecar ?? {})])) {
      compare(`thanos-sidecar.${key}`, sortKeys((theirSidecar as Record<string, unknown> | undefined)?.[key]), sortKeys((mySidecar as Record<string, unknown> | undefined)?.[key]));
    }
    compare('prometheus args (compaction)', compactionTail(containerOf(upstream, 'prometheus')), compactionTail(containerOf(defaulted, 'prometheus')));
    const volume = (sts: V1StatefulSet) => sts.spec?.template.spec?.volumes?.filter((v) => v.name === 'thanos-prometheus-http-client-file').map(sortKeys);
    compare('volume thanos-prometheus-http-client-file', volume(upstream), volume(defaulted));
    const grpcPort = (service: V1Service) => service.spec?.ports?.filter((port) => port.name === 'grpc').map(sortKeys);
    const ourService = buildGoverningService(namespace, [prometheus]);
    ourService.metadata!.name = 'promop-operated';
    const defaultedService = await api.json<V1Service>('POST', `/api/v1/namespaces/${namespace}/services?dryRun=All`, ourService);
    compare('Service grpc port', grpcPort(upstreamService), grpcPort(defaultedService));
    if (usesHttpClientFile(prometheus.spec ?? {})) {
      compare('HTTP client Secret data', upstreamSecret.data, buildThanosHttpClientSecret(prometheus).data);
    }
    const podLabels = (sts: V1StatefulSet) => Object.keys(sts.spec?.template.metadata?.labels ?? {}).filter((key) => /thanos/i.test(key)).sort();
    compare('pod labels about Thanos', podLabels(upstream), podLabels(built.value[0]!));
    return { case: item.name, outcome: differences.length === 0 ? 'equal' : 'different', differences };
  } catch (error) {
    return { case: item.name, outcome: 'failed', differences, failure: String(error) };
  }
}

await runObjectCompatDiff({
  cases: CASES,
  logPrefix: 'thanos-compat-diff-',
  create: createCase,
  compare: compareCase,
});
