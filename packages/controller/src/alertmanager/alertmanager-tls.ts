/**
 * The two TLS files of an Alertmanager, laid out as prometheus-operator lays them out:
 *
 * - its web config (`spec.web.tlsConfig`, `spec.web.httpConfig`): the file exporter-toolkit reads through
 *   `--web.config.file` (Alertmanager 0.22 on), in the Secret `alertmanager-<name>-web-config`, mounted at
 *   /etc/alertmanager/web_config with each Secret or ConfigMap holding TLS material below it
 *   (workload/web-config.ts writes the same file for Prometheus);
 * - its mesh's TLS (`spec.clusterTLS`): the file of `--cluster.tls-config` (Alertmanager 0.24 on), with
 *   `tls_server_config` (what a peer presents and which client certificates it accepts) and `tls_client_config`
 *   (what it presents to, and how it verifies, the peers it dials), in the Secret
 *   `alertmanager-<name>-cluster-tls-config`, mounted at /etc/alertmanager/cluster_tls_config with the server's
 *   material below `server_tls` and the client's below `client_tls`.
 *
 * The CRD keeps `spec.web` and `spec.clusterTLS` opaque, so their shape is checked here, each value at its path.
 * Pure; alertmanagerTlsDataProblems judges the referenced Secrets and ConfigMaps the reconciler read.
 */
import { createHash, createPrivateKey } from 'node:crypto';
import type { V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { DEFAULT_ALERTMANAGER_VERSION, type FieldProblem, type KeyValueSource } from '@promop/config-generator';
import type { Alertmanager } from '@promop/crds';
import { dump } from 'js-yaml';
import { leafCertificate, type PodTls } from '../prometheus-client/pod-tls.ts';
import type { BuildResult } from '../workload/build-result.ts';
import { asEmbedded } from '../workload/embedded-field.ts';
import {
  CLIENT_CERT_REQUIRED, keySecretReference, secretOrConfigMapReference, tlsReferenceVolumes, tlsServerConfig, webConfigFile, webConfigVolumes,
  webTlsFilePath, type WebConfig, type WebConfigFileFields, type WebTlsConfig, type WebTlsReference,
} from '../workload/web-config.ts';

/** Where the web config file and its TLS material are mounted (upstream's directory). */
export const ALERTMANAGER_WEB_CONFIG_DIR = '/etc/alertmanager/web_config';
/** Where the cluster TLS file and its TLS material are mounted (upstream's directory). */
export const CLUSTER_TLS_DIR = '/etc/alertmanager/cluster_tls_config';
/** The key of the cluster TLS Secret and the file name in CLUSTER_TLS_DIR. */
export const CLUSTER_TLS_FILE_NAME = 'cluster-tls-config.yaml';
/** Name of the volume holding the cluster TLS Secret. */
export const CLUSTER_TLS_VOLUME = 'cluster-tls-config';
/** Pod template annotation: a hash of both files, mounted with subPath, so that a new file rolls the pods. */
export const TLS_FILES_HASH_ANNOTATION = 'promop.prometheus.io/tls-files-hash';
/** Alertmanager reads `--web.config.file` from 0.22 on. */
const WEB_CONFIG_MIN_MINOR = 22;
/** Alertmanager reads `--cluster.tls-config` from 0.24 on. */
const CLUSTER_TLS_MIN_MINOR = 24;

type Spec = NonNullable<Alertmanager['spec']>;

/** `alertmanager-<name>-web-config`, as prometheus-operator names it. */
export function alertmanagerWebConfigSecretName(name: string): string {
  return `alertmanager-${name}-web-config`;
}

/** `alertmanager-<name>-cluster-tls-config`, as prometheus-operator names it. */
export function clusterTlsSecretName(name: string): string {
  return `alertmanager-${name}-cluster-tls-config`;
}

/** The mesh's TLS file and what it mounts. */
export interface ClusterTls {
  /** The content of `cluster-tls-config.yaml`. */
  text: string;
  /** The server's material (below `server_tls`), then the client's (below `client_tls`). */
  serverReferences: WebTlsReference[];
  clientReferences: WebTlsReference[];
}

/** Both files of an Alertmanager; undefined where the field is unset. */
export interface AlertmanagerTls {
  web: WebConfig | undefined;
  cluster: ClusterTls | undefined;
}

/**
 * Whether the Alertmanager release of `version` (default promop's) is 0.`minor` or newer; an unreadable version is
 * left to the image, as new.
 */
export function alertmanagerVersionAtLeast(version: string | undefined, minor: number): boolean {
  const match = /^v?(\d+)\.(\d+)(?:\.|$)/.exec(version || DEFAULT_ALERTMANAGER_VERSION);
  return !match || Number(match[1]) > 0 || Number(match[2]) >= minor;
}

/** The web config and cluster TLS files of `spec`, or every problem of their fields, each at its path. */
export function alertmanagerTlsOf(spec: Spec): BuildResult<AlertmanagerTls> {
  const problems: FieldProblem[] = [];
  const web = asEmbedded<unknown>(spec.web);
  let webConfig: WebConfig | undefined;
  if (isObject(web) && (web.tlsConfig !== undefined || web.httpConfig !== undefined)) {
    const shape = [
      ...(web.tlsConfig !== undefined ? shapeProblems(web.tlsConfig, SERVER_TLS_SHAPE, 'spec.web.tlsConfig') : []),
      ...(web.httpConfig !== undefined ? shapeProblems(web.httpConfig, HTTP_CONFIG_SHAPE, 'spec.web.httpConfig') : []),
    ];
    if (shape.length > 0) problems.push(...shape);
    else if (!alertmanagerVersionAtLeast(spec.version, WEB_CONFIG_MIN_MINOR)) {
      // Upstream writes no file then and serves HTTP: promop refuses rather than serve in plain text what was to be protected.
      problems.push({ path: web.tlsConfig !== undefined ? 'spec.web.tlsConfig' : 'spec.web.httpConfig', message: `Alertmanager ${spec.version} has no --web.config.file (0.22 and newer have it)` });
    } else {
      const built = webConfigFile(web as WebConfigFileFields, ALERTMANAGER_WEB_CONFIG_DIR, 'Alertmanager');
      if (built.ok) webConfig = built.value;
      else problems.push(...built.problems);
    }
  }
  let cluster: ClusterTls | undefined;
  if (spec.clusterTLS !== undefined) {
    const built = clusterTlsOf(asEmbedded<unknown>(spec.clusterTLS), spec.version);
    if (built.ok) cluster = built.value;
    else problems.push(...built.problems);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value: { web: webConfig, cluster } };
}

function clusterTlsOf(value: unknown, version: string | undefined): BuildResult<ClusterTls> {
  const path = 'spec.clusterTLS';
  const shape = shapeProblems(value, { server: SERVER_TLS_SHAPE, client: CLIENT_TLS_SHAPE }, path);
  if (shape.length > 0) return { ok: false, problems: shape };
  const { server, client } = value as { server?: WebTlsConfig; client?: ClientTls };
  const problems: FieldProblem[] = [];
  if (!alertmanagerVersionAtLeast(version, CLUSTER_TLS_MIN_MINOR)) {
    return { ok: false, problems: [{ path, message: `Alertmanager ${version} has no --cluster.tls-config (0.24 and newer have it)` }] };
  }
  if (server === undefined) problems.push({ path: `${path}.server`, message: 'must be set: the TLS of the peers\' listener' });
  if (client === undefined) problems.push({ path: `${path}.client`, message: 'must be set: the TLS the peers present when they dial each other' });
  if (problems.length > 0) return { ok: false, problems };
  const serverTls = tlsServerConfig(server!, `${path}.server`, `${CLUSTER_TLS_DIR}/server_tls`, 'Alertmanager');
  const clientTls = tlsClientConfig(client!, `${path}.client`);
  if (!serverTls.ok) problems.push(...serverTls.problems);
  if (!clientTls.ok) problems.push(...clientTls.problems);
  if (!serverTls.ok || !clientTls.ok) return { ok: false, problems };
  return {
    ok: true,
    value: {
      text: dump({ tls_server_config: serverTls.value.config, tls_client_config: clientTls.value.config }, { lineWidth: -1, noRefs: true }),
      serverReferences: serverTls.value.references,
      clientReferences: clientTls.value.references,
    },
  };
}

type SecretOrConfigMap = NonNullable<WebTlsConfig['cert']>;
/** `spec.clusterTLS.client` (prometheus-operator's SafeTLSConfig). */
interface ClientTls {
  ca?: SecretOrConfigMap;
  cert?: SecretOrConfigMap;
  keySecret?: { name?: string; key: string };
  serverName?: string;
  insecureSkipVerify?: boolean;
}

const isSet = (selector: SecretOrConfigMap | undefined): selector is SecretOrConfigMap =>
  selector !== undefined && (selector.secret !== undefined || selector.configMap !== undefined);

/** `tls_client_config` of the mesh, with the client's material mounted below `client_tls`. */
function tlsClientConfig(tls: ClientTls, path: string): BuildResult<{ config: Record<string, unknown>; references: WebTlsReference[] }> {
  const dir = `${CLUSTER_TLS_DIR}/client_tls`;
  const problems: FieldProblem[] = [];
  // As upstream: a peer must present a certificate, and a certificate comes with its key.
  if (!isSet(tls.cert)) problems.push({ path: `${path}.cert`, message: 'the certificate the peers present must be set' });
  if (tls.keySecret === undefined) problems.push({ path: `${path}.keySecret`, message: 'the key of the certificate the peers present must be set' });
  if (problems.length > 0) return { ok: false, problems };
  const key = keySecretReference(tls.keySecret!, `${path}.keySecret`, dir);
  const cert = secretOrConfigMapReference(tls.cert!, `${path}.cert`, 'cert', dir);
  const ca = isSet(tls.ca) ? secretOrConfigMapReference(tls.ca, `${path}.ca`, 'ca', dir) : undefined;
  for (const each of [key, cert, ca]) if (each && !each.ok) problems.push(...each.problems);
  if (problems.length > 0 || !key.ok || !cert.ok || (ca && !ca.ok)) return { ok: false, problems };
  const references = [key.value, cert.value, ...(ca?.ok ? [ca.value] : [])];
  // In upstream's key order.
  const config: Record<string, unknown> = { key_file: webTlsFilePath(key.value), cert_file: webTlsFilePath(cert.value) };
  if (ca?.ok) config.ca_file = webTlsFilePath(ca.value);
  if (tls.serverName !== undefined) config.server_name = tls.serverName;
  if (tls.insecureSkipVerify !== undefined) config.insecure_skip_verify = tls.insecureSkipVerify;
  return { ok: true, value: { config, references } };
}

/** The volumes and mounts of both files and of the Secrets and ConfigMaps they name, in upstream's order. */
export function alertmanagerTlsVolumes(name: string, tls: AlertmanagerTls): { volumes: V1Volume[]; mounts: V1VolumeMount[] } {
  const volumes: V1Volume[] = [];
  const mounts: V1VolumeMount[] = [];
  if (tls.web) {
    const web = webConfigVolumes(alertmanagerWebConfigSecretName(name), ALERTMANAGER_WEB_CONFIG_DIR, tls.web);
    volumes.push(...web.volumes);
    mounts.push(...web.mounts);
  }
  if (tls.cluster) {
    const server = tlsReferenceVolumes(tls.cluster.serverReferences, 'cluster-tls-server-config-');
    const client = tlsReferenceVolumes(tls.cluster.clientReferences, 'cluster-tls-client-config-');
    volumes.push({ name: CLUSTER_TLS_VOLUME, secret: { secretName: clusterTlsSecretName(name) } }, ...server.volumes, ...client.volumes);
    mounts.push({ name: CLUSTER_TLS_VOLUME, mountPath: `${CLUSTER_TLS_DIR}/${CLUSTER_TLS_FILE_NAME}`, subPath: CLUSTER_TLS_FILE_NAME, readOnly: true }, ...server.mounts, ...client.mounts);
  }
  return { volumes, mounts };
}

/** The flags of both files (after Alertmanager's others, as upstream adds them). */
export function alertmanagerTlsArgs(tls: AlertmanagerTls): string[] {
  return [
    ...(tls.web ? [`--web.config.file=${ALERTMANAGER_WEB_CONFIG_DIR}/web-config.yaml`] : []),
    ...(tls.cluster ? [`--cluster.tls-config=${CLUSTER_TLS_DIR}/${CLUSTER_TLS_FILE_NAME}`] : []),
  ];
}

/** A hash of both files for TLS_FILES_HASH_ANNOTATION; undefined when there is neither. */
export function alertmanagerTlsHash(tls: AlertmanagerTls): string | undefined {
  if (!tls.web && !tls.cluster) return undefined;
  return createHash('sha256').update(JSON.stringify([tls.web?.text ?? '', tls.cluster?.text ?? ''])).digest('hex').slice(0, 16);
}

/** Every Secret and ConfigMap key both files mount. */
export function alertmanagerTlsReferences(tls: AlertmanagerTls): WebTlsReference[] {
  return [...(tls.web?.references ?? []), ...(tls.cluster?.serverReferences ?? []), ...(tls.cluster?.clientReferences ?? [])];
}

/** Decoded data of the Secrets and ConfigMaps the reconciler read. */
export interface TlsSources {
  secrets: readonly KeyValueSource[];
  configMaps: readonly KeyValueSource[];
}

/**
 * What is wrong with the material the files name, read from `namespace` (the Alertmanager's: the only one it reads):
 * a missing object or key, a certificate or CA that holds no PEM certificate, a key that is no PEM private key.
 * The pods would not start, or their mesh or web server would not, with it. Messages never quote a value.
 */
export function alertmanagerTlsDataProblems(tls: AlertmanagerTls, namespace: string, sources: TlsSources): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const reference of alertmanagerTlsReferences(tls)) {
    const source = (reference.kind === 'Secret' ? sources.secrets : sources.configMaps).find((each) => each.namespace === namespace && each.name === reference.name);
    const what = `${reference.kind} ${reference.name}`;
    if (!source) {
      problems.push({ path: reference.path, message: `${what} does not exist in namespace ${namespace}` });
      continue;
    }
    const value = source.data[reference.key];
    if (value === undefined) {
      problems.push({ path: `${reference.path}.key`, message: `${what} has no key ${reference.key}` });
    } else if (reference.role === 'key' ? !isPrivateKey(value) : leafCertificate(value) === undefined) {
      problems.push({ path: reference.path, message: `key ${reference.key} of ${what} holds no PEM ${reference.role === 'key' ? 'private key' : 'certificate'}` });
    }
  }
  return problems;
}

function isPrivateKey(pem: string): boolean {
  try {
    createPrivateKey(pem);
    return true;
  } catch {
    return false;
  }
}

/**
 * How promop calls the pods when they serve HTTPS: the serving certificate to pin (from `sources`, the
 * Alertmanager's namespace; undefined with `certFile`), and whether they refuse a client without a certificate.
 */
export function alertmanagerPodTls(tls: AlertmanagerTls, namespace: string, sources: TlsSources): PodTls | undefined {
  if (!tls.web?.https) return undefined;
  const clientCertificateRequired = CLIENT_CERT_REQUIRED.has(tls.web.clientAuthType);
  const cert = tls.web.certReference;
  if (!cert) return { clientCertificateRequired };
  const source = (cert.kind === 'Secret' ? sources.secrets : sources.configMaps).find((each) => each.namespace === namespace && each.name === cert.name);
  return { servingCertificate: source?.data[cert.key] ?? '', clientCertificateRequired };
}

// The shapes of the opaque fields, as upstream's CRD types them; fields the CRD lacks are ignored, as the API
// server prunes them upstream.
type Shape = 'string' | 'boolean' | 'strings' | { [field: string]: Shape };
const KEY_SELECTOR: Shape = { name: 'string', key: 'string', optional: 'boolean' };
const SECRET_OR_CONFIGMAP: Shape = { secret: KEY_SELECTOR, configMap: KEY_SELECTOR };
const SERVER_TLS_SHAPE: Shape = {
  cert: SECRET_OR_CONFIGMAP, certFile: 'string', keySecret: KEY_SELECTOR, keyFile: 'string', client_ca: SECRET_OR_CONFIGMAP, clientCAFile: 'string',
  clientAuthType: 'string', minVersion: 'string', maxVersion: 'string', cipherSuites: 'strings', preferServerCipherSuites: 'boolean', curvePreferences: 'strings',
};
const CLIENT_TLS_SHAPE: Shape = {
  ca: SECRET_OR_CONFIGMAP, cert: SECRET_OR_CONFIGMAP, keySecret: KEY_SELECTOR, serverName: 'string', insecureSkipVerify: 'boolean', minVersion: 'string', maxVersion: 'string',
};
const HTTP_CONFIG_SHAPE: Shape = {
  http2: 'boolean',
  headers: { contentSecurityPolicy: 'string', xFrameOptions: 'string', xContentTypeOptions: 'string', xXSSProtection: 'string', strictTransportSecurity: 'string' },
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Where `value` at `path` does not have `shape`; a key selector needs its key. */
function shapeProblems(value: unknown, shape: Shape, path: string): FieldProblem[] {
  if (shape === 'string') return typeof value === 'string' ? [] : [{ path, message: 'must be a string' }];
  if (shape === 'boolean') return typeof value === 'boolean' ? [] : [{ path, message: 'must be true or false' }];
  if (shape === 'strings') return Array.isArray(value) && value.every((each) => typeof each === 'string') ? [] : [{ path, message: 'must be a list of strings' }];
  if (!isObject(value)) return [{ path, message: 'must be an object' }];
  const problems = Object.entries(shape).flatMap(([field, inner]) => (value[field] === undefined ? [] : shapeProblems(value[field], inner, `${path}.${field}`)));
  if (shape === KEY_SELECTOR && value.key === undefined) problems.push({ path: `${path}.key`, message: 'must name the key' });
  return problems;
}
