/**
 * Go's number syntax (strconv.ParseInt, ParseUint and ParseFloat), which decides whether
 * Prometheus accepts a number in PromQL (`0x1F`, `0777` octal, `1_000`; `1_` and `1e400` fail) and
 * in a Go template (`{{ 1e3 }}`, `{{ 0b101 }}`). Values are only as exact as the checks need.
 */

/** The value of a PromQL NUMBER token: ParseInt(text, 0, 64) first, then ParseFloat(text, 64). */
export function parseGoNumberLiteral(text: string): number | undefined {
  // Plain decimals, by far the most common, need neither BigInt nor Go's prefixes.
  if (/^[1-9][0-9]{0,14}$/.test(text)) return Number(text);
  const integer = goParseInteger(text, 'int64');
  return integer !== undefined ? Number(integer) : goParseFloat(text);
}

/**
 * strconv.ParseInt(text, 0, 64) (`int64`) or ParseUint(text, 0, 64) (`uint64`, no sign): base
 * prefixes 0x, 0o, 0b and a leading 0 for octal, `_` between digits.
 */
export function goParseInteger(text: string, size: 'int64' | 'uint64'): bigint | undefined {
  let digits = text;
  let negative = false;
  if (digits.startsWith('+') || digits.startsWith('-')) {
    if (size === 'uint64') return undefined;
    negative = digits.startsWith('-');
    digits = digits.slice(1);
  }
  if (digits === '') return undefined;
  let base = 10;
  const prefix = digits.slice(0, 2).toLowerCase();
  if (digits.length >= 3 && (prefix === '0x' || prefix === '0o' || prefix === '0b')) {
    base = prefix === '0x' ? 16 : prefix === '0o' ? 8 : 2;
    digits = digits.slice(2);
  } else if (digits[0] === '0') {
    base = 8;
    digits = digits.slice(1);
  }
  if (text.includes('_') && !goUnderscoresOk(text)) return undefined;
  let value = 0n;
  for (const ch of digits) {
    if (ch === '_') continue;
    const digit = parseInt(ch, 36);
    if (Number.isNaN(digit) || digit >= base) return undefined;
    value = value * BigInt(base) + BigInt(digit);
  }
  if (negative) value = -value;
  const [min, max] = size === 'int64' ? [-(2n ** 63n), 2n ** 63n - 1n] : [0n, 2n ** 64n - 1n];
  return value >= min && value <= max ? value : undefined;
}

/**
 * strconv.ParseFloat(text, 64): decimal and hexadecimal (with a `p` exponent) floats, `inf`,
 * `infinity` and `nan` in any case. Overflow is an error in Go; underflow to 0 is not.
 */
export function goParseFloat(text: string): number | undefined {
  const negative = text.startsWith('-');
  const unsigned = text.replace(/^[+-]/, '');
  const lower = unsigned.toLowerCase();
  if (lower === 'inf' || lower === 'infinity') return negative ? -Infinity : Infinity;
  if (lower === 'nan') return NaN;
  if (text.includes('_') && !goUnderscoresOk(text)) return undefined;
  const plain = unsigned.replaceAll('_', '');
  let value: number;
  const hex = /^0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?[0-9]+)$/.exec(plain);
  if (hex) {
    const whole = hex[1] ?? '';
    const fraction = hex[2] ?? '';
    if (whole === '' && fraction === '') return undefined;
    value = parseInt(`${whole}${fraction}`, 16) * 2 ** (Number(hex[3]) - 4 * fraction.length);
  } else {
    if (!/^(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(plain)) return undefined;
    value = Number(plain);
  }
  if (!Number.isFinite(value)) return undefined;
  return negative ? -value : value;
}

/** Go's underscoreOK: `_` only between digits, or right after a base prefix. */
function goUnderscoresOk(text: string): boolean {
  let rest = text.replace(/^[+-]/, '');
  let saw: 'start' | 'digit' | 'underscore' | 'other' = 'start';
  let hex = false;
  const prefix = rest.slice(0, 2).toLowerCase();
  if (rest.length >= 2 && (prefix === '0x' || prefix === '0o' || prefix === '0b')) {
    saw = 'digit';
    hex = prefix === '0x';
    rest = rest.slice(2);
  }
  for (const ch of rest) {
    if ((ch >= '0' && ch <= '9') || (hex && /[a-fA-F]/.test(ch))) {
      saw = 'digit';
    } else if (ch === '_') {
      if (saw !== 'digit') return false;
      saw = 'underscore';
    } else {
      if (saw === 'underscore') return false;
      saw = 'other';
    }
  }
  return saw !== 'underscore';
}
