/**
 * A KubeAccess whose every request first asks `mayWrite()`: the RawApi of the operator's writers (children, status,
 * Events, pod annotations) is made over it, so a leader that lost its Lease sends no further request, even from a
 * reconcile that was already running when the renew deadline passed. RawApi asks its KubeAccess to authenticate
 * each request (`applyToHTTPSOptions`) before it sends a byte, which is the one place every request passes through.
 */
import type { KubeAccess } from './raw-api.ts';

/** A request refused locally because this replica does not lead. */
export class NotLeaderError extends Error {
  constructor() {
    super('not the leader: promop writes only while it holds the leader Lease');
    this.name = 'NotLeaderError';
  }
}

/** `access` for a RawApi that may send requests only while `mayWrite()` is true; otherwise they reject with NotLeaderError. */
export function writeGatedAccess(access: KubeAccess, mayWrite: () => boolean): KubeAccess {
  return {
    getCurrentCluster: () => access.getCurrentCluster(),
    applyToHTTPSOptions: async (options) => {
      if (!mayWrite()) throw new NotLeaderError();
      return access.applyToHTTPSOptions(options);
    },
    onUnauthorized: () => access.onUnauthorized?.(),
  };
}
