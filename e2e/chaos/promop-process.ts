/**
 * `promop run` as a real process, the way the chart runs it (bin/promop.js with the Node flags and environment of
 * promop's image, promop-process-settings.ts; its own process group, stopped by the harness and by
 * child-processes.ts' watchdog if the test process dies), with its metrics endpoint on a free
 * loopback port. The chaos scenarios signal it (SIGKILL, SIGTERM) and read its state from /metrics, never from
 * inside the process.
 */
import { join } from 'node:path';
import { freePort, isAlive, logTail, startProcess, stopProcess, type ManagedProcess, REPO_ROOT } from '@promop/testkit';
import { PROMOP_NODE_FLAGS, PROMOP_PROCESS_ENV } from '../src/images/promop-process-settings.ts';

/** How to start one promop. */
export interface PromopOptions {
  /** Names the log file and the process in messages. */
  name: string;
  kubeconfigPath: string;
  /** Directory for the log file. */
  dir: string;
  /** `--leader-elect`; default false (one promop reconciles). */
  leaderElect?: boolean;
  /** Extra arguments of `promop run`. */
  args?: string[];
  /** Run it inside another network namespace (the real node's), where the pods it reloads are reachable. */
  network?: PromopNetwork;
  /**
   * Open Node's inspector on a loopback port, so the test can force a full garbage collection and read what is left
   * (`retainedBytes`). It changes nothing about how promop allocates; it only lets a leak be told from garbage V8
   * has not collected yet, which resident memory cannot.
   */
  inspect?: boolean;
}

/**
 * How to run promop inside a network namespace: `wrap` rewrites the command (nsenter, which execs, so the pid is
 * promop's own), `reach` turns a port on the namespace's loopback into one on ours, for /metrics and /readyz.
 */
export interface PromopNetwork {
  wrap(command: string, args: readonly string[]): { command: string; args: string[] };
  reach(port: number): Promise<number>;
}

/** A running (or exited) promop process. */
export interface PromopProcess {
  name: string;
  pid: number;
  /** http://127.0.0.1:<port> serving /metrics, /healthz and /readyz. */
  url: string;
  logFile: string;
  /** Resolves with the exit code or signal once the process has exited. */
  exited: Promise<string>;
  /** The samples of /metrics without labels summed per name (`promop_reconcile_total` = all results); undefined when unreachable. */
  metrics(): Promise<Map<string, number> | undefined>;
  /** Resolves once /readyz answers 200 (caches synced). */
  untilReady(timeoutMs?: number): Promise<void>;
  /** Signals the process group (SIGKILL leaves no chance to clean up, like a node failure). */
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after a grace period; resolves when the process is gone. */
  stop(): Promise<void>;
  /** The last lines of its log, for failure messages. */
  logTail(lines?: number): string;
  /**
   * What promop retains: after a forced full garbage collection, the heap it still uses plus the memory outside the
   * heap its objects hold (Buffers, array buffers). Only with `inspect`.
   */
  retainedBytes(): Promise<number>;
}

const PROMOP_BIN = join(REPO_ROOT, 'packages/controller/bin/promop.js');

/** Starts `promop run --kubeconfig ... --metrics-address 127.0.0.1:<free port>`. */
export async function startPromop(options: PromopOptions): Promise<PromopProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${options.network ? await options.network.reach(port) : port}`;
  const logFile = join(options.dir, `${options.name}.log`);
  const wrap = options.network?.wrap ?? ((command: string, args: readonly string[]) => ({ command, args: [...args] }));
  const inspectPort = options.inspect ? await freePort() : undefined;
  const command = wrap(process.execPath, [
    ...PROMOP_NODE_FLAGS,
    ...(inspectPort === undefined ? [] : [`--inspect=127.0.0.1:${inspectPort}`]),
    PROMOP_BIN, 'run',
    '--kubeconfig', options.kubeconfigPath,
    '--metrics-address', `127.0.0.1:${port}`,
    `--leader-elect=${options.leaderElect ?? false}`,
    // The chaos cluster installs the CRDs from crds/ itself; the scenarios judge what promop makes for a Prometheus,
    // and CRD upgrades have their own tests (kube/crd-installer.ts).
    '--manage-crds=false',
    ...(options.args ?? []),
  ]);
  const managed: ManagedProcess = startProcess(options.name, command.command, command.args, logFile, { ...process.env, ...PROMOP_PROCESS_ENV });
  const metrics = async (): Promise<Map<string, number> | undefined> => {
    try {
      const response = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5_000) });
      if (!response.ok) return undefined;
      return parseMetrics(await response.text());
    } catch {
      return undefined;
    }
  };
  return {
    name: options.name,
    pid: managed.pid,
    url,
    logFile,
    exited: managed.exited,
    metrics,
    async untilReady(timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (!isAlive(managed.pid) || managed.child.exitCode !== null) throw new Error(`${options.name} exited before it was ready:\n${logTail(managed)}`);
        try {
          const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
          if (response.status === 200) return;
        } catch {
          // Not listening yet.
        }
        if (Date.now() > deadline) throw new Error(`${options.name} not ready after ${timeoutMs} ms:\n${logTail(managed)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    kill(signal) {
      try {
        process.kill(-managed.pid, signal);
      } catch {
        // Already gone.
      }
    },
    stop: () => stopProcess(managed),
    logTail: (lines = 30) => logTail(managed, lines),
    async retainedBytes() {
      if (inspectPort === undefined) throw new Error(`${options.name} was started without inspect`);
      const port = options.network ? await options.network.reach(inspectPort) : inspectPort;
      return retainedAfterCollection(port);
    },
  };
}

/**
 * Asks a Node process' inspector (on 127.0.0.1:`port`) for two full garbage collections (the second collects what
 * finalizers of the first released), then reads `process.memoryUsage()` inside it: the heap still used, plus the
 * memory outside the heap that objects hold (`external`: Buffers, array buffers, sockets' data).
 */
async function retainedAfterCollection(port: number): Promise<number> {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`, { signal: AbortSignal.timeout(5_000) })).json() as { webSocketDebuggerUrl: string }[];
  const debuggerUrl = targets[0]?.webSocketDebuggerUrl;
  if (!debuggerUrl) throw new Error(`the inspector on port ${port} lists no target`);
  // The URL names the port inside the process' namespace; ours may be a forwarded one.
  const socket = new WebSocket(`ws://127.0.0.1:${port}${new URL(debuggerUrl).pathname}`);
  const replies = new Map<number, (message: { result?: unknown; error?: { message?: string } }) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message?: string } };
    if (message.id !== undefined) replies.get(message.id)?.(message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error(`cannot open the inspector's WebSocket on port ${port}`)), { once: true });
  });
  let nextId = 0;
  const call = (method: string, params: object = {}) => new Promise<unknown>((resolve, reject) => {
    const id = ++nextId;
    const timer = setTimeout(() => reject(new Error(`the inspector did not answer ${method} within 60 s`)), 60_000);
    replies.set(id, (message) => {
      clearTimeout(timer);
      if (message.error) reject(new Error(`the inspector refused ${method}: ${message.error.message ?? JSON.stringify(message.error)}`));
      else resolve(message.result);
    });
    socket.send(JSON.stringify({ id, method, params }));
  });
  try {
    await call('HeapProfiler.collectGarbage');
    await call('HeapProfiler.collectGarbage');
    const answer = await call('Runtime.evaluate', { expression: 'process.memoryUsage()', returnByValue: true }) as { result?: { value?: { heapUsed?: number; external?: number } }; exceptionDetails?: unknown };
    const usage = answer.result?.value;
    if (answer.exceptionDetails || typeof usage?.heapUsed !== 'number' || typeof usage.external !== 'number') {
      throw new Error(`process.memoryUsage() gave no figures through the inspector: ${JSON.stringify(answer)}`);
    }
    return usage.heapUsed + usage.external;
  } finally {
    socket.close();
  }
}

/** Sums every sample of each metric name in a Prometheus text exposition. */
export function parseMetrics(text: string): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const value = Number(match[3]);
    if (!Number.isNaN(value)) sums.set(match[1] as string, (sums.get(match[1] as string) ?? 0) + value);
  }
  return sums;
}
