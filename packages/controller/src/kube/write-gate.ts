/**
 * A KubeConfig whose every request first asks `mayWrite()`: the operator's writers (children, status, Events, pod
 * annotations) are made from it, so a leader that lost its Lease sends no further request, even from a reconcile
 * that was already running when the renew deadline passed. client-node asks the KubeConfig to authenticate each
 * request (`applySecurityAuthentication`, the `default` auth method of every client `makeApiClient` makes), which
 * is the one place every request of those clients passes through.
 */
import type { KubeConfig } from '@kubernetes/client-node';

/** A request refused locally because this replica does not lead. */
export class NotLeaderError extends Error {
  constructor() {
    super('not the leader: promop writes only while it holds the leader Lease');
    this.name = 'NotLeaderError';
  }
}

/** `kc` for clients that may send requests only while `mayWrite()` is true; otherwise they reject with NotLeaderError. */
export function writeGatedKubeConfig(kc: KubeConfig, mayWrite: () => boolean): KubeConfig {
  const gated = Object.create(kc) as KubeConfig;
  const authenticate = kc.applySecurityAuthentication.bind(kc);
  gated.applySecurityAuthentication = async (context) => {
    if (!mayWrite()) throw new NotLeaderError();
    return authenticate(context);
  };
  return gated;
}
