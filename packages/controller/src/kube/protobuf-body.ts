/**
 * Kubernetes' protobuf wire form of the two kinds promop writes whole (Secret, ConfigMap), encoded here without a
 * dependency (pure).
 *
 * Why: a JSON create or replace of a large scrape file Secret costs kube-apiserver much of its CPU in decoding the
 * request alone (its JSON serializer unmarshals the whole body once to find apiVersion/kind and again strictly, and
 * the garbage of both); protobuf it reads in one pass over bytes it copies (docs/performance.md, "Writing").
 * The data are then bytes, not base64 text (a quarter smaller on the wire).
 *
 * The body is `k8s\x00` followed by a runtime.Unknown {typeMeta=1 {apiVersion=1, kind=2}, raw=2 (the object's
 * message)}; the field numbers are those of k8s.io/api core/v1 and k8s.io/apimachinery meta/v1 generated.proto
 * (checked against v0.37.2). Map entries are written sorted by the key's UTF-8 bytes, as Go's marshaller writes
 * them, so the same object always makes the same bytes.
 *
 * Only the fields listed here are known. An object with any other field (managedFields, a field of a newer
 * Kubernetes, a misspelt one), a value of the wrong JSON type, or a `data` value that is not canonical base64 is
 * not encoded (undefined): its request goes as JSON. The API server's JSON decoder knows every field of its own
 * version, and refuses a value of the wrong type with a precise error; protobuf written by an encoder that does not
 * know a field could only drop it, silently. (An unknown JSON field is dropped too, with a warning: the writes do
 * not ask for strict field validation.)
 */
import { base64SourceOf, isBase64Data } from '../workload/secret-size.ts';

/** The Content-Type of a protobuf request body. */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

/** The four bytes every Kubernetes protobuf body starts with. */
const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The kinds this encoder knows. */
export type ProtobufKind = 'Secret' | 'ConfigMap';

/**
 * `object` (a v1 Secret or ConfigMap as its JSON form, e.g. `data` values of a Secret in base64) as a protobuf
 * request body; undefined when it holds anything this encoder does not know (send it as JSON then).
 */
export function protobufBodyOf(kind: ProtobufKind, object: unknown): Buffer | undefined {
  try {
    if (!isRecord(object)) return undefined;
    const { apiVersion, kind: objectKind } = object;
    if (!absentOr(apiVersion, (v) => v === 'v1') || !absentOr(objectKind, (k) => k === kind)) return undefined;
    const raw = kind === 'Secret' ? secretMessage(object) : configMapMessage(object);
    // raw is a bytes field holding the object's message: written as a nested message, its pieces are copied once,
    // into the body, not into a buffer of their own first (a scrape Secret's are up to 1 MiB).
    const unknown = new Message()
      .message(1, new Message().string(1, 'v1').string(2, kind))
      .message(2, raw);
    return unknown.toBuffer(MAGIC);
  } catch (error) {
    if (error instanceof NotEncodable) return undefined;
    throw error;
  }
}

/** Thrown inside the encoder when a field or value is not one it knows; protobufBodyOf answers undefined. */
class NotEncodable extends Error {}

const SECRET_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'data', 'type', 'stringData', 'immutable']);
const CONFIG_MAP_FIELDS = new Set(['apiVersion', 'kind', 'metadata', 'data', 'binaryData', 'immutable']);
const OBJECT_META_FIELDS = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp', 'deletionTimestamp',
  'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers',
]);
const OWNER_REFERENCE_FIELDS = new Set(['apiVersion', 'kind', 'name', 'uid', 'controller', 'blockOwnerDeletion']);

/** core/v1 Secret: metadata=1, data=2 map<string,bytes>, type=3, stringData=4 map<string,string>, immutable=5. */
function secretMessage(secret: Record<string, unknown>): Message {
  onlyKnown(secret, SECRET_FIELDS);
  const message = new Message();
  if (present(secret.metadata)) message.message(1, objectMetaMessage(secret.metadata));
  // A map promop's base64Data made goes as the bytes of the texts it was made from: a first config's base64 is not
  // decoded (and encoded again to check it).
  if (present(secret.data)) {
    const data = secret.data;
    const fromSource = (_value: unknown, key: string): Buffer => {
      const text = base64SourceOf(data as object, key);
      if (text === undefined) throw new NotEncodable();
      return Buffer.from(text, 'utf8');
    };
    message.map(2, data, isRecord(data) && isBase64Data(data) ? fromSource : base64Bytes);
  }
  if (present(secret.type)) message.string(3, stringValue(secret.type));
  if (present(secret.stringData)) message.map(4, secret.stringData, stringValue);
  if (present(secret.immutable)) message.bool(5, boolValue(secret.immutable));
  return message;
}

/** core/v1 ConfigMap: metadata=1, data=2 map<string,string>, binaryData=3 map<string,bytes>, immutable=4. */
function configMapMessage(configMap: Record<string, unknown>): Message {
  onlyKnown(configMap, CONFIG_MAP_FIELDS);
  const message = new Message();
  if (present(configMap.metadata)) message.message(1, objectMetaMessage(configMap.metadata));
  if (present(configMap.data)) message.map(2, configMap.data, stringValue);
  if (present(configMap.binaryData)) message.map(3, configMap.binaryData, base64Bytes);
  if (present(configMap.immutable)) message.bool(4, boolValue(configMap.immutable));
  return message;
}

/** meta/v1 ObjectMeta (managedFields=17 is not known: its FieldsV1 is JSON inside protobuf, and promop never sends it). */
function objectMetaMessage(value: unknown): Message {
  const meta = recordValue(value);
  onlyKnown(meta, OBJECT_META_FIELDS);
  const message = new Message();
  const strings: [number, string][] = [[1, 'name'], [2, 'generateName'], [3, 'namespace'], [4, 'selfLink'], [5, 'uid'], [6, 'resourceVersion']];
  for (const [field, name] of strings) if (present(meta[name])) message.string(field, stringValue(meta[name]));
  if (present(meta.generation)) message.int64(7, integerValue(meta.generation));
  if (present(meta.creationTimestamp)) message.message(8, timeMessage(meta.creationTimestamp));
  if (present(meta.deletionTimestamp)) message.message(9, timeMessage(meta.deletionTimestamp));
  if (present(meta.deletionGracePeriodSeconds)) message.int64(10, integerValue(meta.deletionGracePeriodSeconds));
  if (present(meta.labels)) message.map(11, meta.labels, stringValue);
  if (present(meta.annotations)) message.map(12, meta.annotations, stringValue);
  if (present(meta.ownerReferences)) for (const ref of arrayValue(meta.ownerReferences)) message.message(13, ownerReferenceMessage(ref));
  if (present(meta.finalizers)) for (const finalizer of arrayValue(meta.finalizers)) message.string(14, stringValue(finalizer));
  return message;
}

/** meta/v1 OwnerReference: kind=1, name=3, uid=4, apiVersion=5, controller=6, blockOwnerDeletion=7. */
function ownerReferenceMessage(value: unknown): Message {
  const ref = recordValue(value);
  onlyKnown(ref, OWNER_REFERENCE_FIELDS);
  const message = new Message();
  if (present(ref.kind)) message.string(1, stringValue(ref.kind));
  if (present(ref.name)) message.string(3, stringValue(ref.name));
  if (present(ref.uid)) message.string(4, stringValue(ref.uid));
  if (present(ref.apiVersion)) message.string(5, stringValue(ref.apiVersion));
  if (present(ref.controller)) message.bool(6, boolValue(ref.controller));
  if (present(ref.blockOwnerDeletion)) message.bool(7, boolValue(ref.blockOwnerDeletion));
  return message;
}

/** RFC 3339 as metav1.Time reads it from JSON (fractional seconds allowed), with a `Z` or `±hh:mm` offset. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])([01]\d|2[0-3]):([0-5]\d))$/;

/** meta/v1 Time {seconds=1 int64, nanos=2 int32} from its JSON form (an RFC 3339 string) or a Date. */
function timeMessage(value: unknown): Message {
  let seconds: number;
  let nanos: number;
  if (value instanceof Date) {
    const ms = value.getTime();
    if (!Number.isFinite(ms)) throw new NotEncodable();
    seconds = Math.floor(ms / 1000);
    nanos = (ms - seconds * 1000) * 1_000_000;
  } else {
    const match = RFC3339.exec(stringValue(value));
    if (!match) throw new NotEncodable();
    const [, year, month, day, hour, minute, second, fraction, sign, offsetHours, offsetMinutes] = match;
    const utcMs = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
    // Date.UTC rolls over out-of-range parts (month 13, second 61) where Go refuses them: leave those to JSON.
    const check = new Date(utcMs);
    if (check.getUTCFullYear() !== Number(year) || check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day)
      || check.getUTCHours() !== Number(hour) || check.getUTCMinutes() !== Number(minute) || check.getUTCSeconds() !== Number(second)) throw new NotEncodable();
    const offset = sign ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60) : 0;
    seconds = utcMs / 1000 - offset;
    nanos = fraction ? Number(fraction.padEnd(9, '0')) : 0;
  }
  const message = new Message().int64(1, seconds);
  if (nanos !== 0) message.int64(2, nanos);
  return message;
}

/** A message being built: its encoded fields as pieces, joined once by toBuffer (big values are not copied per level). */
class Message {
  readonly #pieces: Buffer[] = [];
  #length = 0;

  get length(): number {
    return this.#length;
  }

  #push(piece: Buffer): void {
    this.#pieces.push(piece);
    this.#length += piece.length;
  }

  #tag(field: number, wireType: 0 | 2): void {
    this.#push(varint(BigInt(field * 8 + wireType)));
  }

  /** A varint field (wire type 0) holding a signed 64-bit integer (negative ones take ten bytes, as in Go). */
  int64(field: number, value: number): this {
    this.#tag(field, 0);
    this.#push(varint(BigInt.asUintN(64, BigInt(value))));
    return this;
  }

  bool(field: number, value: boolean): this {
    return this.int64(field, value ? 1 : 0);
  }

  /** A length-delimited field (wire type 2). */
  bytes(field: number, value: Buffer): this {
    this.#tag(field, 2);
    this.#push(varint(BigInt(value.length)));
    this.#push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, value: Message): this {
    this.#tag(field, 2);
    this.#push(varint(BigInt(value.#length)));
    for (const piece of value.#pieces) this.#push(piece);
    return this;
  }

  /**
   * A map as its repeated entries {key=1, value=2}, sorted by key (Go's order: bytewise over UTF-8). Key and value
   * are always written, an empty value too, as Go writes them.
   */
  map(field: number, value: unknown, encodeValue: (value: unknown, key: string) => string | Buffer): this {
    const entries = Object.entries(recordValue(value)).filter(([, v]) => v !== undefined)
      .map(([key, v]) => ({ key: Buffer.from(key, 'utf8'), value: encodeValue(v, key) }))
      .sort((a, b) => Buffer.compare(a.key, b.key));
    for (const entry of entries) {
      const valueBytes = typeof entry.value === 'string' ? Buffer.from(entry.value, 'utf8') : entry.value;
      this.message(field, new Message().bytes(1, entry.key).bytes(2, valueBytes));
    }
    return this;
  }

  /** The encoded message, after `prefix` when given, in one buffer. */
  toBuffer(prefix?: Buffer): Buffer {
    return prefix ? Buffer.concat([prefix, ...this.#pieces], prefix.length + this.#length) : Buffer.concat(this.#pieces, this.#length);
  }
}

function varint(value: bigint): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80n) {
    bytes.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  bytes.push(Number(rest));
  return Buffer.from(bytes);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && !Buffer.isBuffer(value);
}

/**
 * Whether a field is set. JSON `null` for any field known here is the same as leaving it out in Go (a nil map,
 * slice or pointer, an untouched string), and JSON.stringify leaves undefined ones out.
 */
function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function absentOr(value: unknown, ok: (value: unknown) => boolean): boolean {
  return !present(value) || ok(value);
}

function onlyKnown(object: Record<string, unknown>, known: ReadonlySet<string>): void {
  for (const [key, value] of Object.entries(object)) if (value !== undefined && !known.has(key)) throw new NotEncodable();
}

function recordValue(value: unknown): Record<string, unknown> {
  if (!isRecord(value)) throw new NotEncodable();
  return value;
}

function arrayValue(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new NotEncodable();
  return value;
}

function stringValue(value: unknown): string {
  if (typeof value !== 'string') throw new NotEncodable();
  return value;
}

function boolValue(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new NotEncodable();
  return value;
}

function integerValue(value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new NotEncodable();
  return value;
}

/**
 * The bytes of a base64 value of `data` (Secret) or `binaryData` (ConfigMap). Only canonical standard base64 (the
 * form that decodes and encodes back to the same text): Node's decoder skips what is not base64 where Go's refuses
 * it, so anything else goes as JSON and meets Go's decoder.
 */
function base64Bytes(value: unknown): Buffer {
  const text = stringValue(value);
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) throw new NotEncodable();
  return bytes;
}
