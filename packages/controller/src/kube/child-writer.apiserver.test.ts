/**
 * ChildWriter's create-or-replace of the Secrets and ConfigMaps promop fills alone, against the real API server,
 * as the operator's least-privilege identity (OPERATOR_CLUSTER_ROLE_RULES, so a missing verb fails here). The
 * writes go as protobuf and answer metadata only, so what is stored is read back with a JSON GET; the last tests
 * compare it with what the same writes sent as JSON store.
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1ConfigMap, type V1ObjectMeta, type V1Secret } from '@kubernetes/client-node';
import { sharedTestEnv } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { operatorIdentity } from '../test-support/operator-identity.ts';
import { ChildWriter, replacementOf } from './child-writer.ts';
import { FIELD_MANAGER } from './field-manager.ts';
import { PROTOBUF_CONTENT_TYPE } from './protobuf-body.ts';
import { KubeApiError, METADATA_ACCEPT, RawApi, namespacedPath, type KubeAccess } from './raw-api.ts';
import type { PartialObjectMetadata } from './watched-cache.ts';

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('ChildWriter.writeSecret / writeConfigMap', () => {
  const admin = sharedTestEnv().kubeConfig();
  const adminCore = admin.makeApiClient(CoreV1Api);
  const namespace = `child-writer-${randomBytes(3).toString('hex')}`;
  let operator: KubeConfig;
  let writer: ChildWriter;
  /** `METHOD Content-Type Accept` of each request the writer sent. */
  const sent: string[] = [];

  beforeAll(async () => {
    await adminCore.createNamespace({ body: { metadata: { name: namespace } } });
    operator = await operatorIdentity(admin, namespace, namespace);
    const recording: KubeAccess = {
      getCurrentCluster: () => operator.getCurrentCluster(),
      applyToHTTPSOptions: async (options) => {
        const headers = (options.headers ?? {}) as Record<string, unknown>;
        sent.push(`${options.method} ${String(headers['Content-Type'] ?? '-')} ${String(headers.Accept)}`);
        return operator.applyToHTTPSOptions(options);
      },
    };
    writer = new ChildWriter(recording);
  });

  afterAll(async () => {
    await adminCore.deleteNamespace({ name: namespace }).catch(() => {});
  });

  const secret = (name: string, data: Record<string, string>, labels: Record<string, string> = { 'app.kubernetes.io/managed-by': 'promop' }): V1Secret => ({
    apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
    metadata: { name, namespace, labels, annotations: { 'promop.prometheus.io/applied-hash': Object.keys(data).join(',') } },
    data: Object.fromEntries(Object.entries(data).map(([key, value]) => [key, base64(value)])),
  });

  const storedSecret = async (name: string) => adminCore.readNamespacedSecret({ name, namespace });

  it('creates, replaces with new content, and leaves an unchanged body unwritten', async () => {
    sent.length = 0;
    const created = await writer.writeSecret(secret('plain', { 'a.yaml': 'one' }), undefined);
    expect((await storedSecret('plain')).data).toEqual({ 'a.yaml': base64('one') });

    const replaced = await writer.writeSecret(secret('plain', { 'b.yaml': 'two' }), created);
    // The key promop no longer sends is gone: the data map is promop's entirely.
    expect((await storedSecret('plain')).data).toEqual({ 'b.yaml': base64('two') });
    expect(replaced.metadata?.resourceVersion).not.toBe(created.metadata?.resourceVersion);
    expect(replaced.metadata?.uid).toBe(created.metadata?.uid);

    const again = await writer.writeSecret(secret('plain', { 'b.yaml': 'two' }), replaced);
    expect(again.metadata?.resourceVersion).toBe(replaced.metadata?.resourceVersion);
    // Each write went as protobuf and asked for metadata only...
    expect(sent).toEqual(['POST', 'PUT', 'PUT'].map((method) => `${method} ${PROTOBUF_CONTENT_TYPE} ${METADATA_ACCEPT}`));
    // ...and the API server's create and update handlers answered just that: no data, the stored metadata.
    for (const answer of [created, replaced, again]) {
      expect(answer).toEqual({ apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: expect.objectContaining({ name: 'plain', namespace }) });
      expect(answer.metadata?.labels).toEqual({ 'app.kubernetes.io/managed-by': 'promop' });
    }
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
      expect((await storedSecret('shared')).data).toEqual({ 'prometheus.yaml': base64('global: {scrape_interval: 1m}') });
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
    sent.length = 0;
    const third = await writer.writeSecret(secret('stale', { 'a.yaml': '3' }), first);
    expect((await storedSecret('stale')).data).toEqual({ 'a.yaml': base64('3') });
    // The replace refused (409), a read of the metadata alone, the replace again.
    expect(sent).toEqual([`PUT ${PROTOBUF_CONTENT_TYPE} ${METADATA_ACCEPT}`, `GET - ${METADATA_ACCEPT}`, `PUT ${PROTOBUF_CONTENT_TYPE} ${METADATA_ACCEPT}`]);
    expect(third.metadata?.resourceVersion).not.toBe(second.metadata?.resourceVersion);

    // No cached object at all, but it exists.
    const fourth = await writer.writeSecret(secret('stale', { 'a.yaml': '4' }), undefined);
    expect(fourth.metadata?.resourceVersion).not.toBe(third.metadata?.resourceVersion);
    expect((await storedSecret('stale')).data).toEqual({ 'a.yaml': base64('4') });
  });

  it('creates again when the cached object has been deleted since', async () => {
    const created = await writer.writeSecret(secret('deleted', { 'a.yaml': '1' }), undefined);
    await adminCore.deleteNamespacedSecret({ name: 'deleted', namespace });
    const recreated = await writer.writeSecret(secret('deleted', { 'a.yaml': '2' }), created);
    expect((await storedSecret('deleted')).data).toEqual({ 'a.yaml': base64('2') });
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
    const stored = await adminCore.readNamespacedConfigMap({ name: 'rules', namespace });
    expect(stored.data).toEqual({ 'team-a.yaml': 'groups: []', 'team-b.yaml': 'groups: []' });
    expect(stored.binaryData).toBeUndefined();
    expect(replaced.metadata?.uid).toBe(created.metadata?.uid);
  });

  it("sends a body with a field the protobuf encoder does not know as JSON, and the API server's refusal stays a KubeApiError", async () => {
    sent.length = 0;
    // Not canonical base64: Go's JSON decoder refuses it, where a lenient decoder would guess.
    const error: unknown = await writer.writeSecret({ ...secret('unpadded', {}), data: { 'a.yaml': 'YQ' } }, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).code).toBe(400);
    expect((error as KubeApiError).message).not.toContain('YQ');
    expect(sent).toEqual([`POST application/json ${METADATA_ACCEPT}`]);
  });

  describe('stores what the same writes sent as JSON store', () => {
    /** The writes as they went before protobuf: JSON bodies, the whole object answered. */
    let json: RawApi;
    let owners: { apiVersion: string; kind: string; name: string; uid: string }[];

    beforeAll(async () => {
      json = new RawApi(operator);
      // Real owners: the garbage collector deletes an object whose owner does not exist.
      owners = await Promise.all(['owner-a', 'owner-b'].map(async (name) => {
        const owner = await adminCore.createNamespacedConfigMap({ namespace, body: { metadata: { name } } });
        return { apiVersion: 'v1', kind: 'ConfigMap', name, uid: owner.metadata?.uid ?? '' };
      }));
    });

    afterAll(() => json.close());

    type Whole = V1Secret | V1ConfigMap;
    const plural = (kind: 'Secret' | 'ConfigMap') => (kind === 'Secret' ? 'secrets' : 'configmaps');
    const read = (kind: 'Secret' | 'ConfigMap', name: string): Promise<Whole> =>
      kind === 'Secret' ? adminCore.readNamespacedSecret({ name, namespace }) : adminCore.readNamespacedConfigMap({ name, namespace });
    const named = <T extends Whole>(body: T, name: string): T => ({ ...body, metadata: { ...body.metadata, name } });

    /** Writes `body` as `p-<name>` through ChildWriter and as `j-<name>` as JSON (each over its own current). */
    async function writeBoth<T extends Whole>(kind: 'Secret' | 'ConfigMap', name: string, body: T, current?: { p: PartialObjectMetadata; j: PartialObjectMetadata }) {
      const viaWriter = named(body, `p-${name}`);
      const p = kind === 'Secret'
        ? await writer.writeSecret(viaWriter as V1Secret, current?.p)
        : await writer.writeConfigMap(viaWriter as V1ConfigMap, current?.p);
      const viaJson = named(body, `j-${name}`);
      const j = current
        ? await json.replace<T>(namespacedPath('/api/v1', namespace, plural(kind), `j-${name}`), replacementOf(viaJson, current.j), { fieldManager: FIELD_MANAGER })
        : await json.create<T>(namespacedPath('/api/v1', namespace, plural(kind)), viaJson, { fieldManager: FIELD_MANAGER });
      return { p, j };
    }

    /** Both objects as stored, without what differs between any two objects (name, uid, times, resourceVersion). */
    async function expectSameStored(kind: 'Secret' | 'ConfigMap', name: string): Promise<Whole> {
      const comparable = (object: Whole) => {
        const { name: _name, uid: _uid, resourceVersion: _rv, creationTimestamp: _created, managedFields, ...meta } = object.metadata ?? {};
        return { ...object, metadata: { ...meta, managedFields: managedFields?.map(({ time: _time, ...entry }) => entry) } as V1ObjectMeta };
      };
      const [p, j] = await Promise.all([read(kind, `p-${name}`), read(kind, `j-${name}`)]);
      expect(comparable(p)).toEqual(comparable(j));
      return p;
    }

    // Every byte value, text in several scripts with control characters, an empty value.
    const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i)).toString('base64');
    const text = 'naïve größe: "日本語" 🙂 \u0000 \t\r\n end';

    it('Secrets: a create, a replace over what others added (labels, annotations, finalizers, ownerReferences, a data key), empty data', async () => {
      const body = (data: Record<string, string>, extra: Partial<V1ObjectMeta> = {}): V1Secret => ({
        apiVersion: 'v1', kind: 'Secret', type: 'Opaque',
        metadata: { namespace, labels: { 'app.kubernetes.io/managed-by': 'promop' }, annotations: { 'promop.prometheus.io/applied-hash': 'h1' }, ownerReferences: [{ ...owners[0]!, controller: true, blockOwnerDeletion: true }], ...extra },
        data,
      });
      const created = await writeBoth('Secret', 'secret', body({ 'binary.bin': binary, 'text.yaml': base64(text), 'empty': '', 'dotted.file.name': base64('x') }));
      const stored = await expectSameStored('Secret', 'secret');
      expect(stored.data?.['binary.bin']).toBe(binary);
      expect(Buffer.from((stored as V1Secret).data?.['text.yaml'] ?? '', 'base64').toString('utf8')).toBe(text);

      // Others add a label, an annotation, a finalizer, an owner and a data key to both.
      const othersEdit = (name: string) => adminCore.patchNamespacedSecret({
        name, namespace,
        body: { metadata: { labels: { team: 'a' }, annotations: { note: 'kept' }, finalizers: ['example.com/hold'], ownerReferences: [...(created.p.metadata?.ownerReferences ?? []), owners[1]] }, data: { 'extra.yaml': base64('theirs') } },
      }, MERGE_PATCH);
      try {
        const edited = { p: await othersEdit('p-secret'), j: await othersEdit('j-secret') };
        await writeBoth('Secret', 'secret', body({ 'text.yaml': base64(`${text} v2`) }, { annotations: { 'promop.prometheus.io/applied-hash': 'h2' } }), edited);
        const replaced = await expectSameStored('Secret', 'secret');
        expect(replaced.data).toEqual({ 'text.yaml': base64(`${text} v2`) });
        expect(replaced.metadata?.finalizers).toEqual(['example.com/hold']);
        expect(replaced.metadata?.labels).toEqual({ 'app.kubernetes.io/managed-by': 'promop', team: 'a' });
        expect(replaced.metadata?.ownerReferences?.map((ref) => ref.name)).toEqual(['owner-b', 'owner-a']);
      } finally {
        for (const name of ['p-secret', 'j-secret']) await adminCore.patchNamespacedSecret({ name, namespace, body: { metadata: { finalizers: null } } }, MERGE_PATCH);
      }

      await writeBoth('Secret', 'empty', body({}));
      expect((await expectSameStored('Secret', 'empty')).data).toBeUndefined();
    });

    it('ConfigMaps: text with non-ASCII and control characters, binaryData, a replace, no data at all', async () => {
      const body = (data: Record<string, string> | undefined, binaryData?: Record<string, string>): V1ConfigMap => ({
        apiVersion: 'v1', kind: 'ConfigMap',
        metadata: { namespace, labels: { 'app.kubernetes.io/managed-by': 'promop' }, ownerReferences: [{ ...owners[0]!, controller: true }] },
        ...(data ? { data } : {}), ...(binaryData ? { binaryData } : {}),
      });
      const created = await writeBoth('ConfigMap', 'rules', body({ 'rules.yaml': text, 'empty.yaml': '' }, { 'blob.bin': binary }));
      const stored = await expectSameStored('ConfigMap', 'rules');
      expect((stored as V1ConfigMap).data).toEqual({ 'rules.yaml': text, 'empty.yaml': '' });
      expect((stored as V1ConfigMap).binaryData).toEqual({ 'blob.bin': binary });

      await writeBoth('ConfigMap', 'rules', body({ 'rules.yaml': `${text} v2` }), created);
      expect((await expectSameStored('ConfigMap', 'rules') as V1ConfigMap).data).toEqual({ 'rules.yaml': `${text} v2` });

      await writeBoth('ConfigMap', 'bare', body(undefined));
      expect((await expectSameStored('ConfigMap', 'bare') as V1ConfigMap).data).toBeUndefined();
    });
  });
});
