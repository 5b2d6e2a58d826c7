/**
 * The web config file of a Prometheus (`spec.web.tlsConfig`, `spec.web.httpConfig`): the file Prometheus' web
 * server (exporter-toolkit) reads through `--web.config.file` to serve HTTPS, require client certificates, enable
 * HTTP/2 and add response headers. Laid out as prometheus-operator lays it out: the Secret
 * `<prefix>-<name>-web-config` (key `web-config.yaml`) mounted at /etc/prometheus/web_config, and each Secret or
 * ConfigMap holding TLS material mounted whole under `<dir>/secret/<name>-<role>` or `<dir>/configmap/<name>-<role>`.
 *
 * The file is mounted with subPath at upstream's path (the TLS directories below it could not be mounted inside a
 * Secret volume), so the kubelet never updates it in a running pod: the pod template carries a hash of the file
 * (WEB_CONFIG_HASH_ANNOTATION) and a changed file rolls the pods, where upstream's pods keep the old file until they
 * restart. The TLS material is mounted whole: exporter-toolkit reads the certificate files for every handshake, so
 * a renewed certificate reaches a running Prometheus without a restart.
 *
 * Values exporter-toolkit would refuse (an unknown TLS version, curve or cipher suite, a client CA without a client
 * auth policy) make Prometheus exit at start, so they are problems here, at their path, instead.
 */
import { createHash } from 'node:crypto';
import type { V1Secret, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { isAtLeast, prefixedName, type FieldProblem, type PrometheusVersion } from '@promop/config-generator';
import { dump } from 'js-yaml';
import type { BuildResult } from './build-result.ts';
import { PROMETHEUS_NAME_LABEL, managedByLabels } from './labels.ts';
import { prometheusOwnerReference } from './owner-reference.ts';
import { base64Data } from './secret-size.ts';
import { volumeName } from './volume-name.ts';
import { workloadKind, type PrometheusWorkload } from './workload-kind.ts';

/** Pod template annotation: a hash of the web config file, so that a new file rolls the pods (see above). */
export const WEB_CONFIG_HASH_ANNOTATION = 'promop.prometheus.io/web-config-hash';
/** Where the web config file and the TLS material it names are mounted (prometheus-operator's directory). */
export const WEB_CONFIG_DIR = '/etc/prometheus/web_config';
/** The key of the web config Secret and the file name in WEB_CONFIG_DIR. */
export const WEB_CONFIG_FILE_NAME = 'web-config.yaml';
/** Name of the volume holding the web config Secret. */
export const WEB_CONFIG_VOLUME = 'web-config';
/** Prometheus reads `--web.config.file` from 2.24 on; prometheus-operator writes no web config for older ones either. */
export const WEB_CONFIG_MIN_VERSION = '2.24.0';

type Spec = NonNullable<PrometheusWorkload['spec']>;
/** `spec.web.tlsConfig` as the CRD types it. */
export type WebTlsConfig = NonNullable<NonNullable<Spec['web']>['tlsConfig']>;
/** `spec.web.httpConfig` as the CRD types it. */
export type WebHttpConfig = NonNullable<NonNullable<Spec['web']>['httpConfig']>;
type SecretOrConfigMap = NonNullable<WebTlsConfig['cert']>;
type KeySelector = { name?: string; key: string; optional?: boolean };

/** The `client_auth_type` values exporter-toolkit knows. */
export const CLIENT_AUTH_TYPES = ['NoClientCert', 'RequestClientCert', 'RequireAnyClientCert', 'VerifyClientCertIfGiven', 'RequireAndVerifyClientCert'] as const;
/** Client auth types under which the server refuses a connection without a client certificate. */
export const CLIENT_CERT_REQUIRED: ReadonlySet<string> = new Set(['RequireAnyClientCert', 'RequireAndVerifyClientCert']);
const TLS_VERSIONS = ['TLS10', 'TLS11', 'TLS12', 'TLS13'];
// exporter-toolkit's curve names, and the cipher suites Go's tls.CipherSuites() lists (the ones it accepts by name).
const CURVES = ['CurveP256', 'CurveP384', 'CurveP521', 'X25519'];
const CIPHER_SUITES = [
  'TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA', 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
];
// A Secret or ConfigMap key as the API server allows it: it becomes a file name in the mounted directory.
const OBJECT_KEY = /^[-._a-zA-Z0-9]+$/;

/** One Secret or ConfigMap key the web server reads, mounted whole under WEB_CONFIG_DIR. */
export interface WebTlsReference {
  kind: 'Secret' | 'ConfigMap';
  name: string;
  key: string;
  /** `key`, `cert` or `ca`: the directory `<name>-<role>` and the volume name say which. */
  role: 'key' | 'cert' | 'ca';
  /** The directory the object is mounted at (below the web config's directory). */
  mountPath: string;
  /** The field naming it, as `spec.web.tlsConfig.cert.secret`. */
  path: string;
}

/** The web config of one Prometheus or Alertmanager: the file, what it mounts, and what promop's client needs to call it. */
export interface WebConfig {
  /** The content of `web-config.yaml`. */
  text: string;
  /** Whether the program serves HTTPS (`tls_server_config` is written). */
  https: boolean;
  /** `spec.web.tlsConfig.clientAuthType`, or '' when unset. */
  clientAuthType: string;
  /** The serving certificate's Secret/ConfigMap key; undefined when it is a file of the container (`certFile`). */
  certReference: WebTlsReference | undefined;
  references: WebTlsReference[];
}

/** `<prefix>-<name>-web-config`, as prometheus-operator names it. */
export function webConfigSecretName(workload: PrometheusWorkload): string {
  return `${prefixedName(workload.metadata.name, workloadKind(workload))}-web-config`;
}

/** Whether `selector` names anything: upstream treats `cert: {}` and `client_ca: {}` as unset. */
function isSet(selector: SecretOrConfigMap | undefined): selector is SecretOrConfigMap {
  return selector !== undefined && (selector.secret !== undefined || selector.configMap !== undefined);
}

function referenceProblems(selector: KeySelector, path: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (!selector.name) problems.push({ path: `${path}.name`, message: 'must name the object to mount' });
  if (!OBJECT_KEY.test(selector.key) || selector.key === '.' || selector.key === '..') {
    problems.push({ path: `${path}.key`, message: `${JSON.stringify(selector.key)} is not a key a Secret or ConfigMap can hold` });
  }
  return problems;
}

/** The reference of a Secret-or-ConfigMap field mounted below `dir`, or the problems that prevent mounting it. */
export function secretOrConfigMapReference(selector: SecretOrConfigMap, path: string, role: 'cert' | 'ca', dir: string): BuildResult<WebTlsReference> {
  if (selector.secret && selector.configMap) return { ok: false, problems: [{ path, message: 'set either secret or configMap, not both' }] };
  const kind = selector.secret ? 'Secret' : 'ConfigMap';
  const keySelector = (selector.secret ?? selector.configMap)!;
  const at = `${path}.${selector.secret ? 'secret' : 'configMap'}`;
  const problems = referenceProblems(keySelector, at);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { kind, name: keySelector.name!, key: keySelector.key, role, mountPath: tlsMountPath(dir, kind, keySelector.name!, role), path: at } };
}

/** The Secret key `selector` names, mounted below `dir` as the TLS key, or the problems that prevent mounting it. */
export function keySecretReference(selector: KeySelector, path: string, dir: string): BuildResult<WebTlsReference> {
  const problems = referenceProblems(selector, path);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { kind: 'Secret', name: selector.name!, key: selector.key, role: 'key', mountPath: tlsMountPath(dir, 'Secret', selector.name!, 'key'), path } };
}

/** The in-pod path of a mounted reference's file. */
export function webTlsFilePath(reference: WebTlsReference): string {
  return `${reference.mountPath}/${reference.key}`;
}

function tlsMountPath(dir: string, kind: WebTlsReference['kind'], name: string, role: WebTlsReference['role']): string {
  return `${dir}/${kind === 'Secret' ? 'secret' : 'configmap'}/${name}-${role}`;
}

function checkedList(values: readonly string[] | undefined, allowed: readonly string[], path: string, what: string, program: string): FieldProblem[] {
  return (values ?? []).flatMap((value, index) =>
    allowed.includes(value) ? [] : [{ path: `${path}[${index}]`, message: `${JSON.stringify(value)} is not a ${what} ${program} knows (one of ${allowed.join(', ')})` }]);
}

/** A server's TLS settings as a file of exporter-toolkit's has them, and the Secret and ConfigMap keys it mounts. */
export interface TlsServerConfig {
  config: Record<string, unknown>;
  references: WebTlsReference[];
  /** The serving certificate's reference; undefined with `certFile`. */
  cert: WebTlsReference | undefined;
}

/**
 * `tls_server_config` of `tls` (at `path`; its Secrets and ConfigMaps mounted below `dir`), with every problem
 * found in one pass; `program` names the server in messages. Prometheus' and Alertmanager's web servers and
 * Alertmanager's mesh (`spec.clusterTLS.server`) read the same block.
 */
export function tlsServerConfig(tls: WebTlsConfig, path: string, dir: string, program: string): BuildResult<TlsServerConfig> {
  const problems: FieldProblem[] = [];
  const references: WebTlsReference[] = [];
  const config: Record<string, unknown> = {};
  let cert: WebTlsReference | undefined;
  // Upstream's checks (WebTLSConfig.Validate), each at the field to change.
  if (isSet(tls.client_ca) && tls.clientCAFile) problems.push({ path: `${path}.clientCAFile`, message: 'cannot be set together with client_ca' });
  if (isSet(tls.cert) && tls.certFile) problems.push({ path: `${path}.certFile`, message: 'cannot be set together with cert' });
  if (tls.keyFile && tls.keySecret) problems.push({ path: `${path}.keyFile`, message: 'cannot be set together with keySecret' });
  if (!tls.keyFile && !tls.keySecret) problems.push({ path: `${path}.keySecret`, message: 'the TLS private key must be set (keySecret or keyFile)' });
  if (!tls.certFile && !isSet(tls.cert)) problems.push({ path: `${path}.cert`, message: 'the TLS certificate must be set (cert or certFile)' });
  if (problems.length > 0) return { ok: false, problems };

  // In upstream's key order, which is also exporter-toolkit's.
  let keyReference: WebTlsReference | undefined;
  if (tls.keySecret) {
    const reference = keySecretReference(tls.keySecret, `${path}.keySecret`, dir);
    if (reference.ok) keyReference = reference.value;
    else problems.push(...reference.problems);
  }
  if (isSet(tls.cert)) {
    const reference = secretOrConfigMapReference(tls.cert, `${path}.cert`, 'cert', dir);
    if (reference.ok) cert = reference.value;
    else problems.push(...reference.problems);
  }
  let caReference: WebTlsReference | undefined;
  if (isSet(tls.client_ca)) {
    const reference = secretOrConfigMapReference(tls.client_ca, `${path}.client_ca`, 'ca', dir);
    if (reference.ok) caReference = reference.value;
    else problems.push(...reference.problems);
  }
  if (tls.certFile) config.cert_file = tls.certFile;
  else if (cert) config.cert_file = webTlsFilePath(cert);
  if (tls.keyFile) config.key_file = tls.keyFile;
  else if (keyReference) config.key_file = webTlsFilePath(keyReference);
  const clientAuth = tls.clientAuthType ?? '';
  if (clientAuth !== '') {
    if ((CLIENT_AUTH_TYPES as readonly string[]).includes(clientAuth)) config.client_auth_type = clientAuth;
    else problems.push({ path: `${path}.clientAuthType`, message: `${JSON.stringify(clientAuth)} is not a client auth type ${program} knows (one of ${CLIENT_AUTH_TYPES.join(', ')})` });
  }
  if (tls.clientCAFile) config.client_ca_file = tls.clientCAFile;
  else if (caReference) config.client_ca_file = webTlsFilePath(caReference);
  if ((tls.clientCAFile || caReference) && (clientAuth === '' || clientAuth === 'NoClientCert')) {
    // exporter-toolkit refuses the file: a CA for client certificates that nothing asks for.
    problems.push({ path: `${path}.clientAuthType`, message: 'must ask for client certificates when a client CA is set (VerifyClientCertIfGiven or RequireAndVerifyClientCert)' });
  }
  for (const field of ['minVersion', 'maxVersion'] as const) {
    const value = tls[field];
    if (!value) continue;
    if (TLS_VERSIONS.includes(value)) config[field === 'minVersion' ? 'min_version' : 'max_version'] = value;
    else problems.push({ path: `${path}.${field}`, message: `${JSON.stringify(value)} is not a TLS version ${program} knows (one of ${TLS_VERSIONS.join(', ')})` });
  }
  problems.push(...checkedList(tls.cipherSuites, CIPHER_SUITES, `${path}.cipherSuites`, 'cipher suite', program));
  if (tls.cipherSuites?.length) config.cipher_suites = [...tls.cipherSuites];
  if (tls.preferServerCipherSuites !== undefined) config.prefer_server_cipher_suites = tls.preferServerCipherSuites;
  problems.push(...checkedList(tls.curvePreferences, CURVES, `${path}.curvePreferences`, 'curve', program));
  if (tls.curvePreferences?.length) config.curve_preferences = [...tls.curvePreferences];
  if (problems.length > 0) return { ok: false, problems };
  references.push(...[keyReference, cert, caReference].filter((reference) => reference !== undefined));
  return { ok: true, value: { config, references, cert } };
}

/** `http_server_config`: header names and values as upstream writes them (the two enums lower-cased, as exporter-toolkit wants). */
function httpServerConfig(http: WebHttpConfig): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  if (http.http2 !== undefined) config.http2 = http.http2;
  const headers = http.headers;
  if (!headers) return config;
  const written: Record<string, string> = {};
  if (headers.contentSecurityPolicy) written['Content-Security-Policy'] = headers.contentSecurityPolicy;
  if (headers.strictTransportSecurity) written['Strict-Transport-Security'] = headers.strictTransportSecurity;
  if (headers.xContentTypeOptions) written['X-Content-Type-Options'] = headers.xContentTypeOptions.toLowerCase();
  if (headers.xFrameOptions) written['X-Frame-Options'] = headers.xFrameOptions.toLowerCase();
  if (headers.xXSSProtection) written['X-XSS-Protection'] = headers.xXSSProtection;
  config.headers = written;
  return config;
}

/**
 * The web config of `workload`, or undefined when it has none: neither `spec.web.tlsConfig` nor
 * `spec.web.httpConfig` is set, or Prometheus is older than 2.24 (no `--web.config.file`; upstream skips it too).
 * prometheus-operator passes the flag with an empty file for every Prometheus ≥ 2.24; promop only when one of the two
 * fields is set, so that a promop upgrade does not roll the pods of every Prometheus (docs/compatibility.md).
 */
export function webConfigOf(workload: PrometheusWorkload, version: PrometheusVersion): BuildResult<WebConfig | undefined> {
  if (!isAtLeast(version, WEB_CONFIG_MIN_VERSION)) return { ok: true, value: undefined };
  return webConfigFile(workload.spec?.web ?? {}, WEB_CONFIG_DIR, 'Prometheus');
}

/** The fields of a web config file: `spec.web.tlsConfig` and `spec.web.httpConfig`. */
export interface WebConfigFileFields {
  tlsConfig?: WebTlsConfig | undefined;
  httpConfig?: WebHttpConfig | undefined;
}

/**
 * The web config file of `web` (at `spec.web`), its TLS material mounted below `dir`, or undefined when neither
 * field is set; `program` (Prometheus, Alertmanager) names the server in messages.
 */
export function webConfigFile(web: WebConfigFileFields, dir: string, program: string): BuildResult<WebConfig | undefined> {
  if (!web.tlsConfig && !web.httpConfig) return { ok: true, value: undefined };
  const file: Record<string, unknown> = {};
  let references: WebTlsReference[] = [];
  let cert: WebTlsReference | undefined;
  if (web.tlsConfig) {
    const tls = tlsServerConfig(web.tlsConfig, 'spec.web.tlsConfig', dir, program);
    if (!tls.ok) return tls;
    file.tls_server_config = tls.value.config;
    references = tls.value.references;
    cert = tls.value.cert;
  }
  if (web.httpConfig) file.http_server_config = httpServerConfig(web.httpConfig);
  return {
    ok: true,
    value: {
      text: dump(file, { lineWidth: -1, noRefs: true }),
      https: web.tlsConfig !== undefined,
      clientAuthType: web.tlsConfig?.clientAuthType ?? '',
      certReference: cert,
      references,
    },
  };
}

/** The Secret holding `web-config.yaml`, owned by the Prometheus. */
export function buildWebConfigSecret(workload: PrometheusWorkload, webConfig: WebConfig): V1Secret {
  const { name, namespace } = workload.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: webConfigSecretName(workload),
      namespace,
      labels: { ...managedByLabels(), [PROMETHEUS_NAME_LABEL]: name },
      ownerReferences: [prometheusOwnerReference(workload)],
    },
    type: 'Opaque',
    data: base64Data({ [WEB_CONFIG_FILE_NAME]: webConfig.text }),
  };
}

/** A hash of the file, for WEB_CONFIG_HASH_ANNOTATION. */
export function webConfigHash(webConfig: WebConfig): string {
  return createHash('sha256').update(webConfig.text).digest('hex').slice(0, 16);
}

/** The volumes and mounts of the web config Secret `secretName` (its file in `dir`) and of each Secret/ConfigMap it names. */
export function webConfigVolumes(secretName: string, dir: string, webConfig: WebConfig): { volumes: V1Volume[]; mounts: V1VolumeMount[] } {
  const tls = tlsReferenceVolumes(webConfig.references, 'web-config-tls-');
  return {
    volumes: [{ name: WEB_CONFIG_VOLUME, secret: { secretName } }, ...tls.volumes],
    mounts: [{ name: WEB_CONFIG_VOLUME, mountPath: `${dir}/${WEB_CONFIG_FILE_NAME}`, subPath: WEB_CONFIG_FILE_NAME, readOnly: true }, ...tls.mounts],
  };
}

/** A volume and mount for each of `references`, named `<prefix><secret|configmap>-<role>-<object>` as upstream names them. */
export function tlsReferenceVolumes(references: readonly WebTlsReference[], prefix: string): { volumes: V1Volume[]; mounts: V1VolumeMount[] } {
  const volumes: V1Volume[] = [];
  const mounts: V1VolumeMount[] = [];
  for (const reference of references) {
    const role = reference.role === 'ca' ? 'client-ca' : reference.role;
    const name = volumeName(`${prefix}${reference.kind === 'Secret' ? 'secret' : 'configmap'}-${role}-${reference.name}`);
    volumes.push(reference.kind === 'Secret' ? { name, secret: { secretName: reference.name } } : { name, configMap: { name: reference.name } });
    mounts.push({ name, mountPath: reference.mountPath, readOnly: true });
  }
  return { volumes, mounts };
}
