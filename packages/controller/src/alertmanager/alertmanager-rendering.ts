/**
 * An Alertmanager's configuration built from a set of objects: what its reconciler (reconcile-alertmanager.ts)
 * writes, and what `promop render`, `explain` and `diff` show, so the four judge an Alertmanager alike. The base
 * configuration is key alertmanager.yaml of its configSecret (`spec.configSecret`, else `alertmanager-<name>`);
 * the configuration that sends nothing when that Secret does not exist; a refusal when the Secret lacks the key;
 * no configSecret at all when `spec.alertmanagerConfiguration` names the AlertmanagerConfig that makes the top
 * level (as upstream). Every AlertmanagerConfig is a candidate. Pure.
 */
import { alertmanagerConfigSecretName, generateAlertmanagerConfiguration, type AlertmanagerConfiguration, type FieldProblem, type KeyValueSource, type NamespaceInfo } from '@promop/config-generator';
import type { Alertmanager, AlertmanagerConfig } from '@promop/crds';
import { referencedObjects, type ReferencesMemo } from '../reconcile/references.ts';
import { ALERTMANAGER_CONFIG_KEY, alertmanagerSpecProblems } from './alertmanager-children.ts';
import { alertmanagerTlsDataProblems, alertmanagerTlsOf, alertmanagerTlsReferences } from './alertmanager-tls.ts';

/** What an Alertmanager's configuration is built from besides the Alertmanager. */
export interface AlertmanagerSources {
  /** Every AlertmanagerConfig: the Alertmanager's selectors pick among them. */
  alertmanagerConfigs: readonly AlertmanagerConfig[];
  namespaces: readonly NamespaceInfo[];
  /** The Secrets alertmanagerReferences names, those that exist. */
  secrets: readonly KeyValueSource[];
  /** The ConfigMaps it names, those that exist. */
  configMaps?: readonly KeyValueSource[];
  /** Objects the reader may not read, as `Secret <namespace>/<name>` (cluster-snapshot.ts). */
  unreadable?: readonly string[];
}

/**
 * The state of the configSecret: `missing` runs the configuration that sends nothing; `unreadable` is judged as
 * missing; `unused`: spec.alertmanagerConfiguration makes the top level instead.
 */
export type ConfigSecretState = 'present' | 'missing' | 'unreadable' | 'unused';

/** The generator's answer, with the configSecret it read. */
export interface AlertmanagerRendering {
  configSecret: { name: string; state: ConfigSecretState };
  output: AlertmanagerConfiguration;
}

/** Builds the configuration of `alertmanager` from `sources`. */
export function renderAlertmanagerConfiguration(alertmanager: Alertmanager, sources: AlertmanagerSources): AlertmanagerRendering {
  const rendering = renderFromSources(alertmanager, sources);
  // A field of the Alertmanager's own spec promop refuses (alertmanagerSpecProblems): the running pods and
  // configuration stay, teams' parts included, and the verdicts do not depend on that field, so all of them stand.
  const problem = alertmanagerSpecProblems(alertmanager)[0] ?? tlsDataProblem(alertmanager, sources);
  if (!problem) return rendering;
  return { ...rendering, output: { ok: false, problem, verdicts: rendering.output.verdicts } };
}

/**
 * The first problem of the TLS material the Alertmanager's TLS files name; an object the reader may not read
 * (cluster-snapshot.ts: it stands in with every key) is not judged.
 */
function tlsDataProblem(alertmanager: Alertmanager, sources: AlertmanagerSources): FieldProblem | undefined {
  const tls = alertmanagerTlsOf(alertmanager.spec ?? {});
  if (!tls.ok) return undefined;
  const namespace = alertmanager.metadata.namespace ?? '';
  const unreadable = new Set(alertmanagerTlsReferences(tls.value)
    .filter((each) => sources.unreadable?.includes(`${each.kind} ${namespace}/${each.name}`))
    .map((each) => each.path));
  return alertmanagerTlsDataProblems(tls.value, namespace, { secrets: sources.secrets, configMaps: sources.configMaps ?? [] })
    .find((problem) => ![...unreadable].some((path) => problem.path === path || problem.path.startsWith(`${path}.`)));
}

function renderFromSources(alertmanager: Alertmanager, sources: AlertmanagerSources): AlertmanagerRendering {
  const namespace = alertmanager.metadata.namespace ?? '';
  const name = alertmanagerConfigSecretName(alertmanager);
  const generate = (baseConfig: string | undefined, baseProblem?: FieldProblem) => generateAlertmanagerConfiguration({
    alertmanager,
    baseConfig,
    alertmanagerConfigs: sources.alertmanagerConfigs,
    namespaces: sources.namespaces,
    secrets: sources.secrets,
    configMaps: sources.configMaps ?? [],
    ...(baseProblem ? { baseProblem } : {}),
  });
  if (alertmanager.spec?.alertmanagerConfiguration) return { configSecret: { name, state: 'unused' }, output: generate(undefined) };
  const secret = sources.secrets.find((each) => each.namespace === namespace && each.name === name);
  // An unreadable Secret stands in with every key (cluster-snapshot.ts): judged as missing instead, never parsed.
  const state: ConfigSecretState = sources.unreadable?.includes(`Secret ${namespace}/${name}`) ? 'unreadable' : secret ? 'present' : 'missing';
  const base = state === 'present' ? secret : undefined;
  // A Secret without the key is refused as upstream refuses it, as a base that does not parse (the same verdicts).
  const keyMissing = base !== undefined && !Object.hasOwn(base.data, ALERTMANAGER_CONFIG_KEY);
  const problem = keyMissing ? { path: 'spec.configSecret', message: `Secret ${name} has no key ${ALERTMANAGER_CONFIG_KEY}` } : undefined;
  return { configSecret: { name, state }, output: generate(base?.data[ALERTMANAGER_CONFIG_KEY], problem) };
}

/**
 * The Secrets and ConfigMaps (`namespace/name`) the configurations of `alertmanagers` are built from: each one's
 * configSecret and the Secrets and ConfigMaps of its `alertmanagerConfiguration.global` and `templates` (its own namespace), and what the
 * AlertmanagerConfigs reference (each in its own namespace), and the TLS material of its web server and mesh
 * (alertmanager-tls.ts, its namespace). Nothing else of an Alertmanager is read. `memo`
 * keeps the references of unchanged AlertmanagerConfigs between calls.
 */
export function alertmanagerReferences(
  alertmanagers: readonly Alertmanager[], alertmanagerConfigs: readonly AlertmanagerConfig[], memo?: ReferencesMemo,
): { secrets: Set<string>; configMaps: Set<string> } {
  const found = referencedObjects({ alertmanagerConfigs }, memo);
  const secrets = new Set(found.secrets);
  const configMaps = new Set(found.configMaps);
  for (const each of alertmanagers) {
    secrets.add(`${each.metadata.namespace}/${alertmanagerConfigSecretName(each)}`);
    // The TLS material of its web server and mesh, from its own namespace only.
    const tls = alertmanagerTlsOf(each.spec ?? {});
    for (const reference of tls.ok ? alertmanagerTlsReferences(tls.value) : []) {
      (reference.kind === 'Secret' ? secrets : configMaps).add(`${each.metadata.namespace}/${reference.name}`);
    }
    const { global, templates } = each.spec?.alertmanagerConfiguration ?? {};
    if (!global && !templates?.length) continue;
    const globalOnly = { ...each, spec: { alertmanagerConfiguration: { global, templates } } } as Alertmanager;
    const ofGlobal = referencedObjects({ alertmanagers: [globalOnly] });
    for (const key of ofGlobal.secrets) secrets.add(key);
    for (const key of ofGlobal.configMaps) configMaps.add(key);
  }
  return { secrets, configMaps };
}
