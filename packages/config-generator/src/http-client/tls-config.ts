/**
 * `tlsConfig` → `tls_config`. Material referenced from Secrets/ConfigMaps becomes files of the
 * tls-assets Secret (named as prometheus-operator names them) and the config points at them
 * under CERTS_DIR; `caFile`/`certFile`/`keyFile` paths are kept as written.
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import type { TLSConfig } from '@promop/crds';
import { CERTS_DIR, tlsAssetFileName } from '../pod-layout.ts';
import type { HttpClientContext } from './render-context.ts';
import { supports } from './render-context.ts';
import { isReferenceSet, readSecretKey, readSecretOrConfigMap } from './secret-refs.ts';

const TLS_VERSIONS = ['TLS10', 'TLS11', 'TLS12', 'TLS13'];

/** The file fields a TLS config may carry: they read the Prometheus pod's file system. */
export function tlsFilePaths(tls: TLSConfig): Array<{ field: 'caFile' | 'certFile' | 'keyFile'; value: string }> {
  const files: Array<{ field: 'caFile' | 'certFile' | 'keyFile'; value: string }> = [];
  if (tls.caFile) files.push({ field: 'caFile', value: tls.caFile });
  if (tls.certFile) files.push({ field: 'certFile', value: tls.certFile });
  if (tls.keyFile) files.push({ field: 'keyFile', value: tls.keyFile });
  return files;
}

/**
 * Validates and renders a TLS config (`TLSConfig`, or `SafeTLSConfig`, which lacks the file fields), recording TLS files in `ctx.tlsAssets`. Returns undefined
 * when a problem was recorded. PEM material is parsed (as upstream does) so a broken CA or a
 * certificate that does not match its key is reported on the resource, not by a failing reload.
 */
export function renderTlsConfig(tls: TLSConfig, path: string, ctx: HttpClientContext): Record<string, unknown> | undefined {
  const before = ctx.findings.problems.length;
  const hasCert = isReferenceSet(tls.cert) || !!tls.certFile;
  const hasKey = tls.keySecret !== undefined || !!tls.keyFile;
  if (isReferenceSet(tls.ca) && tls.caFile) ctx.findings.problem(path, 'ca and caFile are mutually exclusive');
  if (isReferenceSet(tls.cert) && tls.certFile) ctx.findings.problem(path, 'cert and certFile are mutually exclusive');
  if (tls.keySecret && tls.keyFile) ctx.findings.problem(path, 'keySecret and keyFile are mutually exclusive');
  if (hasCert && !hasKey) ctx.findings.problem(path, 'a client certificate (cert or certFile) needs a client key (keySecret or keyFile)');
  if (hasKey && !hasCert) ctx.findings.problem(path, 'a client key (keySecret or keyFile) needs a client certificate (cert or certFile)');
  for (const field of ['minVersion', 'maxVersion'] as const) {
    const value = tls[field];
    if (value !== undefined && !TLS_VERSIONS.includes(value)) {
      ctx.findings.problem(`${path}.${field}`, `${field} must be one of ${TLS_VERSIONS.join(', ')}, not "${value}"`);
    }
  }
  if (tls.minVersion && tls.maxVersion && TLS_VERSIONS.indexOf(tls.maxVersion) >= 0 && TLS_VERSIONS.indexOf(tls.maxVersion) < TLS_VERSIONS.indexOf(tls.minVersion)) {
    ctx.findings.problem(path, `maxVersion ${tls.maxVersion} is lower than minVersion ${tls.minVersion}`);
  }

  const rendered: Record<string, unknown> = {};
  if (tls.insecureSkipVerify !== undefined) rendered.insecure_skip_verify = tls.insecureSkipVerify;

  let certificate: X509Certificate | undefined;
  let privateKey: KeyObject | undefined;
  if (isReferenceSet(tls.ca)) {
    const ca = readSecretOrConfigMap(tls.ca, `${path}.ca`, ctx);
    if (ca) {
      if (parseCertificate(ca.value) === undefined) ctx.findings.problem(`${path}.ca`, `${describe(ca)} does not hold a PEM-encoded certificate`);
      rendered.ca_file = storeAsset(ca, ctx);
    }
  }
  if (isReferenceSet(tls.cert)) {
    const cert = readSecretOrConfigMap(tls.cert, `${path}.cert`, ctx);
    if (cert) {
      certificate = parseCertificate(cert.value);
      if (certificate === undefined) ctx.findings.problem(`${path}.cert`, `${describe(cert)} does not hold a PEM-encoded certificate`);
      rendered.cert_file = storeAsset(cert, ctx);
    }
  }
  if (tls.keySecret) {
    const value = readSecretKey(tls.keySecret, `${path}.keySecret`, ctx);
    if (value !== undefined) {
      const key = { source: 'secret' as const, name: tls.keySecret.name ?? '', key: tls.keySecret.key, value };
      privateKey = parsePrivateKey(value);
      if (privateKey === undefined) ctx.findings.problem(`${path}.keySecret`, `${describe(key)} does not hold a PEM-encoded private key`);
      rendered.key_file = storeAsset(key, ctx);
    }
  }
  if (certificate && privateKey && !certificate.checkPrivateKey(privateKey)) {
    ctx.findings.problem(`${path}.keySecret`, 'the private key does not match the client certificate');
  }
  if (tls.serverName) rendered.server_name = tls.serverName;
  if (tls.minVersion !== undefined && supports(ctx, '2.35.0', `${path}.minVersion`, 'min_version')) rendered.min_version = tls.minVersion;
  if (tls.maxVersion !== undefined && supports(ctx, '2.41.0', `${path}.maxVersion`, 'max_version')) rendered.max_version = tls.maxVersion;
  if (tls.caFile) rendered.ca_file = tls.caFile;
  if (tls.certFile) rendered.cert_file = tls.certFile;
  if (tls.keyFile) rendered.key_file = tls.keyFile;
  return ctx.findings.problems.length === before ? rendered : undefined;
}

function storeAsset(resolved: { source: 'secret' | 'configMap'; name: string; key: string; value: string }, ctx: HttpClientContext): string {
  const file = tlsAssetFileName(resolved.source, ctx.namespace, resolved.name, resolved.key);
  ctx.tlsAssets[file] = resolved.value;
  return `${ctx.certsDir ?? CERTS_DIR}/${file}`;
}

function describe(resolved: { source: 'secret' | 'configMap'; name: string; key: string }): string {
  return `key "${resolved.key}" of ${resolved.source === 'secret' ? 'Secret' : 'ConfigMap'} "${resolved.name}"`;
}

/** The first certificate of a PEM text, or undefined when there is none Node can read. */
export function parseCertificate(pem: string): X509Certificate | undefined {
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) return undefined;
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/** A PEM private key, or undefined when there is none Node can read. */
export function parsePrivateKey(pem: string): KeyObject | undefined {
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) return undefined;
  try {
    return createPrivateKey(pem);
  } catch {
    return undefined;
  }
}
