/**
 * Reads the kube-apiserver audit log (JSON lines, one event per request at stage ResponseComplete with the default
 * policy of startTestEnv's `auditLogPath`) to count what a given identity did: the chaos scenarios prove "no write
 * for objects that did not change" and "never two writers" from the server's own record, not from promop's logs.
 */
import { existsSync, readFileSync } from 'node:fs';

/** The fields of an audit event the chaos suite reads. */
export interface AuditEvent {
  verb: string;
  stage: string;
  requestURI?: string;
  userAgent?: string;
  user?: { username?: string };
  impersonatedUser?: { username?: string };
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string };
  responseStatus?: { code?: number };
  requestReceivedTimestamp?: string;
  stageTimestamp?: string;
}

/** The verbs that change something. */
export const WRITE_VERBS: ReadonlySet<string> = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

/** The user a request acted as: the impersonated one when there was impersonation. */
export function actingUser(event: AuditEvent): string | undefined {
  return event.impersonatedUser?.username ?? event.user?.username;
}

/** Every completed request in the audit log so far (none when the file does not exist yet). */
export function readAuditLog(path: string): AuditEvent[] {
  if (!existsSync(path)) return [];
  const events: AuditEvent[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line === '') continue;
    // The API server may be writing the last line right now.
    try {
      const event = JSON.parse(line) as AuditEvent;
      if (event.stage === 'ResponseComplete') events.push(event);
    } catch {
      // Incomplete last line.
    }
  }
  return events;
}

/** The successful writes `user` made, as `verb resource[/subresource] namespace/name`. */
export function writesBy(path: string, user: string): string[] {
  return readAuditLog(path)
    .filter((event) => WRITE_VERBS.has(event.verb) && actingUser(event) === user && (event.responseStatus?.code ?? 0) < 400)
    .map(describeRequest);
}

/** `verb resource[/subresource] namespace/name` of one event. */
export function describeRequest(event: AuditEvent): string {
  const ref = event.objectRef ?? {};
  return `${event.verb} ${ref.resource ?? '?'}${ref.subresource ? `/${ref.subresource}` : ''} ${ref.namespace ?? ''}/${ref.name ?? ''}`;
}
