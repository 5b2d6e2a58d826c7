/**
 * The cluster TLS file promop writes for `spec.clusterTLS`, run by real Alertmanagers meshed on 127.0.0.1: two peers
 * started with it (its paths moved under a temporary root, where the test puts the Secrets' files as the kubelet
 * would mount them) form one mesh and gossip a silence to each other; a peer started without it (plain-text gossip)
 * is never let in.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_ALERTMANAGER_CONFIG } from '@promop/config-generator';
import { createClientCert, createPki, eventually, freePort, mountBelowRoot, startAlertmanager, type AlertmanagerProcess } from '@promop/testkit';
import { CLUSTER_TLS_DIR, alertmanagerTlsOf, alertmanagerTlsReferences, type AlertmanagerTls } from './alertmanager-tls.ts';

interface ClusterStatus { cluster: { status: string; peers?: { name: string; address: string }[] } }

describe('a real Alertmanager mesh with the cluster TLS file promop writes', () => {
  let dir: string;
  const peers: AlertmanagerProcess[] = [];
  let plain: AlertmanagerProcess | undefined;

  const peerCount = async (alertmanager: AlertmanagerProcess) => (JSON.parse((await alertmanager.get('/api/v2/status')).body) as ClusterStatus).cluster.peers?.length ?? 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'promop-am-cluster-tls-'));
    const pki = createPki(dir);
    // A peer's client certificate (extendedKeyUsage=clientAuth), signed by the CA the servers verify clients with.
    const client = createClientCert(dir, 'peer', 'alertmanager-peer', []);
    const built = alertmanagerTlsOf({
      clusterTLS: {
        server: {
          cert: { secret: { name: 'mesh', key: 'tls.crt' } }, keySecret: { name: 'mesh', key: 'tls.key' },
          client_ca: { secret: { name: 'mesh', key: 'ca.crt' } }, clientAuthType: 'RequireAndVerifyClientCert',
        },
        client: {
          cert: { secret: { name: 'mesh-client', key: 'tls.crt' } }, keySecret: { name: 'mesh-client', key: 'tls.key' },
          ca: { secret: { name: 'mesh', key: 'ca.crt' } }, serverName: 'localhost',
        },
      },
    });
    if (!built.ok) throw new Error(JSON.stringify(built.problems));
    const tls: AlertmanagerTls = built.value;
    const files: Record<string, string> = {
      'mesh/tls.crt': pki.servingCert, 'mesh/tls.key': pki.servingKey, 'mesh/ca.crt': pki.caCert,
      'mesh-client/tls.crt': client.cert, 'mesh-client/tls.key': client.key,
    };
    // Each Secret key where the pod would have it mounted, below the test's root.
    const mounted = Object.fromEntries(alertmanagerTlsReferences(tls).map((reference) => [`${reference.mountPath}/${reference.key}`, files[`${reference.name}/${reference.key}`]!]));
    const tlsConfigFile = join(dir, 'cluster-tls-config.yaml');
    writeFileSync(tlsConfigFile, mountBelowRoot(join(dir, 'root'), CLUSTER_TLS_DIR, tls.cluster!.text, mounted));
    const configFile = join(dir, 'alertmanager.yaml');
    writeFileSync(configFile, DEFAULT_ALERTMANAGER_CONFIG);

    const [first, second, third] = [await freePort(), await freePort(), await freePort()];
    peers.push(await startAlertmanager(configFile, { cluster: { port: first!, peers: [`127.0.0.1:${second}`], tlsConfigFile, label: 'monitoring/main' } }));
    peers.push(await startAlertmanager(configFile, { cluster: { port: second!, peers: [`127.0.0.1:${first}`], tlsConfigFile, label: 'monitoring/main' } }));
    plain = await startAlertmanager(configFile, { cluster: { port: third!, peers: [`127.0.0.1:${first}`, `127.0.0.1:${second}`], label: 'monitoring/main' } });
  }, 60_000);

  afterAll(async () => {
    await Promise.all([...peers, ...(plain ? [plain] : [])].map((each) => each.stop()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('lets the two TLS peers form one mesh and gossip a silence', async () => {
    await eventually(() => peerCount(peers[0]!), (count) => count === 2, 30_000);
    expect(await peerCount(peers[1]!)).toBe(2);
    const silence = { matchers: [{ name: 'alertname', value: 'Gossiped', isRegex: false }], startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + 3_600_000).toISOString(), createdBy: 'test', comment: 'mesh' };
    const created = await fetch(`${peers[0]!.url}/api/v2/silences`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(silence) });
    expect(created.status).toBe(200);
    const gossiped = await eventually(async () => JSON.parse((await peers[1]!.get('/api/v2/silences')).body) as { comment: string }[], (list) => list.length === 1, 30_000);
    expect(gossiped[0]?.comment).toBe('mesh');
  }, 70_000);

  it('never lets in a peer gossiping in plain text', async () => {
    // Once settled, the plain peer has tried to join both TLS peers (at start, and while settling).
    const status = async () => (JSON.parse((await plain!.get('/api/v2/status')).body) as ClusterStatus).cluster.status;
    await eventually(status, (each) => each === 'ready', 30_000);
    expect(await peerCount(plain!)).toBe(1);
    expect(await peerCount(peers[0]!)).toBe(2);
  }, 40_000);
});
