/** Runs the real helm binary (`pnpm tools` builds it) against charts/promop, bounded in time, for the chart tests. */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolPath } from './tools.ts';

/** What helm printed and how it exited. A non-zero exit is a result, not an exception: tests assert on it. */
export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

// Helm keeps a cache, a repository list and plugins under $HOME; a directory per test process keeps the tests
// from reading or writing the user's (or each other's) Helm state.
let helmHome: string | undefined;

/** Runs `helm ...args`; kills it after timeoutMs (a hung helm fails the test rather than jest's whole run). */
export function helm(args: readonly string[], timeoutMs = 60_000): Promise<HelmResult> {
  helmHome ??= mkdtempSync(join(tmpdir(), 'promop-helm-'));
  const env = {
    ...process.env,
    HELM_CACHE_HOME: join(helmHome, 'cache'),
    HELM_CONFIG_HOME: join(helmHome, 'config'),
    HELM_DATA_HOME: join(helmHome, 'data'),
  };
  return new Promise((resolve) => {
    execFile(toolPath('helm'), [...args], { env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1; // -1: killed (timeout) or not started
      resolve({ code, stdout, stderr: error !== null && code === -1 ? `${stderr}\n${error.message}` : stderr });
    });
  });
}
