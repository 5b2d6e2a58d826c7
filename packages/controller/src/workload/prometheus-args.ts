/**
 * The Prometheus command line, in prometheus-operator's order (§5 of the compatibility reference), adapted to
 * promop's sidecar-less pod: the config is read straight from the config Secret mount, and Prometheus 2.x gets
 * `--enable-feature=expand-external-labels` so it expands `${POD_NAME}` in the replica label itself.
 *
 * A PrometheusAgent runs the same binary in agent mode, as prometheus-operator starts it: `--agent` (Prometheus 3)
 * or `--enable-feature=agent` (2.x), its WAL under `--storage.agent.path` with `--[no-]storage.agent.wal-compression`,
 * and none of the server's TSDB, retention, query, rule or console flags (its spec has no field for them).
 */
import {
  CONFIG_DIR, CONFIG_FILE_NAME, DEFAULT_RETENTION, REMOTE_WRITE_PROTOBUF_MESSAGES, STORAGE_DIR, XOR2_ENCODING_FEATURE, isAgent, isAtLeast, needsXor2EncodingFeature, retentionInConfigFile, type FieldProblem, type PrometheusVersion,
  type PrometheusWorkload,
} from '@promop/config-generator';
import type { Prometheus } from '@promop/crds';
import type { BuildResult } from './build-result.ts';
import { compactionFlags } from './thanos-sidecar.ts';

/** Port Prometheus listens on (its default): the pod's `web` container port, the governing Service's port, the port promop reloads. */
export const PROMETHEUS_PORT = 9090;

/** The feature flag that makes Prometheus 2.27+ expand environment variables in external labels. */
export const EXPAND_EXTERNAL_LABELS_FEATURE = 'expand-external-labels';

/** The fields a Prometheus and a PrometheusAgent share. */
type Spec = NonNullable<PrometheusWorkload['spec']>;
/** A Prometheus server's spec. */
type ServerSpec = NonNullable<Prometheus['spec']>;

/** The feature flag that starts Prometheus 2.x in agent mode (3.x has `--agent`). */
export const AGENT_FEATURE = 'agent';

/** The web route prefix (default `/`), which the probes' paths also use. */
export function routePrefix(spec: Spec): string {
  return spec.routePrefix || '/';
}

/** The feature flag of Prometheus 2.47+ that 3.0 replaced with `--web.enable-otlp-receiver`. */
export const OTLP_WRITE_RECEIVER_FEATURE = 'otlp-write-receiver';

/**
 * Whether Prometheus accepts OTLP metrics: `enableOTLPReceiver`, which defaults to on when `otlp` is set, as
 * prometheus-operator derives it (an `otlp` section is for the receiver).
 */
function otlpReceiverEnabled(spec: Spec): boolean {
  return spec.enableOTLPReceiver === true || ((spec.enableOTLPReceiver === undefined || spec.enableOTLPReceiver === null) && spec.otlp !== undefined && spec.otlp !== null);
}

/**
 * The `--enable-feature` values: the user's, plus expand-external-labels for 2.27 <= version < 3 and
 * otlp-write-receiver for an OTLP receiver on 2.47 <= version < 3 (older ones have no receiver), and xor2-encoding
 * for `tsdb.chunkEncoding.floats: Xor2` from 3.13, and metadata-wal-records for a remote write of protocol V2.0 on
 * 2.54 <= version < 3.4 (which no longer needed it), as prometheus-operator adds them.
 */
function enabledFeatures(spec: Spec, version: PrometheusVersion, agent: boolean): string[] {
  const features = [...(spec.enableFeatures ?? [])];
  if (agent && version.major < 3 && !features.includes(AGENT_FEATURE)) features.push(AGENT_FEATURE);
  // Prometheus 3 always expands; before 2.27 the flag does not exist (the replica label then stays literal).
  if (version.major < 3 && isAtLeast(version, '2.27.0') && !features.includes(EXPAND_EXTERNAL_LABELS_FEATURE)) {
    features.push(EXPAND_EXTERNAL_LABELS_FEATURE);
  }
  if (otlpReceiverEnabled(spec) && version.major < 3 && isAtLeast(version, '2.47.0') && !features.includes(OTLP_WRITE_RECEIVER_FEATURE)) {
    features.push(OTLP_WRITE_RECEIVER_FEATURE);
  }
  if (needsXor2EncodingFeature(spec, version)) features.push(XOR2_ENCODING_FEATURE);
  const writesV2 = (spec.remoteWrite ?? []).some((remoteWrite) => remoteWrite.messageVersion === 'V2.0');
  if (writesV2 && isAtLeast(version, '2.54.0') && !isAtLeast(version, '3.4.0') && !features.includes(METADATA_WAL_RECORDS_FEATURE)) {
    features.push(METADATA_WAL_RECORDS_FEATURE);
  }
  return features;
}

/** The feature flag remote write 2.0 needed for metadata before Prometheus 3.4. */
export const METADATA_WAL_RECORDS_FEATURE = 'metadata-wal-records';

/**
 * `--web.remote-write-receiver.accepted-protobuf-messages` from `remoteWriteReceiverMessageVersions`, as
 * prometheus-operator writes it: only beside the receiver, from Prometheus 2.54 (older ones have no such flag).
 */
function receiverMessagesFlag(spec: Spec, version: PrometheusVersion): Flag[] {
  const versions = spec.remoteWriteReceiverMessageVersions ?? [];
  if (!spec.enableRemoteWriteReceiver || versions.length === 0 || !isAtLeast(version, '2.54.0')) return [];
  return [{ name: 'web.remote-write-receiver.accepted-protobuf-messages', value: versions.map((name) => REMOTE_WRITE_PROTOBUF_MESSAGES[name] ?? name).join(',') }];
}

/** Name and optional value of one flag, written `--name=value` or `--name`. */
interface Flag {
  name: string;
  value?: string;
}

/**
 * The flags promop sets, before `additionalArgs`, in prometheus-operator's order: the flags a server and an agent
 * share (config, console, lifecycle, web, receivers, features, URL, route prefix, logging, listen address), then a
 * server's retention, storage path, admin API, rule, query, overlapping-blocks and WAL flags (an agent's mode,
 * storage path and WAL flag), the web config file, and last the compaction flags.
 */
function promopFlags(workload: PrometheusWorkload, version: PrometheusVersion, webConfigFile: string | undefined): Flag[] {
  const spec: Spec = workload.spec ?? {};
  const agent = isAgent(workload);
  const flags: Flag[] = [{ name: 'config.file', value: `${CONFIG_DIR}/${CONFIG_FILE_NAME}` }];
  if (!agent && version.major < 3) {
    // Prometheus 2 images ship the console templates; prometheus-operator points a server at them, so do we.
    flags.push({ name: 'web.console.templates', value: '/etc/prometheus/consoles' });
    flags.push({ name: 'web.console.libraries', value: '/etc/prometheus/console_libraries' });
  }
  // promop's controller reloads through POST /-/reload, which needs the lifecycle API.
  flags.push({ name: 'web.enable-lifecycle' });
  if (spec.web?.pageTitle) flags.push({ name: 'web.page-title', value: spec.web.pageTitle });
  if (spec.web?.maxConnections !== undefined) flags.push({ name: 'web.max-connections', value: String(spec.web.maxConnections) });
  if (spec.enableRemoteWriteReceiver) flags.push({ name: 'web.enable-remote-write-receiver' }, ...receiverMessagesFlag(spec, version));
  if (otlpReceiverEnabled(spec) && version.major >= 3) flags.push({ name: 'web.enable-otlp-receiver' });
  // One flag for every feature (upstream repeats --enable-feature; docs/compatibility.md).
  const features = enabledFeatures(spec, version, agent);
  if (features.length > 0) flags.push({ name: 'enable-feature', value: features.join(',') });
  if (spec.externalUrl) flags.push({ name: 'web.external-url', value: spec.externalUrl });
  flags.push({ name: 'web.route-prefix', value: routePrefix(spec) });
  if (spec.logLevel && spec.logLevel !== 'info') flags.push({ name: 'log.level', value: spec.logLevel });
  if (spec.logFormat && spec.logFormat !== 'logfmt') flags.push({ name: 'log.format', value: spec.logFormat });
  if (spec.listenLocal) flags.push({ name: 'web.listen-address', value: `127.0.0.1:${PROMETHEUS_PORT}` });
  if (agent) {
    if (version.major >= 3) flags.push({ name: 'agent' });
    flags.push({ name: 'storage.agent.path', value: STORAGE_DIR });
  } else {
    flags.push(...serverStorageFlags(workload.spec ?? {}, version), ...serverQueryFlags(workload.spec ?? {}));
    // Deprecated: Prometheus 2.39 always allows overlapping blocks and dropped the flag, so upstream passes it before only.
    if (workload.spec?.allowOverlappingBlocks === true && isAtLeast(version, '2.11.0') && !isAtLeast(version, '2.39.0')) {
      flags.push({ name: 'storage.tsdb.allow-overlapping-blocks' });
    }
  }
  const wal = agent ? 'storage.agent.wal-compression' : 'storage.tsdb.wal-compression';
  if (spec.walCompression === true) flags.push({ name: wal });
  if (spec.walCompression === false) flags.push({ name: `no-${wal}` });
  // After the flags above, where prometheus-operator appends it.
  if (webConfigFile !== undefined) flags.push({ name: 'web.config.file', value: webConfigFile });
  // Last, as upstream: disabled or delayed compaction for disableCompaction and a Thanos sidecar that uploads.
  if (!agent) flags.push(...compactionFlags(workload.spec ?? {}, version));
  return flags;
}

/** A server's retention flags (before 3.11, which reads retention from the config file) and storage path. */
function serverStorageFlags(spec: ServerSpec, version: PrometheusVersion): Flag[] {
  const flags: Flag[] = [];
  // From 3.11 the generator writes retention into the config file, which can then change without a restart.
  if (!retentionInConfigFile(version)) {
    if (spec.retention || !spec.retentionSize) flags.push({ name: 'storage.tsdb.retention.time', value: spec.retention || DEFAULT_RETENTION });
    if (spec.retentionSize) flags.push({ name: 'storage.tsdb.retention.size', value: spec.retentionSize });
  }
  flags.push({ name: 'storage.tsdb.path', value: STORAGE_DIR });
  if (spec.enableAdminAPI) flags.push({ name: 'web.enable-admin-api' });
  return flags;
}

/** A server's rule and query flags (an agent has no TSDB to query and no rules). */
function serverQueryFlags(spec: ServerSpec): Flag[] {
  const flags: Flag[] = [];
  const alert = spec.rules?.alert;
  if (alert?.forOutageTolerance) flags.push({ name: 'rules.alert.for-outage-tolerance', value: alert.forOutageTolerance });
  if (alert?.forGracePeriod) flags.push({ name: 'rules.alert.for-grace-period', value: alert.forGracePeriod });
  if (alert?.resendDelay) flags.push({ name: 'rules.alert.resend-delay', value: alert.resendDelay });
  const query = spec.query;
  if (query?.lookbackDelta) flags.push({ name: 'query.lookback-delta', value: query.lookbackDelta });
  // Zero means Prometheus' own default, so upstream passes no flag for it.
  if ((query?.maxSamples ?? 0) > 0) flags.push({ name: 'query.max-samples', value: String(query?.maxSamples) });
  if ((query?.maxConcurrency ?? 0) > 0) flags.push({ name: 'query.max-concurrency', value: String(query?.maxConcurrency) });
  if (query?.timeout) flags.push({ name: 'query.timeout', value: query.timeout });
  return flags;
}

/** `no-x` and `x` are the same setting for Prometheus' flag parser. */
function settingName(flag: string): string {
  return flag.startsWith('no-') ? flag.slice(3) : flag;
}

/**
 * The Prometheus container's args: promop's flags (`--web.config.file=<webConfigFile>` when the Prometheus has a
 * web config, see web-config.ts), then `spec.additionalArgs` (`{name, value?}`, name without
 * the leading `--`). An additional argument that would set a flag promop sets is a problem, as in
 * prometheus-operator: a second `--config.file` would silently win and break reloads.
 */
export function prometheusArgs(workload: PrometheusWorkload, version: PrometheusVersion, webConfigFile?: string): BuildResult<string[]> {
  const spec: Spec = workload.spec ?? {};
  const flags = promopFlags(workload, version, webConfigFile);
  const managed = new Set(flags.map((flag) => settingName(flag.name)));
  const problems: FieldProblem[] = [];
  // The CRD keeps these as free strings (upstream's has the enum): a value Prometheus does not know stops it at start.
  (spec.remoteWriteReceiverMessageVersions ?? []).forEach((name, index) => {
    if (REMOTE_WRITE_PROTOBUF_MESSAGES[name] === undefined) problems.push({ path: `spec.remoteWriteReceiverMessageVersions[${index}]`, message: `must be V1.0 or V2.0, not ${JSON.stringify(name)}` });
  });
  (spec.additionalArgs ?? []).forEach((argument, index) => {
    const path = `spec.additionalArgs[${index}]`;
    const name = argument.name;
    const value = argument.value;
    if (typeof name !== 'string' || name === '') {
      problems.push({ path: `${path}.name`, message: 'must be a non-empty string' });
    } else if (name.startsWith('-')) {
      problems.push({ path: `${path}.name`, message: `"${name}" must be written without leading dashes` });
    } else if (managed.has(settingName(name))) {
      problems.push({ path: `${path}.name`, message: `"${name}" is set by promop and cannot be overridden` });
    } else if (value !== undefined && typeof value !== 'string') {
      problems.push({ path: `${path}.value`, message: 'must be a string' });
    } else {
      flags.push(value === undefined ? { name } : { name, value });
    }
  });
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: flags.map((flag) => (flag.value === undefined ? `--${flag.name}` : `--${flag.name}=${flag.value}`)) };
}
