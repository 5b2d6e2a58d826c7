/**
 * `spec.thanos` of a Prometheus (prometheus-operator's ThanosSpec): the Thanos sidecar promop adds to each
 * Prometheus pod, which serves the pod's TSDB over Thanos' StoreAPI (gRPC) and, with an object storage
 * configuration, uploads the blocks Prometheus cuts. Every field of prometheus-operator v0.93 is here with its
 * type, enum, pattern and default; the Kubernetes types it embeds (resources, volume mounts) stay opaque like the
 * rest of the Prometheus' pod fields.
 */
import { bool, duration, durationWithDefault, embedded, embeddedList, oneOf, secretKeySelectorSchema, str } from './common.ts';
import { tlsConfigSchema } from './tls-config.ts';

/** A list of strings given at most once each, with at least one item when present (upstream's listType=set, MinItems=1). */
function nonEmptyStringSet<const D extends string>(description: D) {
  return { type: 'array', minItems: 1, items: { type: 'string' }, 'x-kubernetes-list-type': 'set', description } as const;
}

/**
 * TLS of the sidecar's gRPC server (prometheus-operator's GRPCServerTLSConfig). It carries every field of TLSConfig
 * for compatibility, but the sidecar reads its certificate, key and client CA from files only (`certFile`,
 * `keyFile`, `caFile`); promop refuses the Secret and ConfigMap fields rather than serve plain gRPC while the user
 * believes it is TLS (see docs/compatibility.md).
 */
export const grpcServerTlsConfigSchema = {
  type: 'object',
  description: 'TLS of the sidecar gRPC server (StoreAPI). Only minVersion, caFile, certFile, keyFile, cipherSuites and curves are used.',
  additionalProperties: false,
  properties: {
    ...tlsConfigSchema.properties,
    caFile: str('Path, in the thanos-sidecar container, of the CA that verifies client certificates.'),
    certFile: str('Path, in the thanos-sidecar container, of the server certificate.'),
    keyFile: str('Path, in the thanos-sidecar container, of the server key.'),
    cipherSuites: nonEmptyStringSet('Cipher suites for TLS up to 1.2, by Go name (Thanos >= 0.42.0).'),
    curves: nonEmptyStringSet('Preferred elliptic curves, by Go name (Thanos >= 0.42.0).'),
  },
} as const;

/** The Thanos sidecar of a Prometheus. */
export const thanosSpecSchema = {
  type: 'object',
  description: 'Thanos sidecar run beside Prometheus in each pod.',
  additionalProperties: false,
  properties: {
    image: str('Thanos image; takes precedence over baseImage, tag and sha (set version too).'),
    version: str('Thanos version, which decides the flags promop passes (default v0.42.2, as prometheus-operator v0.93).'),
    tag: str('Deprecated: use image.'),
    sha: str('Deprecated: use image.'),
    baseImage: str('Deprecated: use image.'),
    resources: embedded('Resource requests and limits of the thanos-sidecar container.'),
    objectStorageConfig: { ...secretKeySelectorSchema, description: 'Secret key with the object storage configuration the sidecar uploads blocks with.' },
    objectStorageConfigFile: str('Object storage configuration file in the sidecar container; takes precedence over objectStorageConfig.'),
    listenLocal: bool('Deprecated: use grpcListenLocal and httpListenLocal.'),
    grpcListenLocal: bool('Listen for gRPC on 127.0.0.1 instead of the pod IP.'),
    httpListenLocal: bool('Listen for HTTP on 127.0.0.1 instead of the pod IP.'),
    tracingConfig: { ...secretKeySelectorSchema, description: 'Secret key with the tracing configuration of the sidecar (experimental).' },
    tracingConfigFile: str('Tracing configuration file in the sidecar container; takes precedence over tracingConfig.'),
    grpcServerTlsConfig: grpcServerTlsConfigSchema,
    logLevel: oneOf(['', 'debug', 'info', 'warn', 'error'], 'Log level of the sidecar (default: the Prometheus logLevel).'),
    logFormat: oneOf(['', 'logfmt', 'json'], 'Log format of the sidecar (default: the Prometheus logFormat).'),
    minTime: str('Start of the time range the StoreAPI serves: an RFC3339 time or a duration relative to now such as -1d.'),
    blockSize: durationWithDefault('Duration of the TSDB blocks Prometheus cuts while the sidecar uploads them.', '2h'),
    readyTimeout: duration('How long the sidecar waits for Prometheus to start.'),
    getConfigInterval: duration('How often the sidecar reads the Prometheus configuration.'),
    getConfigTimeout: duration('How long one read of the Prometheus configuration may take.'),
    volumeMounts: embeddedList('Extra volume mounts of the thanos-sidecar container (Kubernetes VolumeMount).'),
    additionalArgs: {
      type: 'array',
      description: 'Extra thanos sidecar arguments ({name, value}); one that sets a flag promop sets is refused.',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, description: 'Flag name without the leading dashes.' },
          value: str('Flag value; absent for a flag without one.'),
        },
      },
    },
  },
} as const;
