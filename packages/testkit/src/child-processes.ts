/**
 * Long-running child processes (etcd, kube-apiserver, ...) that must never outlive the test
 * run. Each child gets its own process group so the whole group can be signalled, its output
 * goes to a log file (read on failure), and a small watchdog shell kills every group as soon as
 * the owning Node process is gone, even after SIGKILL, when no exit handler runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';

/** A started child. */
export interface ManagedProcess {
  name: string;
  pid: number;
  logFile: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) when the process has exited. */
  exited: Promise<string>;
}

const running = new Set<ManagedProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // 'exit' handlers must be synchronous: signal each group, the watchdog does the rest.
  process.on('exit', () => {
    for (const managed of running) killGroup(managed.pid, 'SIGKILL');
  });
  // On a signal nobody else handles, Node would exit without running 'exit' handlers: kill the
  // groups, then let the signal take its default course. A program with its own handler (e.g.
  // one that stops gracefully) is left to do so.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const onSignal = (): void => {
      if (process.listenerCount(signal) > 1) return;
      for (const managed of running) killGroup(managed.pid, 'SIGKILL');
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** Starts `command args` in its own process group, logging to `logFile`; `env` replaces the environment. */
export function startProcess(name: string, command: string, args: string[], logFile: string, env?: NodeJS.ProcessEnv): ManagedProcess {
  installExitHook();
  const fd = openSync(logFile, 'a');
  const child = spawn(command, args, { detached: true, stdio: ['ignore', fd, fd], env: env ?? process.env });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${name} (${command})`);
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(String(code ?? signal))));
  const managed: ManagedProcess = { name, pid: child.pid, logFile, child, exited };
  running.add(managed);
  void exited.then(() => running.delete(managed));
  startWatchdog(child.pid);
  return managed;
}

/**
 * A detached `sh` loop that outlives us: once our pid is gone it SIGKILLs the child's group.
 * It exits on its own when the child exits, so it never lingers either.
 */
function startWatchdog(childPid: number): void {
  const script = `while kill -0 ${process.pid} 2>/dev/null && kill -0 ${childPid} 2>/dev/null; do sleep 1; done; kill -KILL -${childPid} 2>/dev/null; exit 0`;
  const watchdog = spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' });
  watchdog.unref();
}

/** Stops a child: SIGTERM to its group, SIGKILL after `graceMs`. */
export async function stopProcess(managed: ManagedProcess, graceMs = 10_000): Promise<void> {
  if (managed.child.exitCode !== null || managed.child.signalCode !== null) return;
  killGroup(managed.pid, 'SIGTERM');
  const timer = setTimeout(() => killGroup(managed.pid, 'SIGKILL'), graceMs);
  await managed.exited;
  clearTimeout(timer);
  // The group may still hold grandchildren; make sure it is empty.
  killGroup(managed.pid, 'SIGKILL');
}

/** The last `lines` lines of a child's log, for error messages. */
export function logTail(managed: ManagedProcess, lines = 30): string {
  try {
    return readFileSync(managed.logFile, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Polls `ready` every 200 ms until it answers true; throws with the last log lines when the child exits first
 * or `timeoutMs` passes (a child that dies at start-up explains itself in its log, not in its exit code).
 */
export async function waitUntil(name: string, managed: ManagedProcess, ready: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (managed.child.exitCode !== null || managed.child.signalCode !== null) {
      throw new Error(`${name} exited during start-up; last log lines:\n${logTail(managed)}`);
    }
    if (await ready()) return;
    if (Date.now() > deadline) throw new Error(`${name} not ready after ${timeoutMs} ms; last log lines:\n${logTail(managed)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Whether process `pid` exists (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A currently free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('no port'));
      server.close(() => resolve(address.port));
    });
  });
}

/**
 * A started program that serves `readyUrl` once it can take requests (Prometheus' and Alertmanager's `/-/ready`):
 * resolves when that answers 2xx; `stop` ends the program and removes `dir`, its working directory. A program
 * that never becomes ready is stopped and the wait's error thrown.
 */
export async function startUntilReady(
  managed: ManagedProcess, readyUrl: string, dir: string, probe?: () => Promise<boolean>,
): Promise<{ stop: () => Promise<void> }> {
  const stop = async (): Promise<void> => {
    await stopProcess(managed);
    rmSync(dir, { recursive: true, force: true });
  };
  const isReady = async (): Promise<boolean> => {
    try {
      // `probe`: a server fetch cannot reach (HTTPS with a test CA).
      return probe ? await probe() : (await fetch(readyUrl, { signal: AbortSignal.timeout(1000) })).ok;
    } catch {
      return false; // not listening yet
    }
  };
  try {
    await waitUntil(managed.name, managed, isReady);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}
