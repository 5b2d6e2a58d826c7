/**
 * What a ThanosRuler is made into from a set of objects: its rule files (the generator's thanos-ruler module, one
 * verdict per PrometheusRule), the remote write file of a stateless ruler (the generator's, with credentials and TLS
 * material from the ruler's namespace) and the `thanos rule` command (thanos-ruler-children.ts). Its reconciler
 * writes it, and `promop render`, `explain` and `diff` show it, so the four judge a ThanosRuler alike. Pure.
 */
import {
  generateThanosRulerRemoteWrite, generateThanosRulerRules,
  type FieldProblem, type KeyValueSource, type NamespaceInfo, type RenderMemo, type ThanosRulerRemoteWrite, type ThanosRulerRules,
} from '@promop/config-generator';
import type { PrometheusRule, ThanosRuler } from '@promop/crds';
import { alertmanagerPodTls } from '../alertmanager/alertmanager-tls.ts';
import type { References } from '../kube/referenced-objects.ts';
import type { PodTls } from '../prometheus-client/pod-tls.ts';
import { referencedObjects } from '../reconcile/references.ts';
import type { BuildResult } from '../workload/build-result.ts';
import { MAX_SECRET_DATA_BYTES, formatBytes, secretDataBytes } from '../workload/secret-size.ts';
import { REMOTE_WRITE_FILE, thanosRulerCommand, THANOS_RULER_TLS_ASSETS_DIR, THANOS_RULES_DIR, type ThanosRulerCommand } from './thanos-ruler-children.ts';

/** What a ThanosRuler is rendered from besides itself. */
export interface ThanosRulerSources {
  /** Every PrometheusRule: the ruler's selectors pick among them. */
  prometheusRules: readonly PrometheusRule[];
  namespaces: readonly NamespaceInfo[];
  /** The Secrets and ConfigMaps its remote write endpoints reference (thanosRulerReferences), those that exist. */
  secrets: readonly KeyValueSource[];
  configMaps: readonly KeyValueSource[];
  /** Renderings kept from previous calls (the reconciler's); the output is the same without it. */
  memo?: RenderMemo;
}

/** A ThanosRuler rendered. */
export interface ThanosRulerRendering {
  rules: ThanosRulerRules;
  remoteWrite: ThanosRulerRemoteWrite;
  command: BuildResult<ThanosRulerCommand>;
  /** Why promop refuses to run the ruler as written (it then writes nothing); empty when it runs it. */
  problems: FieldProblem[];
  /** Fields left out for its Thanos release. */
  warnings: string[];
}

/** Renders `thanosRuler` from `sources`. */
export function renderThanosRuler(thanosRuler: ThanosRuler, sources: ThanosRulerSources): ThanosRulerRendering {
  const rules = generateThanosRulerRules({
    thanosRuler,
    prometheusRules: sources.prometheusRules,
    namespaces: sources.namespaces,
    ...(sources.memo ? { memo: sources.memo } : {}),
  });
  const remoteWrite = generateThanosRulerRemoteWrite({ thanosRuler, secrets: sources.secrets, configMaps: sources.configMaps, certsDir: THANOS_RULER_TLS_ASSETS_DIR });
  const command = thanosRulerCommand(thanosRuler);
  const bytes = secretDataBytes(remoteWrite.tlsAssets);
  const tooLarge: FieldProblem[] = bytes > MAX_SECRET_DATA_BYTES
    ? [{ path: 'spec.remoteWrite', message: `the TLS material its endpoints reference is ${formatBytes(bytes)}, more than the 1 MiB a Secret can hold` }]
    : [];
  return {
    rules, remoteWrite, command,
    problems: [...rules.problems, ...(command.ok ? [] : command.problems), ...remoteWrite.problems, ...tooLarge],
    warnings: remoteWrite.warnings,
  };
}

/**
 * The files of a rendering by their path under the ruler's directory: `rules/<ConfigMap>/<file>` for each rule file
 * (the pods read them under THANOS_RULES_DIR/<ConfigMap>/) and, for a stateless ruler, `remote-write.yaml` and the
 * `tls-assets/<file>` it names. None when the ruler is refused, as nothing is written then.
 */
export function thanosRulerFiles(thanosRuler: ThanosRuler, rendering: ThanosRulerRendering): Record<string, string> {
  if (rendering.problems.length > 0) return {};
  const files: Record<string, string> = {};
  for (const configMap of rendering.rules.ruleConfigMaps) {
    for (const [name, text] of Object.entries(configMap.files)) files[`rules/${configMap.name}/${name}`] = text;
  }
  if (thanosRuler.spec?.remoteWrite?.length) {
    files[REMOTE_WRITE_FILE] = rendering.remoteWrite.text;
    for (const [name, text] of Object.entries(rendering.remoteWrite.tlsAssets)) files[`tls-assets/${name}`] = text;
  }
  return files;
}

/** The rule files as the pods see them: absolute path → text (what the reloader checks the pods loaded). */
export function thanosRulerMountedRuleFiles(rules: Pick<ThanosRulerRules, 'ruleConfigMaps'>): Record<string, string> {
  return Object.fromEntries(rules.ruleConfigMaps.flatMap((each) => Object.entries(each.files).map(([file, text]) => [`${THANOS_RULES_DIR}/${each.name}/${file}`, text])));
}

/**
 * The Secrets and ConfigMaps (`namespace/name`) the remote write files of `thanosRulers` are built from, and the
 * serving certificate of their web server (which promop pins when it calls the pods), each in its ruler's
 * namespace. Nothing else of a ruler is read: its other Secret keys are mounted by the kubelet.
 */
export function thanosRulerReferences(thanosRulers: readonly ThanosRuler[]): References {
  const read = thanosRulers
    .filter((thanosRuler) => thanosRuler.spec?.remoteWrite?.length || thanosRuler.spec?.web?.tlsConfig?.cert)
    .map((thanosRuler) => ({
      ...thanosRuler,
      spec: { remoteWrite: thanosRuler.spec?.remoteWrite, web: { tlsConfig: { cert: thanosRuler.spec?.web?.tlsConfig?.cert } } },
    }) as ThanosRuler);
  return referencedObjects({ thanosRulers: read });
}

/**
 * How promop calls the pods of a ruler that serves HTTPS (undefined: plain HTTP): the serving certificate to pin,
 * and whether they require a client certificate. Alertmanager's rule (alertmanager-tls.ts), for the same file.
 */
export function thanosRulerPodTls(command: ThanosRulerCommand, namespace: string, sources: Pick<ThanosRulerSources, 'secrets' | 'configMaps'>): PodTls | undefined {
  return alertmanagerPodTls({ web: command.web, cluster: undefined }, namespace, sources);
}
