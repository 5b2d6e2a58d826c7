/**
 * Leader election on a `coordination.k8s.io/v1` Lease, in the shape of client-go's `leaderelection` package
 * (client-node has none): candidates read the Lease every retry period; one whose lease is free, released or
 * expired writes itself in as holder, the leader renews `renewTime` every retry period, and every write carries
 * the `resourceVersion` that was read, so of two candidates writing at once the API server accepts one and answers
 * the other 409 Conflict: two candidates never both win.
 *
 * Expiry is judged as client-go judges it: never by comparing the holder's `renewTime` with the local clock (the
 * clocks of two nodes may disagree), but by the local monotonic time at which this candidate last saw the Lease
 * change; the Lease counts as expired when it has not changed for `leaseDurationSeconds` of local time.
 *
 * A leader that has not renewed for `renewDeadlineMs` (a hung or refused request, lost RBAC, a partition) stops
 * leading at once — before the `leaseDurationMs` after which another candidate may take over — and calls
 * `onStoppedLeading`, which must stop every write. `release()` (on SIGTERM) empties `holderIdentity` and sets
 * `leaseDurationSeconds: 1`, so a stand-by takes over within its next retry period instead of a lease duration.
 * https://github.com/kubernetes/client-go/blob/master/tools/leaderelection/leaderelection.go
 */
import type { V1Lease } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { pino, type Logger } from 'pino';
import { apiErrorOf, describeError, isNotFound } from './api-error.ts';
import { namespacedPath, rawApiOf, type KubeAccess, type RawApi } from './raw-api.ts';

/** client-go's defaults (and controller-runtime's). */
export const DEFAULT_LEASE_DURATION_MS = 15_000;
export const DEFAULT_RENEW_DEADLINE_MS = 10_000;
export const DEFAULT_RETRY_PERIOD_MS = 2_000;

/** The three requests the elector makes on its one Lease. */
export interface LeaseClient {
  /** The Lease, or undefined when it does not exist. */
  read(): Promise<V1Lease | undefined>;
  create(lease: V1Lease): Promise<V1Lease>;
  /** A PUT carrying `lease.metadata.resourceVersion`: 409 when the Lease changed since it was read. */
  replace(lease: V1Lease): Promise<V1Lease>;
}

/** A LeaseClient for Lease `namespace/name` through `access` (a RawApi, or a kubeconfig to make one of). */
export function apiLeaseClient(access: RawApi | KubeAccess, namespace: string, name: string): LeaseClient {
  const api = rawApiOf(access);
  const leases = (leaseName?: string) => namespacedPath('/apis/coordination.k8s.io/v1', namespace, 'leases', leaseName);
  return {
    read: async () => {
      try {
        return await api.getJson<V1Lease>(leases(name));
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    create: (lease) => api.create<V1Lease>(leases(), { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', ...lease, metadata: { ...lease.metadata, name, namespace } }),
    replace: (lease) => api.replace<V1Lease>(leases(name), { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', ...lease }),
  };
}

/** `<pod name>_<random>`: the pod name says who leads, the suffix tells two processes of one pod apart. */
export function leaderIdentity(hostname = process.env['HOSTNAME'] ?? 'promop'): string {
  return `${hostname}_${randomBytes(4).toString('hex')}`;
}

/** Options of a LeaderElector. */
export interface LeaderElectorOptions {
  leases: LeaseClient;
  identity: string;
  /** How long a stand-by waits after the last change it saw before taking the lease (default 15 s). */
  leaseDurationMs?: number;
  /** A leader that could not renew for this long stops leading (default 10 s; must be below the lease duration). */
  renewDeadlineMs?: number;
  /** Period of the attempts to acquire or renew (default 2 s). */
  retryPeriodMs?: number;
  /** This candidate became leader: start writing. */
  onStartedLeading?: () => void;
  /** This candidate is no longer leader (renewal failed, or released): stop every write now. */
  onStoppedLeading?: () => void;
  log?: Logger;
  /** Monotonic milliseconds (default performance.now); tests may replace it. */
  now?: () => number;
}

/** One candidate for leadership of one Lease. */
export class LeaderElector {
  readonly #leases: LeaseClient;
  readonly #identity: string;
  readonly #leaseDurationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryPeriodMs: number;
  readonly #options: LeaderElectorOptions;
  readonly #log: Logger;
  readonly #now: () => number;
  /** The Lease as last read or written, and the local time at which its holder or renewTime last changed. */
  #observed: V1Lease | undefined;
  #observedAt = 0;
  #leading = false;
  /** Local time of the last successful acquire or renew. */
  #renewedAt = 0;
  #deadlineTimer: NodeJS.Timeout | undefined;
  #loopTimer: NodeJS.Timeout | undefined;
  #attempt: Promise<void> | undefined;
  #stopped = false;

  constructor(options: LeaderElectorOptions) {
    this.#options = options;
    this.#leases = options.leases;
    this.#identity = options.identity;
    this.#leaseDurationMs = options.leaseDurationMs ?? DEFAULT_LEASE_DURATION_MS;
    this.#renewDeadlineMs = options.renewDeadlineMs ?? DEFAULT_RENEW_DEADLINE_MS;
    this.#retryPeriodMs = options.retryPeriodMs ?? DEFAULT_RETRY_PERIOD_MS;
    if (this.#renewDeadlineMs >= this.#leaseDurationMs) throw new Error('bug: the renew deadline must be shorter than the lease duration');
    this.#log = (options.log ?? pino()).child({ lease: options.identity });
    this.#now = options.now ?? (() => performance.now());
  }

  /** This candidate's identity (the Lease's holderIdentity while it leads). */
  get identity(): string {
    return this.#identity;
  }

  /** Whether this candidate leads now. */
  isLeader(): boolean {
    return this.#leading;
  }

  /** Starts trying to acquire (and then renew) the lease every retry period. */
  start(): void {
    this.#stopped = false;
    const tick = () => {
      if (this.#stopped) return;
      this.#attempt = this.#tryAcquireOrRenew().finally(() => {
        this.#attempt = undefined;
        if (!this.#stopped) this.#loopTimer = setTimeout(tick, this.#retryPeriodMs);
      });
    };
    tick();
  }

  /**
   * Stops trying without releasing, as a SIGKILLed process would: the lease stays held until it expires. Test
   * and shutdown-after-loss use; a graceful stop is `release()`.
   */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#loopTimer);
    await this.#attempt?.catch(() => {});
    this.#loseLeadership('stopped');
  }

  /**
   * Stops, and when this candidate leads, gives the lease up (empty holderIdentity, leaseDurationSeconds 1) so
   * a stand-by takes it within its next retry period. Call after the writes have stopped.
   */
  async release(): Promise<void> {
    const wasLeading = this.#leading;
    await this.stop();
    const lease = this.#observed;
    if (!wasLeading || lease?.spec?.holderIdentity !== this.#identity) return;
    try {
      await this.#leases.replace({
        ...lease,
        spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: microTime(new Date()), acquireTime: microTime(new Date()) } as unknown as V1Lease['spec'],
      });
      this.#log.info('released the lease');
    } catch (error) {
      // Someone else holds it already, or the API server is gone: the lease expires on its own.
      this.#log.warn({ err: describeError(error) }, 'could not release the lease; it expires on its own');
    }
  }

  async #tryAcquireOrRenew(): Promise<void> {
    try {
      // A request that hangs must not keep a leader past its deadline: the deadline timer ends leadership, and
      // the request is abandoned after the retry period's worth of the remaining time.
      await withTimeout(this.#acquireOrRenewOnce(), Math.max(this.#renewDeadlineMs, this.#retryPeriodMs));
    } catch (error) {
      this.#log.debug({ err: describeError(error) }, 'could not acquire or renew the lease');
    }
  }

  async #acquireOrRenewOnce(): Promise<void> {
    const now = new Date();
    const current = await this.#leases.read();
    if (this.#stopped) return;
    const desired = (base: V1Lease | undefined): V1Lease => {
      const heldByMe = base?.spec?.holderIdentity === this.#identity;
      return {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: base?.metadata ?? {},
        spec: {
          holderIdentity: this.#identity,
          leaseDurationSeconds: Math.ceil(this.#leaseDurationMs / 1000),
          acquireTime: microTime(heldByMe ? base?.spec?.acquireTime ?? now : now),
          renewTime: microTime(now),
          leaseTransitions: (base?.spec?.leaseTransitions ?? 0) + (heldByMe || base === undefined ? 0 : 1),
        } as unknown as V1Lease['spec'],
      };
    };
    if (current === undefined) {
      try {
        this.#record(await this.#leases.create(desired(undefined)));
        this.#renewed();
      } catch (error) {
        if (!isConflict(error)) throw error;
      }
      return;
    }
    this.#observe(current);
    const holder = current.spec?.holderIdentity ?? '';
    if (holder !== this.#identity && holder !== '' && !this.#expired(current)) {
      // Someone else leads; if it is us who thought we led, that ended.
      this.#loseLeadership(`held by ${holder}`);
      return;
    }
    try {
      this.#record(await this.#leases.replace(desired(current)));
      this.#renewed();
    } catch (error) {
      if (isConflict(error)) {
        this.#log.debug('the lease changed while writing it; trying again');
        return;
      }
      throw error;
    }
  }

  /** Remembers `lease` and, when its holder or renewTime differs from what was seen before, the local time. */
  #observe(lease: V1Lease): void {
    const before = this.#observed?.spec;
    const after = lease.spec;
    if (before === undefined || before.holderIdentity !== after?.holderIdentity || String(before.renewTime) !== String(after?.renewTime) || before.leaseDurationSeconds !== after?.leaseDurationSeconds) {
      this.#observedAt = this.#now();
    }
    this.#observed = lease;
  }

  #record(lease: V1Lease): void {
    this.#observed = lease;
    this.#observedAt = this.#now();
  }

  #expired(lease: V1Lease): boolean {
    const durationMs = (lease.spec?.leaseDurationSeconds ?? 0) * 1000;
    return this.#observedAt + durationMs <= this.#now();
  }

  #renewed(): void {
    this.#renewedAt = this.#now();
    clearTimeout(this.#deadlineTimer);
    // Fires only when no renewal succeeds within the renew deadline: stop writing while the lease still holds.
    this.#deadlineTimer = setTimeout(() => this.#loseLeadership('could not renew within the renew deadline'), this.#renewDeadlineMs);
    this.#deadlineTimer.unref();
    if (!this.#leading && !this.#stopped) {
      this.#leading = true;
      this.#log.info('became the leader');
      this.#options.onStartedLeading?.();
    }
  }

  #loseLeadership(reason: string): void {
    clearTimeout(this.#deadlineTimer);
    if (!this.#leading) return;
    this.#leading = false;
    this.#log.warn({ reason, sinceRenewMs: Math.round(this.#now() - this.#renewedAt) }, 'stopped leading');
    this.#options.onStoppedLeading?.();
  }
}

/**
 * A Lease's times are MicroTime, which the API server parses only with six fractional digits; client-node turns
 * a Date into toISOString's three (400 BadRequest) but passes a string through unchanged.
 */
function microTime(time: Date | string): string {
  return new Date(time).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** 409: the Lease changed since it was read (update), or another candidate created it first (create). */
function isConflict(error: unknown): boolean {
  return apiErrorOf(error)?.code === 409;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
