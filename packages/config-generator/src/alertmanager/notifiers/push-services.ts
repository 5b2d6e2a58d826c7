/**
 * The notifiers of a receiver that hand alerts to a push service → Alertmanager's `pushover_configs` (to phones) and
 * `sns_configs` (Amazon SNS: a topic, a phone number or a target).
 */
import { compact, type NotifierSpec, type Output } from '../receiver-fields.ts';
import type { ReceiverRenderers } from '../receiver-renderers.ts';
import { sortedByKey } from '../../go-map-order.ts';

/** A Pushover notifier → an item of `pushover_configs`. */
export function renderPushover(spec: NotifierSpec<'pushoverConfigs'>, path: string, r: ReceiverRenderers): Output {
  r.refuseFile(spec.userKeyFile, `${path}.userKeyFile`, 'userKey');
  r.refuseFile(spec.tokenFile, `${path}.tokenFile`, 'token');
  if (!spec.userKey && !spec.userKeyFile) r.problem(path, 'one of userKey or userKeyFile is required');
  if (!spec.token && !spec.tokenFile) r.problem(path, 'one of token or tokenFile is required');
  if (spec.html === true && spec.monospace === true) r.problem(path, 'html and monospace cannot both be set');
  r.checkTemplateUrl(spec.url, `${path}.url`);
  const userKey = r.nonEmptySecret(spec.userKey, `${path}.userKey`);
  const token = r.nonEmptySecret(spec.token, `${path}.token`);
  return compact({
    send_resolved: spec.sendResolved,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    user_key: userKey,
    token,
    title: spec.title,
    message: spec.message,
    url: spec.url,
    url_title: spec.urlTitle,
    ttl: spec.ttl,
    device: spec.device,
    sound: spec.sound,
    priority: spec.priority,
    retry: r.duration(spec.retry, `${path}.retry`),
    expire: r.duration(spec.expire, `${path}.expire`),
    html: spec.html,
    monospace: spec.monospace,
  });
}

/** An Amazon SNS notifier → an item of `sns_configs`. */
export function renderSns(spec: NotifierSpec<'snsConfigs'>, path: string, r: ReceiverRenderers): Output {
  const targets = [spec.topicARN, spec.phoneNumber, spec.targetARN].filter((target) => target !== undefined && target !== '');
  if (targets.length !== 1) r.problem(path, 'set exactly one of topicARN, phoneNumber or targetARN');
  r.checkTemplateUrl(spec.apiURL, `${path}.apiURL`);
  let sigv4: Output | undefined;
  if (spec.sigv4) {
    const s = spec.sigv4;
    if (s.externalId && !s.roleArn) r.problem(`${path}.sigv4.externalId`, 'externalId needs roleArn');
    // Upstream reads the keys only as a pair; one without the other is ignored (the AWS environment then decides).
    const withKeys = s.accessKey !== undefined && s.secretKey !== undefined;
    if (!withKeys && (s.accessKey || s.secretKey)) r.warn(`${path}.sigv4: accessKey and secretKey are used only together; the one given is ignored`);
    if (s.useFIPSSTSEndpoint !== undefined) r.warn(`${path}.sigv4.useFIPSSTSEndpoint: ignored, Alertmanager's SNS notifier has no such setting`);
    sigv4 = compact({
      region: s.region,
      access_key: withKeys ? r.secret(s.accessKey, `${path}.sigv4.accessKey`) : undefined,
      secret_key: withKeys ? r.secret(s.secretKey, `${path}.sigv4.secretKey`) : undefined,
      profile: s.profile,
      role_arn: s.roleArn,
      external_id: s.externalId,
    });
  }
  return compact({
    send_resolved: spec.sendResolved,
    http_config: r.httpConfig(spec.httpConfig, `${path}.httpConfig`),
    api_url: spec.apiURL,
    sigv4,
    topic_arn: spec.topicARN,
    phone_number: spec.phoneNumber,
    target_arn: spec.targetARN,
    subject: spec.subject,
    message: spec.message,
    attributes: spec.attributes ? sortedByKey(spec.attributes) : undefined,
    use_aws_http_client: spec.useAWSHTTPClient === true ? true : undefined,
  });
}
