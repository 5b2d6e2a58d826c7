/** Runs the real promtool, the same checker Prometheus itself applies to configs and rules. */
import { spawn } from 'node:child_process';
import { toolPath } from './tools.ts';

/** Exit code and output of one promtool run. */
export interface PromtoolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `promtool <args>` (e.g. `['check', 'config', '--syntax-only', file]`); never rejects on a non-zero exit. */
export function runPromtool(args: string[], options: { cwd?: string; input?: string } = {}): Promise<PromtoolResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(toolPath('promtool'), args, { cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
