/**
 * The control plane never outlives its owner and never listens beyond loopback: a stopped or
 * killed test run leaves no process behind, and nothing is reachable from other hosts.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { startTestEnv, REPO_ROOT } from './index.ts';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForDeath(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && pids.some(isAlive)) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(isAlive);
}

/** Local addresses of the TCP sockets in LISTEN state owned by `pid`, read from /proc. */
function listeningAddresses(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(join(`/proc/${pid}/fd`, fd));
      const match = /^socket:\[(\d+)\]$/.exec(target);
      if (match?.[1]) inodes.add(match[1]);
    } catch {
      // fd closed meanwhile
    }
  }
  const addresses: string[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [local, state, inode] = [cols[1], cols[3], cols[9]];
      if (!local || state !== '0A' || !inode || !inodes.has(inode)) continue; // 0A = LISTEN
      const hex = local.split(':')[0] ?? '';
      addresses.push(table === 'tcp' ? hexToIPv4(hex) : `ipv6:${hex}`);
    }
  }
  return addresses;
}

function hexToIPv4(hex: string): string {
  // /proc/net/tcp stores the address as a little-endian 32-bit number.
  return [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join('.');
}

describe('a test control plane', () => {
  it('listens only on 127.0.0.1 and leaves no process behind after stop()', async () => {
    const env = await startTestEnv();
    const pids = env.pids();
    expect(pids).toHaveLength(3);
    try {
      for (const pid of pids) {
        const addresses = listeningAddresses(pid);
        for (const address of addresses) expect(address).toBe('127.0.0.1');
      }
      // etcd and kube-apiserver do listen (kcm runs with its port switched off).
      expect(listeningAddresses(pids[0]!).length).toBeGreaterThan(0);
      expect(listeningAddresses(pids[1]!).length).toBeGreaterThan(0);
    } finally {
      await env.stop();
    }
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('is killed with its owner even when the owner dies by SIGKILL (no exit handler runs)', async () => {
    const script = `
      import { startTestEnv } from './e2e/src/index.ts';
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
