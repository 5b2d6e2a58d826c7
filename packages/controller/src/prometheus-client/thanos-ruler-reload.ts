/**
 * Make one `thanos rule` load the rule files promop wrote, and prove it did: the Thanos Ruler half of
 * reload-and-verify.ts, with the same outcomes and the same polling for the kubelet.
 *
 * POST /-/reload makes thanos rule read its rule files again and answers when done: 200, or 500 with the loader's
 * error (it then keeps evaluating the groups it had). What it evaluates is proven by GET /api/v1/rules, which lists
 * every group with the file it came from (the file as mounted, not Thanos' rewritten copy), compared with the
 * written files as for Prometheus (rule-groups-comparison.ts): until the kubelet has copied the new ConfigMaps into
 * the pod, the listing differs, so wait and reload again, until the deadline (stale).
 */
import type { PrometheusClient } from './prometheus-client.ts';
import { errorOutcome, reloadUntilLoaded, type ReloadOutcome } from './reload-and-verify.ts';
import { compareLoadedRules, type ExpectedRuleFiles } from './rule-groups-comparison.ts';

/** 1 when thanos rule's last load of its rule files succeeded. */
export const THANOS_RULE_LAST_RELOAD_SUCCESSFUL_METRIC = 'thanos_rule_config_last_reload_successful';

/** What to reload and verify. */
export interface ThanosRulerReloadOptions {
  client: PrometheusClient;
  /** Every rule file promop wrote for the ruler, by its path in the pod. */
  expectedRuleFiles: ExpectedRuleFiles;
  /**
   * The names of thanos rule's external labels (`thanos_ruler_replica` and `spec.labels`): its rules API reports
   * them among each rule's labels, in place of a rule file's label of the same name.
   */
  externalLabels: readonly string[];
  /** Give up (stale) after this long: allow for the kubelet's sync period. */
  timeoutMs: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Aborted when newer files supersede these (see reloadUntilLoaded). */
  signal?: AbortSignal;
}

/** Reloads `client`'s thanos rule until it evaluates exactly `expectedRuleFiles` or `timeoutMs` passes. Never throws for its answers. */
export async function reloadAndVerifyThanosRuler(options: ThanosRulerReloadOptions): Promise<ReloadOutcome> {
  const { client } = options;
  return reloadUntilLoaded(options, async (attemptStarted) => {
    const reload = await client.reload();
    if (!reload.ok) {
      const { error } = reload;
      if (error.kind !== 'http' || error.status !== 500) return errorOutcome(error);
      // Confirmed by the metric, so that an unrelated server error is not reported as refused rule files.
      const state = await client.metrics([THANOS_RULE_LAST_RELOAD_SUCCESSFUL_METRIC]);
      const failedLoad = state.ok && lastReloadFailed(state.value);
      const reason = error.body.trim() === '' ? 'thanos rule refused the rule files without a reason' : error.body.trim();
      return failedLoad ? { outcome: 'rejected', reason } : { outcome: 'failed', reason: `reload answered 500 but thanos rule does not report a failed load: ${reason}` };
    }
    const groups = await client.ruleGroups();
    if (!groups.ok) return errorOutcome(groups.error);
    // Thanos sets its external labels on every rule, over a rule's own label of the same name: those names are left
    // out of both sides (a team's `cluster` label under an external `cluster` never comes back as written).
    const rules = compareLoadedRules(options.expectedRuleFiles, groups.value, { ignoredLabels: options.externalLabels });
    if (!rules.equal) return { outcome: 'pending', difference: `the loaded rules differ: ${rules.reason}` };
    return { outcome: 'verified', verifyMs: Date.now() - attemptStarted };
  });
}

/** Whether a /metrics text says the last load failed (the metric is 0). */
function lastReloadFailed(metricsText: string): boolean {
  return metricsText.split('\n').some((line) => {
    const [name, value, extra] = line.trim().split(/\s+/);
    return extra === undefined && name === THANOS_RULE_LAST_RELOAD_SUCCESSFUL_METRIC && Number(value) === 0;
  });
}
