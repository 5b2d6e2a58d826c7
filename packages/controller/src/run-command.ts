/**
 * `promop run [--kubeconfig path]`: runs the operator until SIGINT/SIGTERM. Without `--kubeconfig` it uses the
 * in-cluster ServiceAccount (the token and CA mounted into the pod), which is how it runs in a cluster.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { pino } from 'pino';
import { describeError } from './kube/index.ts';
import { Operator } from './operator.ts';

const USAGE = 'Usage: promop run [--kubeconfig <path>]\n\nRuns the operator. Without --kubeconfig, uses the in-cluster ServiceAccount.\n';

/** Parses `argv`; a user error is a message, not a throw. */
export function parseRunArguments(argv: readonly string[]): { ok: true; kubeconfig: string | undefined; help: boolean } | { ok: false; message: string } {
  let kubeconfig: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '-h' || arg === '--help') return { ok: true, kubeconfig, help: true };
    if (arg === '--kubeconfig') {
      const value = argv[i + 1];
      if (!value) return { ok: false, message: '--kubeconfig needs a path' };
      kubeconfig = value;
      i += 1;
    } else if (arg.startsWith('--kubeconfig=')) {
      kubeconfig = arg.slice('--kubeconfig='.length);
    } else {
      return { ok: false, message: `unknown argument "${arg}"` };
    }
  }
  return { ok: true, kubeconfig, help: false };
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
  const operator = new Operator({ kubeConfig, log });
  try {
    await operator.start();
  } catch (error) {
    log.fatal({ err: describeError(error) }, 'could not start');
    return 1;
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await operator.stop();
  return 0;
}
