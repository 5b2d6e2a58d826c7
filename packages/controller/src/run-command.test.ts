import { parseRunArguments, runOperatorCommand } from './run-command.ts';

/** What `promop run` watches and logs without a scoping or logging flag: everything, at info, as JSON. */
const SCOPE_DEFAULTS = {
  scope: { kind: 'all' }, prometheusInstanceSelector: undefined, alertmanagerInstanceSelector: undefined, secretFieldSelector: undefined, secretLabelSelector: undefined, logLevel: 'info', logFormat: 'json', manageCrds: true, healthIntervalMs: 30_000,
  prometheusClientCertificate: undefined,
};

describe('promop run', () => {
  it('takes an optional --kubeconfig path, in both spellings', () => {
    expect(parseRunArguments([])).toEqual({ ok: true, kubeconfig: undefined, metricsAddress: ':8080', podNetworks: undefined, leaderElect: true, leaderElectionNamespace: undefined, leaderElectionId: 'promop', ...SCOPE_DEFAULTS, help: false });
    expect(parseRunArguments(['--kubeconfig', '/k'])).toEqual({ ok: true, kubeconfig: '/k', metricsAddress: ':8080', podNetworks: undefined, leaderElect: true, leaderElectionNamespace: undefined, leaderElectionId: 'promop', ...SCOPE_DEFAULTS, help: false });
    expect(parseRunArguments(['--kubeconfig=/k'])).toEqual({ ok: true, kubeconfig: '/k', metricsAddress: ':8080', podNetworks: undefined, leaderElect: true, leaderElectionNamespace: undefined, leaderElectionId: 'promop', ...SCOPE_DEFAULTS, help: false });
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

  it('reads health every --health-interval (a duration, at least a second; 0 turns it off)', () => {
    expect(parseRunArguments(['--health-interval', '2m'])).toMatchObject({ ok: true, healthIntervalMs: 120_000 });
    expect(parseRunArguments(['--health-interval=0'])).toMatchObject({ ok: true, healthIntervalMs: 0 });
    for (const bad of [['--health-interval'], ['--health-interval=500ms'], ['--health-interval', 'soon']]) {
      expect(parseRunArguments(bad)).toEqual({ ok: false, message: '--health-interval is a duration of at least 1s (e.g. 30s, 2m), or 0 to turn it off' });
    }
  });

  it('takes a client certificate for Prometheus pods that ask for one: certificate and key files, both or neither', () => {
    expect(parseRunArguments(['--prometheus-client-cert', '/tls/tls.crt', '--prometheus-client-key=/tls/tls.key'])).toMatchObject({
      ok: true, prometheusClientCertificate: { certFile: '/tls/tls.crt', keyFile: '/tls/tls.key' },
    });
    expect(parseRunArguments(['--prometheus-client-cert=/tls/tls.crt'])).toEqual({ ok: false, message: '--prometheus-client-cert and --prometheus-client-key go together: give both or neither' });
    expect(parseRunArguments(['--prometheus-client-key'])).toEqual({ ok: false, message: '--prometheus-client-key needs the path of a PEM private key' });
  });

  describe('scoping flags, as prometheus-operator\'s', () => {
    it('--namespaces limits promop to a list of namespaces, comma-separated and repeatable', () => {
      expect(parseRunArguments(['--namespaces', 'team-a,team-b', '--namespaces=monitoring'])).toMatchObject({ ok: true, scope: { kind: 'only', namespaces: ['team-a', 'team-b', 'monitoring'] } });
    });

    it('--deny-namespaces watches every namespace but those', () => {
      expect(parseRunArguments(['--deny-namespaces=kube-system,kube-public'])).toMatchObject({ ok: true, scope: { kind: 'deny', namespaces: ['kube-system', 'kube-public'] } });
    });

    it('refuses both together, a malformed namespace name and an empty list', () => {
      expect(parseRunArguments(['--namespaces=a', '--deny-namespaces=b'])).toEqual({ ok: false, message: '--namespaces and --deny-namespaces exclude each other: give one of them' });
      expect(parseRunArguments(['--namespaces', 'Team_A'])).toEqual({
        ok: false, message: '--namespaces: "Team_A" is not a namespace name (at most 63 lower-case letters, digits and \'-\', beginning and ending with a letter or digit)',
      });
      expect(parseRunArguments(['--namespaces=a,,b'])).toMatchObject({ ok: false, message: '--namespaces: "" is not a namespace name (at most 63 lower-case letters, digits and \'-\', beginning and ending with a letter or digit)' });
      expect(parseRunArguments(['--deny-namespaces'])).toEqual({ ok: false, message: '--deny-namespaces needs a value' });
    });

    it('takes the Prometheus, Alertmanager and ThanosRuler instance selectors and the Secret selectors as the API server would read them', () => {
      expect(parseRunArguments([
        '--prometheus-instance-selector', 'operated-by=promop,tier in (a, b),!legacy',
        '--alertmanager-instance-selector=operated-by!=prometheus-operator',
        '--thanos-ruler-instance-selector', 'team=sre',
        '--secret-field-selector=type!=kubernetes.io/dockercfg,type!=kubernetes.io/service-account-token',
        '--secret-label-selector', 'promop.dev/readable=true',
      ])).toMatchObject({
        ok: true,
        prometheusInstanceSelector: 'operated-by=promop,tier in (a, b),!legacy',
        alertmanagerInstanceSelector: 'operated-by!=prometheus-operator',
        thanosRulerInstanceSelector: 'team=sre',
        secretFieldSelector: 'type!=kubernetes.io/dockercfg,type!=kubernetes.io/service-account-token',
        secretLabelSelector: 'promop.dev/readable=true',
      });
    });

    it('refuses a selector the API server would refuse, saying what is wrong, instead of retrying lists forever', () => {
      expect(parseRunArguments(['--prometheus-instance-selector=team==a==b'])).toEqual({
        ok: false, message: '--prometheus-instance-selector: "a==b" is not a label value (at most 63 letters, digits, \'-\', \'_\', \'.\', beginning and ending with a letter or digit)',
      });
      expect(parseRunArguments(['--alertmanager-instance-selector', 'a b'])).toMatchObject({ ok: false, message: expect.stringMatching(/^--alertmanager-instance-selector: /) });
      expect(parseRunArguments(['--thanos-ruler-instance-selector', 'a b'])).toMatchObject({ ok: false, message: expect.stringMatching(/^--thanos-ruler-instance-selector: /) });
      expect(parseRunArguments(['--secret-label-selector', 'a,,b'])).toEqual({ ok: false, message: '--secret-label-selector: has an empty requirement (two commas, or a comma at an end)' });
      expect(parseRunArguments(['--secret-label-selector', 'tier in ()'])).toEqual({ ok: false, message: '--secret-label-selector: "tier in ()" lists no value' });
      expect(parseRunArguments(['--secret-field-selector', 'type'])).toEqual({ ok: false, message: '--secret-field-selector: "type" is not a requirement (field=value, field==value or field!=value)' });
      expect(parseRunArguments(['--secret-field-selector='])).toEqual({ ok: false, message: '--secret-field-selector needs a value' });
    });

    it('lists each flag with its value in --help (shell completion reads the flags from there)', async () => {
      let help = '';
      expect(await runOperatorCommand(['--help'], { stdout: (text) => { help += text; }, stderr: () => {} })).toBe(0);
      for (const flag of ['--namespaces <', '--deny-namespaces <', '--prometheus-instance-selector <', '--alertmanager-instance-selector <', '--thanos-ruler-instance-selector <', '--secret-field-selector <', '--secret-label-selector <', '--log-level <', '--log-format <']) {
        expect(help).toContain(flag);
      }
    });

    it('shows examples in --help, and each of them parses', async () => {
      let help = '';
      await runOperatorCommand(['--help'], { stdout: (text) => { help += text; }, stderr: () => {} });
      const examples = help.split('\n').filter((line) => line.startsWith('  promop run ')).map((line) => line.slice('  promop run '.length).split(' '));
      expect(examples.length).toBeGreaterThanOrEqual(2);
      for (const args of examples) expect(parseRunArguments(args)).toMatchObject({ ok: true, help: false });
    });

    it('takes prometheus-operator\'s log levels and json or logfmt', () => {
      expect(parseRunArguments(['--log-level=debug', '--log-format', 'logfmt'])).toMatchObject({ ok: true, logLevel: 'debug', logFormat: 'logfmt' });
      expect(parseRunArguments(['--log-level', 'none'])).toMatchObject({ ok: true, logLevel: 'none' });
      expect(parseRunArguments(['--log-level=verbose'])).toEqual({ ok: false, message: '--log-level is one of all, debug, info, warn, error, none' });
      expect(parseRunArguments(['--log-format=text'])).toEqual({ ok: false, message: '--log-format is one of json, logfmt' });
    });
  });

  it('manages the CRDs by default; --manage-crds=false leaves them to the chart or another tool', () => {
    expect(parseRunArguments([])).toMatchObject({ ok: true, manageCrds: true });
    expect(parseRunArguments(['--manage-crds'])).toMatchObject({ ok: true, manageCrds: true });
    expect(parseRunArguments(['--manage-crds=false'])).toMatchObject({ ok: true, manageCrds: false });
    expect(parseRunArguments(['--manage-crds=no'])).toEqual({ ok: false, message: '--manage-crds is true or false' });
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
