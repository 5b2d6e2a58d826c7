/**
 * What changes for each ThanosRuler between two snapshots (pure), for `promop diff`: each is rendered as its
 * reconciler renders it (thanos-ruler-rendering.ts) and compared as a Prometheus is (config-diff.ts): the
 * PrometheusRule verdicts that change, its own problems, and a unified diff of each rule file and of the remote
 * write file (Secret values redacted; TLS assets named, not shown).
 */
import type { ResourceRef, Verdict } from '@promop/config-generator';
import type { ThanosRuler } from '@promop/crds';
import { renderThanosRuler, thanosRulerFiles, type ThanosRulerRendering } from '../thanos-ruler/thanos-ruler-rendering.ts';
import type { ClusterSnapshot } from './cluster-snapshot.ts';
import { compareFiles, compareStandings, configurationChanges, standingKey, standingOf, type ConfigurationChanges, type FilesByKey, type Standings } from './config-diff.ts';
import { redactSecretValues } from './secret-redaction.ts';

/** Everything that changes for one ThanosRuler. */
export interface ThanosRulerDiff extends ConfigurationChanges {
  thanosRuler: { kind: 'ThanosRuler'; namespace: string; name: string };
  /** The PrometheusRules it rejects after the apply, changed or not, as `namespace/name`. */
  rejectedAfter: string[];
}

/**
 * Compares every ThanosRuler of `after` with the same one in `before` (none: it is created). `secrets`: the Secret
 * values to mask (secret-redaction.ts).
 */
export function diffThanosRulers(before: RulerSnapshot, after: RulerSnapshot, secrets: readonly string[]): ThanosRulerDiff[] {
  const keyOf = (thanosRuler: ThanosRuler) => `${thanosRuler.metadata.namespace}/${thanosRuler.metadata.name}`;
  const previous = new Map(before.thanosRulers.map((thanosRuler) => [keyOf(thanosRuler), thanosRuler]));
  return after.thanosRulers.map((thanosRuler) => {
    const old = previous.get(keyOf(thanosRuler));
    return diffThanosRuler(thanosRuler, old ? render(before, old) : undefined, render(after, thanosRuler), secrets);
  });
}

/** What a ruler is rendered from: the cluster's objects and the Secrets and ConfigMaps read. */
type RulerSnapshot = Pick<ClusterSnapshot, 'thanosRulers' | 'prometheusRules' | 'namespaces' | 'secrets' | 'configMaps'>;

function render(objects: RulerSnapshot, thanosRuler: ThanosRuler): Rendered {
  return { thanosRuler, rendering: renderThanosRuler(thanosRuler, {
    secrets: objects.secrets,
    configMaps: objects.configMaps,
    prometheusRules: objects.prometheusRules,
    namespaces: objects.namespaces.map((each) => ({ name: each.metadata?.name ?? '', labels: each.metadata?.labels ?? {} })),
  }) };
}

/** A ruler and its rendering (its files depend on both). */
interface Rendered {
  thanosRuler: ThanosRuler;
  rendering: ThanosRulerRendering;
}

function diffThanosRuler(thanosRuler: ThanosRuler, beforeRendered: Rendered | undefined, afterRendered: Rendered, secrets: readonly string[]): ThanosRulerDiff {
  const before = beforeRendered?.rendering;
  const after = afterRendered.rendering;
  const namespace = thanosRuler.metadata.namespace ?? '';
  const { name } = thanosRuler.metadata;
  const verdictChanges = compareStandings(before ? standingsOf(before.rules.verdicts) : new Map(), standingsOf(after.rules.verdicts));
  // A refused ruler gets nothing written: its pods keep the running files, so there is nothing to compare with.
  const files = after.problems.length > 0 ? [] : compareFiles(`${namespace}/${name}`, beforeRendered ? filesOf(beforeRendered) : new Map(), filesOf(afterRendered), (text) => redactSecretValues(text, secrets));
  const problemsBefore = before?.problems ?? [];
  const problemsAfter = after.problems;
  const rejectedAfter = after.rules.verdicts
    .filter((verdict) => verdict.selected && !verdict.accepted)
    .map((verdict) => `${verdict.resource.namespace}/${verdict.resource.name}`);
  return {
    thanosRuler: { kind: 'ThanosRuler', namespace, name },
    ...configurationChanges(before !== undefined, { problemsBefore, problemsAfter, verdictChanges, files }),
    rejectedAfter,
  };
}

function standingsOf(verdicts: readonly Verdict[]): Standings {
  return new Map(verdicts.map((verdict) => {
    const ref: ResourceRef = verdict.resource;
    return [standingKey(ref), { resource: ref, standing: standingOf(verdict) }];
  }));
}

/** The files of a rendering, by their path (a rule file's name does not change with its content). */
function filesOf({ thanosRuler, rendering }: Rendered): FilesByKey {
  return new Map(Object.entries(thanosRulerFiles(thanosRuler, rendering)).map(([path, text]) => [path, { path, text }]));
}
