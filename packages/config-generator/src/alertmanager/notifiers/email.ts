/**
 * The email notifier of a receiver → Alertmanager's `email_configs`: the smarthost checked as Go splits a host:port,
 * and headers checked so that none can smuggle in another header.
 */
import { compact, keyValues, type NotifierSpec, type Output } from '../receiver-fields.ts';
import type { ReceiverRenderers } from '../receiver-renderers.ts';
import { shownValue } from '../shown-value.ts';

/** An email header name: printable ASCII without space or colon (RFC 5322 field name). */
const HEADER_NAME = /^[\x21-\x39\x3b-\x7e]+$/;

/** An email notifier → an item of `email_configs`. */
export function renderEmail(spec: NotifierSpec<'emailConfigs'>, path: string, r: ReceiverRenderers): Output {
  if (!spec.to) r.problem(`${path}.to`, 'an email notifier needs a to address');
  r.needsGlobal(spec.smarthost, `${path}.smarthost`, ['smtp_smarthost'], 'smarthost');
  r.needsGlobal(spec.from, `${path}.from`, ['smtp_from'], 'from');
  if (spec.smarthost) {
    const error = splitHostPortError(spec.smarthost);
    if (error) r.problem(`${path}.smarthost`, `${shownValue(spec.smarthost)} is not a host:port address: ${error}`);
  }
  const seen = new Set<string>();
  (spec.headers ?? []).forEach((header, j) => {
    const name = header.key.toLowerCase();
    // A line break would start another header of the team's choosing (Bcc, say); a header name is an RFC 5322 token.
    if (!HEADER_NAME.test(header.key)) r.problem(`${path}.headers[${j}].key`, `${shownValue(header.key)} is not a header name (printable ASCII but spaces and colons)`);
    if (/[\r\n]/.test(header.value)) r.problem(`${path}.headers[${j}].value`, 'a header value cannot hold a line break');
    if (seen.has(name)) r.problem(`${path}.headers[${j}].key`, `duplicate header ${shownValue(name)} (header names ignore case)`);
    seen.add(name);
  });
  const threadByDate = spec.threading ? { Daily: 'daily', None: 'none' }[spec.threading.threadByDate] : undefined;
  if (spec.threading && threadByDate === undefined) r.problem(`${path}.threading.threadByDate`, 'threadByDate must be Daily or None');
  return compact({
    send_resolved: spec.sendResolved,
    to: spec.to,
    from: spec.from,
    hello: spec.hello,
    smarthost: spec.smarthost,
    auth_username: spec.authUsername,
    auth_password: r.secret(spec.authPassword, `${path}.authPassword`),
    auth_secret: r.secret(spec.authSecret, `${path}.authSecret`),
    auth_identity: spec.authIdentity,
    headers: keyValues(spec.headers),
    html: spec.html,
    text: spec.text,
    require_tls: spec.requireTLS,
    tls_config: r.tlsConfig(spec.tlsConfig, `${path}.tlsConfig`),
    force_implicit_tls: spec.forceImplicitTLS,
    threading: threadByDate === undefined ? undefined : { enabled: true, thread_by_date: threadByDate },
  });
}

/** Go's net.SplitHostPort error for `address`, or undefined when it splits. */
function splitHostPortError(address: string): string | undefined {
  const colon = address.lastIndexOf(':');
  if (colon < 0) return 'missing port in address';
  if (address.startsWith('[')) {
    const end = address.indexOf(']');
    if (end < 0) return "missing ']' in address";
    if (end + 1 === address.length) return 'missing port in address';
    if (end + 1 !== colon) return address[end + 1] === ':' ? 'too many colons in address' : 'missing port in address';
    if (address.slice(1, end).includes('[')) return "unexpected '[' in address";
  } else {
    const host = address.slice(0, colon);
    if (host.includes(':')) return 'too many colons in address';
    if (host.includes('[')) return "unexpected '[' in address";
    if (host.includes(']')) return "unexpected ']' in address";
  }
  if (address.slice(colon + 1).includes(']')) return "unexpected ']' in address";
  // Alertmanager's HostPort also refuses an empty port.
  if (colon + 1 === address.length) return 'port cannot be empty';
  return undefined;
}
