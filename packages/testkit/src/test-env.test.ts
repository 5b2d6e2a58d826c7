/**
 * The control plane never outlives its owner and never listens beyond loopback: a stopped or
 * killed test run leaves no process behind, and nothing is reachable from other hosts.
 */
import { spawn } from 'node:child_process';
import { startTestEnv, REPO_ROOT } from './index.ts';
import { isLoopback, tcpSockets } from './process-sockets.ts';
import { isAlive } from './child-processes.ts';

async function waitForDeath(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && pids.some(isAlive)) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(isAlive);
}

describe('a test control plane', () => {
  it('listens and connects only on loopback, and leaves no process behind after stop()', async () => {
    const env = await startTestEnv();
    const pids = env.pids();
    expect(pids).toHaveLength(3);
    try {
      const sockets = pids.flatMap((pid) => tcpSockets(pid));
      const listening = sockets.filter((socket) => socket.state === 'listen');
      const connected = sockets.filter((socket) => socket.state === 'established');
      // etcd and kube-apiserver listen; everyone talks to them, so there are connections too.
      expect(listening.length).toBeGreaterThanOrEqual(2);
      expect(connected.length).toBeGreaterThan(0);
      expect(listening.map((socket) => socket.local).filter((a) => a !== '127.0.0.1')).toEqual([]);
      expect(connected.map((socket) => socket.remote).filter((a) => !isLoopback(a))).toEqual([]);
    } finally {
      await env.stop();
    }
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('is killed with its owner even when the owner dies by SIGKILL (no exit handler runs)', async () => {
    const script = `
      import { startTestEnv } from './packages/testkit/src/index.ts';
      const env = await startTestEnv({ controllerManager: false });
      process.stdout.write(JSON.stringify(env.pids()) + '\\n');
      setInterval(() => {}, 1 << 30);
    `;
    const owner = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const pids = await new Promise<number[]>((resolve, reject) => {
      let out = '';
      owner.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!) as number[]);
      });
      owner.once('exit', (code) => reject(new Error(`owner exited early (${code})`)));
    });
    expect(pids).toHaveLength(2);
    expect(pids.every(isAlive)).toBe(true);
    owner.kill('SIGKILL');
    expect(await waitForDeath(pids, 10_000)).toEqual([]);
  });
});
