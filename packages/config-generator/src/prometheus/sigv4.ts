/**
 * AWS Signature V4 for remote write and alertmanagers: `sigv4: {region, access_key, secret_key,
 * profile, role_arn, use_fips_sts_endpoint}` with the keys inlined from Secrets.
 */
import type { Sigv4 } from '@promop/crds';
import { readSecretKey, supports } from '../http-client/index.ts';
import type { PrometheusRenderContext } from './render-context.ts';

/** Renders the sigv4 block. Access and secret key only make sense together. */
export function renderSigv4(sigv4: Sigv4, path: string, context: PrometheusRenderContext): Record<string, unknown> {
  const rendered: Record<string, unknown> = {};
  if (sigv4.region) rendered.region = sigv4.region;
  if (sigv4.accessKey && !sigv4.secretKey) context.findings.problem(`${path}.secretKey`, 'secretKey is required when accessKey is set');
  if (sigv4.secretKey && !sigv4.accessKey) context.findings.problem(`${path}.accessKey`, 'accessKey is required when secretKey is set');
  if (sigv4.accessKey && sigv4.secretKey) {
    const accessKey = readSecretKey(sigv4.accessKey, `${path}.accessKey`, context);
    const secretKey = readSecretKey(sigv4.secretKey, `${path}.secretKey`, context);
    if (accessKey && secretKey) {
      rendered.access_key = accessKey;
      rendered.secret_key = secretKey;
    }
  }
  if (sigv4.profile) rendered.profile = sigv4.profile;
  if (sigv4.roleArn) rendered.role_arn = sigv4.roleArn;
  if (sigv4.useFIPSSTSEndpoint !== null && sigv4.useFIPSSTSEndpoint !== undefined && supports(context, '2.54.0', `${path}.useFIPSSTSEndpoint`, 'use_fips_sts_endpoint')) {
    rendered.use_fips_sts_endpoint = sigv4.useFIPSSTSEndpoint;
  }
  return rendered;
}
