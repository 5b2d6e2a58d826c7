/**
 * Byte sizes as `bodySizeLimit` takes them (`10MB`, `1GiB`, `0`): the CRD pattern, and the
 * value in bytes so the lower of a monitor's and the enforced limit can be chosen.
 */

const BYTE_SIZE = /^(0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)$/;
const POWERS: Record<string, number> = { '': 0, K: 1, M: 2, G: 3, T: 4, P: 5, E: 6 };

/** Bytes of a size like `100MiB`, or undefined when the text does not match the pattern. */
export function parseByteSize(text: string): number | undefined {
  if (!BYTE_SIZE.test(text)) return undefined;
  if (text === '0') return 0;
  const match = /^([0-9]*\.?[0-9]+)([KMGTPE]?)(i?)B$/.exec(text);
  if (!match) return undefined;
  // alecthomas/units (used upstream) treats KB and KiB alike: powers of 1024.
  return Number(match[1]) * 1024 ** (POWERS[match[2] ?? ''] ?? 0);
}

/** The lower of two byte sizes (either may be absent), as text. */
export function lowerByteSize(user: string | undefined, enforced: string | undefined): string | undefined {
  if (!enforced) return user || undefined;
  if (!user) return enforced;
  const u = parseByteSize(user);
  const e = parseByteSize(enforced);
  if (u === undefined || e === undefined) return user;
  return e < u ? enforced : user;
}
