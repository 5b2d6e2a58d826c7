/**
 * The children of a ThanosRuler, as prometheus-operator v0.93 lays them out (pkg/thanos/statefulset.go: names,
 * labels, ports, flags in its order, volumes in its order), minus its config-reloader sidecar: promop reloads
 * `thanos rule` itself (reload/shard-reloader.ts). The StatefulSet `thanos-ruler-<name>`, the governing Service
 * `thanos-ruler-operated` shared by the namespace's ThanosRulers, the rule ConfigMaps
 * `thanos-ruler-<name>-rulefiles-<i>`, and the three Secrets every pod mounts: `thanos-ruler-<name>-config` (the
 * remote write file), `thanos-ruler-<name>-tls-assets-0` and `thanos-ruler-<name>-web-config`. The query,
 * Alertmanager, object storage, tracing and alert relabeling configurations are the user's Secret keys, mounted
 * from the ThanosRuler's own namespace as upstream mounts them. Pure: the reconciler reads and writes.
 */
import type {
  V1ConfigMap, V1Container, V1OwnerReference, V1PersistentVolumeClaim, V1PodSecurityContext, V1ResourceRequirements, V1Secret, V1Service,
  V1StatefulSet, V1Volume, V1VolumeMount,
} from '@kubernetes/client-node';
import {
  THANOS_REMOTE_WRITE_SINCE, parseThanosVersion, thanosVersionAtLeast, type FieldProblem, type RuleConfigMap, type ThanosReleaseVersion, type ThanosRulerRemoteWrite,
} from '@promop/config-generator';
import { API_VERSIONS, GROUP, type ThanosRuler } from '@promop/crds';
import type { BuildResult } from '../workload/build-result.ts';
import { mergeContainers } from '../workload/container-patch.ts';
import { asEmbedded } from '../workload/embedded-field.ts';
import { MANAGED_BY, MANAGED_BY_LABEL, managedByLabels } from '../workload/labels.ts';
import { passedThroughPodFields } from '../workload/pod-fields.ts';
import { withCanonicalQuantities } from '../workload/quantity.ts';
import { WEB_CONFIG_HASH_ANNOTATION, webConfigFile, webConfigHash, webConfigVolumes, type WebConfig } from '../workload/web-config.ts';
import { base64Data } from '../workload/secret-size.ts';
import { DEFAULT_THANOS_BASE_IMAGE, DEFAULT_THANOS_VERSION, THANOS_GRPC_PORT, THANOS_HTTP_PORT } from '../workload/thanos-sidecar.ts';

/** The governing Service of every ThanosRuler of a namespace, as prometheus-operator names it. */
export const THANOS_RULER_SERVICE_NAME = 'thanos-ruler-operated';
/** The container promop runs (users' `spec.containers` patch it by this name). */
export const THANOS_RULER_CONTAINER_NAME = 'thanos-ruler';
/** Label of the rule ConfigMaps, upstream's: which ThanosRuler they belong to. */
export const RULE_CONFIGMAP_THANOS_RULER_LABEL = 'thanos-ruler-name';
/** Where the rule ConfigMaps are mounted, one directory each; `--rule-file` reads every file under it. */
export const THANOS_RULES_DIR = '/etc/thanos/rules';
/** Key of the remote write file in `thanos-ruler-<name>-config`. */
export const REMOTE_WRITE_FILE = 'remote-write.yaml';
/**
 * The pod template annotation holding a keyed hash of a stateless ruler's remote write file (keyed with its Secret's
 * uid: the file holds credentials, and the annotation is readable by whoever reads the StatefulSet).
 */
export const REMOTE_WRITE_HASH_ANNOTATION = 'promop.prometheus.io/remote-write-hash';
/** Key of the web configuration file in `thanos-ruler-<name>-web-config`. */
export const WEB_CONFIG_FILE = 'web-config.yaml';

const CONFIG_DIR = '/etc/thanos/config';
const STORAGE_DIR = '/thanos/data';
/** Where the web configuration file and the TLS material it names are mounted (upstream's directory). */
export const THANOS_RULER_WEB_CONFIG_DIR = '/etc/thanos/web_config';
/** Where the pods mount the TLS assets Secret (the remote write file's TLS files are there). */
export const THANOS_RULER_TLS_ASSETS_DIR = '/etc/thanos/certs';
const REPLICA_LABEL = 'thanos_ruler_replica';

type Spec = NonNullable<ThanosRuler['spec']>;

/** `thanos-ruler-<name>`: the StatefulSet, and the prefix of every other child's name. */
export function thanosRulerStatefulSetName(name: string): string {
  return `thanos-ruler-${name}`;
}

/** The Secret holding the remote write file. */
export function thanosRulerConfigSecretName(name: string): string {
  return `${thanosRulerStatefulSetName(name)}-config`;
}

/** The Secret holding TLS material (one shard, as upstream's when it fits). */
export function thanosRulerTlsAssetsSecretName(name: string): string {
  return `${thanosRulerStatefulSetName(name)}-tls-assets-0`;
}

/** The Secret holding the web configuration file. */
export function thanosRulerWebConfigSecretName(name: string): string {
  return `${thanosRulerStatefulSetName(name)}-web-config`;
}

/**
 * The labels that select the pods of one ThanosRuler: prometheus-operator's keys exactly (only the recommended
 * managed-by key, which promop's caches select its own objects by), with promop as manager.
 */
export function thanosRulerSelectorLabels(name: string): Record<string, string> {
  return { 'app.kubernetes.io/name': 'thanos-ruler', [MANAGED_BY_LABEL]: MANAGED_BY, 'app.kubernetes.io/instance': name, 'thanos-ruler': name };
}

function ownerReference(thanosRuler: ThanosRuler, controller: boolean): V1OwnerReference {
  const { name, uid, namespace } = thanosRuler.metadata;
  if (!uid) throw new Error(`bug: ThanosRuler ${namespace}/${name} has no metadata.uid; read it from the API server`);
  return { apiVersion: `${GROUP}/${API_VERSIONS.ThanosRuler}`, kind: 'ThanosRuler', name, uid, controller, blockOwnerDeletion: true };
}

/** The image: `spec.image`, else the Thanos release of `spec.version` (as written) from the default repository. */
export function thanosRulerImage(spec: Spec): string {
  if (spec.image && spec.image.trim() !== '') return spec.image;
  return `${DEFAULT_THANOS_BASE_IMAGE}:${spec.version || DEFAULT_THANOS_VERSION}`;
}

/** Thanos' names of the TLS versions (upstream's TLSVersionForThanos). */
const THANOS_TLS_VERSIONS: Readonly<Record<string, string>> = { TLS10: '1.0', TLS11: '1.1', TLS12: '1.2', TLS13: '1.3' };

interface Flag {
  name: string;
  value?: string;
}

/** A Secret key mounted as a file under /etc/thanos/config/<volume>/, as upstream's mountSecretKey. */
interface MountedKey {
  volume: V1Volume;
  mount: V1VolumeMount;
  path: string;
}

function mountSecretKey(selector: { name?: string; key: string }, volumeName: string): MountedKey {
  const mountPath = `${CONFIG_DIR}/${volumeName}`;
  return {
    volume: { name: volumeName, secret: { secretName: selector.name ?? '', items: [{ key: selector.key, path: selector.key }] } },
    mount: { name: volumeName, mountPath, readOnly: true },
    path: `${mountPath}/${selector.key}`,
  };
}

/** The remote write file, mounted in every pod from `thanos-ruler-<name>-config` (read only by a stateless ruler). */
function remoteWriteConfigMount(name: string): MountedKey {
  return mountSecretKey({ name: thanosRulerConfigSecretName(name), key: REMOTE_WRITE_FILE }, 'remote-write-config');
}

/** What `thanos rule` is started with, and the Secret keys mounted for its flags. */
export interface ThanosRulerCommand {
  args: string[];
  /** Volumes and mounts of the configuration files, in upstream's order (before tls-assets). */
  configFiles: MountedKey[];
  version: ThanosReleaseVersion;
  /** The web configuration file of `spec.web` (HTTPS, headers); undefined: the empty file (or none before 0.21). */
  web: WebConfig | undefined;
}

/**
 * The `thanos rule` arguments, in upstream's order: the data directory, evaluation interval and retention, the
 * rule flags its release knows, the external labels (`thanos_ruler_replica` first), the dropped alert labels, the
 * listen address with `listenLocal`, logging, the rule file glob, the remote write file of a stateless ruler (Thanos
 * >= 0.24.0, which thanos-ruler-remote-write.ts in the generator writes), the query and Alertmanager endpoints (files
 * from Secret keys take precedence over lists), object storage, tracing, alert relabeling, the gRPC server TLS,
 * the web prefixes and alert query URL, `additionalArgs`, then the web config file.
 *
 * Problems: an unreadable version; a `spec.labels` key thanos rule cannot parse; neither `queryConfig` nor `queryEndpoints` (thanos rule has nothing to
 * evaluate against; upstream refuses it too); web TLS and HTTP
 * settings the web server refuses at start (workload/web-config.ts), or on a release before 0.21; gRPC TLS from Secrets (thanos rule reads files only) and TLS files
 * thanos rule refuses at start (a certificate without its key, or the reverse; a client CA without both); an
 * additional argument that sets a flag promop sets (upstream's BuildArgs refuses it too).
 */
export function thanosRulerCommand(thanosRuler: ThanosRuler): BuildResult<ThanosRulerCommand> {
  const spec: Spec = thanosRuler.spec ?? {};
  const problems: FieldProblem[] = [];
  const version = parseThanosVersion(spec.version);
  if (!version) problems.push({ path: 'spec.version', message: `"${spec.version ?? ''}" is not a Thanos version such as v0.42.2` });
  if (!spec.queryConfig && !(spec.queryEndpoints?.length)) {
    problems.push({ path: 'spec.queryEndpoints', message: 'thanos rule needs an API to evaluate rules against: set queryEndpoints or queryConfig' });
  }
  // The web configuration file, exactly as a Prometheus' (workload/web-config.ts), under the ruler's directory.
  const web = webConfigFile(spec.web ?? {}, THANOS_RULER_WEB_CONFIG_DIR, 'thanos rule');
  if (!web.ok) problems.push(...web.problems);
  if (web.ok && web.value && version && !thanosVersionAtLeast(version, '0.21.0')) {
    problems.push({ path: 'spec.web', message: `thanos rule ${version.text} has no --http.config (0.21.0 and newer have it): remove tlsConfig and httpConfig, or run a newer release` });
  }
  const tls = spec.grpcServerTlsConfig;
  if (tls) {
    for (const field of ['ca', 'cert', 'keySecret'] as const) {
      const value = tls[field] as Record<string, unknown> | undefined;
      if (value && Object.keys(value).length > 0) {
        problems.push({ path: `spec.grpcServerTlsConfig.${field}`, message: 'thanos rule reads its gRPC TLS material from files only: mount the Secret with spec.volumes and spec.volumeMounts and set caFile, certFile and keyFile' });
      }
    }
    // What thanos rule itself refuses at start (Thanos' server TLS setup), so its pods would never run.
    if (tls.certFile && !tls.keyFile) problems.push({ path: 'spec.grpcServerTlsConfig.keyFile', message: 'is required with certFile (thanos rule refuses a server certificate without its key)' });
    if (tls.keyFile && !tls.certFile) problems.push({ path: 'spec.grpcServerTlsConfig.certFile', message: 'is required with keyFile (thanos rule refuses a server key without its certificate)' });
    if (tls.caFile && !tls.certFile && !tls.keyFile) {
      problems.push({ path: 'spec.grpcServerTlsConfig.caFile', message: 'needs certFile and keyFile (thanos rule verifies client certificates only when it serves TLS)' });
    }
  }
  if (!version) return { ok: false, problems };

  const flags: Flag[] = [
    { name: 'data-dir', value: STORAGE_DIR },
    { name: 'eval-interval', value: spec.evaluationInterval || '15s' },
    { name: 'tsdb.retention', value: spec.retention || '24h' },
  ];
  if (spec.ruleQueryOffset && thanosVersionAtLeast(version, '0.38.0')) flags.push({ name: 'rule-query-offset', value: spec.ruleQueryOffset });
  if (spec.ruleConcurrentEval && spec.ruleConcurrentEval > 0 && thanosVersionAtLeast(version, '0.37.0')) flags.push({ name: 'rule-concurrent-evaluation', value: String(spec.ruleConcurrentEval) });
  if (spec.ruleOutageTolerance && thanosVersionAtLeast(version, '0.30.0')) flags.push({ name: 'for-outage-tolerance', value: spec.ruleOutageTolerance });
  if (spec.ruleGracePeriod && thanosVersionAtLeast(version, '0.30.0')) flags.push({ name: 'for-grace-period', value: spec.ruleGracePeriod });
  if (spec.resendDelay) flags.push({ name: 'resend-delay', value: spec.resendDelay });
  if (spec.enableFeatures?.length && thanosVersionAtLeast(version, '0.39.0')) flags.push({ name: 'enable-feature', value: spec.enableFeatures.join(',') });
  flags.push({ name: 'label', value: `${REPLICA_LABEL}="$(POD_NAME)"` });
  for (const key of Object.keys(spec.labels ?? {}).sort(byCodeUnits)) {
    // thanos rule splits the flag at its first `=` and reads the rest with Go's strconv.Unquote: a key with `=` or
    // none at all stops it at start. The value is quoted so that Unquote gives it back exactly (JSON's escapes are
    // Go's; a plain value is written as upstream writes it), each `$` of key and value doubled because the kubelet
    // expands `$(VAR)` in args and reads `$$` as one `$`.
    if (key === '' || key.includes('=') || !key.isWellFormed()) {
      problems.push({ path: `spec.labels.${key}`, message: `${JSON.stringify(key)} is not a label name thanos rule accepts (non-empty UTF-8 text without "=")` });
    } else {
      const kubeletEscaped = (text: string) => text.replace(/\$/g, () => '$$');
      flags.push({ name: 'label', value: `${kubeletEscaped(key)}=${kubeletEscaped(JSON.stringify(spec.labels![key]))}` });
    }
  }
  flags.push({ name: 'alert.label-drop', value: REPLICA_LABEL });
  for (const label of spec.alertDropLabels ?? []) flags.push({ name: 'alert.label-drop', value: label });
  if (spec.listenLocal) flags.push({ name: 'http-address', value: `localhost:${THANOS_HTTP_PORT}` });
  if (spec.logLevel && spec.logLevel !== 'info') flags.push({ name: 'log.level', value: spec.logLevel });
  if (spec.logFormat) flags.push({ name: 'log.format', value: spec.logFormat });
  flags.push({ name: 'rule-file', value: `${THANOS_RULES_DIR}/*/*.yaml` });
  // An older release is refused with the file's problems (thanos-ruler-remote-write.ts), as upstream refuses it.
  if (spec.remoteWrite?.length && thanosVersionAtLeast(version, THANOS_REMOTE_WRITE_SINCE)) flags.push({ name: 'remote-write.config-file', value: remoteWriteConfigMount(thanosRuler.metadata.name).path });

  const configFiles: MountedKey[] = [];
  const fromKey = (selector: { name?: string; key: string }, volumeName: string, flag: string) => {
    const mounted = mountSecretKey(selector, volumeName);
    configFiles.push(mounted);
    flags.push({ name: flag, value: mounted.path });
  };
  if (spec.queryConfig) fromKey(spec.queryConfig, 'query-config', 'query.config-file');
  else for (const endpoint of spec.queryEndpoints ?? []) flags.push({ name: 'query', value: endpoint });
  if (spec.alertmanagersConfig) fromKey(spec.alertmanagersConfig, 'alertmanager-config', 'alertmanagers.config-file');
  else for (const url of spec.alertmanagersUrl ?? []) flags.push({ name: 'alertmanagers.url', value: url });
  if (spec.objectStorageConfigFile !== undefined) flags.push({ name: 'objstore.config-file', value: spec.objectStorageConfigFile });
  else if (spec.objectStorageConfig) fromKey(spec.objectStorageConfig, 'objstorage-config', 'objstore.config-file');
  if (spec.tracingConfigFile) flags.push({ name: 'tracing.config-file', value: spec.tracingConfigFile });
  else if (spec.tracingConfig) fromKey(spec.tracingConfig, 'tracing-config', 'tracing.config-file');
  if (spec.alertRelabelConfigFile !== undefined) flags.push({ name: 'alert.relabel-config-file', value: spec.alertRelabelConfigFile });
  else if (spec.alertRelabelConfigs) fromKey(spec.alertRelabelConfigs, 'alertrelabel-config', 'alert.relabel-config-file');
  if (tls) {
    if (tls.certFile) flags.push({ name: 'grpc-server-tls-cert', value: tls.certFile });
    if (tls.keyFile) flags.push({ name: 'grpc-server-tls-key', value: tls.keyFile });
    if (tls.caFile) flags.push({ name: 'grpc-server-tls-client-ca', value: tls.caFile });
    const minVersion = THANOS_TLS_VERSIONS[tls.minVersion ?? ''];
    if (minVersion && thanosVersionAtLeast(version, '0.37.0')) flags.push({ name: 'grpc-server-tls-min-version', value: minVersion });
    // One flag per value, as for the sidecar: Thanos repeats these flags and refuses upstream's comma-separated list.
    if (thanosVersionAtLeast(version, '0.42.0')) {
      for (const cipher of tls.cipherSuites ?? []) flags.push({ name: 'grpc-server-tls-ciphers', value: cipher });
      for (const curve of tls.curves ?? []) flags.push({ name: 'grpc-server-tls-curves', value: curve });
    }
  }
  if (spec.externalPrefix) flags.push({ name: 'web.external-prefix', value: spec.externalPrefix });
  if (spec.routePrefix) flags.push({ name: 'web.route-prefix', value: spec.routePrefix });
  if (spec.alertQueryUrl) flags.push({ name: 'alert.query-url', value: spec.alertQueryUrl });

  // Upstream's ArgumentsIntersection: a name promop sets, or its negation (`no-x` for `x` and back), is refused.
  const managed = new Set(flags.map((flag) => flag.name));
  (spec.additionalArgs ?? []).forEach((argument, index) => {
    const negated = argument.name.startsWith('no-') ? argument.name.slice(3) : `no-${argument.name}`;
    if (managed.has(argument.name) || managed.has(negated)) {
      problems.push({ path: `spec.additionalArgs[${index}].name`, message: `"${argument.name}" is set by promop and cannot be overridden` });
    } else {
      flags.push({ name: argument.name, ...(argument.value ? { value: argument.value } : {}) });
    }
  });
  if (problems.length > 0) return { ok: false, problems };
  const args = ['rule', ...flags.map((flag) => (flag.value ? `--${flag.name}=${flag.value}` : `--${flag.name}`))];
  // The web config file (Thanos >= 0.21.0), after the additional arguments as upstream places it.
  if (thanosVersionAtLeast(version, '0.21.0')) args.push(`--http.config=${THANOS_RULER_WEB_CONFIG_DIR}/${WEB_CONFIG_FILE}`);
  return { ok: true, value: { args, configFiles, version, web: web.ok ? web.value : undefined } };
}

/** The rule ConfigMaps as the generator packed them, labelled with their ThanosRuler. */
export function buildThanosRulerRuleConfigMaps(thanosRuler: ThanosRuler, ruleConfigMaps: readonly RuleConfigMap[]): V1ConfigMap[] {
  const { name, namespace } = thanosRuler.metadata;
  return ruleConfigMaps.map((ruleConfigMap): V1ConfigMap => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: ruleConfigMap.name,
      namespace,
      labels: { ...managedByLabels(), [RULE_CONFIGMAP_THANOS_RULER_LABEL]: name },
      ownerReferences: [ownerReference(thanosRuler, true)],
    },
    data: { ...ruleConfigMap.files },
  }));
}

/**
 * The three Secrets every pod mounts, which must exist before a pod starts: the remote write file (`remote_write: []`
 * without `spec.remoteWrite`, as upstream's), the TLS assets that file names (under THANOS_RULER_TLS_ASSETS_DIR) and
 * the web configuration (empty: no TLS).
 */
export function buildThanosRulerSecrets(thanosRuler: ThanosRuler, remoteWrite: Pick<ThanosRulerRemoteWrite, 'text' | 'tlsAssets'>, web?: WebConfig): V1Secret[] {
  const { name, namespace } = thanosRuler.metadata;
  const secret = (secretName: string, data: Record<string, string>): V1Secret => ({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secretName, namespace, labels: { ...managedByLabels(), 'thanos-ruler': name }, ownerReferences: [ownerReference(thanosRuler, true)] },
    type: 'Opaque',
    data: base64Data(data),
  });
  return [
    secret(thanosRulerConfigSecretName(name), { [REMOTE_WRITE_FILE]: remoteWrite.text }),
    // Sorted keys: the same assets give byte-identical objects, so an unchanged Secret is never rewritten.
    secret(thanosRulerTlsAssetsSecretName(name), Object.fromEntries(Object.entries(remoteWrite.tlsAssets).sort(([a], [b]) => byCodeUnits(a, b)))),
    secret(thanosRulerWebConfigSecretName(name), { [WEB_CONFIG_FILE]: web?.text ?? '' }),
  ];
}

/**
 * The Service for `namespace`, owned (non-controller) by every ThanosRuler in `owners` that uses it, so the garbage
 * collector deletes it with the last. Its web port is named like the first owner's `portName`.
 */
export function buildThanosRulerService(namespace: string, owners: readonly ThanosRuler[]): V1Service {
  const sorted = [...owners].sort((a, b) => byCodeUnits(a.metadata.name, b.metadata.name));
  const portName = sorted[0]?.spec?.portName || 'web';
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: THANOS_RULER_SERVICE_NAME, namespace, labels: { ...managedByLabels(), 'operated-thanos-ruler': 'true' }, ownerReferences: sorted.map((each) => ownerReference(each, false)) },
    spec: {
      clusterIP: 'None',
      ports: [
        { name: portName, port: THANOS_HTTP_PORT, targetPort: portName, protocol: 'TCP' },
        { name: 'grpc', port: THANOS_GRPC_PORT, targetPort: 'grpc', protocol: 'TCP' },
      ],
      selector: { 'app.kubernetes.io/name': 'thanos-ruler' },
    },
  };
}

/** The data volume: a claim template, an ephemeral volume or an emptyDir (the default), named as upstream names it. */
function storage(thanosRuler: ThanosRuler): { volume?: V1Volume; claim?: V1PersistentVolumeClaim; name: string } {
  const spec: Spec = thanosRuler.spec ?? {};
  const defaultName = `${thanosRulerStatefulSetName(thanosRuler.metadata.name)}-data`;
  const template = asEmbedded<V1PersistentVolumeClaim | undefined>(spec.storage?.volumeClaimTemplate);
  if (template && !spec.storage?.emptyDir && !spec.storage?.ephemeral) {
    const name = template.metadata?.name || defaultName;
    const claim: V1PersistentVolumeClaim = {
      metadata: { ...template.metadata, name },
      spec: { ...template.spec, accessModes: template.spec?.accessModes ?? ['ReadWriteOnce'] },
    };
    return { claim, name };
  }
  const volume: V1Volume = spec.storage?.ephemeral
    ? { name: defaultName, ephemeral: asEmbedded<V1Volume['ephemeral']>(spec.storage.ephemeral) }
    : { name: defaultName, emptyDir: asEmbedded<V1Volume['emptyDir']>(spec.storage?.emptyDir) ?? {} };
  return { volume, name: defaultName };
}

/**
 * The StatefulSet running `thanosRuler`'s pods with `command` (thanosRulerCommand) and the rule ConfigMaps named
 * `ruleConfigMapNames` (each mounted optional under /etc/thanos/rules/<name>). A new rule file changes no pod spec:
 * the kubelet updates the mounted ConfigMaps and promop reloads thanos rule.
 */
export function buildThanosRulerStatefulSet(thanosRuler: ThanosRuler, command: ThanosRulerCommand, ruleConfigMapNames: readonly string[], remoteWriteHash?: string): V1StatefulSet {
  const { name, namespace } = thanosRuler.metadata;
  const spec: Spec = thanosRuler.spec ?? {};
  const selector = thanosRulerSelectorLabels(name);
  const rulerConfig = remoteWriteConfigMount(name);
  const data = storage(thanosRuler);
  const volumes: V1Volume[] = [
    rulerConfig.volume,
    ...command.configFiles.map((file) => file.volume),
    { name: 'tls-assets', projected: { sources: [{ secret: { name: thanosRulerTlsAssetsSecretName(name) } }] } },
  ];
  const mounts: V1VolumeMount[] = [
    rulerConfig.mount,
    ...command.configFiles.map((file) => file.mount),
    { name: 'tls-assets', mountPath: THANOS_RULER_TLS_ASSETS_DIR, readOnly: true },
  ];
  if (command.web) {
    // The file and each Secret or ConfigMap of TLS material it names, as for a Prometheus.
    const web = webConfigVolumes(thanosRulerWebConfigSecretName(name), THANOS_RULER_WEB_CONFIG_DIR, command.web);
    volumes.push(...web.volumes);
    mounts.push(...web.mounts);
  } else if (thanosVersionAtLeast(command.version, '0.21.0')) {
    volumes.push({ name: 'web-config', secret: { secretName: thanosRulerWebConfigSecretName(name) } });
    mounts.push({ name: 'web-config', mountPath: `${THANOS_RULER_WEB_CONFIG_DIR}/${WEB_CONFIG_FILE}`, subPath: WEB_CONFIG_FILE, readOnly: true });
  }
  mounts.push({ name: data.name, mountPath: STORAGE_DIR });
  for (const configMap of ruleConfigMapNames) {
    volumes.push({ name: configMap, configMap: { name: configMap, optional: true } });
    mounts.push({ name: configMap, mountPath: `${THANOS_RULES_DIR}/${configMap}`, readOnly: true });
  }
  mounts.push(...asEmbedded<V1VolumeMount[]>(spec.volumeMounts ?? []));
  if (data.volume) volumes.push(data.volume);
  volumes.push(...asEmbedded<V1Volume[]>(spec.volumes ?? []));

  const resources = asEmbedded<V1ResourceRequirements | undefined>(spec.resources) ?? {};
  const portName = spec.portName || 'web';
  const container: V1Container = {
    name: THANOS_RULER_CONTAINER_NAME,
    image: thanosRulerImage(spec),
    ...(spec.imagePullPolicy ? { imagePullPolicy: spec.imagePullPolicy } : {}),
    args: command.args,
    env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
    volumeMounts: mounts,
    // A memory request of 200Mi unless the user set one, as upstream.
    resources: { ...resources, requests: { memory: '200Mi', ...resources.requests } },
    ports: [
      { name: 'grpc', containerPort: THANOS_GRPC_PORT, protocol: 'TCP' },
      ...(spec.listenLocal ? [] : [{ name: portName, containerPort: THANOS_HTTP_PORT, protocol: 'TCP' }]),
    ],
    terminationMessagePolicy: 'FallbackToLogsOnError',
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
  };
  const statefulSet: V1StatefulSet = {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: {
      name: thanosRulerStatefulSetName(name),
      namespace,
      labels: { ...thanosRuler.metadata.labels, ...selector },
      ownerReferences: [ownerReference(thanosRuler, true)],
    },
    spec: {
      serviceName: spec.serviceName || THANOS_RULER_SERVICE_NAME,
      ...(spec.replicas !== undefined ? { replicas: spec.replicas } : {}),
      ...(spec.minReadySeconds ? { minReadySeconds: spec.minReadySeconds } : {}),
      podManagementPolicy: spec.podManagementPolicy || 'Parallel',
      updateStrategy: asEmbedded(spec.updateStrategy) ?? { type: 'RollingUpdate' },
      selector: { matchLabels: selector },
      template: {
        metadata: {
          labels: { ...spec.podMetadata?.labels, ...selector, 'app.kubernetes.io/version': versionString(command.version) },
          annotations: {
            ...spec.podMetadata?.annotations, 'kubectl.kubernetes.io/default-container': THANOS_RULER_CONTAINER_NAME,
            // The file is mounted with subPath, which the kubelet never refreshes: a new one rolls the pods.
            ...(command.web ? { [WEB_CONFIG_HASH_ANNOTATION]: webConfigHash(command.web) } : {}),
            // thanos rule reads its remote write file at start only (its reload reads rule files): a new one rolls the pods.
            ...(spec.remoteWrite?.length && remoteWriteHash ? { [REMOTE_WRITE_HASH_ANNOTATION]: remoteWriteHash } : {}),
          },
        },
        spec: {
          ...passedThroughPodFields(spec),
          ...(spec.securityContext ? { securityContext: asEmbedded<V1PodSecurityContext>(spec.securityContext) } : {}),
          terminationGracePeriodSeconds: spec.terminationGracePeriodSeconds ?? 120,
          containers: mergeContainers([container], asEmbedded<V1Container[]>(spec.containers ?? [])),
          volumes,
        },
      },
      ...(data.claim ? { volumeClaimTemplates: [data.claim] } : {}),
    },
  };
  return withCanonicalQuantities(statefulSet);
}

/** semver's String(): major.minor.patch and the pre-release, without a `v`. */
function versionString(version: ThanosReleaseVersion): string {
  return `${version.major}.${version.minor}.${version.patch}${version.preRelease ? `-${version.preRelease}` : ''}`;
}

function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
