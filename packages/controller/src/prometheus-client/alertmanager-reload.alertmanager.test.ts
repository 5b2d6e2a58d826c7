/**
 * reloadAndVerifyAlertmanager against a real Alertmanager 0.35, with the kubelet played by the test: it rewrites
 * the configuration file (now, late, never, or with a configuration Alertmanager refuses) and promop must tell
 * which happened. The receivers are webhooks to a closed loopback port; no alert is ever sent.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startAlertmanager, type AlertmanagerProcess } from '@promop/testkit';
import { alertmanagerConfigHash, configMetrics } from './alertmanager-reload.ts';
import { PrometheusReloader } from './prometheus-reloader.ts';

/** A configuration whose one receiver is named `receiver` (and, as the kubelet's files are, ends without surprises). */
function configWith(receiver: string, groupWait = '30s'): string {
  return [
    'route:',
    `  receiver: ${receiver}`,
    `  group_wait: ${groupWait}`,
    'receivers:',
    `- name: ${receiver}`,
    '  webhook_configs:',
    '  - url: http://127.0.0.1:1/hook',
    '',
  ].join('\n');
}

describe('promop reloading a real Alertmanager after the kubelet updates its file', () => {
  let dir: string;
  let configFile: string;
  let alertmanager: AlertmanagerProcess;
  const reloader = new PrometheusReloader({ allowedNetworks: ['127.0.0.1'], initialDelayMs: 100, maxDelayMs: 400 });
  /** Replaces the file at once, as the kubelet's symlink swap does (Alertmanager never reads half a file). */
  const write = (text: string) => {
    writeFileSync(`${configFile}.new`, text);
    renameSync(`${configFile}.new`, configFile);
  };
  const reload = (expectedConfigText: string, timeoutMs = 10_000) =>
    reloader.reloadAndVerify({ program: 'alertmanager', baseUrl: alertmanager.url, expectedConfigText, timeoutMs });
  const loadedHash = async () => configMetrics(await (await fetch(`${alertmanager.url}/metrics`)).text()).hash;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promop-am-reload-'));
    configFile = join(dir, 'alertmanager.yaml');
    write(configWith('first'));
    alertmanager = await startAlertmanager(configFile, { routePrefix: '/am' });
  });

  afterAll(async () => {
    await alertmanager?.stop();
    await reloader.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('computes the hash Alertmanager reports for the file it runs', async () => {
    expect(await loadedHash()).toBe(alertmanagerConfigHash(configWith('first')));
    expect(alertmanagerConfigHash(configWith('first'))).not.toBe(alertmanagerConfigHash(configWith('first', '31s')));
  });

  it('verifies a file already on disk in one attempt, below the route prefix', async () => {
    write(configWith('second'));
    const outcome = await reload(configWith('second'));
    expect(outcome).toMatchObject({ outcome: 'verified', attempts: 1 });
    expect(await loadedHash()).toBe(alertmanagerConfigHash(configWith('second')));
  });

  it('reloads again until a late file arrives', async () => {
    const late = setTimeout(() => write(configWith('third')), 700);
    const outcome = await reload(configWith('third'));
    clearTimeout(late);
    expect(outcome.outcome).toBe('verified');
    expect(outcome.attempts).toBeGreaterThan(1);
  });

  it('reports stale when the file never arrives, with both hashes', async () => {
    const outcome = await reload(configWith('never'), 1_500);
    expect(outcome).toMatchObject({
      outcome: 'stale',
      difference: `the loaded configuration has hash ${alertmanagerConfigHash(configWith('third'))}, the written one ${alertmanagerConfigHash(configWith('never'))}`,
    });
  });

  it('reports a file Alertmanager refuses with its own reason, while it keeps running the one before', async () => {
    const refused = configWith('fourth').replace('receiver: fourth\n  group_wait', 'receiver: nobody\n  group_wait');
    write(refused);
    const outcome = await reload(refused);
    expect(outcome).toMatchObject({ outcome: 'rejected', attempts: 1 });
    expect(outcome.outcome === 'rejected' && outcome.reason).toMatch(/undefined receiver "nobody" used in route/);
    expect(await loadedHash()).toBe(alertmanagerConfigHash(configWith('third')));
    write(configWith('fifth'));
    expect(await reload(configWith('fifth'))).toMatchObject({ outcome: 'verified' });
  });

  it('never dials an address outside the allowed networks', async () => {
    const outcome = await reloader.reloadAndVerify({ program: 'alertmanager', baseUrl: 'http://10.1.2.3:9093', expectedConfigText: configWith('x'), timeoutMs: 1_000 });
    expect(outcome).toMatchObject({ outcome: 'refused', attempts: 1 });
  });
});
