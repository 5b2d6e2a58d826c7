/**
 * The children of an Alertmanager, as prometheus-operator lays them out (names, labels, ports, flags), minus its
 * config-reloader sidecar: the configuration Secret `alertmanager-<name>-generated`, the governing Service
 * `alertmanager-operated` shared by the namespace's Alertmanagers (the mesh finds its peers through the pods' DNS
 * names), and the StatefulSet `alertmanager-<name>`. Pure: the reconciler reads and writes.
 *
 * A new configuration does not change the pod template: promop reloads the running pods (reload/shard-reloader.ts).
 * Only an Alertmanager listening on 127.0.0.1 (`listenLocal`), which promop cannot call, carries the hash of its
 * configuration in the template, so a new one rolls its pods.
 */
import type {
  V1Container, V1OwnerReference, V1PersistentVolumeClaim, V1PodSecurityContext, V1ResourceRequirements, V1Secret, V1Service, V1StatefulSet,
  V1Volume, V1VolumeMount,
} from '@kubernetes/client-node';
import { ALERTMANAGER_CONFIG_DIR, ALERTMANAGER_CONFIG_FILE, ALERTMANAGER_TEMPLATES_DIR, DEFAULT_ALERTMANAGER_VERSION, type FieldProblem } from '@promop/config-generator';
import { API_VERSIONS, GROUP, type Alertmanager } from '@promop/crds';
import { mergeContainers } from '../workload/container-patch.ts';
import { asEmbedded } from '../workload/embedded-field.ts';
import { passedThroughPodFields } from '../workload/pod-fields.ts';
import { managedByLabels } from '../workload/labels.ts';
import { withCanonicalQuantities } from '../workload/quantity.ts';
import { base64Data } from '../workload/secret-size.ts';
import { WEB_CONFIG_FILE_NAME } from '../workload/web-config.ts';
import {
  CLUSTER_TLS_FILE_NAME, TLS_FILES_HASH_ANNOTATION, alertmanagerTlsArgs, alertmanagerTlsHash, alertmanagerTlsOf, alertmanagerTlsVolumes,
  alertmanagerVersionAtLeast, alertmanagerWebConfigSecretName, clusterTlsSecretName, type AlertmanagerTls,
} from './alertmanager-tls.ts';

/** The governing Service of every Alertmanager of a namespace, as prometheus-operator names it. */
export const ALERTMANAGER_SERVICE_NAME = 'alertmanager-operated';
/** Key of the configuration in the platform's configSecret and in the generated Secret. */
export const ALERTMANAGER_CONFIG_KEY = ALERTMANAGER_CONFIG_FILE;
/** Pod template annotation of a listenLocal Alertmanager: the hash of the configuration, so a new one rolls the pods. */
export const ROLLING_CONFIG_HASH_ANNOTATION = 'promop.prometheus.io/alertmanager-config-hash';

const WEB_PORT = 9093;
const MESH_PORT = 9094;
const CONFIG_DIR = ALERTMANAGER_CONFIG_DIR;
const STORAGE_DIR = '/alertmanager';
const CONTAINER_NAME = 'alertmanager';


type Spec = NonNullable<Alertmanager['spec']>;

/** `alertmanager-<name>`: the StatefulSet (the platform's configSecret defaults to the same name, alertmanagerConfigSecretName). */
export function alertmanagerStatefulSetName(name: string): string {
  return `alertmanager-${name}`;
}

/** The Secret promop writes the configuration to. */
export function generatedConfigSecretName(name: string): string {
  return `alertmanager-${name}-generated`;
}

/** The labels that select the pods of one Alertmanager (prometheus-operator's, with promop as manager). */
export function alertmanagerSelectorLabels(name: string): Record<string, string> {
  return { ...managedByLabels(), 'app.kubernetes.io/name': 'alertmanager', 'app.kubernetes.io/instance': name, alertmanager: name };
}

function ownerReference(alertmanager: Alertmanager, controller: boolean): V1OwnerReference {
  const { name, uid, namespace } = alertmanager.metadata;
  if (!uid) throw new Error(`bug: Alertmanager ${namespace}/${name} has no metadata.uid; read it from the API server`);
  return { apiVersion: `${GROUP}/${API_VERSIONS.Alertmanager}`, kind: 'Alertmanager', name, uid, controller, blockOwnerDeletion: true };
}

/**
 * The generated configuration Secret: alertmanager.yaml and the TLS files it names (one Secret, so the kubelet
 * gives the pod both at once).
 */
export function buildConfigSecret(alertmanager: Alertmanager, config: string, tlsAssets: Readonly<Record<string, string>> = {}): V1Secret {
  const { name, namespace } = alertmanager.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: generatedConfigSecretName(name), namespace, labels: { ...managedByLabels(), alertmanager: name }, ownerReferences: [ownerReference(alertmanager, true)] },
    type: 'Opaque',
    data: base64Data({ ...sortedByName(tlsAssets), [ALERTMANAGER_CONFIG_KEY]: config }),
  };
}

/** The Secret `alertmanager-<name>-web-config` holding the web config file (alertmanager-tls.ts). */
export function buildWebConfigSecret(alertmanager: Alertmanager, text: string): V1Secret {
  return tlsFileSecret(alertmanager, alertmanagerWebConfigSecretName(alertmanager.metadata.name), WEB_CONFIG_FILE_NAME, text);
}

/** The Secret `alertmanager-<name>-cluster-tls-config` holding the mesh's TLS file (alertmanager-tls.ts). */
export function buildClusterTlsSecret(alertmanager: Alertmanager, text: string): V1Secret {
  return tlsFileSecret(alertmanager, clusterTlsSecretName(alertmanager.metadata.name), CLUSTER_TLS_FILE_NAME, text);
}

function tlsFileSecret(alertmanager: Alertmanager, secretName: string, key: string, text: string): V1Secret {
  const { name, namespace } = alertmanager.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secretName, namespace, labels: { ...managedByLabels(), alertmanager: name }, ownerReferences: [ownerReference(alertmanager, true)] },
    type: 'Opaque',
    data: base64Data({ [key]: text }),
  };
}

/** The entries of `files` in name order: the same files give a byte-identical Secret, never rewritten. */
function sortedByName(files: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The Service for `namespace`, owned (non-controller) by every Alertmanager in `owners` (all that use it: the
 * garbage collector deletes it with the last). Not ready pods are published: peers must find each other before
 * the mesh, and so the pods, are ready.
 */
export function buildAlertmanagerService(namespace: string, owners: readonly Alertmanager[]): V1Service {
  const sorted = [...owners].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: ALERTMANAGER_SERVICE_NAME, namespace, labels: { ...managedByLabels(), 'operated-alertmanager': 'true' }, ownerReferences: sorted.map((each) => ownerReference(each, false)) },
    spec: {
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      ports: [
        { name: 'web', port: WEB_PORT, targetPort: 'web', protocol: 'TCP' },
        { name: 'tcp-mesh', port: MESH_PORT, targetPort: MESH_PORT, protocol: 'TCP' },
        { name: 'udp-mesh', port: MESH_PORT, targetPort: MESH_PORT, protocol: 'UDP' },
      ],
      selector: { 'app.kubernetes.io/name': 'alertmanager' },
    },
  };
}

/** The image: `spec.image`, else the release of `spec.version` (a leading `v` accepted), else the default. */
export function alertmanagerImage(spec: Spec): string {
  if (spec.image) return spec.image;
  const version = (spec.version || DEFAULT_ALERTMANAGER_VERSION).replace(/^v/, '');
  return `quay.io/prometheus/alertmanager:v${version}`;
}

/**
 * Alertmanager's flags, in prometheus-operator's order and with its version gates: the feature flags from 0.27,
 * the silences limits from 0.28, `--dispatch.start-delay` (from minReadySeconds, unless additionalArgs sets it) from
 * 0.30, `--log.format` from 0.16, `--cluster.label` from 0.26; no `--log.level=info` or `--log.format=logfmt` (the
 * defaults). `--cluster.peer-name` is not passed (docs/compatibility.md, Alertmanager). Then `additionalArgs`, which
 * alertmanagerSpecProblems refuses when they name a flag promop sets.
 */
export function alertmanagerArgs(alertmanager: Alertmanager): string[] {
  const additionalArgs = asEmbedded<AdditionalArg[]>(alertmanager.spec?.additionalArgs ?? []);
  return [...promopAlertmanagerArgs(alertmanager), ...additionalArgs.map((extra) => (extra.value === undefined ? `--${extra.name}` : `--${extra.name}=${extra.value}`))];
}

interface AdditionalArg { name: string; value?: string }

/** The names a flag of `name` clashes with: itself and its negation (`no-x` for `x` and back), as upstream compares. */
function clashingNames(name: string): string[] {
  return [name, name.startsWith('no-') ? name.slice(3) : `no-${name}`];
}

/** The flags promop sets, without `additionalArgs`. */
function promopAlertmanagerArgs(alertmanager: Alertmanager): string[] {
  const { name, namespace } = alertmanager.metadata;
  const spec: Spec = alertmanager.spec ?? {};
  const replicas = spec.replicas ?? 1;
  const at = (minor: number) => alertmanagerVersionAtLeast(spec.version, minor);
  const additionalNames = new Set(asEmbedded<AdditionalArg[]>(spec.additionalArgs ?? []).map((extra) => extra.name));
  // As upstream, except that additionalPeers mesh one replica too (upstream leaves its mesh off: docs/compatibility.md).
  const meshed = replicas > 1 || spec.forceEnableClusterMode === true || (spec.additionalPeers?.length ?? 0) > 0;
  const args = [
    `--config.file=${CONFIG_DIR}/${ALERTMANAGER_CONFIG_KEY}`,
    `--storage.path=${STORAGE_DIR}`,
    `--data.retention=${spec.retention || '120h'}`,
    // An empty listen address turns the mesh off: one replica has nobody to gossip with.
    meshed ? `--cluster.listen-address=[$(POD_IP)]:${MESH_PORT}` : '--cluster.listen-address=',
    `--web.listen-address=${spec.listenLocal ? '127.0.0.1' : ''}:${WEB_PORT}`,
  ];
  if (spec.externalUrl) args.push(`--web.external-url=${spec.externalUrl}`);
  if (at(27) && spec.enableFeatures?.length) args.push(`--enable-feature=${spec.enableFeatures.join(',')}`);
  args.push(`--web.route-prefix=${spec.routePrefix || '/'}`);
  // From Alertmanager 0.17, which has the flags (alertmanagerSpecProblems refuses a value that is no count).
  const web = asEmbedded<{ getConcurrency?: number; timeout?: number } | undefined>(spec.web);
  if (at(17)) {
    if (web?.getConcurrency !== undefined) args.push(`--web.get-concurrency=${web.getConcurrency}`);
    if (web?.timeout !== undefined) args.push(`--web.timeout=${web.timeout}`);
  }
  if (at(28)) {
    if (spec.limits?.maxSilences !== undefined) args.push(`--silences.max-silences=${spec.limits.maxSilences}`);
    if (spec.limits?.maxPerSilenceBytes) args.push(`--silences.max-per-silence-bytes=${byteCount(spec.limits.maxPerSilenceBytes)}`);
  }
  if (at(30) && spec.minReadySeconds !== undefined && !clashingNames('dispatch.start-delay').some((flag) => additionalNames.has(flag))) {
    args.push(`--dispatch.start-delay=${spec.minReadySeconds}s`);
  }
  if (spec.logLevel && spec.logLevel !== 'info') args.push(`--log.level=${spec.logLevel}`);
  if (at(16) && spec.logFormat && spec.logFormat !== 'logfmt') args.push(`--log.format=${spec.logFormat}`);
  if (spec.clusterAdvertiseAddress) args.push(`--cluster.advertise-address=${spec.clusterAdvertiseAddress}`);
  if (spec.clusterGossipInterval) args.push(`--cluster.gossip-interval=${spec.clusterGossipInterval}`);
  if (spec.clusterPushpullInterval) args.push(`--cluster.pushpull-interval=${spec.clusterPushpullInterval}`);
  if (spec.clusterPeerTimeout) args.push(`--cluster.peer-timeout=${spec.clusterPeerTimeout}`);
  if (at(26)) args.push(`--cluster.label=${spec.clusterLabel ?? `${namespace}/${name}`}`);
  for (let replica = 0; replica < replicas; replica += 1) {
    args.push(`--cluster.peer=${alertmanagerStatefulSetName(name)}-${replica}.${spec.serviceName || ALERTMANAGER_SERVICE_NAME}:${MESH_PORT}`);
  }
  for (const peer of spec.additionalPeers ?? []) args.push(`--cluster.peer=${peer}`);
  args.push('--cluster.reconnect-timeout=5m');
  args.push(...alertmanagerTlsArgs(tlsOrNone(spec)));
  return args;
}

const BYTE_UNIT_POWERS: Readonly<Record<string, number>> = { '': 0, K: 1, M: 2, G: 3, T: 4, P: 5, E: 6 };

/**
 * The bytes of a size as the CRD takes it (`512KiB`, `1MB`, `0`), every unit a power of 1024 as upstream reads it;
 * a size of another shape (the CRD's pattern refuses it) as it is.
 */
function byteCount(size: string): string {
  const match = /^(\d*\.?\d+)([KMGTPE]?)i?B$/.exec(size);
  if (!match) return size;
  return String(Math.trunc(Number(match[1]) * 1024 ** BYTE_UNIT_POWERS[match[2]!]!));
}

/** The TLS files of `spec`, none when its fields have problems (alertmanagerSpecProblems refuses it then). */
function tlsOrNone(spec: Spec): AlertmanagerTls {
  const tls = alertmanagerTlsOf(spec);
  return tls.ok ? tls.value : { web: undefined, cluster: undefined };
}

/**
 * What promop refuses in an Alertmanager's own spec (beside its configuration), each at its path: a
 * `spec.web.tlsConfig`, `spec.web.httpConfig` or `spec.clusterTLS` it cannot write a file of (alertmanager-tls.ts),
 * a `spec.web.getConcurrency` or `spec.web.timeout` that is no count (the CRD keeps `spec.web` opaque), and an
 * `additionalArgs` entry without a name, or naming a flag promop sets (or its `no-` negation).
 */
export function alertmanagerSpecProblems(alertmanager: Alertmanager): FieldProblem[] {
  const spec: Spec = alertmanager.spec ?? {};
  const problems: FieldProblem[] = [];
  const web = asEmbedded<Record<string, unknown> | undefined>(spec.web) ?? {};
  const tls = alertmanagerTlsOf(spec);
  if (!tls.ok) problems.push(...tls.problems);
  for (const field of ['getConcurrency', 'timeout'] as const) {
    const value = web[field];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 2_147_483_647)) {
      problems.push({ path: `spec.web.${field}`, message: `${JSON.stringify(value)} is not a count (a whole number from 0)` });
    }
  }
  // As upstream: a second `--config.file` or `--cluster.listen-address` would silently win over promop's.
  const managed = new Set(promopAlertmanagerArgs(alertmanager).map((arg) => /^--([^=]*)/.exec(arg)?.[1]));
  // The CRD keeps the list opaque, so the shape is checked here.
  asEmbedded<Partial<Record<keyof AdditionalArg, unknown>>[]>(spec.additionalArgs ?? []).forEach((extra, index) => {
    const path = `spec.additionalArgs[${index}]`;
    if (typeof extra.name !== 'string' || extra.name === '') {
      problems.push({ path: `${path}.name`, message: 'must be a non-empty string' });
    } else if (clashingNames(extra.name).some((flag) => managed.has(flag))) {
      problems.push({ path: `${path}.name`, message: `"${extra.name}" is set by promop and cannot be overridden` });
    } else if (extra.value !== undefined && typeof extra.value !== 'string') {
      problems.push({ path: `${path}.value`, message: 'must be a string' });
    }
  });
  return problems;
}

/**
 * The StatefulSet running `alertmanager`'s pods with the configuration whose keyed hash is `hash` (the reconciler's,
 * see reconcile-alertmanager.ts; used only with listenLocal).
 */
export function buildAlertmanagerStatefulSet(alertmanager: Alertmanager, hash: string): V1StatefulSet {
  const { name, namespace } = alertmanager.metadata;
  const spec: Spec = alertmanager.spec ?? {};
  const selector = alertmanagerSelectorLabels(name);
  const storageName = `${alertmanagerStatefulSetName(name)}-db`;
  const claimTemplate = asEmbedded<V1PersistentVolumeClaim | undefined>(spec.storage?.volumeClaimTemplate);
  const tls = tlsOrNone(spec);
  const tlsVolumes = alertmanagerTlsVolumes(name, tls);
  const tlsHash = alertmanagerTlsHash(tls);
  // In upstream's order: the data volume after the Secrets, ConfigMaps and TLS files.
  const volumes: V1Volume[] = [{ name: 'config-volume', secret: { secretName: generatedConfigSecretName(name) } }];
  for (const secret of spec.secrets ?? []) volumes.push({ name: `secret-${secret}`, secret: { secretName: secret } });
  for (const configMap of spec.configMaps ?? []) volumes.push({ name: `configmap-${configMap}`, configMap: { name: configMap } });
  volumes.push(...tlsVolumes.volumes);
  if (!claimTemplate) volumes.push({ name: storageName, emptyDir: asEmbedded(spec.storage?.emptyDir) ?? {} });
  volumes.push(...asEmbedded<V1Volume[]>(spec.volumes ?? []));
  const mounts: V1VolumeMount[] = [
    { name: 'config-volume', mountPath: CONFIG_DIR, readOnly: true },
    // The generated Secret holds the notification templates too: the same volume where upstream mounts them.
    ...(spec.alertmanagerConfiguration?.templates?.length ? [{ name: 'config-volume', mountPath: ALERTMANAGER_TEMPLATES_DIR, readOnly: true }] : []),
    // As upstream: a subPath for any spec.storage (an emptyDir too) unless disableMountSubPath.
    { name: storageName, mountPath: STORAGE_DIR, ...(spec.storage && !spec.storage.disableMountSubPath ? { subPath: 'alertmanager-db' } : {}) },
    ...(spec.secrets ?? []).map((secret) => ({ name: `secret-${secret}`, mountPath: `/etc/alertmanager/secrets/${secret}`, readOnly: true })),
    ...(spec.configMaps ?? []).map((configMap) => ({ name: `configmap-${configMap}`, mountPath: `/etc/alertmanager/configmaps/${configMap}`, readOnly: true })),
    ...asEmbedded<V1VolumeMount[]>(spec.volumeMounts ?? []),
    ...tlsVolumes.mounts,
  ];
  const scheme = tls.web?.https ? { scheme: 'HTTPS' } : {};
  const httpGet = (path: string) => ({ path: `${(spec.routePrefix || '/').replace(/\/$/, '')}${path}`, port: 'web', ...scheme });
  const container: V1Container = {
    name: CONTAINER_NAME,
    image: alertmanagerImage(spec),
    ...(spec.imagePullPolicy ? { imagePullPolicy: spec.imagePullPolicy } : {}),
    args: alertmanagerArgs(alertmanager),
    env: [{ name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } }],
    ports: [
      // On 127.0.0.1 the web port is no pod port (as upstream).
      ...(spec.listenLocal ? [] : [{ name: 'web', containerPort: WEB_PORT, protocol: 'TCP' }]),
      { name: 'mesh-tcp', containerPort: MESH_PORT, protocol: 'TCP' },
      { name: 'mesh-udp', containerPort: MESH_PORT, protocol: 'UDP' },
    ],
    ...(spec.listenLocal ? {} : {
      livenessProbe: { httpGet: httpGet('/-/healthy'), timeoutSeconds: 3, failureThreshold: 10 },
      readinessProbe: { httpGet: httpGet('/-/ready'), initialDelaySeconds: 3, timeoutSeconds: 3, periodSeconds: 5, failureThreshold: 10 },
    }),
    resources: asEmbedded<V1ResourceRequirements | undefined>(spec.resources) ?? { requests: { memory: '200Mi' } },
    volumeMounts: mounts,
    // Alertmanager writes only below its storage volume.
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
  const statefulSet: V1StatefulSet = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: alertmanagerStatefulSetName(name),
      namespace,
      labels: { ...alertmanager.metadata.labels, ...selector },
      ownerReferences: [ownerReference(alertmanager, true)],
    },
    spec: {
      serviceName: spec.serviceName || ALERTMANAGER_SERVICE_NAME,
      replicas: spec.replicas ?? 1,
      podManagementPolicy: spec.podManagementPolicy || 'Parallel',
      updateStrategy: asEmbedded(spec.updateStrategy) ?? { type: 'RollingUpdate' },
      ...(spec.minReadySeconds !== undefined ? { minReadySeconds: spec.minReadySeconds } : {}),
      selector: { matchLabels: selector },
      template: {
        metadata: {
          labels: { ...versionLabel(spec), ...spec.podMetadata?.labels, ...selector },
          annotations: {
            'kubectl.kubernetes.io/default-container': CONTAINER_NAME,
            ...spec.podMetadata?.annotations,
            ...(spec.listenLocal ? { [ROLLING_CONFIG_HASH_ANNOTATION]: hash } : {}),
            // Both TLS files are mounted with subPath, which the kubelet never updates: a new file rolls the pods.
            ...(tlsHash ? { [TLS_FILES_HASH_ANNOTATION]: tlsHash } : {}),
          },
        },
        spec: {
          ...passedThroughPodFields(spec),
          securityContext: asEmbedded<V1PodSecurityContext | undefined>(spec.securityContext) ?? { runAsUser: 1000, runAsNonRoot: true, fsGroup: 2000 },
          ...(spec.automountServiceAccountToken !== undefined ? { automountServiceAccountToken: spec.automountServiceAccountToken } : {}),
          terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? 120,
          containers: mergeContainers([container], asEmbedded<V1Container[]>(spec.containers ?? [])),
          volumes,
        },
      },
      ...(claimTemplate ? { volumeClaimTemplates: [claimFrom(claimTemplate, storageName)] } : {}),
    },
  };
  return withCanonicalQuantities(statefulSet);
}

/** `app.kubernetes.io/version` of the pods: the version deployed, as upstream reads it (none when it is no version). */
function versionLabel(spec: Spec): Record<string, string> {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(spec.version || DEFAULT_ALERTMANAGER_VERSION);
  return match ? { 'app.kubernetes.io/version': `${Number(match[1])}.${Number(match[2])}.${Number(match[3])}` } : {};
}

/** The claim template of the data volume: ReadWriteOnce unless the template names access modes (as upstream). */
function claimFrom(template: V1PersistentVolumeClaim, storageName: string): V1PersistentVolumeClaim {
  return { ...template, metadata: { ...template.metadata, name: storageName }, spec: { ...template.spec, accessModes: template.spec?.accessModes ?? ['ReadWriteOnce'] } };
}
