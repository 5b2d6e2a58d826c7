/**
 * What a ThanosRuler is made into from a set of objects: its rule files (the generator's thanos-ruler module, one
 * verdict per PrometheusRule) and the `thanos rule` command (thanos-ruler-children.ts). Its reconciler writes it,
 * and `promop render`, `explain` and `diff` show it, so the four judge a ThanosRuler alike. Pure.
 */
import { generateThanosRulerRules, type FieldProblem, type NamespaceInfo, type RenderMemo, type ThanosRulerRules } from '@promop/config-generator';
import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import type { BuildResult } from '../workload/build-result.ts';
import { thanosRulerCommand, THANOS_RULES_DIR, type ThanosRulerCommand } from './thanos-ruler-children.ts';

/** What a ThanosRuler is rendered from besides itself. */
export interface ThanosRulerSources {
  /** Every PrometheusRule: the ruler's selectors pick among them. */
  prometheusRules: readonly PrometheusRule[];
  namespaces: readonly NamespaceInfo[];
  /** Renderings kept from previous calls (the reconciler's); the output is the same without it. */
  memo?: RenderMemo;
}

/** A ThanosRuler rendered. */
export interface ThanosRulerRendering {
  rules: ThanosRulerRules;
  command: BuildResult<ThanosRulerCommand>;
  /** Why promop refuses to run the ruler as written (it then writes nothing); empty when it runs it. */
  problems: FieldProblem[];
}

/** Renders `thanosRuler` from `sources`. */
export function renderThanosRuler(thanosRuler: ThanosRuler, sources: ThanosRulerSources): ThanosRulerRendering {
  const rules = generateThanosRulerRules({
    thanosRuler,
    prometheusRules: sources.prometheusRules,
    namespaces: sources.namespaces,
    ...(sources.memo ? { memo: sources.memo } : {}),
  });
  const command = thanosRulerCommand(thanosRuler);
  return { rules, command, problems: [...rules.problems, ...(command.ok ? [] : command.problems)] };
}

/**
 * The files of a rendering by their path under the ruler's directory: `rules/<ConfigMap>/<file>` for each rule file
 * (the pods read them under THANOS_RULES_DIR/<ConfigMap>/). None when the ruler is refused, as nothing is written then.
 */
export function thanosRulerFiles(rendering: ThanosRulerRendering): Record<string, string> {
  if (rendering.problems.length > 0) return {};
  const files: Record<string, string> = {};
  for (const configMap of rendering.rules.ruleConfigMaps) {
    for (const [name, text] of Object.entries(configMap.files)) files[`rules/${configMap.name}/${name}`] = text;
  }
  return files;
}

/** The rule files as the pods see them: absolute path → text (what the reloader checks the pods loaded). */
export function thanosRulerMountedRuleFiles(rules: Pick<ThanosRulerRules, 'ruleConfigMaps'>): Record<string, string> {
  return Object.fromEntries(rules.ruleConfigMaps.flatMap((each) => Object.entries(each.files).map(([file, text]) => [`${THANOS_RULES_DIR}/${each.name}/${file}`, text])));
}
