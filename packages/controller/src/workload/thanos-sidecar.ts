/**
 * The Thanos sidecar of a Prometheus (`spec.thanos`), as prometheus-operator v0.93 builds it
 * (pkg/prometheus/server/statefulset.go, createThanosContainer and compactionModeFor): the `thanos-sidecar`
 * container, the Prometheus flags that let it upload blocks, and the small Secret with the HTTP client settings it
 * reads Prometheus with. promop's controller keeps reloading Prometheus itself; the sidecar only reads Prometheus
 * (its config, its TSDB) and serves it over Thanos' StoreAPI.
 */
import type { V1Container, V1EnvVar, V1ResourceRequirements, V1Secret, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import { STORAGE_DIR, isAtLeast, prefixedName, type FieldProblem, type PrometheusVersion } from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';
import { DURATION_PATTERN } from '@promop/crds';
import type { BuildResult } from './build-result.ts';
import { asEmbedded } from './embedded-field.ts';
import { PROMETHEUS_NAME_LABEL, managedByLabels } from './labels.ts';
import { prometheusOwnerReference } from './owner-reference.ts';
import { base64Data } from './secret-size.ts';

/** Name of the sidecar container (users' `spec.containers` patch it by this name, as upstream documents). */
export const THANOS_SIDECAR_CONTAINER_NAME = 'thanos-sidecar';
/** Port of the sidecar's gRPC StoreAPI, named `grpc` in the pod and on the governing Service. */
export const THANOS_GRPC_PORT = 10901;
/** Port of the sidecar's HTTP server (metrics, probes), named `http` in the pod. */
export const THANOS_HTTP_PORT = 10902;
/** The Thanos release assumed when `spec.thanos.version` is absent: prometheus-operator v0.93's default. */
export const DEFAULT_THANOS_VERSION = 'v0.42.2';
/** Image repository when neither `image` nor `baseImage` is set. */
export const DEFAULT_THANOS_BASE_IMAGE = 'quay.io/thanos/thanos';
/** The shipper's meta file in the TSDB directory, which Prometheus reads to compact only uploaded blocks. */
export const THANOS_SHIPPER_META_FILE = 'thanos.shipper.json';
/** Where the sidecar's HTTP client settings for Prometheus are mounted, and the file's name. */
export const THANOS_CONFIG_DIR = '/etc/thanos/config';
export const THANOS_HTTP_CLIENT_FILE = 'prometheus.http-client-file.yaml';
/** Volume name of that Secret, upstream's. */
export const THANOS_HTTP_CLIENT_VOLUME = 'thanos-prometheus-http-client-file';
/**
 * The HTTP client settings: certificates are not verified, because the sidecar calls Prometheus on localhost,
 * where the name never matches a serving certificate (upstream writes the same file).
 */
export const THANOS_HTTP_CLIENT_CONFIG = 'tls_config:\n  insecure_skip_verify: true\n';

/** A Prometheus server's spec and its `thanos`. */
type ServerSpec = NonNullable<Prometheus['spec']>;
type ThanosSpec = NonNullable<ServerSpec['thanos']>;

/** A Thanos version as Go's semver.ParseTolerant reads it (upstream compares versions that way). */
export interface ThanosVersion {
  major: number;
  minor: number;
  patch: number;
  /** The pre-release part (`rc.0`), empty for a release: a pre-release sorts before its release. */
  preRelease: string;
}

/**
 * Reads a Thanos version tolerantly, as semver.ParseTolerant: spaces trimmed, a leading `v` dropped, a missing
 * minor or patch read as 0. Undefined for text that is not a version.
 */
export function readThanosVersion(text: string): ThanosVersion | undefined {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? 0), patch: Number(match[3] ?? 0), preRelease: match[4] ?? '' };
}

/** Whether `version` >= `minimum` (a release literal such as `0.29.0`), a pre-release counting below its release. */
export function thanosAtLeast(version: ThanosVersion, minimum: string): boolean {
  const min = readThanosVersion(minimum);
  if (!min) throw new Error(`bug: bad minimum Thanos version literal ${minimum}`);
  if (version.major !== min.major) return version.major > min.major;
  if (version.minor !== min.minor) return version.minor > min.minor;
  if (version.patch !== min.patch) return version.patch > min.patch;
  return version.preRelease === '' || min.preRelease !== '';
}

/** Whether the sidecar uploads blocks: an object storage configuration from a Secret key or a file. */
export function uploadsBlocks(thanos: ThanosSpec | undefined): boolean {
  return thanos !== undefined && (thanos.objectStorageConfig !== undefined || thanos.objectStorageConfigFile !== undefined);
}

/**
 * How Prometheus compacts its TSDB, upstream's compactionModeFor: `disabled` (min = max block duration) when
 * `disableCompaction` is set or the sidecar uploads and either Prometheus < 3.9.0 or Thanos < 0.41.0; `delayed`
 * (Prometheus compacts only blocks the shipper's meta file lists as uploaded) when the sidecar uploads and both
 * versions support it; `default` otherwise. An unreadable Thanos version is reported by thanosSidecar.
 */
export function compactionMode(spec: ServerSpec, prometheusVersion: PrometheusVersion): 'default' | 'disabled' | 'delayed' {
  if (spec.disableCompaction) return 'disabled';
  if (!uploadsBlocks(spec.thanos ?? undefined)) return 'default';
  const thanosVersion = readThanosVersion(spec.thanos?.version ?? DEFAULT_THANOS_VERSION);
  if (thanosVersion && isAtLeast(prometheusVersion, '3.9.0') && thanosAtLeast(thanosVersion, '0.41.0')) return 'delayed';
  return 'disabled';
}

/**
 * The Prometheus flags compaction needs, in upstream's place (after the web config flag): equal min and max block
 * durations (`spec.thanos.blockSize`, default 2h) when compaction is disabled, the shipper meta file when it is
 * delayed, and `--no-storage.tsdb.allow-overlapping-compaction` in both cases when out-of-order samples are accepted
 * (Prometheus >= 2.55), so that overlapping blocks are not merged before the sidecar uploads them.
 */
export function compactionFlags(spec: ServerSpec, prometheusVersion: PrometheusVersion): { name: string; value?: string }[] {
  const mode = compactionMode(spec, prometheusVersion);
  const flags: { name: string; value?: string }[] = [];
  if (mode === 'disabled') {
    const blockSize = spec.thanos?.blockSize || '2h';
    flags.push({ name: 'storage.tsdb.max-block-duration', value: blockSize }, { name: 'storage.tsdb.min-block-duration', value: blockSize });
  }
  if (mode === 'delayed') flags.push({ name: 'storage.tsdb.delay-compact-file.path', value: `${STORAGE_DIR}/${THANOS_SHIPPER_META_FILE}` });
  const outOfOrder = (spec.tsdb as { outOfOrderTimeWindow?: unknown } | undefined)?.outOfOrderTimeWindow;
  if (outOfOrder !== undefined && outOfOrder !== null && mode !== 'default' && isAtLeast(prometheusVersion, '2.55.0')) {
    flags.push({ name: 'no-storage.tsdb.allow-overlapping-compaction' });
  }
  return flags;
}

/** Name of the Secret with the sidecar's HTTP client settings, upstream's `prometheus-<name>-thanos-prometheus-http-client-file`. */
export function thanosHttpClientSecretName(prometheusName: string): string {
  return `${prefixedName(prometheusName)}-${THANOS_HTTP_CLIENT_VOLUME}`;
}

/**
 * Whether the sidecar reads its HTTP client settings from a file: Thanos >= 0.24.0 has the flag. promop writes the
 * Secret only then (upstream writes it for every Prometheus, sidecar or not).
 */
export function usesHttpClientFile(spec: ServerSpec): boolean {
  if (!spec.thanos) return false;
  const version = readThanosVersion(spec.thanos.version ?? DEFAULT_THANOS_VERSION);
  return version !== undefined && thanosAtLeast(version, '0.24.0');
}

/** The Secret `prometheus-<name>-thanos-prometheus-http-client-file`, owned by the Prometheus. */
export function buildThanosHttpClientSecret(prometheus: Prometheus): V1Secret {
  const { name, namespace } = prometheus.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: thanosHttpClientSecretName(name),
      namespace,
      labels: { ...managedByLabels(), [PROMETHEUS_NAME_LABEL]: name },
      ownerReferences: [prometheusOwnerReference(prometheus)],
    },
    type: 'Opaque',
    data: base64Data({ [THANOS_HTTP_CLIENT_FILE]: THANOS_HTTP_CLIENT_CONFIG }),
  };
}

/** One sidecar flag; an empty value is written `--name` as upstream's BuildArgs writes it. */
interface Flag {
  name: string;
  value?: string;
}

/** Thanos' names of the TLS versions (upstream's TLSVersionForThanos). */
const THANOS_TLS_VERSIONS: Readonly<Record<string, string>> = { TLS10: '1.0', TLS11: '1.1', TLS12: '1.2', TLS13: '1.3' };

/** path.Clean of Go for the route prefix in `--prometheus.url` (`/prom/` becomes `/prom`). */
function cleanPath(path: string): string {
  if (path === '') return '.';
  const rooted = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!rooted) parts.push('..');
      continue;
    }
    parts.push(part);
  }
  const joined = parts.join('/');
  if (rooted) return `/${joined}`;
  return joined === '' ? '.' : joined;
}

/**
 * The image, upstream's BuildImagePath: `image` as given; else a `baseImage` that already has a tag or digest as
 * given; else `<baseImage>@sha256:<sha>`, the normalised `<baseImage>:<tag>`, or `<baseImage>:<version>` (the
 * version as written, e.g. `v0.42.2`). Undefined with a problem when the base image is not an image reference.
 */
function thanosImage(thanos: ThanosSpec): { image: string } | FieldProblem {
  if (thanos.image && thanos.image.trim() !== '') return { image: thanos.image };
  const base = thanos.baseImage ?? DEFAULT_THANOS_BASE_IMAGE;
  const reference = parseImageReference(base);
  if (!reference) return { path: 'spec.thanos.baseImage', message: `"${base}" is not an image reference such as quay.io/thanos/thanos` };
  if (reference.tagged) return { image: base };
  if (thanos.sha) return { image: `${base}@sha256:${thanos.sha}` };
  if (thanos.tag) {
    if (!/^[\w][\w.-]{0,127}$/.test(thanos.tag)) return { path: 'spec.thanos.tag', message: `"${thanos.tag}" is not an image tag` };
    return { image: `${reference.normalised}:${thanos.tag}` };
  }
  const version = thanos.version ?? DEFAULT_THANOS_VERSION;
  return { image: `${base}:${version}` };
}

/**
 * An image reference as the distribution library's ParseNormalizedNamed reads it: whether it carries a tag or a
 * digest, and its fully qualified name (`thanos/thanos` is `docker.io/thanos/thanos`, `busybox` is
 * `docker.io/library/busybox`). Undefined for text that is not a reference (upper case in the path, spaces…).
 */
function parseImageReference(text: string): { tagged: boolean; normalised: string } | undefined {
  const match = /^((?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)(?::([\w][\w.-]{0,127}))?(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$/.exec(text);
  if (!match) return undefined;
  const name = match[1]!;
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const hasDomain = first !== '' && (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase());
  if (!hasDomain && name !== name.toLowerCase()) return undefined;
  const normalised = hasDomain ? name : `docker.io/${slash < 0 ? `library/${name}` : name}`;
  return { tagged: match[2] !== undefined || match[3] !== undefined, normalised };
}

/** Whether `text` is an RFC 3339 time as Go's time.Parse(time.RFC3339) reads it. */
function isRfc3339(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/.test(text) && !Number.isNaN(Date.parse(text));
}

/**
 * What the sidecar itself refuses at start (Thanos' pkg/tls NewServerConfig, the `--min-time` parser), and the
 * gRPC TLS fields it cannot use: the Secret and ConfigMap references of `grpcServerTlsConfig`, which upstream drops
 * without a word (the sidecar would then serve plain gRPC).
 */
function sidecarProblems(thanos: ThanosSpec): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const tls = thanos.grpcServerTlsConfig;
  if (tls) {
    const at = 'spec.thanos.grpcServerTlsConfig';
    const byFile: Record<string, string> = { ca: 'caFile', cert: 'certFile', keySecret: 'keyFile' };
    for (const field of ['ca', 'cert', 'keySecret'] as const) {
      const value = tls[field] as Record<string, unknown> | undefined;
      if (value && Object.keys(value).length > 0) {
        problems.push({ path: `${at}.${field}`, message: `the Thanos sidecar reads its TLS material from files only: mount the Secret with spec.volumes and spec.thanos.volumeMounts and set ${byFile[field]}` });
      }
    }
    if (tls.certFile && !tls.keyFile) problems.push({ path: `${at}.keyFile`, message: 'is required with certFile (the sidecar refuses a server certificate without its key)' });
    if (tls.keyFile && !tls.certFile) problems.push({ path: `${at}.certFile`, message: 'is required with keyFile (the sidecar refuses a server key without its certificate)' });
    if (tls.caFile && !tls.certFile && !tls.keyFile) {
      problems.push({ path: `${at}.caFile`, message: 'needs certFile and keyFile (the sidecar verifies client certificates only when it serves TLS)' });
    }
  }
  if (thanos.minTime) {
    const duration = thanos.minTime.startsWith('-') ? thanos.minTime.slice(1) : thanos.minTime;
    if (!isRfc3339(thanos.minTime) && !(new RegExp(DURATION_PATTERN).test(duration) && duration !== '')) {
      problems.push({ path: 'spec.thanos.minTime', message: `"${thanos.minTime}" is neither an RFC 3339 time nor a duration such as -2w or 36h` });
    }
  }
  return problems;
}

/** What the sidecar adds to a pod: its container and the volumes only it mounts. */
export interface ThanosSidecar {
  container: V1Container;
  volumes: V1Volume[];
}

/**
 * The `thanos-sidecar` container of a Prometheus with `spec.thanos` (undefined without), as upstream's
 * createThanosContainer, in its order of flags: `sidecar`, `--prometheus.url` (scheme https when the Prometheus
 * serves TLS, localhost:9090 and the cleaned route prefix), the gRPC and HTTP listen addresses (127.0.0.1 with
 * `listenLocal` or `grpcListenLocal`/`httpListenLocal`), the gRPC server TLS files and minimum version (Thanos >=
 * 0.37.0), ciphers and curves (>= 0.42.0; one flag per value, where upstream writes one comma-separated flag that
 * Thanos refuses), the object storage configuration (a file, or the `OBJSTORE_CONFIG`
 * variable from the Secret key, read by the kubelet from the Prometheus' own namespace) with `--tsdb.path` and the
 * data volume, the shipper flags in delayed compaction, tracing likewise (`TRACING_CONFIG`), log level and format
 * (the Prometheus' when unset), `--min-time`, `--prometheus.ready_timeout`, the config timeout and interval
 * (>= 0.29.0), the HTTP client file (>= 0.24.0), then `additionalArgs`.
 *
 * `storageMount` is the prometheus container's mount of the data volume. Problems: an unreadable version, a bad
 * base image or tag, an additional argument that sets a flag promop sets (as upstream's BuildArgs refuses), and
 * sidecarProblems.
 */
export function thanosSidecar(
  spec: ServerSpec, prometheusScheme: 'http' | 'https', prometheusVersion: PrometheusVersion, storageMount: V1VolumeMount, prometheusName: string,
): BuildResult<ThanosSidecar | undefined> {
  const thanos = spec.thanos ?? undefined;
  if (!thanos) return { ok: true, value: undefined };
  const problems = sidecarProblems(thanos);
  const versionText = thanos.version ?? DEFAULT_THANOS_VERSION;
  const version = readThanosVersion(versionText);
  if (!version) problems.push({ path: 'spec.thanos.version', message: `"${versionText}" is not a Thanos version such as v0.42.2` });
  const image = thanosImage(thanos);
  if ('path' in image) problems.push(image);
  if (!version || 'path' in image) return { ok: false, problems };

  const grpcHost = thanos.listenLocal || thanos.grpcListenLocal ? '127.0.0.1' : '';
  const httpHost = thanos.listenLocal || thanos.httpListenLocal ? '127.0.0.1' : '';
  const flags: Flag[] = [
    { name: 'prometheus.url', value: `${prometheusScheme}://localhost:9090${cleanPath(spec.routePrefix || '/')}` },
    { name: 'grpc-address', value: `${grpcHost}:${THANOS_GRPC_PORT}` },
    { name: 'http-address', value: `${httpHost}:${THANOS_HTTP_PORT}` },
  ];
  const tls = thanos.grpcServerTlsConfig;
  if (tls) {
    if (tls.certFile) flags.push({ name: 'grpc-server-tls-cert', value: tls.certFile });
    if (tls.keyFile) flags.push({ name: 'grpc-server-tls-key', value: tls.keyFile });
    if (tls.caFile) flags.push({ name: 'grpc-server-tls-client-ca', value: tls.caFile });
    const minVersion = THANOS_TLS_VERSIONS[tls.minVersion ?? ''];
    if (minVersion && thanosAtLeast(version, '0.37.0')) flags.push({ name: 'grpc-server-tls-min-version', value: minVersion });
    // One flag per value: Thanos repeats these flags and refuses a comma-separated list (upstream joins the values
    // with commas, so more than one makes the sidecar exit at start).
    if (thanosAtLeast(version, '0.42.0')) {
      for (const cipher of tls.cipherSuites ?? []) flags.push({ name: 'grpc-server-tls-ciphers', value: cipher });
      for (const curve of tls.curves ?? []) flags.push({ name: 'grpc-server-tls-curves', value: curve });
    }
  }

  const env: V1EnvVar[] = [];
  const mounts: V1VolumeMount[] = asEmbedded<V1VolumeMount[]>(thanos.volumeMounts ?? []).map((mount) => ({ ...mount }));
  if (uploadsBlocks(thanos)) {
    if (thanos.objectStorageConfigFile !== undefined) {
      flags.push({ name: 'objstore.config-file', value: thanos.objectStorageConfigFile });
    } else if (thanos.objectStorageConfig) {
      flags.push({ name: 'objstore.config', value: '$(OBJSTORE_CONFIG)' });
      env.push({ name: 'OBJSTORE_CONFIG', valueFrom: { secretKeyRef: { ...thanos.objectStorageConfig } } });
    }
    flags.push({ name: 'tsdb.path', value: STORAGE_DIR });
    mounts.push({ name: storageMount.name, mountPath: STORAGE_DIR, ...(storageMount.subPath ? { subPath: storageMount.subPath } : {}) });
    if (compactionMode(spec, prometheusVersion) === 'delayed') {
      flags.push({ name: 'shipper.meta-file-name', value: THANOS_SHIPPER_META_FILE }, { name: 'shipper.ignore-unequal-block-size' });
    }
  }
  if (thanos.tracingConfigFile) {
    flags.push({ name: 'tracing.config-file', value: thanos.tracingConfigFile });
  } else if (thanos.tracingConfig) {
    flags.push({ name: 'tracing.config', value: '$(TRACING_CONFIG)' });
    env.push({ name: 'TRACING_CONFIG', valueFrom: { secretKeyRef: { ...thanos.tracingConfig } } });
  }
  const logLevel = thanos.logLevel || spec.logLevel;
  if (logLevel) flags.push({ name: 'log.level', value: logLevel });
  const logFormat = thanos.logFormat || spec.logFormat;
  if (logFormat) flags.push({ name: 'log.format', value: logFormat });
  if (thanos.minTime) flags.push({ name: 'min-time', value: thanos.minTime });
  if (thanos.readyTimeout) flags.push({ name: 'prometheus.ready_timeout', value: thanos.readyTimeout });
  if (thanos.getConfigTimeout && thanosAtLeast(version, '0.29.0')) flags.push({ name: 'prometheus.get_config_timeout', value: thanos.getConfigTimeout });
  if (thanos.getConfigInterval && thanosAtLeast(version, '0.29.0')) flags.push({ name: 'prometheus.get_config_interval', value: thanos.getConfigInterval });
  const volumes: V1Volume[] = [];
  if (thanosAtLeast(version, '0.24.0')) {
    flags.push({ name: 'prometheus.http-client-file', value: `${THANOS_CONFIG_DIR}/${THANOS_HTTP_CLIENT_FILE}` });
    mounts.push({ name: THANOS_HTTP_CLIENT_VOLUME, mountPath: THANOS_CONFIG_DIR });
    volumes.push({ name: THANOS_HTTP_CLIENT_VOLUME, secret: { secretName: thanosHttpClientSecretName(prometheusName) } });
  }

  // Upstream's ArgumentsIntersection: a name promop sets, or its negation (`no-x` for `x` and back), is refused.
  const managed = new Set(flags.map((flag) => flag.name));
  (thanos.additionalArgs ?? []).forEach((argument, index) => {
    const negated = argument.name.startsWith('no-') ? argument.name.slice(3) : `no-${argument.name}`;
    if (managed.has(argument.name) || managed.has(negated)) {
      problems.push({ path: `spec.thanos.additionalArgs[${index}].name`, message: `"${argument.name}" is set by promop and cannot be overridden` });
    } else {
      flags.push({ name: argument.name, ...(argument.value ? { value: argument.value } : {}) });
    }
  });
  if (problems.length > 0) return { ok: false, problems };

  const container: V1Container = {
    name: THANOS_SIDECAR_CONTAINER_NAME,
    image: image.image,
    ...(spec.imagePullPolicy ? { imagePullPolicy: spec.imagePullPolicy } : {}),
    args: ['sidecar', ...flags.map((flag) => (flag.value ? `--${flag.name}=${flag.value}` : `--${flag.name}`))],
    ...(env.length > 0 ? { env } : {}),
    ports: [
      { name: 'http', containerPort: THANOS_HTTP_PORT, protocol: 'TCP' },
      { name: 'grpc', containerPort: THANOS_GRPC_PORT, protocol: 'TCP' },
    ],
    ...(thanos.resources ? { resources: asEmbedded<V1ResourceRequirements>(thanos.resources) } : {}),
    securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
    terminationMessagePolicy: 'FallbackToLogsOnError',
    ...(mounts.length > 0 ? { volumeMounts: mounts } : {}),
  };
  return { ok: true, value: { container, volumes } };
}
