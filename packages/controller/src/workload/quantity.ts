/**
 * Kubernetes resource quantities in the form the API server stores them (pure). The API server parses a quantity
 * (`0.5`, `1024Mi`, `1000m`) and keeps its canonical text (`500m`, `1Gi`, `1`); promop compares what it would apply
 * with what the cache holds, so a quantity written by the user in another form would never compare equal and the
 * StatefulSet would be applied on every reconcile (reconcile/applied-hash.ts). Writing quantities canonically
 * removes those writes.
 *
 * The rules are resource.Quantity's (k8s.io/apimachinery) as the API server applies them to resource lists: the
 * suffix decides the format — binary (Ki…Ei) or decimal SI (n, u, m, none, k…E) —, a value finer than 10⁻³ is
 * rounded up to it, zero is `0`; in decimal SI the mantissa is an integer and the exponent the largest multiple of 3
 * that allows it; a binary value below 1024 or not a whole number is written in decimal SI instead, otherwise as an
 * integer times the largest power of 1024 that divides it. The exponent form (`1e3`) and a trailing point (`1.`)
 * are left as written: the API server keeps some of them and rewrites others. The differential test
 * (quantity.apiserver.test.ts) checks all of this against the real API server.
 */

const QUANTITY = /^([+-]?)([0-9]+\.?[0-9]*|\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'] as const;
const DECIMAL_SUFFIXES = new Map<number, string>([[-9, 'n'], [-6, 'u'], [-3, 'm'], [0, ''], [3, 'k'], [6, 'M'], [9, 'G'], [12, 'T'], [15, 'P'], [18, 'E']]);
const DECIMAL_EXPONENTS: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

type Format = 'binary' | 'decimal-si';

/**
 * The canonical text of quantity `text`, or undefined when it is not a quantity promop rewrites (not a quantity at
 * all, negative, or beyond the ranges handled here): such a value is left as the user wrote it.
 */
export function canonicalQuantity(text: string): string | undefined {
  const match = QUANTITY.exec(text);
  if (!match) return undefined;
  const [, sign, digits, suffix = ''] = match as unknown as [string, string, string, string | undefined];
  if (sign === '-') return undefined;
  const [whole = '', fraction = ''] = digits.split('.');
  // value = mantissa × 10^exponent10 × 1024^power1024
  let mantissa = BigInt(`${whole}${fraction}` || '0');
  let exponent10 = -fraction.length;
  let format: Format;
  if (BINARY_SUFFIXES.includes(suffix as (typeof BINARY_SUFFIXES)[number]) && suffix !== '') {
    format = 'binary';
    mantissa *= 1024n ** BigInt(BINARY_SUFFIXES.indexOf(suffix as (typeof BINARY_SUFFIXES)[number]));
  } else if (/^[eE]/.test(suffix) || digits.endsWith('.')) {
    // The API server keeps some of these as written (`1E6`, `12.75e2`, `1.`) and rewrites others: left alone.
    return undefined;
  } else {
    format = 'decimal-si';
    exponent10 += DECIMAL_EXPONENTS[suffix] ?? 0;
  }
  if (Math.abs(exponent10) > 60) return undefined;
  if (mantissa === 0n) return '0';
  // Finer than milli: the API server rounds resource quantities up to a whole number of millis.
  if (exponent10 < -3) {
    const divisor = 10n ** BigInt(-3 - exponent10);
    mantissa = (mantissa + divisor - 1n) / divisor;
    exponent10 = -3;
  }
  if (format === 'binary') {
    const integer = exponent10 >= 0 ? mantissa * 10n ** BigInt(exponent10) : mantissa % 10n ** BigInt(-exponent10) === 0n ? mantissa / 10n ** BigInt(-exponent10) : undefined;
    if (integer === undefined || integer < 1024n) format = 'decimal-si';
    else return binaryText(integer);
  }
  // Decimal: strip factors of ten, then step down to a multiple of three.
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent10 += 1;
  }
  const down = ((exponent10 % 3) + 3) % 3;
  mantissa *= 10n ** BigInt(down);
  exponent10 -= down;
  const suffixText = DECIMAL_SUFFIXES.get(exponent10);
  return suffixText === undefined ? undefined : `${mantissa}${suffixText}`;
}

function binaryText(value: bigint): string {
  let power = 0;
  while (power < BINARY_SUFFIXES.length - 1 && value % 1024n === 0n) {
    value /= 1024n;
    power += 1;
  }
  return `${value}${BINARY_SUFFIXES[power]}`;
}

type Json = Record<string, unknown>;

/**
 * `statefulSet` with every quantity at the positions a StatefulSet has them (container and pod resources, pod
 * overhead, emptyDir size limits, volume claim templates' and ephemeral volumes' requests and limits) in canonical
 * form. A new object; positions that hold something else are left alone.
 */
export function withCanonicalQuantities<T extends object>(statefulSet: T): T {
  const copy = structuredClone(statefulSet) as Json;
  const spec = asRecord(copy.spec);
  const podSpec = asRecord(asRecord(spec?.template)?.spec);
  if (podSpec) {
    for (const field of ['containers', 'initContainers', 'ephemeralContainers']) {
      for (const container of asArray(podSpec[field])) canonicalResources(asRecord(asRecord(container)?.resources));
    }
    canonicalResources(asRecord(podSpec.resources));
    canonicalMap(asRecord(podSpec.overhead));
    for (const volume of asArray(podSpec.volumes)) {
      const emptyDir = asRecord(asRecord(volume)?.emptyDir);
      if (emptyDir && typeof emptyDir.sizeLimit === 'string') emptyDir.sizeLimit = canonicalQuantity(emptyDir.sizeLimit) ?? emptyDir.sizeLimit;
      canonicalResources(asRecord(asRecord(asRecord(asRecord(asRecord(volume)?.ephemeral)?.volumeClaimTemplate)?.spec)?.resources));
    }
  }
  for (const template of asArray(spec?.volumeClaimTemplates)) canonicalResources(asRecord(asRecord(asRecord(template)?.spec)?.resources));
  return copy as T;
}

function canonicalResources(resources: Json | undefined): void {
  canonicalMap(asRecord(resources?.limits));
  canonicalMap(asRecord(resources?.requests));
}

function canonicalMap(quantities: Json | undefined): void {
  if (!quantities) return;
  for (const [name, value] of Object.entries(quantities)) {
    if (typeof value === 'string') quantities[name] = canonicalQuantity(value) ?? value;
    // A number (YAML `cpu: 1`) is sent as a JSON number and stored as the quantity's text.
    else if (typeof value === 'number' && Number.isFinite(value)) quantities[name] = canonicalQuantity(String(value)) ?? value;
  }
}

function asRecord(value: unknown): Json | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
