/**
 * What a Prometheus' configuration holds right now, as its operator wrote it into Secrets, seen through one watch
 * of the Secrets of its namespace. Each operator lays the configuration out its own way (a {@link ConfigLayout});
 * the watch answers "when did the configuration first hold X", X being every monitor's jobs or a changed value.
 *
 * The time of an answer is the arrival of the watch event that made it true (stamped before parsing), so decoding
 * a large configuration in this process does not count against the operator that wrote it.
 *
 * The watch reads the Secrets as protobuf (protobuf-watch.ts), as the kubelet does: their bytes come as they are,
 * where JSON would make the API server base64- and JSON-encode every configuration for this watcher (a large share
 * of its CPU during a first config; docs/performance.md, "Method") and this process parse it back. The probe
 * should cost the machine it measures as little as it can. The initial list, a one-off before anything is
 * measured, stays JSON.
 */
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { BenchApi, sleep } from './api-client.ts';
import { decodeSecretWatchEvent, watchProtobufFrames, type ArrivedFrame } from './protobuf-watch.ts';

const gunzipAsync = promisify(gunzip);

/** A Secret as the watch last saw it. */
export interface WatchedSecret {
  resourceVersion: string;
  /** The values' bytes. */
  data: Record<string, Buffer>;
}

/** One file of a configuration, decoded, with what the benchmark asks of it computed on first use. */
export class ConfigFile {
  readonly text: string;
  #jobs: string[] | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /** Every `job_name` of a ServiceMonitor endpoint in the file (`serviceMonitor/<namespace>/<name>/<endpoint>`). */
  serviceMonitorJobs(): readonly string[] {
    this.#jobs ??= [...this.text.matchAll(/job_name: ["']?(serviceMonitor\/[^/\s"']+\/[^/\s"']+\/\d+)/g)].map((match) => match[1] as string);
    return this.#jobs;
  }
}

/** Reads key `key` of Secret `secret` as the watch holds it (gunzipped when the key ends in .gz); undefined when absent. */
export type ReadSecretFile = (secret: string, key: string) => Promise<ConfigFile | undefined>;

/**
 * How an operator stores the configuration of Prometheus `prometheus`: the files it consists of now, or undefined
 * while it is missing or incomplete (a file it names is not there yet).
 */
export type ConfigLayout = (prometheus: string, read: ReadSecretFile) => Promise<ConfigFile[] | undefined>;

/** What a configuration has to hold for a wait to end. */
export type ConfigCondition = (files: readonly ConfigFile[]) => boolean;

/** The configuration holds exactly `count` ServiceMonitors, each with `endpoints` jobs. */
export function holdsMonitors(count: number, endpoints: number): ConfigCondition {
  return (files) => {
    const jobs = new Set<string>();
    for (const file of files) for (const job of file.serviceMonitorJobs()) jobs.add(job);
    if (jobs.size !== count * endpoints) return false;
    const monitors = new Set([...jobs].map((job) => job.slice(0, job.lastIndexOf('/'))));
    return monitors.size === count;
  };
}

/** Some file of the configuration contains `text`. */
export function contains(text: string): ConfigCondition {
  return (files) => files.some((file) => file.text.includes(text));
}

interface Waiter {
  prometheus: string;
  condition: ConfigCondition;
  resolve: (arrivedAt: number) => void;
}

/** A watch of the Secrets of one namespace that can be asked when a configuration first held something. */
export class ConfigWatch {
  readonly #api: BenchApi;
  readonly #namespace: string;
  readonly #layout: ConfigLayout;
  readonly #secrets = new Map<string, WatchedSecret>();
  readonly #decoded = new Map<string, ConfigFile>();
  readonly #waiters = new Set<Waiter>();
  readonly #abort = new AbortController();
  #resourceVersion = '';
  #queue: Promise<void> = Promise.resolve();
  #failure: Error | undefined;

  constructor(api: BenchApi, namespace: string, layout: ConfigLayout) {
    this.#api = api;
    this.#namespace = namespace;
    this.#layout = layout;
  }

  /** Lists the Secrets, then keeps watching (resuming a watch the server ends) until stop(). */
  async start(): Promise<void> {
    const list = await this.#api.json<{ metadata: { resourceVersion: string }; items: { metadata: { name: string; resourceVersion: string }; data?: Record<string, string> }[] }>(
      'GET', `/api/v1/namespaces/${this.#namespace}/secrets`);
    for (const item of list.items) {
      const data = Object.fromEntries(Object.entries(item.data ?? {}).map(([key, base64]) => [key, Buffer.from(base64, 'base64')]));
      this.#secrets.set(item.metadata.name, { resourceVersion: item.metadata.resourceVersion, data });
    }
    this.#resourceVersion = list.metadata.resourceVersion;
    void this.#watchLoop();
  }

  stop(): void {
    this.#abort.abort();
  }

  /**
   * Resolves with the arrival time (`performance.now()`) of the first event after which the configuration of
   * `prometheus` satisfies `condition` (now, if it already does), or undefined after `timeoutMs`.
   */
  waitFor(prometheus: string, condition: ConfigCondition, timeoutMs: number): Promise<number | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        resolve(undefined);
      }, timeoutMs);
      const waiter: Waiter = {
        prometheus,
        condition,
        resolve: (arrivedAt) => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve(arrivedAt);
        },
      };
      this.#waiters.add(waiter);
      this.#enqueue(async () => {
        if (this.#waiters.has(waiter)) await this.#check(waiter, performance.now());
      });
    });
  }

  /** The current configuration of `prometheus` (undefined while missing or incomplete), once earlier events are applied. */
  current(prometheus: string): Promise<ConfigFile[] | undefined> {
    return new Promise((resolve, reject) => this.#enqueue(async () => {
      try {
        resolve(await this.#layout(prometheus, this.#read));
      } catch (error) {
        reject(error as Error);
      }
    }));
  }

  /** The watch's own failure, if it stopped for another reason than stop(). */
  get failure(): Error | undefined {
    return this.#failure;
  }

  async #watchLoop(): Promise<void> {
    while (!this.#abort.signal.aborted) {
      try {
        await watchProtobufFrames(
          this.#api,
          `/api/v1/namespaces/${this.#namespace}/secrets?watch=1&allowWatchBookmarks=true&timeoutSeconds=1800&resourceVersion=${this.#resourceVersion}`,
          (frame) => this.#enqueue(() => this.#apply(frame)),
          this.#abort.signal,
        );
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        this.#failure = error as Error;
        await sleep(1_000);
      }
    }
  }

  #enqueue(step: () => Promise<void>): void {
    this.#queue = this.#queue.then(step).catch((error: unknown) => {
      this.#failure = error as Error;
    });
  }

  async #apply({ bytes, arrivedAt }: ArrivedFrame): Promise<void> {
    const event = decodeSecretWatchEvent(bytes);
    if (event.type === 'ERROR') {
      const { code, reason, message } = event.status;
      throw new Error(`watch of Secrets failed: ${code} ${reason}: ${message}`);
    }
    const { secret } = event;
    if (secret.resourceVersion === '') return; // no metadata: nothing to apply or to resume from
    this.#resourceVersion = secret.resourceVersion;
    if (event.type === 'BOOKMARK') return;
    if (event.type === 'DELETED') this.#secrets.delete(secret.name);
    else this.#secrets.set(secret.name, { resourceVersion: secret.resourceVersion, data: secret.data });
    for (const waiter of [...this.#waiters]) await this.#check(waiter, arrivedAt);
  }

  async #check(waiter: Waiter, arrivedAt: number): Promise<void> {
    const files = await this.#layout(waiter.prometheus, this.#read);
    if (files && waiter.condition(files)) waiter.resolve(arrivedAt);
    // Keep only the decoded files of the configuration just read: older versions will not be asked for again.
    if (files) {
      const keep = new Set(files);
      for (const [id, file] of this.#decoded) if (!keep.has(file)) this.#decoded.delete(id);
    }
  }

  readonly #read: ReadSecretFile = async (secret, key) => {
    const watched = this.#secrets.get(secret);
    const value = watched?.data[key];
    if (!watched || value === undefined) return undefined;
    const id = `${secret}/${key}@${watched.resourceVersion}`;
    let file = this.#decoded.get(id);
    if (!file) {
      file = new ConfigFile((key.endsWith('.gz') ? await gunzipAsync(value) : value).toString('utf8'));
      this.#decoded.set(id, file);
    }
    return file;
  };
}
