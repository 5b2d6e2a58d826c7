/**
 * `promop run` as the Helm chart starts it: the process serves /healthz at once, /readyz once the
 * operator's caches have synced, reports `promop_ready 1` on /metrics, and exits 0 on SIGTERM.
 * It runs against a control plane of its own so it reconciles nobody else's test objects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { applyCrds } from '@promop/crds/test-support';
import { freePort, REPO_ROOT, startTestEnv, type TestEnv } from '@promop/e2e';

async function get(url: string): Promise<{ status: number; body: string } | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    return { status: response.status, body: await response.text() };
  } catch {
    return undefined;
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('promop run', () => {
  let env: TestEnv;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    env = await startTestEnv({ controllerManager: false });
    await applyCrds(env.kubeConfig());
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await env?.stop();
  });

  it('serves health, readiness and metrics, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, [join(REPO_ROOT, 'packages/controller/src/cli.ts'), 'run', '--kubeconfig', env.kubeconfigPath, '--metrics-address', `127.0.0.1:${port}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));

    await until('/healthz', async () => ((await get(`${base}/healthz`))?.status === 200 ? true : undefined));
    await until('/readyz', async () => ((await get(`${base}/readyz`))?.status === 200 ? true : undefined));
    const metrics = await get(`${base}/metrics`);
    expect(metrics?.status).toBe(200);
    expect(metrics?.body).toMatch(/^promop_ready 1$/m);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await get(`${base}/healthz`)).toBeUndefined();
    expect(output).toContain('serving /metrics, /healthz and /readyz');
  });
});
