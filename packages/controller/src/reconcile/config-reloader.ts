/**
 * How the reconciler asks a Prometheus to load what was just written. The reconciler applies the config Secret
 * and rule ConfigMaps, then calls `reload(prometheus, shard)` for every shard whose inputs changed (and again on
 * the next reconcile if it failed). An implementation is responsible for everything Prometheus-specific: waiting
 * until the kubelet has updated the mounted files, POST `/-/reload` on each pod of the shard, verifying the
 * loaded config. The reconciler never talks HTTP itself. The per-pod part exists (`PrometheusReloader` in
 * prometheus-client/, a PodConfigVerifier); the adapter that finds a shard's running pods and calls it with the
 * shard's expected config comes with the pod-network work, the first time pods actually run in tests.
 */
import type { Prometheus } from '@promop/crds';

/** What a reload ended with. Not ok: Reconciled=False with reason ReloadFailed and `message`, retried with backoff. */
export type ReloadResult = { ok: true } | { ok: false; message: string };

/** Makes a Prometheus shard load its current configuration. Must not throw for an unreachable Prometheus. */
export interface ConfigReloader {
  reload(prometheus: Prometheus, shard: number): Promise<ReloadResult>;
}

/** The default until PrometheusReloader exists, and in tests (there is no kubelet, so no pod ever runs). */
export const NO_OP_RELOADER: ConfigReloader = {
  reload: async () => ({ ok: true }),
};
