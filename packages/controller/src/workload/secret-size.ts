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

/** Base64 `data` for a Secret: written as `data`, not `stringData`, so server-side apply sees the stored field. */
export function base64Data(data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, Buffer.from(value, 'utf8').toString('base64')]));
}

/** "1.2 MiB" style size for messages. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(2)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}
