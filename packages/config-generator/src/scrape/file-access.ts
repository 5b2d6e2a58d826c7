/**
 * `arbitraryFSAccessThroughSMs.deny`: a team's object may not make Prometheus read files of its own container
 * (the ServiceAccount token, other teams' TLS keys, mounted Secrets). prometheus-operator applies it to
 * ServiceMonitor endpoints only; promop applies the same check to every file path a team can write in any kind
 * it renders: TLS `caFile`/`certFile`/`keyFile` (the OAuth2 client's too), `authorization.credentialsFile`,
 * `bearerTokenFile`, and a ScrapeConfig's `fileSDConfigs`. PodMonitor, Probe and ScrapeConfig clients have no such
 * fields in their CRDs, so there the check only catches objects that reach the generator unpruned (`promop
 * render` of files); the renderer writes any it is given, which is why the check does not trust the schema.
 * `password_file` and `client_secret_file` are never written from a team's object, whatever it holds.
 * Scrape classes are the Prometheus owner's and may name files.
 */
import type { TLSConfig } from '@promop/crds';
import { tlsFilePaths } from '../http-client/index.ts';
import type { FieldProblem } from '../model.ts';
import { OPAQUE_DISCOVERY_FIELDS } from './discovery/registry.ts';

/** The one reason every kind gives for a file path under the deny flag. */
export const FILE_ACCESS_DENIED = 'reading files of the Prometheus container is forbidden by this Prometheus (arbitraryFSAccessThroughSMs.deny)';

/** The file fields of an HTTP client block, read loosely: the "safe" CRD types lack them but an object may carry them. */
interface ClientFiles {
  bearerTokenFile?: unknown;
  tlsConfig?: TlsFiles;
  authorization?: { credentialsFile?: unknown };
  oauth2?: { tlsConfig?: TlsFiles };
}

type TlsFiles = Pick<TLSConfig, 'caFile' | 'certFile' | 'keyFile'>;

function isSet(value: unknown): boolean {
  return typeof value === 'string' ? value !== '' : value !== undefined && value !== null;
}

function tlsFileProblems(tls: TlsFiles | undefined, path: string): FieldProblem[] {
  if (!tls || typeof tls !== 'object') return [];
  return tlsFilePaths(tls).map((file) => ({ path: `${path}.${file.field}`, message: FILE_ACCESS_DENIED }));
}

/**
 * A problem for every file of the Prometheus container the HTTP client block at `path` names (an endpoint, a
 * Probe or ScrapeConfig spec, a discovery config): `bearerTokenFile`, TLS files, `authorization.credentialsFile`,
 * the OAuth2 client's TLS files.
 */
export function clientFileProblems(client: object, path: string): FieldProblem[] {
  const c = client as ClientFiles;
  const problems: FieldProblem[] = [];
  if (isSet(c.bearerTokenFile)) problems.push({ path: `${path}.bearerTokenFile`, message: FILE_ACCESS_DENIED });
  problems.push(...tlsFileProblems(c.tlsConfig, `${path}.tlsConfig`));
  if (c.authorization && isSet(c.authorization.credentialsFile)) problems.push({ path: `${path}.authorization.credentialsFile`, message: FILE_ACCESS_DENIED });
  problems.push(...tlsFileProblems(c.oauth2?.tlsConfig, `${path}.oauth2.tlsConfig`));
  return problems;
}

/** The ScrapeConfig's own client, every discovery client, and every file discovery (which reads files by design). */
export function scrapeConfigFileProblems(spec: {
  fileSDConfigs?: readonly unknown[];
  httpSDConfigs?: readonly object[];
  kubernetesSDConfigs?: readonly object[];
  consulSDConfigs?: readonly object[];
}): FieldProblem[] {
  const problems = clientFileProblems(spec, 'spec');
  (spec.fileSDConfigs ?? []).forEach((_, i) => problems.push({ path: `spec.fileSDConfigs[${i}].files`, message: FILE_ACCESS_DENIED }));
  for (const field of ['httpSDConfigs', 'kubernetesSDConfigs', 'consulSDConfigs'] as const) {
    (spec[field] ?? []).forEach((sd, i) => problems.push(...clientFileProblems(sd, `spec.${field}[${i}]`)));
  }
  for (const field of OPAQUE_DISCOVERY_FIELDS) {
    const list = (spec as Record<string, unknown>)[field];
    if (!Array.isArray(list)) continue;
    list.forEach((sd, i) => {
      if (typeof sd === 'object' && sd !== null) problems.push(...clientFileProblems(sd, `spec.${field}[${i}]`));
    });
  }
  return problems;
}
