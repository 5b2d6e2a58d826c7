/**
 * Write requests by one user, counted from the API server's audit log. The benchmark's policy records only
 * requests that can change something (reads are left out, which keeps the log small at 10,000 monitors), at level
 * Metadata, once each when the response is complete.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** The audit policy: every non-read request at level Metadata, reads not at all. */
export function writeWritesOnlyAuditPolicy(path: string): void {
  writeFileSync(path, [
    'apiVersion: audit.k8s.io/v1',
    'kind: Policy',
    'omitStages: [RequestReceived, ResponseStarted]',
    'rules:',
    '- level: None',
    '  verbs: [get, list, watch]',
    '- level: Metadata',
    '',
  ].join('\n'));
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
/**
 * Requests with verb `create` that store nothing: prometheus-operator asks the API server about its own permissions
 * (SelfSubjectAccessReviews) each time it starts. They are not writes to the cluster and are not counted.
 */
const NOT_STORED = new Set(['selfsubjectaccessreviews', 'subjectaccessreviews', 'selfsubjectreviews', 'tokenreviews', 'localsubjectaccessreviews']);

/** Write requests of one user in a time window. */
export interface WriteCount {
  /** Every write but leaseRenewals. */
  total: number;
  /** Updates of a coordination.k8s.io Lease: leader election's renewals (promop's default; every 2 s). */
  leaseRenewals: number;
  /** `verb resource[/subresource]` → count, e.g. `patch secrets` or `patch prometheuses/status`. */
  byRequest: Record<string, number>;
}

/** Counts the write requests (failed ones included: a 404 delete is a request too) of `user` whose response completed between `fromMs` and `toMs` (epoch milliseconds). */
export function countWrites(auditLogPath: string, user: string, fromMs: number, toMs: number): WriteCount {
  const byRequest: Record<string, number> = {};
  let total = 0;
  let leaseRenewals = 0;
  for (const line of readFileSync(auditLogPath, 'utf8').split('\n')) {
    if (!line.includes(user)) continue;
    const entry = JSON.parse(line) as { verb: string; user?: { username?: string }; objectRef?: { resource?: string; subresource?: string }; stageTimestamp: string };
    if (entry.user?.username !== user || !WRITE_VERBS.has(entry.verb) || NOT_STORED.has(entry.objectRef?.resource ?? '')) continue;
    const at = Date.parse(entry.stageTimestamp);
    if (at < fromMs || at > toMs) continue;
    if (entry.objectRef?.resource === 'leases' && (entry.verb === 'update' || entry.verb === 'patch')) {
      leaseRenewals += 1;
      continue;
    }
    total += 1;
    const resource = entry.objectRef ? `${entry.objectRef.resource ?? '?'}${entry.objectRef.subresource ? `/${entry.objectRef.subresource}` : ''}` : '?';
    const key = `${entry.verb} ${resource}`;
    byRequest[key] = (byRequest[key] ?? 0) + 1;
  }
  return { total, leaseRenewals, byRequest };
}
