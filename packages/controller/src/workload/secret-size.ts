/**
 * The API server's limit on a Secret's data. It refuses a Secret whose values (decoded) sum to more than
 * 1 MiB (`MaxSecretSize` in k8s.io/kubernetes pkg/apis/core/validation), so promop checks before writing and
 * reports a sentence instead of an opaque 422.
 */

/** Largest total of a Secret's decoded values the API server accepts, in bytes. */
export const MAX_SECRET_DATA_BYTES = 1024 * 1024;

/** Total size of the values in bytes (UTF-8), as the API server counts them. */
export function secretDataBytes(data: Record<string, string>): number {
  let total = 0;
  for (const value of Object.values(data)) total += Buffer.byteLength(value, 'utf8');
  return total;
}

/**
 * The texts each map base64Data made was encoded from, by map object. Its consumers would otherwise undo the
 * base64 of a whole first config: the protobuf encoder (kube/protobuf-body.ts) sends the
 * texts' bytes instead of decoding the base64 and checking it encodes back the same, and the applied-hash
 * (input-hash.ts) writes the values without scanning them for characters JSON escapes (base64 has none).
 */
const base64Sources = new WeakMap<object, Readonly<Record<string, string>>>();

/**
 * Base64 `data` for a Secret: written as `data`, not `stringData`, so server-side apply sees the stored field.
 * Frozen, so it always holds the base64 of the texts it is noted with.
 */
export function base64Data(data: Record<string, string>): Record<string, string> {
  const encoded = Object.freeze(Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value, 'utf8').toString('base64')])));
  base64Sources.set(encoded, Object.freeze({ ...data }));
  return encoded;
}

/** The text `data[key]` is the base64 of, when `data` is a map base64Data made; else undefined. */
export function base64SourceOf(data: object, key: string): string | undefined {
  return base64Sources.get(data)?.[key];
}

/** Whether `data` is a map base64Data made: its values are base64. */
export function isBase64Data(data: object): boolean {
  return base64Sources.has(data);
}

/** "1.2 MiB" style size for messages. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}
