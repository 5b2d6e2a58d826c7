/**
 * Make one Alertmanager load the configuration promop wrote, and prove it did: the Alertmanager half of
 * reload-and-verify.ts, with the same outcomes and the same polling for the kubelet.
 *
 * POST /-/reload makes Alertmanager re-read its configuration file and answers when done: 200, or 500 with the
 * loader's error (Alertmanager then keeps the configuration it ran). What it runs is proven by
 * `alertmanager_config_hash`: Alertmanager sets it, on every successful load, from the MD5 of the file's exact
 * bytes (its first 48 bits as a number, so that a float carries them exactly). promop computes the same number
 * from the text it wrote: equal means this very text is loaded; different means the kubelet has not copied it
 * into the pod yet, so wait and reload again, until the deadline (stale). `/api/v2/status` shows the configuration
 * re-serialised with its secrets masked, which cannot be compared with the written text byte for byte; the hash
 * can.
 */
import { createHash } from 'node:crypto';
import type { PrometheusClient } from './prometheus-client.ts';
import { errorOutcome, reloadUntilLoaded, type ReloadOutcome } from './reload-and-verify.ts';

/** Alertmanager's hash of the configuration it runs. */
export const CONFIG_HASH_METRIC = 'alertmanager_config_hash';
/** 1 when Alertmanager's last load of its configuration succeeded. */
export const LAST_RELOAD_SUCCESSFUL_METRIC = 'alertmanager_config_last_reload_successful';

/** What to reload and verify. */
export interface AlertmanagerReloadOptions {
  client: PrometheusClient;
  /** The alertmanager.yaml promop wrote. */
  expectedConfigText: string;
  /** Give up (stale) after this long: allow for the kubelet's sync period. */
  timeoutMs: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Aborted when a newer configuration supersedes this one (see reloadUntilLoaded). */
  signal?: AbortSignal;
}

/**
 * The value Alertmanager gives `alertmanager_config_hash` for a configuration file of content `text`: the first six
 * bytes of its MD5 read as a little-endian unsigned integer.
 */
export function alertmanagerConfigHash(text: string): number {
  const digest = createHash('md5').update(text, 'utf8').digest();
  return digest.readUIntLE(0, 6);
}

/** The values of Alertmanager's configuration metrics in a /metrics text (undefined: not there). */
export function configMetrics(metricsText: string): { hash?: number; lastReloadSuccessful?: boolean } {
  const found: { hash?: number; lastReloadSuccessful?: boolean } = {};
  for (const line of metricsText.split('\n')) {
    // Samples only ("name value"); these two metrics have no labels.
    const [name, value, extra] = line.trim().split(/\s+/);
    if (extra !== undefined || value === undefined) continue;
    if (name === CONFIG_HASH_METRIC) found.hash = Number(value);
    else if (name === LAST_RELOAD_SUCCESSFUL_METRIC) found.lastReloadSuccessful = Number(value) === 1;
  }
  return found;
}

/** Reloads `client`'s Alertmanager until it runs `expectedConfigText` or `timeoutMs` passes. Never throws for Alertmanager's answers. */
export async function reloadAndVerifyAlertmanager(options: AlertmanagerReloadOptions): Promise<ReloadOutcome> {
  const { client } = options;
  const expectedHash = alertmanagerConfigHash(options.expectedConfigText);
  return reloadUntilLoaded(options, async (attemptStarted) => {
    const reload = await client.reload();
    const state = await client.metrics([CONFIG_HASH_METRIC, LAST_RELOAD_SUCCESSFUL_METRIC]);
    if (!reload.ok) {
      const { error } = reload;
      if (error.kind !== 'http' || error.status !== 500) return errorOutcome(error);
      // Confirmed by the metric, so that an unrelated server error is not reported as a bad configuration.
      const failedLoad = state.ok && configMetrics(state.value).lastReloadSuccessful === false;
      const reason = error.body === '' ? 'Alertmanager refused the configuration without a reason' : error.body;
      return failedLoad
        ? { outcome: 'rejected', reason }
        : { outcome: 'failed', reason: `reload answered 500 but Alertmanager does not report a failed load: ${reason}` };
    }
    if (!state.ok) return errorOutcome(state.error);
    const loaded = configMetrics(state.value).hash;
    if (loaded === undefined) return { outcome: 'failed', reason: `GET /metrics: no ${CONFIG_HASH_METRIC}; is this an Alertmanager?` };
    if (loaded === expectedHash) return { outcome: 'verified', verifyMs: Date.now() - attemptStarted };
    return { outcome: 'pending', difference: `the loaded configuration has hash ${loaded}, the written one ${expectedHash}` };
  });
}
