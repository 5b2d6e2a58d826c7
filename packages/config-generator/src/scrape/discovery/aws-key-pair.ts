/**
 * The AWS access key pair of EC2 and Lightsail discovery, both halves read from Secrets in the ScrapeConfig's
 * namespace and never echoed.
 */
import type { SecretKeySelector } from '@promop/crds';
import { readSecretKey, type HttpClientContext } from '../../http-client/index.ts';

/**
 * Writes `access_key` and `secret_key` when both are set. One without the other is a problem at the missing one:
 * prometheus-operator silently writes neither, and Prometheus would then sign with other credentials.
 */
export function appendAccessKeyPair(entry: Record<string, unknown>, keys: { accessKey?: SecretKeySelector; secretKey?: SecretKeySelector }, path: string, hc: HttpClientContext): void {
  if ((keys.accessKey === undefined) !== (keys.secretKey === undefined)) {
    hc.findings.problem(keys.accessKey ? `${path}.secretKey` : `${path}.accessKey`, 'accessKey and secretKey must be set together');
  } else if (keys.accessKey && keys.secretKey) {
    entry.access_key = readSecretKey(keys.accessKey, `${path}.accessKey`, hc) ?? '';
    entry.secret_key = readSecretKey(keys.secretKey, `${path}.secretKey`, hc) ?? '';
  }
}
