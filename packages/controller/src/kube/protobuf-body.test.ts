/** protobufBodyOf (pure): the bytes of Kubernetes' protobuf form of a Secret or ConfigMap, and what it refuses. */
import { base64Data } from '../workload/secret-size.ts';
import { protobufBodyOf } from './protobuf-body.ts';

const hex = (bytes: Buffer | undefined) => bytes?.toString('hex');
const ascii = (text: string) => Buffer.from(text, 'utf8').toString('hex');

/** One field of a message: its number, and its bytes (length-delimited) or value (varint). */
type Field = { field: number; bytes: Buffer } | { field: number; varint: bigint };

/** The fields of a protobuf message, in order (varints and length-delimited fields, the two wire types written). */
function fields(message: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  const readVarint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = message[at++];
      if (byte === undefined) throw new Error('truncated varint');
      value |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < message.length) {
    const tag = Number(readVarint());
    const field = tag >> 3;
    if ((tag & 7) === 0) out.push({ field, varint: readVarint() });
    else if ((tag & 7) === 2) {
      const length = Number(readVarint());
      out.push({ field, bytes: message.subarray(at, at + length) });
      at += length;
      if (at > message.length) throw new Error('truncated field');
    } else throw new Error(`unexpected wire type ${tag & 7}`);
  }
  return out;
}

const bytesOf = (list: Field[], field: number): Buffer[] => list.filter((f) => f.field === field).map((f) => ('bytes' in f ? f.bytes : Buffer.alloc(0)));
const one = (list: Field[], field: number): Buffer => {
  const found = bytesOf(list, field);
  if (found.length !== 1) throw new Error(`field ${field}: ${found.length} times`);
  return found[0] as Buffer;
};
/** The raw object message inside `k8s\0` + runtime.Unknown, after checking the envelope. */
function rawOf(body: Buffer | undefined, kind: string): Field[] {
  if (!body) throw new Error('not encoded');
  expect(body.subarray(0, 4)).toEqual(Buffer.from('k8s\0', 'latin1'));
  const unknown = fields(body.subarray(4));
  const typeMeta = fields(one(unknown, 1));
  expect(one(typeMeta, 1).toString()).toBe('v1');
  expect(one(typeMeta, 2).toString()).toBe(kind);
  return fields(one(unknown, 2));
}
/** The entries of a map field as [key, value] in wire order. */
const mapOf = (list: Field[], field: number): [string, Buffer][] => bytesOf(list, field).map((entry) => {
  const kv = fields(entry);
  return [one(kv, 1).toString('utf8'), one(kv, 2)];
});

describe('protobufBodyOf', () => {
  it('writes a small ConfigMap as the magic bytes and a runtime.Unknown around ConfigMap{metadata=1, data=2}', () => {
    const body = protobufBodyOf('ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { k: 'v' } });
    const raw = '0a03' + '0a01' + ascii('a') + '1206' + '0a01' + ascii('k') + '1201' + ascii('v');
    const typeMeta = '0a02' + ascii('v1') + '1209' + ascii('ConfigMap');
    expect(hex(body)).toBe('6b387300' + '0a0f' + typeMeta + '120d' + raw);
  });

  it('writes a Secret as Secret{metadata=1, data=2 as bytes, type=3, stringData=4, immutable=5}, data decoded from base64', () => {
    const body = protobufBodyOf('Secret', {
      apiVersion: 'v1', kind: 'Secret', type: 'Opaque', immutable: false,
      metadata: { name: 's', namespace: 'n' }, data: { bin: Buffer.from([0, 0xff, 0x80]).toString('base64'), empty: '' }, stringData: { t: 'x' },
    });
    const meta = '0a01' + ascii('s') + '1a01' + ascii('n');
    const bin = '0a03' + ascii('bin') + '1203' + '00ff80';
    const empty = '0a05' + ascii('empty') + '1200';
    const raw = '0a06' + meta + '120a' + bin + '1209' + empty + '1a06' + ascii('Opaque') + '2206' + '0a01' + ascii('t') + '1201' + ascii('x') + '2800';
    expect(hex(body)).toBe('6b387300' + '0a0c' + '0a02' + ascii('v1') + '1206' + ascii('Secret') + '12' + (raw.length / 2).toString(16) + raw);
  });

  it('writes a Secret whose data base64Data made from the texts themselves, to the same bytes as from its base64', () => {
    const texts = { 'b.yaml': 'jobs: ünïcode ✓\n'.repeat(1000), 'a.yaml': '', 'c.yaml': 'x' };
    const made = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'n' }, type: 'Opaque', data: base64Data(texts) };
    const copied = { ...made, data: { ...made.data } };
    const body = protobufBodyOf('Secret', made);
    expect(body).toBeDefined();
    expect(hex(body)).toBe(hex(protobufBodyOf('Secret', copied)));
    // Frozen, so the texts it is noted with are always what its base64 says.
    expect(Object.isFrozen(made.data)).toBe(true);
  });

  it('writes every ObjectMeta field promop sends with its field number, and owner references and finalizers in order', () => {
    const raw = rawOf(protobufBodyOf('Secret', {
      metadata: {
        name: 'n', generateName: 'g', namespace: 'ns', selfLink: 'l', uid: 'u', resourceVersion: '42', generation: 3,
        creationTimestamp: '2026-12-02T01:02:03Z', deletionTimestamp: '2026-12-02T02:02:03.5+01:00', deletionGracePeriodSeconds: -1,
        labels: { l: '1' }, annotations: { a: '2' }, finalizers: ['f/1', 'f/2'],
        ownerReferences: [
          { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', name: 'main', uid: 'p-1', controller: true, blockOwnerDeletion: true },
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'other', uid: 'c-9' },
        ],
      },
    }), 'Secret');
    const meta = fields(one(raw, 1));
    const strings = Object.fromEntries([1, 2, 3, 4, 5, 6].map((field) => [field, one(meta, field).toString()]));
    expect(strings).toEqual({ 1: 'n', 2: 'g', 3: 'ns', 4: 'l', 5: 'u', 6: '42' });
    expect(meta.find((f) => f.field === 7)).toEqual({ field: 7, varint: 3n });
    const seconds = BigInt(Date.UTC(2026, 11, 2, 1, 2, 3) / 1000);
    expect(fields(one(meta, 8))).toEqual([{ field: 1, varint: seconds }]);
    // 02:02:03.5 at +01:00 is 01:02:03.5 UTC.
    expect(fields(one(meta, 9))).toEqual([{ field: 1, varint: seconds }, { field: 2, varint: 500_000_000n }]);
    // A negative int64 takes ten bytes (two's complement), as Go writes it.
    expect(meta.find((f) => f.field === 10)).toEqual({ field: 10, varint: 2n ** 64n - 1n });
    expect(hex(one(raw, 1))).toContain('50ffffffffffffffffff01');
    expect(mapOf(meta, 11)).toEqual([['l', Buffer.from('1')]]);
    expect(mapOf(meta, 12)).toEqual([['a', Buffer.from('2')]]);
    expect(bytesOf(meta, 14).map(String)).toEqual(['f/1', 'f/2']);
    const owners = bytesOf(meta, 13).map(fields);
    expect(owners.map((ref) => [1, 3, 4, 5].map((field) => one(ref, field).toString()))).toEqual([
      ['Prometheus', 'main', 'p-1', 'monitoring.coreos.com/v1'],
      ['ConfigMap', 'other', 'c-9', 'v1'],
    ]);
    expect(owners[0]?.filter((f) => f.field >= 6)).toEqual([{ field: 6, varint: 1n }, { field: 7, varint: 1n }]);
    expect(owners[1]?.filter((f) => f.field >= 6)).toEqual([]);
  });

  it("writes map entries sorted by the key's UTF-8 bytes, whatever the object's key order, so equal objects make equal bytes", () => {
    // UTF-16 order would put the emoji (a surrogate pair, 0xd83d...) before U+FF01; UTF-8 order (0xf0... after 0xef...) does not.
    const labels = { b: '2', '\u{1F600}': 'emoji', a: '1', Z: '0', '\uFF01': 'fullwidth', 'é': 'e' };
    const raw = rawOf(protobufBodyOf('ConfigMap', { metadata: { name: 'x', labels } }), 'ConfigMap');
    expect(mapOf(fields(one(raw, 1)), 11).map(([key]) => key)).toEqual(['Z', 'a', 'b', 'é', '\uFF01', '\u{1F600}']);
    const reordered = Object.fromEntries(Object.entries(labels).reverse());
    expect(protobufBodyOf('ConfigMap', { metadata: { name: 'x', labels: reordered } })).toEqual(protobufBodyOf('ConfigMap', { metadata: { name: 'x', labels } }));
  });

  it('writes text values as UTF-8 and binaryData as the bytes of its base64', () => {
    const text = 'größe: "日本" \u0000 \t end';
    const raw = rawOf(protobufBodyOf('ConfigMap', {
      metadata: { name: 'x' }, data: { 'a.yaml': text }, binaryData: { 'b.gz': Buffer.from([0x1f, 0x8b, 0]).toString('base64') }, immutable: true,
    }), 'ConfigMap');
    expect(mapOf(raw, 2)).toEqual([['a.yaml', Buffer.from(text, 'utf8')]]);
    expect(mapOf(raw, 3)).toEqual([['b.gz', Buffer.from([0x1f, 0x8b, 0])]]);
    expect(raw.find((f) => f.field === 4)).toEqual({ field: 4, varint: 1n });
  });

  it('treats null and undefined fields as absent, as Go reads JSON null for them', () => {
    const plain = protobufBodyOf('Secret', { metadata: { name: 'x' } });
    expect(protobufBodyOf('Secret', { metadata: { name: 'x', creationTimestamp: null, labels: undefined }, data: null, type: undefined })).toEqual(plain);
    expect(plain).toBeDefined();
  });

  it.each([
    ['managedFields', { metadata: { name: 'x', managedFields: [{ manager: 'kubectl', operation: 'Update' }] } }],
    ['a field this encoder does not know', { metadata: { name: 'x' }, spec: {} }],
    ['an ObjectMeta field it does not know', { metadata: { name: 'x', labelz: {} } }],
    ['an OwnerReference field it does not know', { metadata: { name: 'x', ownerReferences: [{ kind: 'A', name: 'a', uid: 'u', apiVersion: 'v1', blocking: true }] } }],
    ['a label value that is not a string', { metadata: { name: 'x', labels: { a: 1 } } }],
    ['a null map value', { metadata: { name: 'x', annotations: { a: null } } }],
    ['data that is not canonical base64 (no padding)', { metadata: { name: 'x' }, data: { a: 'YQ' } }],
    ['data that is not base64 at all', { metadata: { name: 'x' }, data: { a: 'not base64!' } }],
    ['a timestamp that is not RFC 3339', { metadata: { name: 'x', creationTimestamp: '2026-12-02 01:02:03' } }],
    ['a timestamp out of range', { metadata: { name: 'x', creationTimestamp: '2026-02-30T01:02:03Z' } }],
    ['a generation that is not an integer', { metadata: { name: 'x', generation: 1.5 } }],
    ['another apiVersion', { apiVersion: 'v2', metadata: { name: 'x' } }],
    ['another kind', { kind: 'ConfigMap', metadata: { name: 'x' } }],
    ['a string where a bool belongs', { metadata: { name: 'x' }, immutable: 'true' }],
  ])('leaves a Secret with %s to JSON (undefined)', (_what, secret) => {
    expect(protobufBodyOf('Secret', secret)).toBeUndefined();
  });

  it("refuses a ConfigMap's Secret-only fields and the reverse", () => {
    expect(protobufBodyOf('ConfigMap', { metadata: { name: 'x' }, type: 'Opaque' })).toBeUndefined();
    expect(protobufBodyOf('Secret', { metadata: { name: 'x' }, binaryData: {} })).toBeUndefined();
  });
});
