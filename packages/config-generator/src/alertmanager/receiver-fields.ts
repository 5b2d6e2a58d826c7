/**
 * Reading and checking the fields of an AlertmanagerConfig receiver, as every notifier does: Secret and ConfigMap
 * keys read from the object's own namespace only, URLs and durations checked as Alertmanager parses them when it
 * loads the file, fields Alertmanager takes from the `global` section, and each problem recorded with its field path.
 * A field with a problem is left out of the output and the caller rejects the object; a message never quotes a
 * Secret's value.
 */
import type { AlertmanagerConfigReceiver, ConfigMapKeySelector, SecretKeySelector } from '@promop/crds';
import { parseDuration } from '@promop/prometheus-lang';
import type { Findings } from '../findings.ts';
import { sortedByKey } from '../go-map-order.ts';
import type { KeyLookup, KeyReference, SecretStore } from '../secret-store.ts';
import { goUrlHostError } from '../values/go-url.ts';
import { formatModelDuration } from './model-duration.ts';

/** What rendering one receiver needs. */
export interface ReceiverContext {
  /** The AlertmanagerConfig's namespace: every Secret/ConfigMap is read from it only. */
  namespace: string;
  /** The field path of this receiver, e.g. `spec.receivers[2]`, for findings. */
  path: string;
  secrets: SecretStore;
  findings: Findings;
  /** The receiver name as written in the generated config (the caller computes `<namespace>/<object>/<receiver>`). */
  name: string;
  /**
   * The `global` section of the configuration the receiver goes into, when known: a notifier without a field
   * Alertmanager takes from it (an SMTP smarthost, a Slack URL, an API key…) is a problem unless it is there,
   * since Alertmanager would refuse the whole file. Undefined: not checked.
   */
  globals?: Readonly<Record<string, unknown>>;
  /** Where TLS material goes: file name → content (the caller keeps it only if the object is accepted). */
  tlsAssets: Record<string, string>;
}

/** The AlertmanagerConfig's spec of one notifier kind, e.g. `NotifierSpec<'slackConfigs'>`. */
export type NotifierSpec<K extends keyof AlertmanagerConfigReceiver> = NonNullable<AlertmanagerConfigReceiver[K]>[number];
/** The HTTP client settings every notifier but email takes. */
export type HttpConfig = NonNullable<NotifierSpec<'webhookConfigs'>['httpConfig']>;
type KeyValue = NonNullable<NotifierSpec<'pagerdutyConfigs'>['details']>[number];
/** A piece of Alertmanager's configuration as written, keys in the order of upstream's config structs. */
export type Output = Record<string, unknown>;

/** The field reading and checks every notifier of a receiver uses, problems going to `context.findings`. */
export class ReceiverFields {
  protected readonly context: ReceiverContext;

  constructor(context: ReceiverContext) {
    this.context = context;
  }

  /** A problem at `path` when the field is unset and the configuration's global section has none of `globalKeys`. */
  needsGlobal(value: unknown, path: string, globalKeys: readonly string[], what: string): void {
    const globals = this.context.globals;
    if (globals === undefined || (value !== undefined && value !== '')) return;
    if (globalKeys.some((key) => typeof globals[key] === 'string' && globals[key] !== '')) return;
    this.problem(path, `${what} is required: the platform's configuration has no global ${globalKeys.join(' or ')} to fall back on`);
  }

  /**
   * A `...File` field names a file of the Alertmanager container, which holds the generated configuration with
   * every team's credentials: with a URL of its choosing (Telegram's apiURL) a team could send that file anywhere.
   * prometheus-operator passes these fields through; promop refuses them (docs/compatibility.md).
   */
  refuseFile(file: string | undefined, path: string, secretField: string): void {
    if (file !== undefined) this.problem(path, `reads a file of the Alertmanager container, where every team's credentials are; give the value from a Secret of this namespace with ${secretField}`);
  }

  /** A Secret key's value, or undefined (with a problem) when it is missing. `optional` does not make it so: upstream needs it. */
  secret(ref: SecretKeySelector | undefined, path: string): string | undefined {
    return ref && this.found(this.context.secrets.secretKey(this.context.namespace, required(ref), path));
  }

  /** A ConfigMap key's value, or undefined (with a problem) when it is missing; as `secret`, `optional` does not make it so. */
  configMapValue(ref: ConfigMapKeySelector | undefined, path: string): string | undefined {
    return ref && this.found(this.context.secrets.configMapKey(this.context.namespace, required(ref), path));
  }

  /** The value looked up, or undefined with the lookup's problem recorded. */
  private found(lookup: KeyLookup): string | undefined {
    if (lookup.ok) return lookup.value;
    this.context.findings.add(lookup.problem);
    return undefined;
  }

  /** A credential Alertmanager cannot use empty (Pushover keys, Telegram's bot token). */
  nonEmptySecret(ref: SecretKeySelector | undefined, path: string): string | undefined {
    const value = this.secret(ref, path);
    if (ref && value === '') this.problem(path, `key "${ref.key}" of Secret "${ref.name ?? ''}" is empty`);
    return value || undefined;
  }

  /** A URL read from a Secret, checked as Alertmanager reads it; the message never shows it. */
  secretUrl(ref: SecretKeySelector | undefined, path: string, trim: boolean): string | undefined {
    const raw = this.secret(ref, path);
    if (raw === undefined || !ref) return undefined;
    const value = trim ? raw.trim() : raw;
    const reason = urlReason(value, ['http', 'https'], true);
    if (reason) {
      this.problem(path, `key "${ref.key}" of Secret "${ref.name ?? ''}" does not hold a URL Alertmanager can use: ${reason}`);
      return undefined;
    }
    return value;
  }

  /** An http(s) URL Alertmanager parses when it loads the configuration (upstream's ValidateURL). */
  checkUrl(url: string | undefined, path: string): void {
    if (!url) return;
    const reason = urlReason(url, ['http', 'https']);
    if (reason) this.problem(path, `"${url}" is not a URL Alertmanager can use: ${reason}`);
  }

  /** Like checkUrl, but a value with `{{` is a template Alertmanager expands when it sends, and is not checked here. */
  checkTemplateUrl(url: string | undefined, path: string): void {
    if (url && !url.includes('{{')) this.checkUrl(url, path);
  }

  /** A Prometheus duration in model.Duration's own form (`90s` is written `1m30s`), as upstream writes it. */
  duration(value: string | undefined, path: string): string | undefined {
    if (value === undefined || value === '') return undefined;
    const ms = parseDuration(value);
    if (ms === undefined) {
      this.problem(path, `"${value}" is not a duration like 30s or 1m`);
      return undefined;
    }
    return formatModelDuration(ms);
  }

  /** A problem at `path`: the caller rejects the object. */
  problem(path: string, message: string): void {
    this.context.findings.problem(path, message);
  }

  /** A warning: something the object asks for is ignored, the object is accepted. */
  warn(message: string): void {
    this.context.findings.warn(message);
  }
}

/** `ref` without `optional`: prometheus-operator requires every key a receiver names, optional or not. */
function required<T extends KeyReference>(ref: T): T {
  return ref.optional ? { ...ref, optional: false } : ref;
}

/** A copy of `object` without undefined, null, empty strings, empty lists and empty mappings. */
export function compact(object: Output): Output {
  const out: Output = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) continue;
    out[key] = value;
  }
  return out;
}

/** Key/value pairs as a map in Go's key order; a later pair replaces an earlier one with the same key, as upstream. */
export function keyValues(pairs: readonly KeyValue[] | undefined): Record<string, string> | undefined {
  if (!pairs || pairs.length === 0) return undefined;
  const map: Record<string, string> = {};
  for (const pair of pairs) map[pair.key] = pair.value;
  return sortedByKey(map);
}

/**
 * Why Alertmanager would refuse `url` (its config URL type: Go's url.Parse, an allowed scheme and a host), or
 * undefined. With `secret`, the reason names no part of the value.
 */
export function urlReason(url: string, schemes: readonly string[], secret = false): string | undefined {
  // Upstream reads the value through a JSON string first: a quote, a backslash or a control character breaks it.
  if (/["\\\u0000-\u001f]/.test(url)) return 'it contains a quote, a backslash or a control character';
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (!scheme || !schemes.includes(scheme)) return `the scheme must be ${schemes.join(', ').replace(/, ([^,]*)$/, ' or $1')}`;
  const authority = url.slice(scheme.length + 1).startsWith('//') ? (url.slice(scheme.length + 3).split(/[/?#]/)[0] ?? '') : '';
  const host = authority.slice(authority.lastIndexOf('@') + 1).replace(/:\d*$/, '');
  if (host === '') return 'it has no host';
  const hostError = goUrlHostError(url);
  if (hostError) return secret ? 'Go cannot parse its host' : hostError;
  return undefined;
}
