/**
 * kubectl and helm, the real binaries, against any cluster named by a kubeconfig: the real node here, kind
 * elsewhere. The end-to-end story drives a cluster the way its users do, so it works on both unchanged.
 */
import { execFile } from 'node:child_process';
import { toolPath, withHelmHome } from '@promop/testkit';

/** What a command printed and how it exited; a non-zero exit is a result for the caller to judge. */
export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number }): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = execFile(command, [...args], { env: options.env ?? process.env, timeout: options.timeoutMs ?? 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr: error !== null && code === -1 ? `${stderr}\n${error.message}` : stderr });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** kubectl and helm bound to one kubeconfig. */
export class ClusterCli {
  readonly kubeconfigPath: string;

  constructor(kubeconfigPath: string) {
    this.kubeconfigPath = kubeconfigPath;
  }

  /** `kubectl <args>`; `input` goes to stdin (`-f -`). */
  kubectl(args: readonly string[], input?: string, timeoutMs?: number): Promise<CommandResult> {
    return run(toolPath('kubectl'), [`--kubeconfig=${this.kubeconfigPath}`, ...args], { ...(input !== undefined ? { input } : {}), ...(timeoutMs ? { timeoutMs } : {}) });
  }

  /** `kubectl <args>`, throwing with stderr when it fails; returns stdout. */
  async kubectlOk(args: readonly string[], input?: string, timeoutMs?: number): Promise<string> {
    const result = await this.kubectl(args, input, timeoutMs);
    if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${result.code}): ${result.stderr.trim()}`);
    return result.stdout;
  }

  /** `kubectl get <args> -o json`, parsed. */
  async getJson<T = Record<string, unknown>>(args: readonly string[]): Promise<T> {
    return JSON.parse(await this.kubectlOk(['get', ...args, '-o', 'json'])) as T;
  }

  /** `helm <args>` with this kubeconfig. */
  helm(args: readonly string[], timeoutMs = 300_000): Promise<CommandResult> {
    return withHelmHome((env) => run(toolPath('helm'), [`--kubeconfig=${this.kubeconfigPath}`, ...args], { env, timeoutMs }));
  }
}

/** Polls `probe` every `intervalMs` until it returns a value other than undefined; throws after `timeoutMs` with `what`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number, intervalMs = 500): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? ` (last error: ${String((lastError as Error).message ?? lastError)})` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
