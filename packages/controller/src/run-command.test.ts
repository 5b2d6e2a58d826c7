import { parseRunArguments, runOperatorCommand } from './run-command.ts';

describe('promop run', () => {
  it('takes an optional --kubeconfig path, in both spellings', () => {
    expect(parseRunArguments([])).toEqual({ ok: true, kubeconfig: undefined, metricsAddress: ':8080', podNetworks: undefined, leaderElect: true, leaderElectionNamespace: undefined, leaderElectionId: 'promop', help: false });
    expect(parseRunArguments(['--kubeconfig', '/k'])).toEqual({ ok: true, kubeconfig: '/k', metricsAddress: ':8080', podNetworks: undefined, leaderElect: true, leaderElectionNamespace: undefined, leaderElectionId: 'promop', help: false });
    expect(parseRunArguments(['--kubeconfig=/k'])).toEqual({ ok: true, kubeconfig: '/k', metricsAddress: ':8080', podNetworks: undefined, leaderElect: true, leaderElectionNamespace: undefined, leaderElectionId: 'promop', help: false });
    expect(parseRunArguments(['--metrics-address', '127.0.0.1:9000'])).toMatchObject({ ok: true, metricsAddress: '127.0.0.1:9000' });
    expect(parseRunArguments(['--metrics-address=127.0.0.1:9000'])).toMatchObject({ ok: true, metricsAddress: '127.0.0.1:9000' });
    expect(parseRunArguments(['--metrics-address'])).toEqual({ ok: false, message: '--metrics-address needs host:port' });
  });

  it('takes the pod networks as comma-separated CIDRs or addresses, repeatable, and refuses a malformed one', () => {
    expect(parseRunArguments(['--pod-network', '10.244.0.0/16,fd00:10::/64', '--pod-network=127.0.0.1'])).toMatchObject({
      ok: true, podNetworks: ['10.244.0.0/16', 'fd00:10::/64', '127.0.0.1'],
    });
    expect(parseRunArguments(['--pod-network', '10.244.0.0/33'])).toEqual({ ok: false, message: '--pod-network: "10.244.0.0/33" has a bad prefix length' });
    expect(parseRunArguments(['--pod-network=pods.example'])).toEqual({ ok: false, message: '--pod-network: "pods.example" is not an IP address or CIDR' });
    expect(parseRunArguments(['--pod-network'])).toEqual({ ok: false, message: '--pod-network needs a CIDR, e.g. 10.244.0.0/16' });
    expect(parseRunArguments(['--pod-network', ','])).toEqual({ ok: false, message: '--pod-network needs at least one CIDR, e.g. 10.244.0.0/16' });
  });

  it('elects a leader by default, on Lease promop in the pod\'s namespace, and takes all three flags', () => {
    expect(parseRunArguments(['--leader-elect=false'])).toMatchObject({ ok: true, leaderElect: false });
    expect(parseRunArguments(['--leader-elect'])).toMatchObject({ ok: true, leaderElect: true });
    expect(parseRunArguments(['--leader-election-namespace', 'ops', '--leader-election-id=promop-a'])).toMatchObject({ ok: true, leaderElectionNamespace: 'ops', leaderElectionId: 'promop-a' });
    expect(parseRunArguments(['--leader-elect=maybe'])).toEqual({ ok: false, message: '--leader-elect is true or false' });
    expect(parseRunArguments(['--leader-election-id'])).toEqual({ ok: false, message: '--leader-election-id needs a Lease name' });
  });

  it('refuses an unknown argument or a missing path with usage and exit 2', async () => {
    expect(parseRunArguments(['--kubeconfig'])).toEqual({ ok: false, message: '--kubeconfig needs a path' });
    let stderr = '';
    const status = await runOperatorCommand(['--namespace', 'x'], { stdout: () => {}, stderr: (text) => { stderr += text; } });
    expect(status).toBe(2);
    expect(stderr).toMatch(/^promop run: unknown argument "--namespace"\n\nUsage: promop run/);
  });

  it('says what went wrong, without a stack trace, when the kubeconfig cannot be read', async () => {
    let stderr = '';
    const status = await runOperatorCommand(['--kubeconfig', '/nonexistent/kubeconfig'], { stdout: () => {}, stderr: (text) => { stderr += text; } });
    expect(status).toBe(1);
    expect(stderr).toMatch(/^promop run: cannot load the kubeconfig: .*ENOENT/);
    expect(stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});
