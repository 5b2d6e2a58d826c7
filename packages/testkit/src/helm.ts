/** Runs the real helm binary (`pnpm tools` builds it) against charts/promop, bounded in time, for the chart tests. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolPath } from './tools.ts';

/** What helm printed and how it exited. A non-zero exit is a result, not an exception: tests assert on it. */
export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `use` with an environment whose Helm homes (cache, repositories, plugins, otherwise under $HOME) are a
 * directory of its own, removed after: the tests neither read nor write the user's Helm state nor each other's, and
 * leave nothing behind. Nothing the tests do keeps Helm state between calls (releases live in the cluster).
 */
export async function withHelmHome<T>(use: (env: NodeJS.ProcessEnv) => Promise<T>): Promise<T> {
  const home = mkdtempSync(join(tmpdir(), 'promop-helm-'));
  try {
    return await use({
      ...process.env,
      HELM_CACHE_HOME: join(home, 'cache'),
      HELM_CONFIG_HOME: join(home, 'config'),
      HELM_DATA_HOME: join(home, 'data'),
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Runs `helm ...args`; kills it after timeoutMs (a hung helm fails the test rather than jest's whole run). */
export function helm(args: readonly string[], timeoutMs = 60_000): Promise<HelmResult> {
  return withHelmHome((env) => new Promise((resolve) => {
    execFile(toolPath('helm'), [...args], { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1; // -1: killed (timeout) or not started
      resolve({ code, stdout, stderr: error !== null && code === -1 ? `${stderr}\n${error.message}` : stderr });
    });
  }));
}
