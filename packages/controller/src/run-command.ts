/**
 * `promop run [--kubeconfig path] [--metrics-address host:port]`: runs the operator until SIGINT/SIGTERM.
 * Without `--kubeconfig` it uses the in-cluster ServiceAccount (the token and CA mounted into the pod), which is
 * how it runs in a cluster. It serves `/metrics`, `/healthz` and `/readyz` (ready once the operator's caches have
 * synced) on `--metrics-address`, default `:8080`, which the Helm chart's probes use.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { describeError } from './kube/index.ts';
import { OperatorMetrics, startMetricsServer, DEFAULT_LISTEN_ADDRESS } from './observability/index.ts';
import { Operator } from './operator.ts';

const USAGE = 'Usage: promop run [--kubeconfig <path>] [--metrics-address <host:port>]\n\nRuns the operator. Without --kubeconfig, uses the in-cluster ServiceAccount.\nServes /metrics, /healthz and /readyz on --metrics-address (default :8080).\n';

/** Parses `argv`; a user error is a message, not a throw. */
export function parseRunArguments(
  argv: readonly string[],
): { ok: true; kubeconfig: string | undefined; metricsAddress: string; help: boolean } | { ok: false; message: string } {
  let kubeconfig: string | undefined;
  let metricsAddress = DEFAULT_LISTEN_ADDRESS;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') return { ok: true, kubeconfig, metricsAddress, help: true };
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
    } else {
      return { ok: false, message: `unknown argument "${arg}"` };
    }
  }
  return { ok: true, kubeconfig, metricsAddress, help: false };
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
  const log = pino();
  const kubeConfig = new KubeConfig();
  try {
    if (parsed.kubeconfig) kubeConfig.loadFromFile(parsed.kubeconfig);
    else kubeConfig.loadFromCluster();
  } catch (error) {
    io.stderr(`promop run: cannot load the kubeconfig: ${describeError(error)}\n`);
    return 1;
  }
  const metrics = new OperatorMetrics();
  let ready = false;
  let server;
  try {
    // Before the operator starts, so the kubelet's liveness probe answers while the caches sync.
    server = await startMetricsServer({ metrics, isReady: () => ready, address: parsed.metricsAddress });
  } catch (error) {
    io.stderr(`promop run: cannot serve metrics on ${parsed.metricsAddress}: ${describeError(error)}\n`);
    return 1;
  }
  log.info({ url: server.url }, 'serving /metrics, /healthz and /readyz');
  const operator = new Operator({ kubeConfig, log });
  try {
    await operator.start();
  } catch (error) {
    log.fatal({ err: describeError(error) }, 'could not start');
    await server.close(1000);
    return 1;
  }
  ready = true;
  metrics.setReady(true);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  ready = false;
  metrics.setReady(false);
  await operator.stop();
  await server.close(5000);
  return 0;
}
