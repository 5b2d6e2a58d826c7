import { parseRunArguments, runOperatorCommand } from './run-command.ts';

describe('promop run', () => {
  it('takes an optional --kubeconfig path, in both spellings', () => {
    expect(parseRunArguments([])).toEqual({ ok: true, kubeconfig: undefined, metricsAddress: ':8080', help: false });
    expect(parseRunArguments(['--kubeconfig', '/k'])).toEqual({ ok: true, kubeconfig: '/k', metricsAddress: ':8080', help: false });
    expect(parseRunArguments(['--kubeconfig=/k'])).toEqual({ ok: true, kubeconfig: '/k', metricsAddress: ':8080', help: false });
    expect(parseRunArguments(['--metrics-address', '127.0.0.1:9000'])).toMatchObject({ ok: true, metricsAddress: '127.0.0.1:9000' });
    expect(parseRunArguments(['--metrics-address=127.0.0.1:9000'])).toMatchObject({ ok: true, metricsAddress: '127.0.0.1:9000' });
    expect(parseRunArguments(['--metrics-address'])).toEqual({ ok: false, message: '--metrics-address needs host:port' });
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
