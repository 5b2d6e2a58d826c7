/**
 * ChildWriter's create-or-replace of the Secrets and ConfigMaps promop fills alone, against the real API server,
 * as the operator's least-privilege identity (OPERATOR_CLUSTER_ROLE_RULES, so a missing verb fails here).
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1ConfigMap, type V1Secret } from '@kubernetes/client-node';
import { sharedTestEnv } from '@promop/e2e';
import { randomBytes } from 'node:crypto';
import { operatorIdentity } from '../test-support/operator-identity.ts';
import { ChildWriter } from './child-writer.ts';

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('ChildWriter.writeSecret / writeConfigMap', () => {
  const admin = sharedTestEnv().kubeConfig();
  const adminCore = admin.makeApiClient(CoreV1Api);
  const namespace = `child-writer-${randomBytes(3).toString('hex')}`;
  let operator: KubeConfig;
  let writer: ChildWriter;

  beforeAll(async () => {
    await adminCore.createNamespace({ body: { metadata: { name: namespace } } });
    operator = await operatorIdentity(admin, namespace, namespace);
    writer = new ChildWriter(operator);
  });

  afterAll(async () => {
    await adminCore.deleteNamespace({ name: namespace }).catch(() => {});
  });

  const secret = (name: string, data: Record<string, string>, labels: Record<string, string> = { 'app.kubernetes.io/managed-by': 'promop' }): V1Secret => ({
    apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
    metadata: { name, namespace, labels, annotations: { 'promop.prometheus.io/applied-hash': Object.keys(data).join(',') } },
    data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, base64(value)])),
  });

  it('creates, replaces with new content, and leaves an unchanged body unwritten', async () => {
    const created = await writer.writeSecret(secret('plain', { 'a.yaml': 'one' }), undefined);
    expect(created.data).toEqual({ 'a.yaml': base64('one') });

    const replaced = await writer.writeSecret(secret('plain', { 'b.yaml': 'two' }), created);
    // The key promop no longer sends is gone: the data map is promop's entirely.
    expect(replaced.data).toEqual({ 'b.yaml': base64('two') });
    expect(replaced.metadata?.resourceVersion).not.toBe(created.metadata?.resourceVersion);
    expect(replaced.metadata?.uid).toBe(created.metadata?.uid);

    const again = await writer.writeSecret(secret('plain', { 'b.yaml': 'two' }), replaced);
    expect(again.metadata?.resourceVersion).toBe(replaced.metadata?.resourceVersion);
  });

  it("keeps the labels, annotations and finalizers others added and removes the data keys they added", async () => {
    const created = await writer.writeSecret(secret('shared', { 'prometheus.yaml': 'global: {}' }), undefined);
    const edited = await adminCore.patchNamespacedSecret({
      name: 'shared', namespace,
      body: {
        metadata: { labels: { 'policy.example.com/team': 'a' }, annotations: { 'gitops.example.com/synced': 'yes' }, finalizers: ['example.com/hold'] },
        data: { 'extra.yaml': base64('injected') },
      },
    }, MERGE_PATCH);
    try {
      const replaced = await writer.writeSecret(secret('shared', { 'prometheus.yaml': 'global: {scrape_interval: 1m}' }), edited);
      expect(replaced.data).toEqual({ 'prometheus.yaml': base64('global: {scrape_interval: 1m}') });
      expect(replaced.metadata?.labels).toEqual({ 'app.kubernetes.io/managed-by': 'promop', 'policy.example.com/team': 'a' });
      expect(replaced.metadata?.annotations).toEqual({ 'promop.prometheus.io/applied-hash': 'prometheus.yaml', 'gitops.example.com/synced': 'yes' });
      expect(replaced.metadata?.finalizers).toEqual(['example.com/hold']);
      expect(replaced.metadata?.uid).toBe(created.metadata?.uid);
    } finally {
      await adminCore.patchNamespacedSecret({ name: 'shared', namespace, body: { metadata: { finalizers: null } } }, MERGE_PATCH);
    }
  });

  it('writes over a stale cached object (409) and over one its cache has not seen yet (AlreadyExists)', async () => {
    const first = await writer.writeSecret(secret('stale', { 'a.yaml': '1' }), undefined);
    const second = await writer.writeSecret(secret('stale', { 'a.yaml': '2' }), first);
    // `first` is what a cache that has not yet heard of the second write would still hold.
    const third = await writer.writeSecret(secret('stale', { 'a.yaml': '3' }), first);
    expect(third.data).toEqual({ 'a.yaml': base64('3') });
    expect(third.metadata?.resourceVersion).not.toBe(second.metadata?.resourceVersion);

    // No cached object at all, but it exists.
    const fourth = await writer.writeSecret(secret('stale', { 'a.yaml': '4' }), undefined);
    expect(fourth.data).toEqual({ 'a.yaml': base64('4') });
    expect((await adminCore.readNamespacedSecret({ name: 'stale', namespace })).data).toEqual({ 'a.yaml': base64('4') });
  });

  it('creates again when the cached object has been deleted since', async () => {
    const created = await writer.writeSecret(secret('deleted', { 'a.yaml': '1' }), undefined);
    await adminCore.deleteNamespacedSecret({ name: 'deleted', namespace });
    const recreated = await writer.writeSecret(secret('deleted', { 'a.yaml': '2' }), created);
    expect(recreated.data).toEqual({ 'a.yaml': base64('2') });
    expect(recreated.metadata?.uid).not.toBe(created.metadata?.uid);
  });

  it('writes ConfigMaps the same way: a key another manager added to data or binaryData goes', async () => {
    const configMap = (data: Record<string, string>): V1ConfigMap => ({
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rules', namespace, labels: { 'app.kubernetes.io/managed-by': 'promop' } }, data,
    });
    const created = await writer.writeConfigMap(configMap({ 'team-a.yaml': 'groups: []' }), undefined);
    const edited = await adminCore.patchNamespacedConfigMap({
      name: 'rules', namespace, body: { data: { 'rogue.yaml': 'groups: []' }, binaryData: { 'blob.gz': base64('x') } },
    }, MERGE_PATCH);
    expect(Object.keys(edited.data ?? {}).sort()).toEqual(['rogue.yaml', 'team-a.yaml']);
    const replaced = await writer.writeConfigMap(configMap({ 'team-a.yaml': 'groups: []', 'team-b.yaml': 'groups: []' }), edited);
    expect(replaced.data).toEqual({ 'team-a.yaml': 'groups: []', 'team-b.yaml': 'groups: []' });
    expect(replaced.binaryData).toBeUndefined();
    expect(replaced.metadata?.uid).toBe(created.metadata?.uid);
  });
});
