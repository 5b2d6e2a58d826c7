/**
 * Kubernetes quantities (`resource.Quantity`, e.g. `0.1`, `100m`, `1e-3`, `2Ki`) read as the number
 * prometheus-operator takes from them with `AsApproximateFloat64`.
 */

/** The shape the API server admits: a signed decimal, then an SI or binary suffix or a decimal exponent. */
const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?(?:\d+(?:\.\d*)?|\.\d+))?$/;

/** Powers of ten of the SI suffixes. */
const DECIMAL_EXPONENTS: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** Powers of two of the binary suffixes. */
const BINARY_EXPONENTS: Readonly<Record<string, number>> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/**
 * The value of `quantity` (a string, or an integer as the int-or-string field may hold), or undefined when it is
 * not a quantity.
 */
export function quantityValue(quantity: string | number): number | undefined {
  if (typeof quantity === 'number') return Number.isFinite(quantity) ? quantity : undefined;
  const match = QUANTITY.exec(quantity);
  if (!match) return undefined;
  const [, sign = '', digits = '', suffix = ''] = match;
  const mantissa = Number(`${sign}${digits}`);
  if (suffix in BINARY_EXPONENTS) return mantissa * 2 ** (BINARY_EXPONENTS[suffix] ?? 0);
  if (suffix in DECIMAL_EXPONENTS) return Number(`${sign}${digits}e${DECIMAL_EXPONENTS[suffix] ?? 0}`);
  // A decimal exponent: the pattern admits a fraction, but Kubernetes cannot decode one into a Quantity.
  const exponent = Number(suffix.slice(1));
  return Number.isInteger(exponent) ? Number(`${sign}${digits}e${exponent}`) : undefined;
}
