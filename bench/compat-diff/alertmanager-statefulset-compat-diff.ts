/**
 * Differential comparison of the Alertmanager StatefulSets promop renders (buildAlertmanagerStatefulSet) with
 * prometheus-operator v0.93.1's own, case by case.
 *
 *   node bench/compat-diff/alertmanager-statefulset-compat-diff.ts [--only name,name] [--out file.json]
 *
 * One control plane on loopback (no kubelet, so no pod ever starts), prometheus-operator's CRDs, one namespace per
 * case with an Alertmanager `am` and the Secrets and ConfigMap it names (a real certificate and key for web TLS).
 * prometheus-operator writes StatefulSet `alertmanager-am`; promop builds its own from the Alertmanager as the API
 * server returns it (CRD defaults applied) and sends it with dryRun, so both carry the API server's defaults.
 * Compared: the `alertmanager` container whole (args in order), the other containers, the pod's volumes, every other
 * pod field, the pod's labels and annotations, the claim templates and the StatefulSet's own fields.
 *
 * What docs/compatibility.md explains is taken out before comparing and named per case (`documented`): upstream's
 * config-reloader containers and what only they use (`config-out`, `tls-assets`, the reloader's output as
 * `--config.file`), promop's read-only configuration mount, upstream's empty web config file without
 * `web.tlsConfig`/`httpConfig`, the TLS volume names (no hash), promop's TLS files hash and listenLocal config hash
 * annotations, the default pod security context and the default version. Exit status 1 on any other difference.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Container, V1StatefulSet, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { DEFAULT_ALERTMANAGER_VERSION } from '@promop/config-generator';
import type { Alertmanager } from '@promop/crds';
import { buildAlertmanagerStatefulSet } from '@promop/controller/alertmanager';
import { DEFAULT_POD_SECURITY_CONTEXT } from '@promop/controller/workload';
import { createPki } from '@promop/testkit';
import type { BenchApi } from '../side-by-side/api-client.ts';
import { caseComparison, runObjectCompatDiff, waitForObject, WEB_TLS_FROM_SECRET, type ObjectCaseResult, type SpecCase } from './object-compat-run.ts';

const GROUP = 'monitoring.coreos.com';
const NAME = 'am';
/** prometheus-operator 0.93's default Alertmanager version, named in most cases so both deploy the same release. */
const V = 'v0.33.1';

const TLS = WEB_TLS_FROM_SECRET;

const CASES: SpecCase[] = [
  { name: 'bare', spec: {} },
  { name: 'one-replica', spec: { version: V, replicas: 1 } },
  { name: 'three-replicas', spec: { version: V, replicas: 3 } },
  { name: 'version-0-25', spec: { version: 'v0.25.0', replicas: 3, clusterLabel: 'x', limits: { maxSilences: 10 }, minReadySeconds: 5, logFormat: 'json' } },
  { name: 'version-0-27', spec: { version: 'v0.27.0', replicas: 3, limits: { maxSilences: 10 }, enableFeatures: ['receiver-name-in-metrics'] } },
  { name: 'version-0-29', spec: { version: 'v0.29.0', replicas: 3, limits: { maxSilences: 10 }, minReadySeconds: 5 } },
  { name: 'version-0-15', spec: { version: 'v0.15.3', replicas: 2, logFormat: 'json', logLevel: 'debug' } },
  { name: 'min-ready-seconds', spec: { version: V, replicas: 2, minReadySeconds: 30 } },
  { name: 'min-ready-seconds-own-delay', spec: { version: V, minReadySeconds: 30, additionalArgs: [{ name: 'dispatch.start-delay', value: '5s' }] } },
  { name: 'log-info-logfmt', spec: { version: V, logLevel: 'info', logFormat: 'logfmt' } },
  { name: 'log-debug-json', spec: { version: V, logLevel: 'debug', logFormat: 'json' } },
  { name: 'limits', spec: { version: V, limits: { maxSilences: 100, maxPerSilenceBytes: '1MiB' } } },
  { name: 'cluster-label', spec: { version: V, replicas: 2, clusterLabel: 'team-a/main' } },
  { name: 'cluster-tuning', spec: { version: V, replicas: 2, clusterAdvertiseAddress: '10.0.0.1:9094', clusterGossipInterval: '300ms', clusterPushpullInterval: '2m', clusterPeerTimeout: '20s' } },
  { name: 'additional-peers', spec: { version: V, additionalPeers: ['am-other-0.example:9094'] } },
  { name: 'additional-peers-meshed', spec: { version: V, replicas: 2, additionalPeers: ['am-other-0.example:9094'] } },
  { name: 'force-cluster-mode', spec: { version: V, forceEnableClusterMode: true } },
  { name: 'listen-local', spec: { version: V, listenLocal: true } },
  { name: 'route-prefix-external-url', spec: { version: V, routePrefix: '/am', externalUrl: 'https://am.example/am', web: { getConcurrency: 4, timeout: 30 } } },
  { name: 'retention-features', spec: { version: V, retention: '240h', enableFeatures: ['receiver-name-in-metrics'] } },
  { name: 'storage-emptydir', spec: { version: V, storage: { emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } } } },
  { name: 'storage-claim', spec: { version: V, storage: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '5Gi' } } } } } } },
  { name: 'storage-claim-named', spec: { version: V, storage: { disableMountSubPath: true, volumeClaimTemplate: { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } } } } } },
  {
    name: 'containers-patch',
    spec: {
      version: V, resources: { requests: { cpu: '100m', memory: '300Mi' } },
      containers: [
        { name: 'alertmanager', env: [{ name: 'GOMEMLIMIT', value: '250MiB' }], readinessProbe: { periodSeconds: 10 } },
        { name: 'extra', image: 'busybox:1.36', args: ['sleep', 'infinity'] },
      ],
      initContainers: [{ name: 'init-chown', image: 'busybox:1.36', command: ['sh', '-c', 'true'] }],
    },
  },
  { name: 'pod-metadata', spec: { version: V, podMetadata: { labels: { team: 'infra' }, annotations: { 'example.com/note': 'x' } } } },
  {
    name: 'pod-fields',
    spec: {
      version: V, serviceAccountName: 'alertmanager', priorityClassName: 'high', nodeSelector: { 'kubernetes.io/os': 'linux' },
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'monitoring', effect: 'NoSchedule' }],
      securityContext: { runAsUser: 65534, runAsGroup: 65534, runAsNonRoot: true, fsGroup: 65534 },
      terminationGracePeriodSeconds: 30, imagePullSecrets: [{ name: 'regcred' }], imagePullPolicy: 'IfNotPresent',
      podManagementPolicy: 'OrderedReady', updateStrategy: { type: 'OnDelete' }, automountServiceAccountToken: false,
      secrets: ['extra'], configMaps: ['extra'], volumes: [{ name: 'scratch', emptyDir: {} }], volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
    },
  },
  { name: 'web-tls', spec: { version: V, web: { tlsConfig: TLS } } },
  { name: 'additional-args', spec: { version: V, additionalArgs: [{ name: 'alerts.gc-interval', value: '10m' }, { name: 'web.systemd-socket' }] } },
  { name: 'image', spec: { image: 'registry.example/alertmanager:custom', version: 'v0.28.1' } },
];

const namespaceOf = (item: SpecCase) => `amsts-${item.name}`;

let tlsMaterial: Record<string, string> | undefined;

async function createCase(api: BenchApi, item: SpecCase): Promise<void> {
  if (!tlsMaterial) {
    const pki = createPki(mkdtempSync(join(tmpdir(), 'am-sts-compat-diff-pki-')));
    tlsMaterial = { 'tls.crt': readFileSync(pki.servingCert, 'utf8'), 'tls.key': readFileSync(pki.servingKey, 'utf8') };
  }
  const namespace = namespaceOf(item);
  await api.json('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  for (const name of ['extra', 'web-tls']) await api.json('POST', `/api/v1/namespaces/${namespace}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: tlsMaterial });
  await api.json('POST', `/api/v1/namespaces/${namespace}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' }, data: { file: 'x' } });
  await api.json('POST', `/apis/${GROUP}/v1/namespaces/${namespace}/alertmanagers?fieldValidation=Strict`, { apiVersion: `${GROUP}/v1`, kind: 'Alertmanager', metadata: { name: NAME }, spec: item.spec });
}

/** Each side's `--config.file`: upstream reads its reloader's output, promop the generated Secret (documented). */
const CONFIG_FILE_FLAGS = new Set(['--config.file=/etc/alertmanager/config_out/alertmanager.env.yaml', '--config.file=/etc/alertmanager/config/alertmanager.yaml']);
const PEER_NAME_FLAG = '--cluster.peer-name=$(POD_NAME)';
const EMPTY_WEB_CONFIG_FLAG = '--web.config.file=/etc/alertmanager/web_config/web-config.yaml';
/** Volumes only upstream's reloader uses. */
const RELOADER_VOLUMES = new Set(['config-out', 'tls-assets']);
/** Upstream suffixes each TLS volume name with a hash; promop only a name too long (documented). */
const withoutNameHash = (name: string) => name.replace(/^((?:web-config-tls|cluster-tls-(?:server|client)-config)-.*)-[0-9a-f]{8}$/, '$1');

async function compareCase(api: BenchApi, item: SpecCase): Promise<ObjectCaseResult> {
  const namespace = namespaceOf(item);
  const { compare, note, result } = caseComparison(item.name);
  try {
    const alertmanager = await api.json<Alertmanager>('GET', `/apis/${GROUP}/v1/namespaces/${namespace}/alertmanagers/${NAME}`);
    const spec = alertmanager.spec ?? {};
    const web = Boolean((spec.web as { tlsConfig?: unknown; httpConfig?: unknown } | undefined)?.tlsConfig || (spec.web as { httpConfig?: unknown } | undefined)?.httpConfig);
    const clusterTls = spec.clusterTLS !== undefined;
    if (!web) note('no web config volume without web.tlsConfig/httpConfig', true);
    if (!clusterTls) note('no cluster TLS volume without clusterTLS', true);
    const ours = buildAlertmanagerStatefulSet(alertmanager, 'compat-diff');
    const upstream = await waitForObject<V1StatefulSet>(api, `/apis/apps/v1/namespaces/${namespace}/statefulsets/alertmanager-${NAME}`);
    const podLabels = ours.spec!.template.metadata!.labels!;
    ours.metadata!.name = `promop-${NAME}`;
    ours.spec!.selector = { matchLabels: { promop: 'dry-run' } };
    ours.spec!.template.metadata!.labels = { promop: 'dry-run' };
    const defaulted = await api.json<V1StatefulSet>('POST', `/apis/apps/v1/namespaces/${namespace}/statefulsets?dryRun=All`, ours);

    const containerOf = (sts: V1StatefulSet) => sts.spec?.template.spec?.containers.find((c) => c.name === 'alertmanager');
    const theirs = { ...containerOf(upstream) } as Record<string, unknown> & V1Container;
    const mine = { ...containerOf(defaulted) } as Record<string, unknown> & V1Container;
    const theirLabels = { ...upstream.spec?.template.metadata?.labels };
    // Without spec.version each deploys the release it is tested with (docs/compatibility.md, Alertmanager).
    if (!spec.version && !spec.image) {
      const upstreamVersion = theirLabels['app.kubernetes.io/version'];
      const ourVersion = DEFAULT_ALERTMANAGER_VERSION.replace(/^v/, '');
      if (upstreamVersion && theirs.image?.endsWith(`:v${upstreamVersion}`)) {
        theirs.image = `${theirs.image.slice(0, -upstreamVersion.length)}${ourVersion}`;
        theirLabels['app.kubernetes.io/version'] = ourVersion;
        note(`default version ${ourVersion}`, upstreamVersion !== ourVersion);
      }
    }
    const comparableArgs = (args: readonly string[] | undefined, side: 'upstream' | 'promop') => (args ?? []).filter((arg) => {
      if (CONFIG_FILE_FLAGS.has(arg)) return false;
      if (!web && side === 'upstream' && arg === EMPTY_WEB_CONFIG_FLAG) { note('no --web.config.file without web.tlsConfig/httpConfig', true); return false; }
      return true;
    });
    theirs.args = comparableArgs(theirs.args, 'upstream');
    mine.args = comparableArgs(mine.args, 'promop');
    // promop passes no --cluster.peer-name, nor the POD_NAME it reads: its mesh peers keep random names (documented).
    const withoutPeerName = (args: string[]) => args.filter((arg) => arg !== PEER_NAME_FLAG);
    note('no --cluster.peer-name', withoutPeerName(theirs.args).length !== theirs.args.length);
    theirs.args = withoutPeerName(theirs.args);
    theirs.env = theirs.env?.filter((variable) => !(variable.name === 'POD_NAME' && variable.valueFrom?.fieldRef?.fieldPath === 'metadata.name'));
    // additionalPeers mesh one replica in promop; upstream leaves its mesh off (documented).
    if ((spec.replicas ?? 1) <= 1 && !spec.forceEnableClusterMode && spec.additionalPeers?.length && theirs.args.includes('--cluster.listen-address=')) {
      theirs.args = theirs.args.map((arg) => (arg === '--cluster.listen-address=' ? '--cluster.listen-address=[$(POD_IP)]:9094' : arg));
      note('additionalPeers mesh one replica', true);
    }
    // A claim template's own name: promop keeps `alertmanager-<name>-db`, the name of the claims it always made (documented).
    const claimName = (spec.storage as { volumeClaimTemplate?: { metadata?: { name?: string } } } | undefined)?.volumeClaimTemplate?.metadata?.name;
    const dataVolume = `alertmanager-${NAME}-db`;
    if (claimName && claimName !== dataVolume) {
      note('claim template name', true);
      theirs.volumeMounts = theirs.volumeMounts?.map((mount) => (mount.name === claimName ? { ...mount, name: dataVolume } : mount));
      for (const claim of upstream.spec?.volumeClaimTemplates ?? []) if (claim.metadata?.name === claimName) claim.metadata.name = dataVolume;
    }
    const mounts = (c: V1Container, side: 'upstream' | 'promop') => c.volumeMounts?.filter((mount: V1VolumeMount) => comparableVolume(mount.name, web, clusterTls, side))
      .map((mount) => ({ ...mount, name: withoutNameHash(mount.name), ...(mount.name === 'config-volume' ? { readOnly: true } : {}) }));
    note('config-volume mounted read-only', theirs.volumeMounts?.some((mount) => mount.name === 'config-volume' && !mount.readOnly) ?? false);
    theirs.volumeMounts = mounts(theirs, 'upstream');
    mine.volumeMounts = mounts(mine, 'promop');
    for (const key of new Set([...Object.keys(theirs), ...Object.keys(mine)])) compare(`alertmanager.${key}`, theirs[key], mine[key]);

    const names = (list: V1Container[] | undefined) => (list ?? []).map((c) => c.name).filter((name) => name !== 'config-reloader' && name !== 'init-config-reloader');
    const theirPod = upstream.spec?.template.spec;
    const myPod = defaulted.spec?.template.spec;
    note('no config-reloader containers', names(theirPod?.containers).length !== (theirPod?.containers.length ?? 0));
    compare('containers besides the config-reloader', names(theirPod?.containers), names(myPod?.containers));
    compare('initContainers besides init-config-reloader', names(theirPod?.initContainers), names(myPod?.initContainers));
    for (const extra of myPod?.containers ?? []) {
      if (extra.name !== 'alertmanager') compare(`container ${extra.name}`, theirPod?.containers.find((c) => c.name === extra.name), extra);
    }
    for (const init of myPod?.initContainers ?? []) compare(`initContainer ${init.name}`, theirPod?.initContainers?.find((c) => c.name === init.name), init);
    const volumes = (list: V1Volume[] | undefined, side: 'upstream' | 'promop') => (list ?? []).filter((volume) => comparableVolume(volume.name, web, clusterTls, side)).map((volume) => ({ ...volume, name: withoutNameHash(volume.name) }));
    if (web) note('TLS volume names without a hash', true);
    compare('volumes (besides config-out and tls-assets)', volumes(theirPod?.volumes, 'upstream'), volumes(myPod?.volumes, 'promop'));
    const { containers: _a, initContainers: _b, volumes: _c, ...theirRest } = theirPod ?? { containers: [] };
    const { containers: _d, initContainers: _e, volumes: _f, ...myRest } = myPod ?? { containers: [] };
    const unset = (context: object | undefined) => context === undefined || Object.keys(context).length === 0;
    if (!spec.securityContext && unset(theirRest.securityContext) && JSON.stringify(myRest.securityContext) === JSON.stringify(DEFAULT_POD_SECURITY_CONTEXT)) {
      // promop keeps the pod security context it always set, for data its earlier pods wrote (documented).
      myRest.securityContext = theirRest.securityContext;
      note('default pod security context (backward compatible)', true);
    }
    compare('pod spec besides containers and volumes', theirRest, myRest);

    const annotations = { ...defaulted.spec?.template.metadata?.annotations };
    for (const key of ['promop.prometheus.io/tls-files-hash', 'promop.prometheus.io/alertmanager-config-hash']) {
      note(`${key} annotation`, key in annotations);
      delete annotations[key];
    }
    compare('pod annotations', upstream.spec?.template.metadata?.annotations, annotations);
    // promop's pods carry its two managed-by labels, in the (immutable) selector too (documented).
    note('managed-by labels in the selector', 'managed-by' in podLabels);
    const labels = (all: Record<string, string> | undefined) => Object.fromEntries(Object.entries(all ?? {}).filter(([key]) => key !== 'app.kubernetes.io/managed-by' && key !== 'managed-by'));
    compare('pod labels besides managed-by', labels(theirLabels), labels(podLabels));
    const claims = (sts: V1StatefulSet) => sts.spec?.volumeClaimTemplates?.map((claim) => ({
      metadata: { name: claim.metadata?.name, labels: claim.metadata?.labels, annotations: claim.metadata?.annotations }, spec: claim.spec,
    }));
    compare('volumeClaimTemplates', claims(upstream), claims(defaulted));
    for (const field of ['serviceName', 'replicas', 'podManagementPolicy', 'updateStrategy', 'minReadySeconds', 'persistentVolumeClaimRetentionPolicy'] as const) {
      compare(`spec.${field}`, upstream.spec?.[field], defaulted.spec?.[field]);
    }
    return result();
  } catch (error) {
    return result('failed', String(error));
  }
}

/** Volumes (and mounts) only one side has by design: upstream's reloader's, and its empty TLS files of unset fields. */
function comparableVolume(name: string, web: boolean, clusterTls: boolean, side: 'upstream' | 'promop'): boolean {
  if (side === 'upstream' && RELOADER_VOLUMES.has(name)) return false;
  return (web || name !== 'web-config') && (clusterTls || name !== 'cluster-tls-config');
}

await runObjectCompatDiff({
  cases: CASES,
  logPrefix: 'alertmanager-statefulset-compat-diff-',
  create: createCase,
  compare: compareCase,
  equalMeans: 'besides the documented differences',
});
