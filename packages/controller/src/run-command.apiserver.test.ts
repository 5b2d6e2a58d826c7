/**
 * `promop run` as the Helm chart starts it: the process serves /healthz at once, /readyz once the
 * operator's caches have synced, reports `promop_ready 1` on /metrics, and exits 0 on SIGTERM.
 * It runs against a control plane of its own so it reconciles nobody else's test objects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { applyCrds, freePort, REPO_ROOT, startTestEnv, type TestEnv } from '@promop/testkit';

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

    // Ready before leading: the Lease is free here, so the leader follows within a retry period.
    await until('promop_leader 1', async () => (/^promop_leader 1$/m.test((await get(`${base}/metrics`))?.body ?? '') ? true : undefined), 10_000);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await get(`${base}/healthz`)).toBeUndefined();
    expect(output).toContain('serving /metrics, /healthz and /readyz');
    expect(output).toContain('released the lease');
  });

  it('with two replicas, only the leader reconciles; on SIGTERM it hands over to the stand-by at once', async () => {
    const start = async () => {
      const port = await freePort();
      const process_ = spawn(process.execPath, [join(REPO_ROOT, 'packages/controller/src/cli.ts'), 'run', '--kubeconfig', env.kubeconfigPath, '--metrics-address', `127.0.0.1:${port}`, '--leader-election-id', 'two-replicas'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const replica = { process: process_, base: `http://127.0.0.1:${port}`, output: '', exited: new Promise<number | null>((resolve) => process_.once('exit', (code) => resolve(code))) };
      process_.stdout!.on('data', (chunk: Buffer) => (replica.output += chunk.toString()));
      process_.stderr!.on('data', (chunk: Buffer) => (replica.output += chunk.toString()));
      return replica;
    };
    const leaderOf = async (replica: { base: string }) => {
      const body = (await get(`${replica.base}/metrics`))?.body ?? '';
      return /^promop_leader 1$/m.test(body) ? 1 : /^promop_leader 0$/m.test(body) ? 0 : undefined;
    };
    const first = await start();
    const second = await start();
    try {
      // Both ready (caches synced), one leader.
      for (const replica of [first, second]) await until('/readyz', async () => ((await get(`${replica.base}/readyz`))?.status === 200 ? true : undefined));
      await until('a leader', async () => ((await leaderOf(first)) === 1 || (await leaderOf(second)) === 1 ? true : undefined));
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      const [a, b] = [await leaderOf(first), await leaderOf(second)];
      expect((a ?? 0) + (b ?? 0)).toBe(1);
      const [leader, standBy] = a === 1 ? [first, second] : [second, first];
      // Only the leader's workers started: the stand-by never reconciled (its log has no "reconciling").
      expect(leader.output).toMatch(/"msg":"reconciling"/);
      expect(standBy.output).not.toMatch(/"msg":"reconciling"/);

      const stoppedAt = performance.now();
      leader.process.kill('SIGTERM');
      expect(await leader.exited).toBe(0);
      await until('the stand-by leads', async () => ((await leaderOf(standBy)) === 1 ? true : undefined), 15_000);
      const handOverMs = performance.now() - stoppedAt;
      process.stdout.write(`promop run: hand-over on SIGTERM took ${Math.round(handOverMs)} ms\n`);
      expect(handOverMs).toBeLessThan(6_000);
      expect(standBy.output).toMatch(/"msg":"reconciling"/);
    } finally {
      first.process.kill('SIGKILL');
      second.process.kill('SIGKILL');
    }
  }, 90_000);
});
