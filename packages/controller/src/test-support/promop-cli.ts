/**
 * The `promop` command as a user runs it (bin/promop.js in a new Node process) against the tests' control plane:
 * its exit code and its output, whatever the code.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, sharedTestEnv } from '@promop/testkit';

/** The entry a user's `promop` runs. */
export const PROMOP_BIN = join(REPO_ROOT, 'packages/controller/bin/promop.js');

/** Runs `promop <args> --kubeconfig <kubeconfig>` (default: the shared control plane's). */
export async function runPromop(args: readonly string[], kubeconfig = sharedTestEnv().kubeconfigPath): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [PROMOP_BIN, ...args, '--kubeconfig', kubeconfig], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_OPTIONS: '' },
      // The shared control plane holds every suite's objects, and a report lists those it does not select: more
      // than execFile's default 1 MiB when a large suite ran first.
      maxBuffer: 256 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error;
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
