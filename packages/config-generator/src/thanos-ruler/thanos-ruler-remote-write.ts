/**
 * The remote write file of a stateless ThanosRuler (`spec.remoteWrite`), as prometheus-operator writes it for
 * `thanos rule --remote-write.config-file`: one `remote_write` section rendered by the same code as a Prometheus'
 * (prometheus/remote-write-config.ts), credentials and TLS material read from the ruler's own namespace. Upstream
 * renders every field at once (no Prometheus version applies) after clearing, per endpoint, what the ruler's Thanos
 * release cannot read; promop does the same with these differences, each because the upstream way breaks the ruler:
 * an authentication method Thanos lacks is refused rather than dropped (dropping it would send the samples without
 * credentials, or leave `azuread` without a method, which Thanos refuses at start), and TLS files are written under
 * the ruler's own certificate directory (upstream points them at the Prometheus one, which a ruler pod does not
 * have). Pure.
 */
import type { RemoteWriteSpec, ThanosRuler } from '@promop/crds';
import type { FieldProblem, KeyValueSource } from '../model.ts';
import { buildRemoteWriteConfigs } from '../prometheus/remote-write-config.ts';
import { createRenderContext } from '../prometheus/render-context.ts';
import { parsePrometheusVersion } from '../prometheus-version.ts';
import { SecretStore } from '../secret-store.ts';
import { toPrometheusYaml } from '../yaml-output.ts';
import { DEFAULT_THANOS_RULER_VERSION, parseThanosVersion, thanosVersionAtLeast, type ThanosReleaseVersion } from './thanos-ruler-rules.ts';

/** The first Thanos release with `--remote-write.config-file` (a stateless ruler). */
export const THANOS_REMOTE_WRITE_SINCE = 'v0.24.0';

/** Thanos reads metric and label names as UTF-8 from this release: write relabelings are checked that way from it. */
const THANOS_UTF8_NAMES_SINCE = 'v0.38.0';

/** What the remote write file is made from. */
export interface ThanosRulerRemoteWriteInput {
  thanosRuler: ThanosRuler;
  /** Secrets and ConfigMaps; only those of the ruler's namespace are read. */
  secrets: readonly KeyValueSource[];
  configMaps: readonly KeyValueSource[];
  /** Where the pod mounts the TLS assets: the `tls_config` file paths point there. */
  certsDir: string;
}

/** The remote write file and what it needs, or why it cannot be written. */
export interface ThanosRulerRemoteWrite {
  /** The file (`remote_write: []` without `spec.remoteWrite`, as upstream writes it). */
  text: string;
  /** TLS material the file names: file name under `certsDir` → PEM text. */
  tlsAssets: Record<string, string>;
  /** Each makes promop refuse the ruler. */
  problems: FieldProblem[];
  /** Fields left out of the file for the ruler's Thanos release. */
  warnings: string[];
}

/** A field upstream clears before rendering: on every release (`before` undefined) or on releases before `before`. */
interface ClearedField {
  path: readonly string[];
  before?: string;
}

/** Fields cleared with a warning, as upstream clears them (createOrUpdateRulerConfigSecret). */
const CLEARED_FIELDS: readonly ClearedField[] = [
  { path: ['azureAd', 'scope'] },
  { path: ['sigv4', 'externalId'] },
  { path: ['roundRobinDNS'], before: 'v0.38.0' },
  { path: ['messageVersion'], before: 'v0.37.0' },
  { path: ['queueConfig', 'sampleAgeLimit'], before: 'v0.32.0' },
  { path: ['noProxy'], before: 'v0.32.0' },
  { path: ['proxyFromEnvironment'], before: 'v0.32.0' },
  { path: ['proxyConnectHeader'], before: 'v0.32.0' },
  { path: ['tlsConfig', 'maxVersion'], before: 'v0.30.0' },
  { path: ['sendNativeHistograms'], before: 'v0.30.0' },
  { path: ['tlsConfig', 'minVersion'], before: 'v0.28.0' },
];

/** Azure AD authentication Thanos lacks: refused (upstream clears it). `before` undefined: no release has it. */
const REFUSED_AZURE_AD: readonly ClearedField[] = [
  { path: ['azureAd'], before: 'v0.31.0' },
  { path: ['azureAd', 'workloadIdentity'] },
  { path: ['azureAd', 'sdk'], before: 'v0.36.0' },
];

/** Renders the remote write file of `input.thanosRuler`. */
export function generateThanosRulerRemoteWrite(input: ThanosRulerRemoteWriteInput): ThanosRulerRemoteWrite {
  const { thanosRuler } = input;
  const remoteWrites = thanosRuler.spec?.remoteWrite ?? [];
  const empty = { text: toPrometheusYaml({ remote_write: [] }), tlsAssets: {}, problems: [], warnings: [] };
  if (remoteWrites.length === 0) return empty;
  // An unreadable version is the command's problem (thanos-ruler-children.ts); the file is judged for the default.
  const version = parseThanosVersion(thanosRuler.spec?.version) ?? parseThanosVersion(DEFAULT_THANOS_RULER_VERSION)!;
  if (!thanosVersionAtLeast(version, THANOS_REMOTE_WRITE_SINCE)) {
    return { ...empty, problems: [{ path: 'spec.remoteWrite', message: `needs Thanos ${THANOS_REMOTE_WRITE_SINCE} or later (this ruler runs ${version.text})` }] };
  }
  const problems: FieldProblem[] = [];
  const warnings: string[] = [];
  const endpoints = remoteWrites.map((endpoint, index) => {
    const at = `spec.remoteWrite[${index}]`;
    const copy = structuredClone(endpoint) as Record<string, unknown>;
    for (const refused of REFUSED_AZURE_AD) {
      if (lacks(version, refused) && valueAt(copy, refused.path) !== undefined) {
        problems.push({ path: `${at}.${refused.path.join('.')}`, message: `thanos rule ${version.text} cannot authenticate this way (${needs(refused)})` });
      }
    }
    const managedIdentity = (endpoint.azureAd?.managedIdentity ?? undefined) as { clientId?: string } | undefined;
    if (managedIdentity && !managedIdentity.clientId && !thanosVersionAtLeast(version, 'v0.40.0')) {
      problems.push({ path: `${at}.azureAd.managedIdentity.clientId`, message: `is required with Thanos older than v0.40.0 (this ruler runs ${version.text})` });
    }
    for (const cleared of CLEARED_FIELDS) {
      if (lacks(version, cleared) && clearAt(copy, cleared.path)) {
        warnings.push(`${at}.${cleared.path.join('.')}: ignored because thanos rule ${version.text} does not support it (${needs(cleared)})`);
      }
    }
    return copy as RemoteWriteSpec;
  });
  // Every field rendered as for the newest Prometheus, as upstream renders without a version.
  const prometheusVersion = parsePrometheusVersion(undefined)!;
  const context = createRenderContext(
    { namespace: thanosRuler.metadata.namespace ?? '', name: thanosRuler.metadata.name },
    prometheusVersion,
    thanosVersionAtLeast(version, THANOS_UTF8_NAMES_SINCE) ? 'utf8' : 'legacy',
    new SecretStore([...input.secrets], [...input.configMaps]),
  );
  const rendered = buildRemoteWriteConfigs(endpoints, { ...context, certsDir: input.certsDir });
  problems.push(...context.findings.problems);
  warnings.push(...context.findings.warnings);
  if (problems.length > 0) return { ...empty, problems, warnings };
  return { text: toPrometheusYaml({ remote_write: rendered }), tlsAssets: context.tlsAssets, problems, warnings };
}

function lacks(version: ThanosReleaseVersion, field: ClearedField): boolean {
  return field.before === undefined || !thanosVersionAtLeast(version, field.before);
}

function needs(field: ClearedField): string {
  return field.before === undefined ? 'no Thanos release supports it' : `needs ${field.before} or later`;
}

function valueAt(object: Record<string, unknown>, path: readonly string[]): unknown {
  let current: unknown = object;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current === null ? undefined : current;
}

/** Deletes the field at `path`; whether it was set. */
function clearAt(object: Record<string, unknown>, path: readonly string[]): boolean {
  const parent = valueAt(object, path.slice(0, -1));
  const key = path[path.length - 1]!;
  if (parent === undefined || parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, key)) return false;
  const present = (parent as Record<string, unknown>)[key] !== undefined && (parent as Record<string, unknown>)[key] !== null;
  delete (parent as Record<string, unknown>)[key];
  return present;
}
