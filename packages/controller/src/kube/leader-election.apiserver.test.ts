/**
 * Leader election against the real API server, with client-go's timings (lease 15 s, renew deadline 10 s, retry
 * 2 s): one of two candidates leads; a leader that vanishes without releasing is replaced once its lease expired;
 * a released lease is taken within a retry period; a leader that loses the right to renew stops leading before
 * its lease can expire. Each candidate runs as a ServiceAccount bound to a Role for Leases only.
 */
import { CoordinationV1Api, CoreV1Api, RbacAuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { sharedTestEnv, eventually } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { OPERATOR_CLUSTER_ROLE_RULES } from '../rbac/index.ts';
import { LeaderElector, apiLeaseClient, leaderIdentity, DEFAULT_LEASE_DURATION_MS, DEFAULT_RENEW_DEADLINE_MS, DEFAULT_RETRY_PERIOD_MS } from './leader-election.ts';

const id = randomBytes(3).toString('hex');
const NS = `leader-${id}`;
const log = pino({ level: process.env['LEADER_TEST_LOG'] ?? 'silent' });
let admin: KubeConfig;
const electors: LeaderElector[] = [];

/** A candidate running as ServiceAccount `sa`, with RoleBinding `sa` granting the chart's Lease rule. */
async function candidate(sa: string, lease: string, events: string[] = []): Promise<LeaderElector> {
  const core = admin.makeApiClient(CoreV1Api);
  const rbac = admin.makeApiClient(RbacAuthorizationV1Api);
  await core.createNamespacedServiceAccount({ namespace: NS, body: { metadata: { name: sa } } }).catch(() => {});
  await rbac.createNamespacedRoleBinding({
    namespace: NS,
    body: { metadata: { name: sa }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'leases' }, subjects: [{ kind: 'ServiceAccount', name: sa, namespace: NS }] },
  }).catch(() => {});
  const kc = sharedTestEnv().kubeConfigFor({ namespace: NS, name: sa });
  const elector = new LeaderElector({
    leases: apiLeaseClient(kc, NS, lease),
    identity: leaderIdentity(sa),
    log,
    onStartedLeading: () => events.push(`started ${performance.now()}`),
    onStoppedLeading: () => events.push(`stopped ${performance.now()}`),
  });
  electors.push(elector);
  return elector;
}

const readLease = (name: string) => admin.makeApiClient(CoordinationV1Api).readNamespacedLease({ namespace: NS, name });

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  await admin.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: NS } } });
  // The Lease rule of the one RBAC source, as a Role here so a RoleBinding deletion revokes it for one candidate.
  const leaseRules = OPERATOR_CLUSTER_ROLE_RULES.filter((rule) => rule.resources?.includes('leases'));
  expect(leaseRules).toHaveLength(1);
  await admin.makeApiClient(RbacAuthorizationV1Api).createNamespacedRole({ namespace: NS, body: { metadata: { name: 'leases' }, rules: leaseRules } });
});

afterEach(async () => {
  await Promise.all(electors.splice(0).map((elector) => elector.stop()));
});

afterAll(async () => {
  await admin.makeApiClient(CoreV1Api).deleteNamespace({ name: NS }).catch(() => {});
});

describe('two promop replicas electing a leader', () => {
  it('exactly one leads, and the Lease names it', async () => {
    const [a, b] = [await candidate('a', 'one'), await candidate('b', 'one')];
    a.start();
    b.start();
    await eventually(async () => a.isLeader() || b.isLeader(), Boolean, 10_000, 100);
    // Several retry periods later, still one leader.
    for (let i = 0; i < 15; i += 1) {
      expect(Number(a.isLeader()) + Number(b.isLeader())).toBeLessThanOrEqual(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const leader = a.isLeader() ? a : b;
    expect(Number(a.isLeader()) + Number(b.isLeader())).toBe(1);
    expect((await readLease('one')).spec?.holderIdentity).toBe(leader.identity);
    expect((await readLease('one')).spec?.leaseDurationSeconds).toBe(15);
  }, 30_000);

  it('a leader killed without releasing is replaced once its lease expired (15 s + a retry period)', async () => {
    const a = await candidate('a', 'killed');
    a.start();
    await eventually(async () => a.isLeader(), Boolean, 10_000, 50);
    const b = await candidate('b', 'killed');
    b.start();
    // b has seen the lease renewed; now a vanishes as a SIGKILLed process does: no more renewals, no release.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await a.stop();
    const killedAt = performance.now();
    await eventually(async () => b.isLeader(), Boolean, 30_000, 50);
    const takeOverMs = performance.now() - killedAt;
    process.stdout.write(`leader-election: take-over after a kill: ${Math.round(takeOverMs)} ms\n`);
    // Not before the lease could have expired (a renewed at most one retry period before the kill)…
    expect(takeOverMs).toBeGreaterThan(DEFAULT_LEASE_DURATION_MS - DEFAULT_RETRY_PERIOD_MS - 500);
    // …and within the lease duration after b last saw a change, plus b's retry period (and a busy machine's slack).
    expect(takeOverMs).toBeLessThan(DEFAULT_LEASE_DURATION_MS + DEFAULT_RETRY_PERIOD_MS + 3_000);
    expect((await readLease('killed')).spec?.holderIdentity).toBe(b.identity);
    expect((await readLease('killed')).spec?.leaseTransitions).toBe(1);
  }, 60_000);

  it('a released lease (SIGTERM) is taken within a retry period', async () => {
    const a = await candidate('a', 'released');
    a.start();
    await eventually(async () => a.isLeader(), Boolean, 10_000, 50);
    const b = await candidate('b', 'released');
    b.start();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(b.isLeader()).toBe(false);
    const releasedAt = performance.now();
    await a.release();
    expect(a.isLeader()).toBe(false);
    await eventually(async () => b.isLeader(), Boolean, 10_000, 20);
    const takeOverMs = performance.now() - releasedAt;
    process.stdout.write(`leader-election: take-over after a release: ${Math.round(takeOverMs)} ms\n`);
    expect(takeOverMs).toBeLessThan(DEFAULT_RETRY_PERIOD_MS + 1_500);
  }, 30_000);

  it('a leader that may no longer renew (RoleBinding deleted) stops leading before its lease can expire', async () => {
    const events: string[] = [];
    const a = await candidate('revoked', 'revoked', events);
    a.start();
    await eventually(async () => a.isLeader(), Boolean, 10_000, 50);
    const b = await candidate('b', 'revoked');
    b.start();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const renewedBefore = new Date((await readLease('revoked')).spec?.renewTime as unknown as string).getTime();
    await admin.makeApiClient(RbacAuthorizationV1Api).deleteNamespacedRoleBinding({ namespace: NS, name: 'revoked' });
    await eventually(async () => !a.isLeader(), Boolean, 20_000, 50);
    const stoppedAt = performance.now();
    await eventually(async () => b.isLeader(), Boolean, 30_000, 50);
    const takenAt = performance.now();
    const lease = await readLease('revoked');
    process.stdout.write(`leader-election: revoked leader stopped ${Math.round(takenAt - stoppedAt)} ms before the stand-by took over\n`);
    expect(events.filter((e) => e.startsWith('stopped'))).toHaveLength(1);
    // The old leader stopped writing at least (lease duration − renew deadline − slack) before the new one started.
    expect(takenAt - stoppedAt).toBeGreaterThan(DEFAULT_LEASE_DURATION_MS - DEFAULT_RENEW_DEADLINE_MS - 2_000);
    expect(lease.spec?.holderIdentity).toBe(b.identity);
    expect(renewedBefore).toBeGreaterThan(0);
  }, 60_000);
});
