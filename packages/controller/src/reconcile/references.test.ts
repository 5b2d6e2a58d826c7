import type { ServiceMonitor } from '@promop/crds';
import { ReferencesMemo, referencedObjects } from './references.ts';

/** A ServiceMonitor whose first endpoint reads basic-auth credentials from Secret `secret` when one is named. */
function monitor(name: string, secret?: string): ServiceMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { namespace: 'team', name },
    spec: {
      selector: {},
      endpoints: [secret ? { port: 'web', basicAuth: { username: { name: secret, key: 'user' }, password: { name: secret, key: 'password' } } } : { port: 'web' }],
    },
  } as ServiceMonitor;
}

const sorted = (set: ReadonlySet<string>) => [...set].sort();

describe('referencedObjects with a ReferencesMemo', () => {
  it('finds what it finds without one, whatever changed between calls', () => {
    const memo = new ReferencesMemo();
    let monitors = [monitor('a'), monitor('b', 'creds-b'), monitor('c')];
    const same = () => {
      const withMemo = referencedObjects({ prometheuses: [], serviceMonitors: monitors, podMonitors: [] }, memo);
      const without = referencedObjects({ prometheuses: [], serviceMonitors: monitors, podMonitors: [] });
      expect(sorted(withMemo.secrets)).toEqual(sorted(without.secrets));
      return sorted(withMemo.secrets);
    };
    expect(same()).toEqual(['team/creds-b']);
    // A new version of a monitor at the same position now references a Secret.
    monitors = [monitors[0]!, monitors[1]!, monitor('c', 'creds-c')];
    expect(same()).toEqual(['team/creds-b', 'team/creds-c']);
    // The same array changed in place (a caller may): the new object is looked at, not the kept one.
    monitors[1] = monitor('b');
    expect(same()).toEqual(['team/creds-c']);
    // Removed at the front: every position shifts.
    monitors = monitors.slice(1);
    expect(same()).toEqual(['team/creds-c']);
    monitors = [monitor('z', 'creds-z'), ...monitors];
    expect(same()).toEqual(['team/creds-c', 'team/creds-z']);
  });
});
