/**
 * What one discovery kind whose CRD list is opaque needs to be rendered: its spec field and Prometheus key, the
 * first Prometheus release that knows it, its own field rules, the client fields it has, and how it writes an
 * entry in prometheus-operator's key order. `opaqueKind` does the reading and checking they all share.
 */
import { isAtLeast } from '../../prometheus-version.ts';
import { goUrlHostError } from '../../values/go-url.ts';
import type { SecretKeySelector } from '@promop/crds';
import { readSecretKey, type HttpClientContext } from '../../http-client/index.ts';
import { readOpaqueEntry, type FieldRules, type FieldsOf } from './opaque-fields.ts';
import { checkSdClient, sdClientWriter, type ClientField, type SdClientWriter } from './sd-client.ts';

type Entry = Record<string, unknown>;

/** A discovery kind promop renders from an opaque CRD list. */
export interface DiscoveryKind {
  /** The ScrapeConfig spec field, e.g. `ec2SDConfigs`. */
  field: string;
  /** The Prometheus key, e.g. `ec2_sd_configs`. */
  key: string;
  /** The name users know it by, in messages. */
  name: string;
  /** The first Prometheus release with this discovery: older ones refuse the whole file. */
  since: string;
  /** The entry at `path` as Prometheus reads it, or undefined when a problem was recorded. */
  render(entry: unknown, path: string, hc: HttpClientContext): Entry | undefined;
}

/**
 * Records a problem at `path` when the configured Prometheus is older than `minimum`: used where an older
 * Prometheus would refuse the file or silently discover something else, so dropping the field is no answer.
 */
export function requireVersion(hc: HttpClientContext, minimum: string, path: string, what: string): boolean {
  if (isAtLeast(hc.version, minimum)) return true;
  hc.findings.problem(path, `${what} needs Prometheus v${minimum} or later (configured: ${hc.version.text})`);
  return false;
}

/** Sets `entry[key]` when `value` is set. */
export function put(entry: Entry, key: string, value: unknown): void {
  if (value !== undefined) entry[key] = value;
}

/** A kind read with `rules` (plus the client fields it lists) and written by `write` in upstream's key order. */
export function opaqueKind<R extends FieldRules>(kind: {
  field: string;
  key: string;
  name: string;
  since: string;
  rules: R;
  required: readonly (keyof R & string)[];
  clientFields: readonly ClientField[];
  write(fields: FieldsOf<R>, client: SdClientWriter, path: string, hc: HttpClientContext): Entry;
}): DiscoveryKind {
  return {
    field: kind.field,
    key: kind.key,
    name: kind.name,
    since: kind.since,
    render(entry, path, hc) {
      const read = readOpaqueEntry(entry, { kind: kind.name, rules: kind.rules, required: kind.required, clientFields: kind.clientFields }, path, hc.findings);
      const client = read && checkSdClient(read.client, path, hc);
      if (!read || !client) return undefined;
      const before = hc.findings.problems.length;
      const rendered = kind.write(read.fields, sdClientWriter(client, path, hc), path, hc);
      return hc.findings.problems.length === before ? rendered : undefined;
    },
  };
}

/** The CRD's URL type (prometheus-operator's `URL`): an http or https URL. */
export const HTTP_URL_RULE = { regex: /^(http|https):\/\/.+$/, says: 'must be an http:// or https:// URL' };

/**
 * A server URL with a host Go's url.Parse accepts: Prometheus (Eureka) and prometheus-operator (Kuma, Nomad)
 * refuse one without a host, and Prometheus cannot dial a host Go refuses.
 */
export function checkServerUrl(url: string, path: string, hc: HttpClientContext): void {
  // The URL is not repeated: it may carry a password.
  if (/^https?:\/\/[/?#]/.test(url)) hc.findings.problem(path, 'the URL has no host');
  else {
    const hostError = goUrlHostError(url);
    if (hostError) hc.findings.problem(path, `is not a URL Prometheus can read: ${hostError}`);
  }
}

/**
 * The value of a Secret key in the ScrapeConfig's namespace that Prometheus refuses to load empty (OVHcloud's
 * application secret and consumer key, Scaleway's secret key): an empty value is a problem at `path`.
 */
export function readNonEmptySecret(ref: SecretKeySelector, path: string, hc: HttpClientContext): string | undefined {
  const value = readSecretKey(ref, path, hc);
  if (value === '') hc.findings.problem(path, 'the Secret key is empty, and Prometheus refuses an empty value here');
  return value;
}
