/**
 * The `prometheus` container, and how the user's `spec.containers` are combined with it.
 */
import type { V1Container, V1Probe, V1ResourceRequirements, V1VolumeMount } from '@kubernetes/client-node';
import { POD_NAME_ENV, isAtLeast, type PrometheusVersion } from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';
import type { PrometheusWorkload } from './workload-kind.ts';
import { asEmbedded } from './embedded-field.ts';
import { PROMETHEUS_PORT, routePrefix } from './prometheus-args.ts';

/** Name of promop's container in the pod (also the `kubectl.kubernetes.io/default-container`). */
export const PROMETHEUS_CONTAINER_NAME = 'prometheus';
/** Default name of the Prometheus port (`spec.portName`), also the governing Service's target port. */
export const WEB_PORT_NAME = 'web';
/** Image repository used when neither `spec.image` nor `spec.baseImage` is set. */
export const DEFAULT_BASE_IMAGE = 'quay.io/prometheus/prometheus';

/** A Prometheus' or an agent's spec; the deprecated image fields exist on a server only. */
type Spec = NonNullable<PrometheusWorkload['spec']> & Partial<Pick<NonNullable<Prometheus['spec']>, 'baseImage' | 'sha' | 'tag'>>;

/**
 * The image: `spec.image` when set, else `<baseImage>@sha256:<sha>`, `<baseImage>:<tag>` or
 * `<baseImage>:v<version>` (deprecated `baseImage`/`tag`/`sha` honoured as prometheus-operator does). The version
 * is normalised to `vX.Y.Z`, the form of Prometheus' image tags, whatever form `spec.version` used.
 */
export function prometheusImage(spec: Spec, version: PrometheusVersion): string {
  if (spec.image) return spec.image;
  const base = spec.baseImage || DEFAULT_BASE_IMAGE;
  if (spec.sha) return `${base}@sha256:${spec.sha}`;
  if (spec.tag) return `${base}:${spec.tag}`;
  const suffix = /[-+].*$/.exec(version.text)?.[0] ?? '';
  return `${base}:v${version.major}.${version.minor}.${version.patch}${suffix}`;
}

/** A probe path under the route prefix, without doubled slashes. */
function probePath(spec: Spec, endpoint: string): string {
  return `${routePrefix(spec).replace(/\/+$/, '')}${endpoint}`;
}

/**
 * The startup probe's period and failure threshold, as prometheus-operator derives them: 15 s × 60 by default (and
 * for less than a minute); otherwise one probe a minute at most, `ceil(d / 60)` failures at a period of
 * `ceil(d / failures)` seconds, so the kubelet gives up after about `maximumStartupDurationSeconds`.
 */
function startupTiming(maximumStartupDurationSeconds: number | null | undefined): { startupPeriod: number; startupFailures: number } {
  const duration = maximumStartupDurationSeconds ?? 0;
  if (duration < 60) return { startupPeriod: 15, startupFailures: 60 };
  const startupFailures = Math.ceil(duration / 60);
  return { startupPeriod: Math.ceil(duration / startupFailures), startupFailures };
}

/**
 * Startup, readiness and liveness probes with prometheus-operator's timings. The startup probe allows
 * `maximumStartupDurationSeconds` (default 15 min) for WAL replay. With `listenLocal` the kubelet cannot reach
 * 127.0.0.1 inside the pod, so the probes run wget (in the Prometheus image) in the container instead. `scheme` is
 * `https` when Prometheus serves HTTPS (web-config.ts), as prometheus-operator switches its probes.
 */
function probes(spec: Spec, portName: string, scheme: 'http' | 'https'): Pick<V1Container, 'startupProbe' | 'readinessProbe' | 'livenessProbe'> {
  const handler = (endpoint: string): V1Probe =>
    spec.listenLocal
      ? { exec: { command: ['sh', '-c', `wget -q -O /dev/null ${scheme}://127.0.0.1:${PROMETHEUS_PORT}${probePath(spec, endpoint)}`] } }
      // The kubelet does not verify the serving certificate of an HTTPS probe (and presents no client certificate).
      : { httpGet: { path: probePath(spec, endpoint), port: portName, scheme: scheme === 'https' ? 'HTTPS' : 'HTTP' } };
  const { startupPeriod, startupFailures } = startupTiming(spec.maximumStartupDurationSeconds);
  return {
    startupProbe: { ...handler('/-/ready'), timeoutSeconds: 3, periodSeconds: startupPeriod, failureThreshold: startupFailures },
    readinessProbe: { ...handler('/-/ready'), timeoutSeconds: 3, periodSeconds: 5, failureThreshold: 3 },
    livenessProbe: { ...handler('/-/healthy'), timeoutSeconds: 3, periodSeconds: 5, failureThreshold: 6 },
  };
}

/**
 * `GOGC` from `spec.runtime.goGC` for Prometheus older than 2.53, which cannot read it from its config file's
 * `runtime` section (the generator writes it there from 2.53), as prometheus-operator passes it.
 */
function goGcEnv(spec: Spec, version: PrometheusVersion): { name: string; value: string }[] {
  const goGC = (spec as { runtime?: { goGC?: number | null } | null }).runtime?.goGC;
  return typeof goGC === 'number' && !isAtLeast(version, '2.53.0') ? [{ name: 'GOGC', value: String(goGC) }] : [];
}

/**
 * The prometheus container. `POD_NAME` comes from the downward API because the generator writes the replica
 * external label as `${POD_NAME}` and Prometheus expands it (see docs/compatibility.md). Root filesystem
 * read-only: everything Prometheus writes goes to the data volume.
 */
export function prometheusContainer(spec: Spec, version: PrometheusVersion, args: string[], mounts: V1VolumeMount[], scheme: 'http' | 'https' = 'http'): V1Container {
  const portName = spec.portName || WEB_PORT_NAME;
  return {
    name: PROMETHEUS_CONTAINER_NAME,
    image: prometheusImage(spec, version),
    ...(spec.imagePullPolicy ? { imagePullPolicy: spec.imagePullPolicy } : {}),
    args,
    env: [...goGcEnv(spec, version), { name: POD_NAME_ENV, valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
    ...(spec.listenLocal ? {} : { ports: [{ name: portName, containerPort: PROMETHEUS_PORT, protocol: 'TCP' }] }),
    ...probes(spec, portName, scheme),
    ...(spec.resources ? { resources: asEmbedded<V1ResourceRequirements>(spec.resources) } : {}),
    securityContext: { readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    terminationMessagePolicy: 'FallbackToLogsOnError',
    volumeMounts: mounts,
  };
}
