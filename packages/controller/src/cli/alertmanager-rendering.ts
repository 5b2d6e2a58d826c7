/**
 * An Alertmanager's configuration built from a set of objects as its reconciler builds it
 * (alertmanager/reconcile-alertmanager.ts): the base configuration from key alertmanager.yaml of its configSecret
 * (`spec.configSecret`, else `alertmanager-<name>`), the configuration that sends nothing when that Secret does not
 * exist, a refusal when the Secret lacks the key, and every AlertmanagerConfig as a candidate. Pure; what
 * `render`, `explain` and `diff` share, so the three judge an Alertmanager alike.
 */
import { generateAlertmanagerConfiguration, type AlertmanagerConfiguration, type KeyValueSource, type NamespaceInfo } from '@promop/config-generator';
import type { Alertmanager, AlertmanagerConfig } from '@promop/crds';
import { ALERTMANAGER_CONFIG_KEY, configSecretName } from '../alertmanager/alertmanager-children.ts';

/** What an Alertmanager's configuration is built from besides the Alertmanager. */
export interface AlertmanagerSources {
  /** Every AlertmanagerConfig: the Alertmanager's selectors pick among them. */
  alertmanagerConfigs: readonly AlertmanagerConfig[];
  namespaces: readonly NamespaceInfo[];
  /** The configSecret and the Secrets the AlertmanagerConfigs reference, those that exist. */
  secrets: readonly KeyValueSource[];
  /** Objects the reader may not read, as `Secret <namespace>/<name>` (cluster-snapshot.ts). */
  unreadable?: readonly string[];
}

/** The state of the configSecret: `missing` runs the configuration that sends nothing; `unreadable` is judged as missing. */
export type ConfigSecretState = 'present' | 'missing' | 'unreadable';

/** The generator's answer, with the configSecret it read. */
export interface AlertmanagerRendering {
  configSecret: { name: string; state: ConfigSecretState };
  output: AlertmanagerConfiguration;
}

/** Builds the configuration of `alertmanager` from `sources`. */
export function renderAlertmanagerConfiguration(alertmanager: Alertmanager, sources: AlertmanagerSources): AlertmanagerRendering {
  const namespace = alertmanager.metadata.namespace ?? '';
  const name = configSecretName(alertmanager);
  const secret = sources.secrets.find((each) => each.namespace === namespace && each.name === name);
  // An unreadable Secret stands in with every key (cluster-snapshot.ts): judged as missing instead, never parsed.
  const state: ConfigSecretState = sources.unreadable?.includes(`Secret ${namespace}/${name}`) ? 'unreadable' : secret ? 'present' : 'missing';
  const base = state === 'present' ? secret : undefined;
  const output = generateAlertmanagerConfiguration({
    alertmanager,
    baseConfig: base?.data[ALERTMANAGER_CONFIG_KEY],
    configSecretName: name,
    alertmanagerConfigs: sources.alertmanagerConfigs,
    namespaces: sources.namespaces,
    secrets: sources.secrets,
  });
  if (base && !Object.hasOwn(base.data, ALERTMANAGER_CONFIG_KEY)) {
    // Refused as the reconciler refuses it. Which objects the selectors leave out does not depend on the base
    // configuration, so they keep their verdicts, as when the generator itself refuses a base configuration.
    const problem = { path: 'spec.configSecret', message: `Secret ${name} has no key ${ALERTMANAGER_CONFIG_KEY}` };
    return { configSecret: { name, state }, output: { ok: false, problem, verdicts: output.verdicts.filter((verdict) => !verdict.selected) } };
  }
  return { configSecret: { name, state }, output };
}
