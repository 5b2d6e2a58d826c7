/** `remote_read` from `spec.remoteRead`, in prometheus-operator's key order. */
import type { RemoteReadSpec } from '@promop/crds';
import { sortedByKey } from '../go-map-order.ts';
import { supports } from '../http-client/index.ts';
import { appendRemoteStorageClient, renderClientPieces } from './client-auth.ts';
import { checkHttpUrl } from '../values/go-url.ts';
import { isPresent } from '../is-present.ts';
import { isValidLabelName, labelNameRule } from '../values/prometheus-names.ts';
import { checkRemoteHeaders, checkUniqueNames } from './remote-endpoint-checks.ts';
import type { PrometheusRenderContext } from './render-context.ts';

/** Renders every remote read endpoint. */
export function buildRemoteReadConfigs(remoteReads: readonly RemoteReadSpec[], context: PrometheusRenderContext): Array<Record<string, unknown>> {
  checkUniqueNames(remoteReads, 'spec.remoteRead', context);
  return remoteReads.map((spec, index) => renderRemoteRead(spec, `spec.remoteRead[${index}]`, context));
}

function renderRemoteRead(spec: RemoteReadSpec, path: string, context: PrometheusRenderContext): Record<string, unknown> {
  checkHttpUrl(spec.url, `${path}.url`, context);
  const out: Record<string, unknown> = { url: spec.url ?? '' };
  if (spec.remoteTimeout) out.remote_timeout = spec.remoteTimeout;
  checkRemoteHeaders(spec.headers, `${path}.headers`, context);
  if (spec.headers && Object.keys(spec.headers).length > 0 && supports(context, '2.26.0', `${path}.headers`, 'headers')) out.headers = sortedByKey(spec.headers);
  if (spec.name && supports(context, '2.15.0', `${path}.name`, 'name')) out.name = spec.name;
  for (const label of Object.keys(spec.requiredMatchers ?? {})) {
    // Read as a label set: Prometheus refuses the file for a name it does not accept.
    if (!isValidLabelName(label, context.nameValidationScheme)) {
      context.findings.problem(`${path}.requiredMatchers.${label}`, `"${label}" is not a label name this Prometheus accepts (${labelNameRule(context.nameValidationScheme)})`);
    }
  }
  if (spec.requiredMatchers && Object.keys(spec.requiredMatchers).length > 0) out.required_matchers = sortedByKey(spec.requiredMatchers);
  if (spec.readRecent) out.read_recent = true;

  appendRemoteStorageClient(out, renderClientPieces(spec, path, context));
  if (isPresent(spec.followRedirects) && supports(context, '2.26.0', `${path}.followRedirects`, 'follow_redirects')) {
    out.follow_redirects = spec.followRedirects;
  }
  if (isPresent(spec.filterExternalLabels) && supports(context, '2.34.0', `${path}.filterExternalLabels`, 'filter_external_labels')) {
    out.filter_external_labels = spec.filterExternalLabels;
  }
  return out;
}
