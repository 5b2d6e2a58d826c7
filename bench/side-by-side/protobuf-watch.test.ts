/**
 * The protobuf watch reader on hand-built bytes: frames come out whole whatever the chunking, each stamped with the
 * arrival of its last byte; Secrets, bookmarks and errors decode as the API server lays them out (a bare WatchEvent
 * per frame, its object in a `k8s\0` envelope), binary values byte for byte. And on frames kube-apiserver sent.
 */
import { decodeSecretWatchEvent, WatchFrameAssembler, type ArrivedFrame } from './protobuf-watch.ts';

// A minimal protobuf writer, for the test only: the reader under test must not check itself.
function varint(value: number): Buffer {
  const bytes: number[] = [];
  while (value >= 0x80) {
    bytes.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  bytes.push(value);
  return Buffer.from(bytes);
}
const bytesField = (number: number, value: Buffer | string): Buffer => {
  const payload = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([varint(number * 8 + 2), varint(payload.length), payload]);
};
const varintField = (number: number, value: number): Buffer => Buffer.concat([varint(number * 8), varint(value)]);
const message = (...fields: Buffer[]): Buffer => Buffer.concat(fields);

function envelope(kind: string, raw: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from('k8s\0', 'latin1'),
    message(bytesField(1, message(bytesField(1, 'v1'), bytesField(2, kind))), bytesField(2, raw), bytesField(3, ''), bytesField(4, '')),
  ]);
}
const watchEvent = (type: string, object: Buffer): Buffer => message(bytesField(1, type), bytesField(2, message(bytesField(1, object))));
function frame(payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt32BE(payload.length);
  return Buffer.concat([header, payload]);
}

/** A v1.Secret with the metadata the API server sends (uid, creationTimestamp, managedFields) around what we read. */
function secretMessage(name: string, resourceVersion: string, entries: [string, Buffer | undefined][]): Buffer {
  const metadata = message(
    bytesField(1, name), bytesField(2, ''), bytesField(3, 'monitoring'), bytesField(5, 'b9d3a7c4-uid'), bytesField(6, resourceVersion),
    varintField(7, 0), bytesField(8, message(varintField(1, 1796198520), varintField(2, 0))),
    bytesField(17, message(bytesField(1, 'promop'), bytesField(2, 'Apply'), bytesField(7, message(bytesField(1, '{"f:data":{}}'))))),
  );
  const data = entries.map(([key, value]) => bytesField(2, value === undefined ? bytesField(1, key) : message(bytesField(1, key), bytesField(2, value))));
  // Field 5 (immutable) as a varint and a fixed32 field nobody defines: the reader skips what it does not need.
  return message(bytesField(1, metadata), ...data, bytesField(3, 'Opaque'), varintField(5, 1), Buffer.from([(9 << 3) | 5, 1, 2, 3, 4]));
}

const notUtf8 = Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28, 0x80, 0xed, 0xa0, 0x80]);
const first = frame(watchEvent('ADDED', envelope('Secret', secretMessage('prometheus-main', '41', [['a', Buffer.from('alpha')]]))));
const second = frame(watchEvent('MODIFIED', envelope('Secret', secretMessage('prometheus-main', '42', [['a', notUtf8]]))));

function decodedValues(frames: ArrivedFrame[]): { type: string; name?: string; a?: string; arrivedAt: number }[] {
  return frames.map(({ bytes, arrivedAt }) => {
    const event = decodeSecretWatchEvent(bytes);
    if (event.type === 'ERROR') throw new Error('unexpected ERROR');
    return { type: event.type, name: event.secret.name, a: event.secret.data.a?.toString('hex'), arrivedAt };
  });
}

describe('the frame assembler', () => {
  const stream = Buffer.concat([first, second]);
  const expected = (firstAt: number, secondAt: number) => [
    { type: 'ADDED', name: 'prometheus-main', a: Buffer.from('alpha').toString('hex'), arrivedAt: firstAt },
    { type: 'MODIFIED', name: 'prometheus-main', a: notUtf8.toString('hex'), arrivedAt: secondAt },
  ];

  it('returns two frames that arrive in one chunk, both stamped with that chunk', () => {
    const assembler = new WatchFrameAssembler();
    expect(decodedValues(assembler.push(stream, 7))).toEqual(expected(7, 7));
    expect(assembler.buffered).toBe(0);
  });

  it('returns each frame whole when the stream is split at any byte, stamped with the chunk of its last byte', () => {
    for (let split = 1; split < stream.length; split++) {
      const assembler = new WatchFrameAssembler();
      const frames = [...assembler.push(stream.subarray(0, split), 1), ...assembler.push(stream.subarray(split), 2)];
      const firstAt = split >= first.length ? 1 : 2;
      expect({ split, events: decodedValues(frames) }).toEqual({ split, events: expected(firstAt, 2) });
      expect(assembler.buffered).toBe(0);
    }
  });

  it('returns each frame once its last byte arrives when every byte is a chunk of its own', () => {
    const assembler = new WatchFrameAssembler();
    const frames: ArrivedFrame[] = [];
    for (let i = 0; i < stream.length; i++) {
      const completed = assembler.push(stream.subarray(i, i + 1), i);
      // Nothing comes out before a frame's last byte, and the last byte of a frame completes it.
      expect(completed.length).toBe(i === first.length - 1 || i === stream.length - 1 ? 1 : 0);
      frames.push(...completed);
    }
    expect(decodedValues(frames)).toEqual(expected(first.length - 1, stream.length - 1));
  });

  it('keeps a partial frame as buffered bytes until the rest arrives', () => {
    const assembler = new WatchFrameAssembler();
    expect(assembler.push(first.subarray(0, 10), 1)).toEqual([]);
    expect(assembler.buffered).toBe(10);
    expect(assembler.push(Buffer.alloc(0), 2)).toEqual([]);
    expect(assembler.push(first.subarray(10), 3)).toHaveLength(1);
    expect(assembler.buffered).toBe(0);
  });

  it('refuses a length no watch frame has (a stream that is not protobuf, such as JSON)', () => {
    const assembler = new WatchFrameAssembler();
    expect(() => assembler.push(Buffer.from('{"type":"ADDED"}\n'), 1)).toThrow(/not a protobuf watch stream/);
  });
});

describe('a decoded watch event of Secrets', () => {
  it('holds the name, the resourceVersion and every value byte for byte, binary or empty', () => {
    const big = Buffer.alloc(70_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 256;
    const event = decodeSecretWatchEvent(watchEvent('ADDED', envelope('Secret', secretMessage('prometheus-main', '1234', [
      ['prometheus.yaml.gz', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff])],
      ['not-utf8', notUtf8],
      ['big', big],
      ['empty', Buffer.alloc(0)],
      ['absent-value', undefined],
    ]))));
    expect(event.type).toBe('ADDED');
    if (event.type === 'ERROR') return;
    expect(event.secret.name).toBe('prometheus-main');
    expect(event.secret.resourceVersion).toBe('1234');
    expect(Object.keys(event.secret.data)).toEqual(['prometheus.yaml.gz', 'not-utf8', 'big', 'empty', 'absent-value']);
    expect(event.secret.data['prometheus.yaml.gz']?.equals(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xff]))).toBe(true);
    expect(event.secret.data['not-utf8']?.equals(notUtf8)).toBe(true);
    expect(event.secret.data.big?.equals(big)).toBe(true);
    expect(event.secret.data.empty?.length).toBe(0);
    expect(event.secret.data['absent-value']?.length).toBe(0);
  });

  it('keeps the last value of a key written twice, as protobuf maps do', () => {
    const event = decodeSecretWatchEvent(watchEvent('MODIFIED', envelope('Secret', secretMessage('s', '5', [['k', Buffer.from('old')], ['k', Buffer.from('new')]]))));
    expect(event.type === 'MODIFIED' && event.secret.data.k?.toString()).toBe('new');
  });

  it('of type DELETED and BOOKMARK carries the Secret (a bookmark only its resourceVersion)', () => {
    const deleted = decodeSecretWatchEvent(watchEvent('DELETED', envelope('Secret', secretMessage('gone', '77', []))));
    expect(deleted).toEqual({ type: 'DELETED', secret: { name: 'gone', resourceVersion: '77', data: {} } });
    const bookmark = decodeSecretWatchEvent(watchEvent('BOOKMARK', envelope('Secret', message(bytesField(1, message(bytesField(6, '214'))), bytesField(3, '')))));
    expect(bookmark).toEqual({ type: 'BOOKMARK', secret: { name: '', resourceVersion: '214', data: {} } });
  });

  it('of type ERROR holds the Status: code, reason and message', () => {
    const status = message(bytesField(1, message()), bytesField(2, 'Failure'), bytesField(3, 'too old resource version: 1 (217)'), bytesField(4, 'Expired'), varintField(6, 410));
    expect(decodeSecretWatchEvent(watchEvent('ERROR', envelope('Status', status)))).toEqual({
      type: 'ERROR', status: { code: 410, reason: 'Expired', message: 'too old resource version: 1 (217)' },
    });
  });

  it('is refused when the object has no envelope, is not a Secret, the type is unknown, or a field is cut short', () => {
    const secret = secretMessage('s', '1', [['k', Buffer.from('v')]]);
    expect(() => decodeSecretWatchEvent(watchEvent('ADDED', secret))).toThrow(/k8s\\0 envelope/);
    expect(() => decodeSecretWatchEvent(watchEvent('ADDED', envelope('ConfigMap', secret)))).toThrow(/ConfigMap, not a Secret/);
    expect(() => decodeSecretWatchEvent(watchEvent('RENAMED', envelope('Secret', secret)))).toThrow(/unknown watch event type "RENAMED"/);
    const whole = watchEvent('ADDED', envelope('Secret', secret));
    expect(() => decodeSecretWatchEvent(whole.subarray(0, whole.length - 3))).toThrow(/runs past the end/);
  });
});

describe('frames as kube-apiserver v1.37.2 sent them', () => {
  // Captured from a watch of Secrets in a test control plane: an ADDED Secret `s` with data {a: ff 00 01, b: "hi"},
  // a BOOKMARK, and the ERROR of a watch from a compacted resourceVersion (etcd compacted, API server restarted).
  const added = '000000e80a05414444454412de010adb016b3873000a0c0a027631120653656372657412c2010aa4010a017312001a017822002a24356431'
    + '33653062612d646639652d343133392d626133302d30386262653332356634373932033231323800420808f8a0bfd80610008a01600a07756e6b'
    + '6e6f776e12065570646174651a027631220808f8a0bfd806100032084669656c647356313a330a317b22663a64617461223a7b222e223a7b7d2c'
    + '22663a61223a7b7d2c22663a62223a7b7d7d2c22663a74797065223a7b7d7d420012080a01611203ff000112070a0162120268691a064f706171'
    + '75651a002200';
  const bookmark = '0000003d0a08424f4f4b4d41524b12310a2f6b3873000a0c0a027631120653656372657412170a130a0012001a0022002a00320332313438'
    + '0042001a001a002200';
  const error = '000000650a054552524f52125c0a5a6b3873000a0c0a027631120653746174757312420a060a0012001a0012074661696c7572651a23746f6f'
    + '206f6c64207265736f757263652076657273696f6e3a20323132202832313929220745787069726564309a031a002200';

  it('decode into the Secret, the bookmark and the Status the server meant', () => {
    const frames = new WatchFrameAssembler().push(Buffer.from(added + bookmark + error, 'hex'), 5);
    const events = frames.map(({ bytes }) => decodeSecretWatchEvent(bytes));
    expect(events).toEqual([
      { type: 'ADDED', secret: { name: 's', resourceVersion: '212', data: { a: Buffer.from([0xff, 0x00, 0x01]), b: Buffer.from('hi') } } },
      { type: 'BOOKMARK', secret: { name: '', resourceVersion: '214', data: {} } },
      { type: 'ERROR', status: { code: 410, reason: 'Expired', message: 'too old resource version: 212 (219)' } },
    ]);
  });
});
