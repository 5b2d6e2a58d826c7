/**
 * A watch of Secrets in Kubernetes' protobuf encoding, read by a reader that knows exactly the few messages the
 * benchmark needs. The API server then sends the Secrets' bytes as they are stored instead of base64 inside JSON:
 * JSON-encoding the whole configuration for this one watcher would take a large share of the API server's CPU
 * during a first config, and parsing it more CPU here (docs/performance.md, "Method"). The kubelet, the real
 * consumer of these Secrets, reads them as protobuf too.
 *
 * What kube-apiserver (v1.37) sends for `Accept: application/vnd.kubernetes.protobuf;stream=watch`, as seen on the
 * wire (protobuf-watch.apiserver.test.ts reads it live; protobuf-watch.test.ts decodes captured frames, an ERROR
 * 410 among them):
 *
 *     frame        = uint32 big-endian length, then that many bytes of a WatchEvent (no envelope around it)
 *     WatchEvent   = {1: type string, 2: RawExtension {1: raw bytes}}
 *     raw          = "k8s\0" then runtime.Unknown {1: TypeMeta {1: apiVersion, 2: kind}, 2: raw bytes,
 *                    3: contentEncoding, 4: contentType}
 *     Unknown.raw  = v1.Secret (kind Secret; BOOKMARK too, with only metadata.resourceVersion) or
 *                    metav1.Status (kind Status, type ERROR)
 *
 * Field numbers: k8s.io/api/core/v1/generated.proto and k8s.io/apimachinery/pkg/apis/meta/v1/generated.proto.
 */
import type { BenchApi } from './api-client.ts';

/** The media type of a protobuf watch stream; the request asks for it and the response must carry it. */
export const PROTOBUF_WATCH_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';

/** One frame of a watch stream and when its last byte arrived (`performance.now()`), before anything decoded it. */
export interface ArrivedFrame {
  bytes: Buffer;
  arrivedAt: number;
}

const FRAME_HEADER_BYTES = 4;
/**
 * Far above any Secret (etcd refuses values over 1.5 MiB by default); a length beyond it means the stream is not
 * what we think it is, and buffering until it "completes" would only hide that.
 */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/**
 * Cuts a byte stream into length-prefixed frames. A frame may be split over any number of chunks and a chunk may
 * hold several frames; each frame is copied at most once (when it spans chunks).
 */
export class WatchFrameAssembler {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** The length of the frame being assembled, once its header is complete. */
  #frameBytes: number | undefined;

  /** Adds `chunk`, which arrived at `arrivedAt`, and returns the frames it completed, in order. */
  push(chunk: Buffer, arrivedAt: number): ArrivedFrame[] {
    const frames: ArrivedFrame[] = [];
    if (chunk.length === 0) return frames;
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    for (;;) {
      if (this.#frameBytes === undefined) {
        if (this.#pendingBytes < FRAME_HEADER_BYTES) break;
        this.#frameBytes = this.#readHeader();
        if (this.#frameBytes > MAX_FRAME_BYTES) throw new Error(`watch frame of ${this.#frameBytes} bytes: the stream is not a protobuf watch stream`);
      }
      const end = FRAME_HEADER_BYTES + this.#frameBytes;
      if (this.#pendingBytes < end) break;
      const joined = this.#pending.length === 1 ? (this.#pending[0] as Buffer) : Buffer.concat(this.#pending, this.#pendingBytes);
      frames.push({ bytes: joined.subarray(FRAME_HEADER_BYTES, end), arrivedAt });
      const rest = joined.subarray(end);
      this.#pending = rest.length > 0 ? [rest] : [];
      this.#pendingBytes = rest.length;
      this.#frameBytes = undefined;
    }
    return frames;
  }

  /** Bytes received that do not form a whole frame yet (a stream that ends with some was cut mid-frame). */
  get buffered(): number {
    return this.#pendingBytes;
  }

  /** The big-endian length at the start of the pending bytes, which may be spread over several chunks. */
  #readHeader(): number {
    let length = 0;
    let read = 0;
    for (const chunk of this.#pending) {
      for (let i = 0; i < chunk.length && read < FRAME_HEADER_BYTES; i++, read++) length = length * 256 + (chunk[i] as number);
      if (read === FRAME_HEADER_BYTES) break;
    }
    return length;
  }
}

/** A field of a protobuf message: its number and, by wire type, its varint or its length-delimited bytes. */
type ProtoField = { number: number; varint: number; bytes?: undefined } | { number: number; bytes: Buffer; varint?: undefined };

/** Every field of `message` in wire order (repeated and map fields appear once per element). */
function* protoFields(message: Buffer): Generator<ProtoField> {
  let offset = 0;
  const varint = (): number => {
    // Numbers here are lengths, field keys and small ints: 2^53 is plenty, and multiplication keeps them exact
    // where `<<` would wrap at 2^31.
    let value = 0;
    for (let scale = 1; ; scale *= 128) {
      if (offset >= message.length) throw new Error('protobuf: message ends inside a varint');
      const byte = message[offset++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      if (scale > 2 ** 49) throw new Error('protobuf: varint longer than 53 bits');
    }
  };
  while (offset < message.length) {
    const key = varint();
    const number = Math.floor(key / 8);
    const wireType = key % 8;
    switch (wireType) {
      case 0:
        yield { number, varint: varint() };
        break;
      case 1:
      case 5: {
        offset += wireType === 1 ? 8 : 4; // fixed64/fixed32: nothing the benchmark reads
        if (offset > message.length) throw new Error(`protobuf: field ${number} runs past the end of the message`);
        break;
      }
      case 2: {
        const length = varint();
        if (offset + length > message.length) throw new Error(`protobuf: field ${number} runs past the end of the message`);
        yield { number, bytes: message.subarray(offset, offset + length) };
        offset += length;
        break;
      }
      default:
        throw new Error(`protobuf: unsupported wire type ${wireType} (field ${number})`);
    }
  }
}

const text = (field: ProtoField): string => (field.bytes ? field.bytes.toString('utf8') : '');

/** The envelope of every object in Kubernetes' protobuf encoding: the magic `k8s\0`, then a runtime.Unknown. */
const ENVELOPE_MAGIC = Buffer.from('k8s\0', 'latin1');

/** An object taken out of its envelope: its kind and its own message. */
export interface UnwrappedObject {
  apiVersion: string;
  kind: string;
  raw: Buffer;
}

/** Takes an object out of its `k8s\0` + runtime.Unknown envelope. */
export function unwrapEnvelope(bytes: Buffer): UnwrappedObject {
  if (bytes.length < ENVELOPE_MAGIC.length || !bytes.subarray(0, ENVELOPE_MAGIC.length).equals(ENVELOPE_MAGIC)) {
    throw new Error('protobuf: object does not start with the k8s\\0 envelope');
  }
  const object: UnwrappedObject = { apiVersion: '', kind: '', raw: Buffer.alloc(0) };
  for (const field of protoFields(bytes.subarray(ENVELOPE_MAGIC.length))) {
    if (field.number === 1 && field.bytes) {
      for (const typeMeta of protoFields(field.bytes)) {
        if (typeMeta.number === 1) object.apiVersion = text(typeMeta);
        else if (typeMeta.number === 2) object.kind = text(typeMeta);
      }
    } else if (field.number === 2 && field.bytes) object.raw = field.bytes;
    else if (field.number === 3 && field.bytes && field.bytes.length > 0) {
      // The API server never compresses objects in a watch; if it starts to, say so rather than misread bytes.
      throw new Error(`protobuf: object with content encoding ${text(field)}`);
    }
  }
  return object;
}

/** A Secret as the benchmark needs it; `data` values are the Secret's bytes (views into the frame, not copies). */
export interface DecodedSecret {
  name: string;
  resourceVersion: string;
  data: Record<string, Buffer>;
}

/** Decodes a v1.Secret message (the `raw` of its envelope). */
export function decodeSecret(message: Buffer): DecodedSecret {
  const secret: DecodedSecret = { name: '', resourceVersion: '', data: {} };
  for (const field of protoFields(message)) {
    if (field.number === 1 && field.bytes) {
      for (const meta of protoFields(field.bytes)) {
        if (meta.number === 1) secret.name = text(meta);
        else if (meta.number === 6) secret.resourceVersion = text(meta);
      }
    } else if (field.number === 2 && field.bytes) {
      // A map entry is a message {1: key, 2: value}; an absent value is an empty one, and a repeated key keeps
      // its last value (protobuf's rule for maps).
      let key = '';
      let value: Buffer = Buffer.alloc(0);
      for (const entry of protoFields(field.bytes)) {
        if (entry.number === 1) key = text(entry);
        else if (entry.number === 2 && entry.bytes) value = entry.bytes;
      }
      secret.data[key] = value;
    }
  }
  return secret;
}

/** What a metav1.Status says, enough for a readable error. */
export interface DecodedStatus {
  code: number;
  reason: string;
  message: string;
}

/** Decodes a metav1.Status message (the object of an ERROR event). */
export function decodeStatus(message: Buffer): DecodedStatus {
  const status: DecodedStatus = { code: 0, reason: '', message: '' };
  for (const field of protoFields(message)) {
    if (field.number === 3) status.message = text(field);
    else if (field.number === 4) status.reason = text(field);
    else if (field.number === 6 && field.varint !== undefined) status.code = field.varint;
  }
  return status;
}

/** One event of a watch of Secrets; BOOKMARK carries a Secret with only its resourceVersion set. */
export type SecretWatchEvent =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK'; secret: DecodedSecret }
  | { type: 'ERROR'; status: DecodedStatus };

/** Decodes one frame of a protobuf watch of Secrets. Throws on anything else (another kind, an unknown type). */
export function decodeSecretWatchEvent(frame: Buffer): SecretWatchEvent {
  let type = '';
  let object: Buffer | undefined;
  for (const field of protoFields(frame)) {
    if (field.number === 1) type = text(field);
    else if (field.number === 2 && field.bytes) {
      for (const raw of protoFields(field.bytes)) if (raw.number === 1 && raw.bytes) object = raw.bytes;
    }
  }
  if (!object) throw new Error(`protobuf: watch event ${type || '(no type)'} without an object`);
  const unwrapped = unwrapEnvelope(object);
  switch (type) {
    case 'ERROR':
      if (unwrapped.kind !== 'Status') throw new Error(`protobuf: ERROR event holds a ${unwrapped.kind}, not a Status`);
      return { type, status: decodeStatus(unwrapped.raw) };
    case 'ADDED':
    case 'MODIFIED':
    case 'DELETED':
    case 'BOOKMARK':
      if (unwrapped.kind !== 'Secret') throw new Error(`protobuf: ${type} event holds a ${unwrapped.kind || '(no kind)'}, not a Secret`);
      return { type, secret: decodeSecret(unwrapped.raw) };
    default:
      throw new Error(`protobuf: unknown watch event type ${JSON.stringify(type)}`);
  }
}

/**
 * Streams the protobuf watch at `path` (a Secrets URL with `watch=1` and its query) and calls `onFrame` for every
 * complete frame with its arrival time; decoding is left to the caller, after the stamp. Resolves when the server
 * ends the stream, rejects on an error, a stream cut mid-frame, or when `signal` aborts.
 */
export async function watchProtobufFrames(api: BenchApi, path: string, onFrame: (frame: ArrivedFrame) => void, signal: AbortSignal): Promise<void> {
  const assembler = new WatchFrameAssembler();
  await api.stream(path, PROTOBUF_WATCH_MEDIA_TYPE, (chunk, arrivedAt) => {
    for (const frame of assembler.push(chunk, arrivedAt)) onFrame(frame);
  }, signal);
  if (assembler.buffered > 0) throw new Error(`watch ${path}: the stream ended inside a frame (${assembler.buffered} bytes left over)`);
}
