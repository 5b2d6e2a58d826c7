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

/** The fields of an audit event the benchmark reads. */
interface AuditEntry {
  verb: string;
  user?: { username?: string };
  objectRef?: { resource?: string; subresource?: string };
  requestReceivedTimestamp: string;
  stageTimestamp: string;
}

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
    const entry = JSON.parse(line) as AuditEntry;
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

/** Where one P2 change's time went, from the audit log. */
export interface ChangeSplit {
  /** The benchmark's PATCH of the ServiceMonitor answered → the operator's first write of a Secret received. */
  operatorMs: number;
  /** That write: received → answered (the API server storing the Secret). */
  writeMs: number;
}

/**
 * For each PATCH of a ServiceMonitor by `changer` answered between `fromMs` and `toMs`, the operator's (`operator`)
 * first write of a Secret received after it and before the next change: how long the operator took to send it and
 * how long the API server took to store it. What is left of P2 is the watch delivering the Secret to the benchmark.
 * A change whose write is not found (none before the next change) is left out.
 */
export function changeSplits(auditLogPath: string, changer: string, operator: string, fromMs: number, toMs: number): ChangeSplit[] {
  const patches: AuditEntry[] = [];
  const secretWrites: AuditEntry[] = [];
  for (const line of readFileSync(auditLogPath, 'utf8').split('\n')) {
    if (line === '') continue;
    const entry = JSON.parse(line) as AuditEntry;
    const at = Date.parse(entry.stageTimestamp);
    if (at < fromMs || at > toMs + 60_000) continue;
    const username = entry.user?.username;
    if (username === changer && entry.verb === 'patch' && entry.objectRef?.resource === 'servicemonitors' && !entry.objectRef.subresource && at <= toMs) patches.push(entry);
    else if (username === operator && WRITE_VERBS.has(entry.verb) && entry.objectRef?.resource === 'secrets') secretWrites.push(entry);
  }
  const microseconds = (timestamp: string) => Date.parse(timestamp) * 1000 + Number(/\.\d{3}(\d{3})/.exec(timestamp)?.[1] ?? 0);
  const splits: ChangeSplit[] = [];
  patches.forEach((patch, index) => {
    const answered = microseconds(patch.stageTimestamp);
    const next = patches[index + 1] ? microseconds(patches[index + 1]!.requestReceivedTimestamp) : Number.POSITIVE_INFINITY;
    const write = secretWrites.find((entry) => {
      const received = microseconds(entry.requestReceivedTimestamp);
      return received > answered && received < next;
    });
    if (!write) return;
    const received = microseconds(write.requestReceivedTimestamp);
    splits.push({ operatorMs: (received - answered) / 1000, writeMs: (microseconds(write.stageTimestamp) - received) / 1000 });
  });
  return splits;
}
