/**
 * The kubelet's volume refresh for one hand-made pod, for API-server tests that run a real Prometheus process per
 * pod on 127.0.0.1 (no kubelet): when the Pod object changes (its resourceVersion moves — promop's config-hash
 * annotation is what moves it), copy the rule ConfigMaps into their directories and then the config Secret into
 * the file the pod's Prometheus reads, each file atomically (the kubelet swaps a symlink). Nothing else makes it
 * sync, so a test that passes shows promop made the pod's volumes refresh.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreV1Api } from '@kubernetes/client-node';

/** A config a Prometheus starts with before promop wrote one: valid, scrapes nothing. */
export const PLACEHOLDER_CONFIG = 'global:\n  scrape_interval: 1m\n';

export interface FakeKubeletOptions {
  core: CoreV1Api;
  namespace: string;
  pod: string;
  /** The config Secret (its `prometheus.yaml`, or `configKey`) and the file it is copied to. */
  configSecret: string;
  /** The key of the Secret to copy (default `prometheus.yaml`; an Alertmanager's is `alertmanager.yaml`). */
  configKey?: string;
  /** What the file holds before the first copy (default PLACEHOLDER_CONFIG). */
  initialConfig?: string;
  configFile: string;
  /** Rule ConfigMaps named with this prefix are copied into `<directory>/<ConfigMap name>/`, as the pod mounts them. */
  ruleFiles?: { configMapPrefix: string; directory: string };
}

export class FakeKubelet {
  /** Pod changes synced so far. */
  syncs = 0;
  readonly #options: FakeKubeletOptions;
  #resourceVersion: string | undefined;
  #written: string;
  #timer: NodeJS.Timeout | undefined;
  #busy = false;

  constructor(options: FakeKubeletOptions) {
    this.#options = options;
    this.#written = options.initialConfig ?? PLACEHOLDER_CONFIG;
  }

  get file(): string {
    return this.#options.configFile;
  }

  start(): void {
    this.#timer = setInterval(() => void this.#tick(), 100);
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async #tick(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    const { core, namespace, pod: name, configSecret, configFile, ruleFiles } = this.#options;
    try {
      const pod = await core.readNamespacedPod({ namespace, name });
      if (pod.metadata?.resourceVersion === this.#resourceVersion) return;
      const secret = await core.readNamespacedSecret({ namespace, name: configSecret }).catch(() => undefined);
      const config = secret?.data?.[this.#options.configKey ?? 'prometheus.yaml'];
      if (config === undefined) return; // nothing to mount yet: look again on the next tick
      if (ruleFiles) await this.#copyRuleFiles(ruleFiles);
      const text = Buffer.from(config, 'base64').toString('utf8');
      if (text !== this.#written) {
        writeFileSync(`${configFile}.tmp`, text);
        renameSync(`${configFile}.tmp`, configFile);
        this.#written = text;
      }
      this.#resourceVersion = pod.metadata?.resourceVersion;
      this.syncs += 1;
    } catch {
      // The pod is gone or the API server is busy: try again on the next tick.
    } finally {
      this.#busy = false;
    }
  }

  /** Each rule ConfigMap's files into its directory, dropping files that left it. */
  async #copyRuleFiles({ configMapPrefix, directory }: NonNullable<FakeKubeletOptions['ruleFiles']>): Promise<void> {
    const { core, namespace } = this.#options;
    const configMaps = (await core.listNamespacedConfigMap({ namespace })).items.filter((cm) => cm.metadata?.name?.startsWith(configMapPrefix));
    for (const configMap of configMaps) {
      const target = join(directory, configMap.metadata?.name ?? '');
      mkdirSync(target, { recursive: true });
      const files = configMap.data ?? {};
      for (const existing of readdirSync(target)) if (!(existing in files)) rmSync(join(target, existing), { force: true });
      for (const [file, text] of Object.entries(files)) {
        writeFileSync(join(target, `.${file}.tmp`), text);
        renameSync(join(target, `.${file}.tmp`), join(target, file));
      }
    }
  }
}
