/**
 * `promop run [--kubeconfig path] [--metrics-address host:port] [--pod-network cidr,...]`: runs the operator until
 * SIGINT/SIGTERM. Without `--kubeconfig` it uses `$KUBECONFIG`, else the in-cluster ServiceAccount (the token and CA
 * mounted into the pod, the token read again as the kubelet rotates it), which is how it runs in a cluster, else
 * `~/.kube/config` (kube/kubeconfig.ts; client-node is not loaded at all, docs/performance.md P3). It serves
 * `/metrics`, `/healthz` and `/readyz` (ready once the operator's caches have synced) on `--metrics-address`,
 * default `:8080`, which the Helm chart's probes use.
 * `--pod-network` names the networks of Prometheus pods, the only addresses promop dials to reload them; without
 * it they are read from the Nodes' `spec.podCIDRs` (reload/pod-networks.ts). With `--leader-elect` (default) every
 * replica syncs its caches and is ready, but only the holder of the Lease (kube/leader-election.ts) reconciles; see
 * docs/controller.md#leader-election. The scoping flags (`--namespaces`, `--deny-namespaces`,
 * `--prometheus-instance-selector`, `--alertmanager-instance-selector`, `--thanos-ruler-instance-selector`, `--secret-field-selector`, `--secret-label-selector`) and `--log-level` /
 * `--log-format` mean what prometheus-operator's flags of the same names mean; see docs/operations.md#scoping.
 * With `--manage-crds` (default) it first creates or upgrades its CRDs and waits until they are Established
 * (kube/crd-installer.ts); `--manage-crds=false` when the chart or another tool owns them.
 */
import { LeaderElector, RawApi, apiLeaseClient, describeError, ensureCrds, leaderIdentity, loadKubeconfig, type Kubeconfig } from './kube/index.ts';
import { OperatorMetrics, startMetricsServer, DEFAULT_LISTEN_ADDRESS } from './observability/index.ts';
import { Operator } from './operator.ts';
import { parsePodNetworks } from './reload/index.ts';
import type { ClientCertificate } from './prometheus-client/pod-tls.ts';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { parseDuration } from '@promop/config-generator';
import { DEFAULT_HEALTH_INTERVAL_MS } from './health/health-reporter.ts';
import { checkFieldSelector, checkLabelSelector, checkNamespaceName } from './kube/selector-syntax.ts';
import type { NamespaceScope } from './kube/namespace-scope.ts';
import { LOG_FORMATS, LOG_LEVELS, createLogger, type LogFormat, type LogLevel } from './observability/log-format.ts';

const USAGE = [
  'Usage: promop run [--kubeconfig <path>] [--metrics-address <host:port>] [--pod-network <cidr>[,<cidr>...]]',
  '                  [--leader-elect[=true|false]] [--leader-election-namespace <ns>] [--leader-election-id <name>]',
  '',
  'Runs the operator. Without --kubeconfig: $KUBECONFIG, else the in-cluster ServiceAccount, else ~/.kube/config.',
  'Serves /metrics, /healthz and /readyz on --metrics-address (default :8080).',
  'Reloads Prometheus pods only at addresses inside --pod-network (repeatable; default: the Nodes\' spec.podCIDRs).',
  'With --leader-elect (default true) only the holder of Lease --leader-election-id (default promop) in',
  '--leader-election-namespace (default: the pod\'s namespace; outside a pod, default) reconciles.',
  'With --manage-crds[=true|false] (default true) promop creates its CRDs, or upgrades those an older promop',
  'wrote, before it starts; false when the chart or another tool owns them.',
  'A Prometheus serving HTTPS that asks for client certificates (spec.web.tlsConfig.clientAuthType) gets the',
  'certificate and key of --prometheus-client-cert <file> --prometheus-client-key <file> (PEM, read again on use).',
  'Every --health-interval (a duration, default 30s; 0 turns it off) promop reads the targets and rules of one',
  'ready replica per shard and writes their health into each monitor\'s and PrometheusRule\'s binding.',
  '',
  'Scoping and logging (as prometheus-operator\'s flags of the same names):',
  '  --namespaces <ns>[,<ns>...]              watch and manage only these namespaces (one list/watch per namespace)',
  '  --deny-namespaces <ns>[,<ns>...]         watch every namespace but these (not with --namespaces)',
  '  --prometheus-instance-selector <labels>  manage only the Prometheus objects with these labels',
  '  --alertmanager-instance-selector <labels>  manage only the Alertmanager objects with these labels',
  '  --thanos-ruler-instance-selector <labels>  manage only the ThanosRuler objects with these labels',
  '  --secret-field-selector <fields>         read only these Secrets (default: type!=kubernetes.io/service-account-token,type!=helm.sh/release.v1)',
  '  --secret-label-selector <labels>         read only the Secrets with these labels',
  '  --log-level <all|debug|info|warn|error|none>  lowest level logged (default info)',
  '  --log-format <json|logfmt>                    (default json)',
  '',
  'Examples:',
  '  # Against the cluster of a kubeconfig, one replica, logs as logfmt',
  '  promop run --kubeconfig ~/.kube/config --leader-elect=false --log-format logfmt',
  '',
  '  # Only the teams\' namespaces and the Prometheus objects labelled for this promop',
  '  promop run --namespaces monitoring,team-a,team-b --prometheus-instance-selector operator=promop',
  '',
].join('\n');

/** What `promop run` was asked to do. */
export interface RunArguments {
  kubeconfig: string | undefined;
  metricsAddress: string;
  /** From every --pod-network, in order; undefined: read the Nodes' spec.podCIDRs. */
  podNetworks: string[] | undefined;
  /** Whether only the holder of the Lease reconciles (default true). */
  leaderElect: boolean;
  /** Namespace of the Lease; undefined: the pod's own (ServiceAccount mount), or `default` with --kubeconfig. */
  leaderElectionNamespace: string | undefined;
  /** Name of the Lease (default `promop`). */
  leaderElectionId: string;
  /** `--namespaces` / `--deny-namespaces`: which namespaces to watch (default all). */
  scope: NamespaceScope;
  /** `--prometheus-instance-selector`: label selector of the Prometheus objects to manage; undefined: all. */
  prometheusInstanceSelector: string | undefined;
  /** `--alertmanager-instance-selector`: label selector of the Alertmanager objects to manage; undefined: all. */
  alertmanagerInstanceSelector: string | undefined;
  /** `--thanos-ruler-instance-selector`: label selector of the ThanosRuler objects to manage; undefined: all. */
  thanosRulerInstanceSelector: string | undefined;
  /** `--secret-field-selector`; undefined: promop's default (no ServiceAccount token or Helm release Secrets). */
  secretFieldSelector: string | undefined;
  /** `--secret-label-selector`; undefined: every Secret (but promop's own, which it watches separately). */
  secretLabelSelector: string | undefined;
  logLevel: LogLevel;
  logFormat: LogFormat;
  /** `--manage-crds`: whether promop creates and upgrades its CRDs at start (default true). */
  manageCrds: boolean;
  /** `--health-interval`: period of the health reads, ms (default 30 s; 0: off). */
  healthIntervalMs: number;
  /**
   * `--prometheus-client-cert` and `--prometheus-client-key`: promop's client certificate for Prometheus pods that
   * ask for one (docs/security.md); both or neither.
   */
  prometheusClientCertificate: { certFile: string; keyFile: string } | undefined;
  help: boolean;
}

/** Parses `argv`; a user error is a message, not a throw. */
export function parseRunArguments(argv: readonly string[]): ({ ok: true } & RunArguments) | { ok: false; message: string } {
  let kubeconfig: string | undefined;
  let metricsAddress = DEFAULT_LISTEN_ADDRESS;
  let podNetworks: string[] | undefined;
  let leaderElect = true;
  let leaderElectionNamespace: string | undefined;
  let leaderElectionId = 'promop';
  let namespaces: string[] | undefined;
  let deniedNamespaces: string[] | undefined;
  let prometheusInstanceSelector: string | undefined;
  let alertmanagerInstanceSelector: string | undefined;
  let thanosRulerInstanceSelector: string | undefined;
  let secretFieldSelector: string | undefined;
  let secretLabelSelector: string | undefined;
  let logLevel: LogLevel = 'info';
  let logFormat: LogFormat = 'json';
  let manageCrds = true;
  let healthIntervalMs = DEFAULT_HEALTH_INTERVAL_MS;
  let clientCertFile: string | undefined;
  let clientKeyFile: string | undefined;
  const scope = (): NamespaceScope => (namespaces ? { kind: 'only', namespaces } : deniedNamespaces ? { kind: 'deny', namespaces: deniedNamespaces } : { kind: 'all' });
  const result = (help: boolean) => ({
    ok: true as const, kubeconfig, metricsAddress, podNetworks, leaderElect, leaderElectionNamespace, leaderElectionId,
    scope: scope(), prometheusInstanceSelector, alertmanagerInstanceSelector, thanosRulerInstanceSelector, secretFieldSelector, secretLabelSelector, logLevel, logFormat, manageCrds, healthIntervalMs,
    prometheusClientCertificate: clientCertFile && clientKeyFile ? { certFile: clientCertFile, keyFile: clientKeyFile } : undefined, help,
  });
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') return result(true);
    const scoping = scopingFlag(arg, () => argv[(i += 1)]);
    if (scoping) {
      if ('message' in scoping) return { ok: false, message: scoping.message };
      if ('namespaces' in scoping) {
        if (scoping.flag === '--namespaces') namespaces = [...(namespaces ?? []), ...scoping.namespaces];
        else deniedNamespaces = [...(deniedNamespaces ?? []), ...scoping.namespaces];
      } else if (scoping.flag === '--prometheus-instance-selector') prometheusInstanceSelector = scoping.value;
      else if (scoping.flag === '--alertmanager-instance-selector') alertmanagerInstanceSelector = scoping.value;
      else if (scoping.flag === '--thanos-ruler-instance-selector') thanosRulerInstanceSelector = scoping.value;
      else if (scoping.flag === '--secret-field-selector') secretFieldSelector = scoping.value;
      else if (scoping.flag === '--secret-label-selector') secretLabelSelector = scoping.value;
      else if (scoping.flag === '--log-level') logLevel = scoping.value as LogLevel;
      else logFormat = scoping.value as LogFormat;
      continue;
    }
    if (arg === '--kubeconfig') {
      const value = argv[i + 1];
      if (!value) return { ok: false, message: '--kubeconfig needs a path' };
      kubeconfig = value;
      i += 1;
    } else if (arg.startsWith('--kubeconfig=')) {
      kubeconfig = arg.slice('--kubeconfig='.length);
    } else if (arg === '--metrics-address') {
      const value = argv[i + 1];
      if (!value) return { ok: false, message: '--metrics-address needs host:port' };
      metricsAddress = value;
      i += 1;
    } else if (arg.startsWith('--metrics-address=')) {
      metricsAddress = arg.slice('--metrics-address='.length);
    } else if (arg === '--pod-network' || arg.startsWith('--pod-network=')) {
      const value = arg === '--pod-network' ? argv[(i += 1)] : arg.slice('--pod-network='.length);
      if (!value) return { ok: false, message: '--pod-network needs a CIDR, e.g. 10.244.0.0/16' };
      const parsed = parsePodNetworks(value);
      if (!parsed.ok) return { ok: false, message: parsed.message };
      podNetworks = [...(podNetworks ?? []), ...parsed.networks];
    } else if (arg === '--leader-elect') {
      leaderElect = true;
    } else if (arg.startsWith('--leader-elect=')) {
      const value = arg.slice('--leader-elect='.length);
      if (value !== 'true' && value !== 'false') return { ok: false, message: '--leader-elect is true or false' };
      leaderElect = value === 'true';
    } else if (arg === '--leader-election-namespace' || arg.startsWith('--leader-election-namespace=')) {
      const value = arg === '--leader-election-namespace' ? argv[(i += 1)] : arg.slice('--leader-election-namespace='.length);
      if (!value) return { ok: false, message: '--leader-election-namespace needs a namespace' };
      leaderElectionNamespace = value;
    } else if (arg === '--leader-election-id' || arg.startsWith('--leader-election-id=')) {
      const value = arg === '--leader-election-id' ? argv[(i += 1)] : arg.slice('--leader-election-id='.length);
      if (!value) return { ok: false, message: '--leader-election-id needs a Lease name' };
      leaderElectionId = value;
    } else if (arg === '--manage-crds' || arg.startsWith('--manage-crds=')) {
      const value = arg === '--manage-crds' ? 'true' : arg.slice('--manage-crds='.length);
      if (value !== 'true' && value !== 'false') return { ok: false, message: '--manage-crds is true or false' };
      manageCrds = value === 'true';
    } else if (arg === '--health-interval' || arg.startsWith('--health-interval=')) {
      const value = arg === '--health-interval' ? argv[(i += 1)] : arg.slice('--health-interval='.length);
      const ms = value === undefined ? undefined : parseDuration(value);
      // Below a second the reads would cost the Prometheus pods more than a status could show.
      if (ms === undefined || (ms !== 0 && ms < 1000)) return { ok: false, message: '--health-interval is a duration of at least 1s (e.g. 30s, 2m), or 0 to turn it off' };
      healthIntervalMs = ms;
    } else if (arg === '--prometheus-client-cert' || arg.startsWith('--prometheus-client-cert=')) {
      const value = arg === '--prometheus-client-cert' ? argv[(i += 1)] : arg.slice('--prometheus-client-cert='.length);
      if (!value) return { ok: false, message: '--prometheus-client-cert needs the path of a PEM certificate' };
      clientCertFile = value;
    } else if (arg === '--prometheus-client-key' || arg.startsWith('--prometheus-client-key=')) {
      const value = arg === '--prometheus-client-key' ? argv[(i += 1)] : arg.slice('--prometheus-client-key='.length);
      if (!value) return { ok: false, message: '--prometheus-client-key needs the path of a PEM private key' };
      clientKeyFile = value;
    } else {
      return { ok: false, message: `unknown argument "${arg}"` };
    }
  }
  if ((clientCertFile === undefined) !== (clientKeyFile === undefined)) {
    return { ok: false, message: '--prometheus-client-cert and --prometheus-client-key go together: give both or neither' };
  }
  if (namespaces && deniedNamespaces) {
    // prometheus-operator ignores --deny-namespaces when --namespaces is given; a refusal says it instead.
    return { ok: false, message: '--namespaces and --deny-namespaces exclude each other: give one of them' };
  }
  return result(false);
}

const SCOPING_FLAGS = ['--namespaces', '--deny-namespaces', '--prometheus-instance-selector', '--alertmanager-instance-selector', '--thanos-ruler-instance-selector', '--secret-field-selector', '--secret-label-selector', '--log-level', '--log-format'] as const;
type ScopingFlag = (typeof SCOPING_FLAGS)[number];

/**
 * One of the scoping or logging flags (`--flag value` or `--flag=value`; `next` takes the following argument),
 * checked; undefined when `arg` is none of them.
 */
function scopingFlag(arg: string, next: () => string | undefined):
  | { flag: '--namespaces' | '--deny-namespaces'; namespaces: string[] }
  | { flag: Exclude<ScopingFlag, '--namespaces' | '--deny-namespaces'>; value: string }
  | { message: string }
  | undefined {
  const flag = SCOPING_FLAGS.find((name) => arg === name || arg.startsWith(`${name}=`));
  if (!flag) return undefined;
  const value = arg === flag ? next() : arg.slice(flag.length + 1);
  if (value === undefined || value === '') return { message: `${flag} needs a value` };
  switch (flag) {
    case '--namespaces':
    case '--deny-namespaces': {
      const names = value.split(',').map((name) => name.trim());
      for (const name of names) {
        const checked = checkNamespaceName(name);
        if (!checked.ok) return { message: `${flag}: ${checked.message}` };
      }
      return { flag, namespaces: names };
    }
    case '--prometheus-instance-selector':
    case '--alertmanager-instance-selector':
    case '--thanos-ruler-instance-selector':
    case '--secret-label-selector': {
      const checked = checkLabelSelector(value);
      return checked.ok ? { flag, value } : { message: `${flag}: ${checked.message}` };
    }
    case '--secret-field-selector': {
      const checked = checkFieldSelector(value);
      return checked.ok ? { flag, value } : { message: `${flag}: ${checked.message}` };
    }
    case '--log-level':
      return (LOG_LEVELS as readonly string[]).includes(value) ? { flag, value } : { message: `--log-level is one of ${LOG_LEVELS.join(', ')}` };
    case '--log-format':
      return (LOG_FORMATS as readonly string[]).includes(value) ? { flag, value } : { message: `--log-format is one of ${LOG_FORMATS.join(', ')}` };
  }
}

/** The `run` subcommand; resolves with the exit status once the operator stopped. */
export async function runOperatorCommand(argv: readonly string[], io: { stdout: (text: string) => void; stderr: (text: string) => void }): Promise<number> {
  const parsed = parseRunArguments(argv);
  if (!parsed.ok) {
    io.stderr(`promop run: ${parsed.message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  const log = createLogger({ level: parsed.logLevel, format: parsed.logFormat });
  const clientFiles = parsed.prometheusClientCertificate;
  const prometheusClientCertificate = clientFiles ? clientCertificateReader(clientFiles, log) : undefined;
  if (prometheusClientCertificate && !prometheusClientCertificate()) {
    io.stderr(`promop run: cannot read --prometheus-client-cert ${clientFiles!.certFile} and --prometheus-client-key ${clientFiles!.keyFile}\n`);
    return 1;
  }
  let kubeConfig: Kubeconfig;
  try {
    kubeConfig = await loadKubeconfig({ kubeconfig: parsed.kubeconfig, inClusterBeforeHome: true });
  } catch (error) {
    io.stderr(`promop run: cannot load the kubeconfig: ${describeError(error)}\n`);
    return 1;
  }
  log.info({ kubeconfig: kubeConfig.source, server: kubeConfig.getCurrentCluster().server }, 'API server');
  const metrics = new OperatorMetrics();
  let ready = false;
  let server: Awaited<ReturnType<typeof startMetricsServer>>;
  try {
    // Before the operator starts, so the kubelet's liveness probe answers while the caches sync.
    server = await startMetricsServer({ metrics, isReady: () => ready, address: parsed.metricsAddress });
  } catch (error) {
    io.stderr(`promop run: cannot serve metrics on ${parsed.metricsAddress}: ${describeError(error)}\n`);
    return 1;
  }
  log.info({ url: server.url }, 'serving /metrics, /healthz and /readyz');
  const metricsServer = server;
  // With leader election, every request of the writers first asks whether this replica still leads: a reconcile
  // running when the renew deadline passes sends nothing more (kube/write-gate.ts).
  let elector: LeaderElector | undefined;
  const mayWrite = () => elector?.isLeader() ?? false;
  const operator = new Operator({
    kubeConfig, log, metrics, ...(parsed.podNetworks ? { podNetworks: parsed.podNetworks } : {}), ...(parsed.leaderElect ? { mayWrite } : {}),
    scope: parsed.scope, healthIntervalMs: parsed.healthIntervalMs,
    ...(prometheusClientCertificate ? { prometheusClientCertificate } : {}),
    ...(parsed.prometheusInstanceSelector ? { prometheusSelector: parsed.prometheusInstanceSelector } : {}),
    ...(parsed.alertmanagerInstanceSelector ? { alertmanagerSelector: parsed.alertmanagerInstanceSelector } : {}),
    ...(parsed.thanosRulerInstanceSelector ? { thanosRulerSelector: parsed.thanosRulerInstanceSelector } : {}),
    ...(parsed.secretFieldSelector ? { secretFieldSelector: parsed.secretFieldSelector } : {}),
    ...(parsed.secretLabelSelector ? { secretLabelSelector: parsed.secretLabelSelector } : {}),
  });
  log.info({
    namespaces: parsed.scope.kind === 'all' ? 'all' : parsed.scope.kind === 'only' ? parsed.scope.namespaces : { denied: parsed.scope.namespaces },
    prometheusInstanceSelector: parsed.prometheusInstanceSelector ?? 'all',
    alertmanagerInstanceSelector: parsed.alertmanagerInstanceSelector ?? 'all',
    thanosRulerInstanceSelector: parsed.thanosRulerInstanceSelector ?? 'all',
    secretFieldSelector: parsed.secretFieldSelector ?? 'default', secretLabelSelector: parsed.secretLabelSelector ?? 'none',
  }, 'scope');
  log.info({ podNetworks: parsed.podNetworks ?? "the Nodes' spec.podCIDRs" }, 'Prometheus pods are reloaded only at addresses in these networks');
  // Listen for SIGTERM before starting: as PID 1 of its container, a process without a handler ignores it, so a
  // pod deleted while promop still waits for its first lists would hang until the grace period ends.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
  });
  // The CRDs first: a cache cannot list a resource the API server does not serve yet.
  const crdsReady = parsed.manageCrds ? ensureCrds(kubeConfig, { log }) : Promise.resolve([]);
  const started = crdsReady.then(() => operator.startCaches()).then(() => ({ started: true as const }), (error: unknown) => ({ started: false as const, error }));
  const first = await Promise.race([started, stopSignal]);
  if (typeof first === 'string') {
    log.info({ signal: first }, 'stopping before the caches synced');
    await operator.stop().catch(() => {});
    await server.close(1000);
    return 0;
  }
  if (!first.started) {
    log.fatal({ err: describeError(first.error) }, 'could not start');
    await server.close(1000);
    return 1;
  }
  // Ready once the caches synced, leader or stand-by: a stand-by must count as ready, or a rolling update would
  // wait for a new pod that cannot lead before the old one leaves. promop_leader says which replica writes.
  ready = true;
  metrics.setReady(true);
  if (!parsed.leaderElect) {
    operator.startReconciling();
    metrics.setLeader(true);
    await stopSignal;
    return shutdown(0);
  }
  // The pod's own namespace in a cluster (its ServiceAccount mount), else `default`.
  const namespace = parsed.leaderElectionNamespace ?? (kubeConfig.inCluster ? kubeConfig.namespace : 'default');
  let reconciling = false;
  let leadershipLost: () => void = () => {};
  const lost = new Promise<'lost'>((resolve) => {
    leadershipLost = () => resolve('lost');
  });
  elector = new LeaderElector({
    // A renewal every 2 s over one keep-alive connection of its own, not a TLS handshake each.
    leases: apiLeaseClient(new RawApi(kubeConfig), namespace, parsed.leaderElectionId),
    identity: leaderIdentity(),
    log,
    onStartedLeading: () => {
      if (reconciling) return;
      reconciling = true;
      metrics.setLeader(true);
      operator.startReconciling();
    },
    // Writes stop here, within the renew deadline, before the lease can expire and a stand-by take over. Like
    // client-go's controllers, a replica that lost the lease exits (status 1) and the kubelet restarts it as a
    // stand-by with fresh caches.
    onStoppedLeading: () => {
      metrics.setLeader(false);
      void operator.stopReconciling();
      leadershipLost();
    },
  });
  log.info({ namespace, lease: parsed.leaderElectionId, identity: elector.identity }, 'waiting to become the leader');
  elector.start();
  const end = await Promise.race([stopSignal, lost]);
  if (end === 'lost') {
    log.error({ namespace, lease: parsed.leaderElectionId }, 'lost the leader lease; stopped reconciling and exiting');
    await elector.stop();
    return shutdown(1);
  }
  // SIGTERM: stop writing first, then hand the lease over so a stand-by takes it at once.
  await operator.stopReconciling();
  await elector.release();
  return shutdown(0);

  async function shutdown(status: number): Promise<number> {
    ready = false;
    metrics.setReady(false);
    metrics.setLeader(false);
    await operator.stop();
    await metricsServer.close(5000);
    return status;
  }
}

/**
 * Reads promop's client certificate and key on every call, so that a certificate renewed in the mounted Secret is
 * used without a restart; undefined (and one warning per failure run) when a file cannot be read.
 */
function clientCertificateReader(files: { certFile: string; keyFile: string }, log: Logger): () => ClientCertificate | undefined {
  let failing = false;
  return () => {
    try {
      const certificate = { cert: readFileSync(files.certFile, 'utf8'), key: readFileSync(files.keyFile, 'utf8') };
      failing = false;
      return certificate;
    } catch (error) {
      if (!failing) log.warn({ certFile: files.certFile, keyFile: files.keyFile, err: describeError(error) }, 'cannot read the client certificate for Prometheus pods');
      failing = true;
      return undefined;
    }
  };
}
