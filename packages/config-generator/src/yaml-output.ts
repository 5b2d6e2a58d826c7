/**
 * Serialises generated configuration the way prometheus-operator's gopkg.in/yaml.v2 output
 * looks, so `diff` against an upstream config stays readable: keys in insertion order, block
 * sequences not indented under their parent key, empty lists as `[]`, strings plain where YAML
 * allows (`(.+);`, `${1}`, `separator: ;`), double-quoted when plain text would read back as
 * another type (`"true"`, `"8080"`), single-quoted when plain is not possible (`'*.yaml'`).
 *
 * This is a small dedicated emitter rather than js-yaml's dump: the generated values are only
 * plain objects, arrays, strings, numbers and booleans, and dump's general-purpose AST made a
 * 10,000-monitor config take seconds and gigabytes (see docs/performance.md).
 */

/** Turns a generated config object into YAML text. Deterministic for equal input. */
export function toPrometheusYaml(value: unknown): string {
  const out = new Output();
  if (isMapping(value) && Object.keys(value).length > 0) writeMapping(value, '', out);
  else if (Array.isArray(value) && value.length > 0) writeSequence(value, '', out);
  else out.push(`${inlineValue(value)}\n`);
  return out.toString();
}

/**
 * A scrape job as `toPrometheusYaml([job])` writes it, cut into segments: at odd indices the mapping items of the
 * job's list-valued fields (each relabeling, each service discovery config, ...) as whole `  - key: ...` texts, at
 * even indices the text between them. Joined, the segments are exactly `toPrometheusYaml([job])`; apart, a scrape
 * file can write an item that repeats as a YAML alias (scrape-file-text.ts).
 */
export function jobSegments(job: Record<string, unknown>): string[] {
  const segments: string[] = [];
  let between = new ShortOutput();
  const indent = deeper('');
  let first = true;
  for (const key in job) {
    const value = job[key];
    if (value === undefined) continue;
    const firstIndent = first ? dashFor('') : indent;
    first = false;
    if (!Array.isArray(value) || isInline(value)) {
      writeEntry(key, value, firstIndent, indent, between);
      continue;
    }
    between.push(firstIndent, keyText(key, indent), '\n');
    for (const item of value) {
      if (!isMapping(item) || isInline(item)) {
        writeSequence([item], indent, between);
        continue;
      }
      segments.push(between.toString());
      between = new ShortOutput();
      segments.push(Object.isFrozen(item) ? oncePerFrozenItem(item, indent) : itemText(item, indent));
    }
  }
  if (first) return [toPrometheusYaml([job])];
  segments.push(between.toString());
  return segments;
}

/** `item` as a sequence item at `indent`. */
function itemText(item: Record<string, unknown>, indent: string): string {
  const text = new ShortOutput();
  writeSequence([item], indent, text);
  return text.toString();
}

/**
 * Texts of frozen items by item: a frozen item is a rule shared by many jobs (scrape/shared-rules.ts, deep-frozen,
 * so its text cannot go stale), serialised once per process instead of once per job. Always at the same indentation
 * (a job's list items).
 */
const frozenItemTexts = new WeakMap<object, string>();

function oncePerFrozenItem(item: Record<string, unknown>, indent: string): string {
  let text = frozenItemTexts.get(item);
  if (text === undefined) {
    text = itemText(item, indent);
    frozenItemTexts.set(item, text);
  }
  return text;
}

/**
 * The text being written, as pieces joined into flat chunks every few thousand pieces: one join
 * over millions of pieces, or one string grown piece by piece, both cost far more time or
 * memory for a large config.
 */
class Output {
  private readonly chunks: string[] = [];
  private readonly pieces: string[] = [];

  push(a: string, b?: string, c?: string, d?: string): void {
    this.pieces.push(a);
    if (b !== undefined) this.pieces.push(b);
    if (c !== undefined) this.pieces.push(c);
    if (d !== undefined) this.pieces.push(d);
    if (this.pieces.length >= PIECES_PER_CHUNK) {
      this.chunks.push(this.pieces.join(''));
      this.pieces.length = 0;
    }
  }

  /** Everything written so far. */
  toString(): string {
    return this.chunks.join('') + this.pieces.join('');
  }
}

const PIECES_PER_CHUNK = 4096;

/**
 * A short text being written (one job's segment), grown by concatenation: for a few dozen pieces that is cheaper
 * than collecting them and joining (the join was a seventh of a 10,000-monitor render).
 */
class ShortOutput {
  private text = '';

  push(a: string, b?: string, c?: string, d?: string): void {
    this.text += a;
    if (b !== undefined) this.text += b;
    if (c !== undefined) this.text += c;
    if (d !== undefined) this.text += d;
  }

  toString(): string {
    return this.text;
  }
}

/** Where text is written to. */
type Sink = Output | ShortOutput;

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a value written on the line of its key or dash (scalars and empty collections). */
function isInline(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  for (const key in value) if ((value as Record<string, unknown>)[key] !== undefined) return false;
  return true;
}

// Indentation strings by depth, shared by every line: `indents[n]` is 2n spaces.
const indents: string[] = [''];
const dashes: string[] = ['- '];

function deeper(indent: string): string {
  const depth = indent.length / 2 + 1;
  while (indents.length <= depth) {
    indents.push(`${indents[indents.length - 1]}  `);
    dashes.push(`${indents[indents.length - 1]}- `);
  }
  return indents[depth] ?? `${indent}  `;
}

function dashFor(indent: string): string {
  deeper(indent);
  return dashes[indent.length / 2] ?? `${indent}- `;
}

/** `afterDash`: the mapping is a sequence item whose first key goes on the dash's line. */
function writeMapping(mapping: Record<string, unknown>, indent: string, out: Sink, afterDash = false): void {
  let first = true;
  for (const key in mapping) {
    const value = mapping[key];
    if (value === undefined) continue;
    writeEntry(key, value, first && afterDash ? '' : indent, indent, out);
    first = false;
  }
}

// Output is collected as many small, mostly shared strings (indents, `key:`, cached scalars)
// and joined once: building each line by concatenation made the join flatten millions of
// temporary strings for a large config.
const keyCache = new Map<string, string>();

/**
 * `key:` as written at `indent`. A key whose text is longer than Go's YAML readers look ahead for the `:` of an
 * implicit key (1024 characters; past that the whole file is refused) is written as an explicit key,
 * `? key` then `:` on the next line at the same indentation.
 */
function keyText(key: string, indent: string): string {
  let text = keyCache.get(key);
  if (text === undefined) {
    const rendered = scalar(key);
    if (rendered.length > IMPLICIT_KEY_MAX_LENGTH) return `? ${rendered}\n${indent}:`;
    text = `${rendered}:`;
    if (keyCache.size >= SCALAR_CACHE_LIMIT) keyCache.clear();
    keyCache.set(key, text);
  }
  return text;
}

/** Below the readers' 1024 characters, counted in UTF-16 units, which are never fewer than Go's characters. */
const IMPLICIT_KEY_MAX_LENGTH = 1000;

function writeEntry(key: string, value: unknown, firstIndent: string, indent: string, out: Sink): void {
  out.push(firstIndent, keyText(key, indent));
  if (isInline(value)) {
    if (typeof value === 'string' && value.includes('\n') && blockScalarAllowed(value)) {
      out.push(' ', blockHeader(value), '\n', blockBody(value, deeper(indent)));
    } else {
      out.push(' ', inlineValue(value), '\n');
    }
  } else if (Array.isArray(value)) {
    // yaml.v2 does not indent a block sequence under its key.
    out.push('\n');
    writeSequence(value, indent, out);
  } else {
    out.push('\n');
    writeMapping(value as Record<string, unknown>, deeper(indent), out);
  }
}

function writeSequence(items: readonly unknown[], indent: string, out: Sink): void {
  const dash = dashFor(indent);
  const child = deeper(indent);
  for (const item of items) {
    if (isInline(item)) {
      if (typeof item === 'string' && item.includes('\n') && blockScalarAllowed(item)) {
        out.push(dash, blockHeader(item), '\n', blockBody(item, child));
      } else {
        out.push(dash, inlineValue(item === undefined ? null : item), '\n');
      }
    } else if (Array.isArray(item)) {
      out.push(dash);
      writeNestedSequence(item, child, out);
    } else {
      out.push(dash);
      writeMapping(item as Record<string, unknown>, child, out, true);
    }
  }
}

/** A sequence directly inside a sequence: `- - a` then `  - b`. */
function writeNestedSequence(items: readonly unknown[], indent: string, out: Sink): void {
  const nested = new Output();
  writeSequence(items, indent, nested);
  // The first item goes on the outer dash's line, so its indentation is dropped.
  out.push(nested.toString().slice(indent.length));
}

function inlineValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return scalar(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return '[]';
  if (isMapping(value)) return '{}';
  throw new Error(`bug: cannot serialise a ${typeof value} into prometheus.yaml`);
}

function numberText(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (value === Infinity) return '.inf';
  if (value === -Infinity) return '-.inf';
  return Number.isInteger(value) ? String(value) : goFloatText(value);
}

/**
 * A fraction as yaml.v2 writes a float64 (strconv.FormatFloat 'g' with the shortest digits): an exponent below -4 or
 * from 6 up, written with a sign and at least two digits (`1e-05`, `1.5e+06`), where JavaScript writes `0.00001`.
 */
function goFloatText(value: number): string {
  const [mantissa = '', exponentText = '0'] = value.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 6) return String(value);
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

// --- strings ---------------------------------------------------------------------------------

// What YAML 1.1 (yaml.v2, which reads prometheus.yaml) or 1.2 would read as something other
// than a string when written plain.
const NULL = /^(?:~|null|Null|NULL)$/;
const BOOL = /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const INT = /^[-+]?(?:0b[01_]+|0o?[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*|[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT = /^(?:[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const TIMESTAMP = /^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)?$/;
const SPECIAL_KEYS = /^(?:<<|=)$/;

// Characters that cannot start a plain scalar; `-`, `?` and `:` can when a non-space follows. A line starting with
// `---` or `...` would end or start a document when it is at the first column.
const INDICATOR_START = /^(?:[,[\]{}#&*!|>'"%@`]|[-?:](?:[ \t]|$)|---|\.\.\.)/;

/**
 * Characters that may stand as they are in a plain, single-quoted or block scalar. Anything else goes into double
 * quotes as an escape, because Go's YAML readers (yaml.v2 for prometheus.yaml, yaml.v3 for rule files) do not read
 * it back as itself: they refuse C0 and C1 controls, DEL, U+FFFE/U+FFFF and unpaired surrogates ("control
 * characters are not allowed", the whole file refused), and they take NEL (U+0085), LINE SEPARATOR (U+2028) and
 * PARAGRAPH SEPARATOR (U+2029) for line breaks, so a team's value could end its line and start a job or rule of its
 * own. The byte order mark (U+FEFF) is escaped too: a reader may drop it.
 */
const SAFE_CHARACTERS = /^[\x20-\x7E\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const UNSAFE_CHARACTER = /[^\x20-\x7E\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\u{10000}-\u{10FFFF}]/u;
// The same set with line feeds allowed: what a literal block (`|`) may hold.
const UNSAFE_IN_BLOCK = /[^\n\x20-\x7E\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\u{10000}-\u{10FFFF}]/u;

/** Memoised: generated configs repeat the same few hundred strings many thousand times. */
const scalarCache = new Map<string, string>();
const SCALAR_CACHE_LIMIT = 50_000;

/** A string as a flow scalar: plain, single-quoted or double-quoted. */
function scalar(text: string): string {
  const cached = scalarCache.get(text);
  if (cached !== undefined) return cached;
  const rendered = renderScalar(text);
  if (scalarCache.size >= SCALAR_CACHE_LIMIT) scalarCache.clear();
  scalarCache.set(text, rendered);
  return rendered;
}

function renderScalar(text: string): string {
  if (text === '' || readsAsAnotherType(text) || UNSAFE_CHARACTER.test(text)) return doubleQuoted(text);
  if (canBePlain(text)) return text;
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * `text` as a YAML double-quoted scalar holding only safe characters: every other character is an escape
 * (`\n`, `\t`, `\xNN`, `\uNNNN`), which both Go readers decode to exactly that character. An
 * unpaired surrogate (JavaScript strings can hold one, Kubernetes objects cannot: the API server's JSON decoder
 * turns it into U+FFFD) is written as U+FFFD, the value the object holds once stored.
 */
function doubleQuoted(text: string): string {
  let out = '"';
  let plainFrom = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit <= 0x7e && unit !== 0x22 && unit !== 0x5c) continue;
    let codePoint = unit;
    let width = 1;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        codePoint = 0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00);
        width = 2;
      } else codePoint = 0xfffd;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) codePoint = 0xfffd;
    const escape = escapeFor(codePoint, unit);
    if (escape === undefined) {
      i += width - 1;
      continue;
    }
    out += text.slice(plainFrom, i) + escape;
    i += width - 1;
    plainFrom = i + 1;
  }
  return `${out}${text.slice(plainFrom)}"`;
}

/** The escape that stands for `codePoint`, or undefined when it may stand as itself inside double quotes. */
function escapeFor(codePoint: number, unit: number): string | undefined {
  switch (codePoint) {
    case 0x22:
      return '\\"';
    case 0x5c:
      return '\\\\';
    case 0x09:
      return '\\t';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
  }
  // An unpaired surrogate became U+FFFD, which must replace the unit in the text.
  if (codePoint === 0xfffd && unit !== 0xfffd) return '\\uFFFD';
  if (isSafeCodePoint(codePoint)) return undefined;
  const hex = codePoint.toString(16).toUpperCase();
  return codePoint <= 0xff ? `\\x${hex.padStart(2, '0')}` : `\\u${hex.padStart(4, '0')}`;
}

/** SAFE_CHARACTERS for one code point. */
function isSafeCodePoint(codePoint: number): boolean {
  if (codePoint < 0xa0) return codePoint >= 0x20 && codePoint <= 0x7e;
  if (codePoint <= 0xd7ff) return codePoint !== 0x2028 && codePoint !== 0x2029;
  if (codePoint < 0xe000) return false;
  if (codePoint <= 0xfffd) return codePoint !== 0xfeff;
  return codePoint >= 0x10000 && codePoint <= 0x10ffff;
}

function readsAsAnotherType(text: string): boolean {
  return NULL.test(text) || BOOL.test(text) || INT.test(text) || FLOAT.test(text) || TIMESTAMP.test(text) || SPECIAL_KEYS.test(text);
}

function canBePlain(text: string): boolean {
  return (
    SAFE_CHARACTERS.test(text) &&
    !INDICATOR_START.test(text) &&
    text.trim() === text &&
    !text.includes(': ') &&
    !text.includes(' #') &&
    !text.endsWith(':')
  );
}

/**
 * Multi-line text goes into a literal block (`|-`) unless it holds characters only escapes can
 * carry or trailing spaces on a line, which yaml.v2 also double-quotes.
 */
function blockScalarAllowed(text: string): boolean {
  // Text made only of line breaks has no line to carry it: a block of only empty lines reads back empty.
  return /[^\n]/.test(text) && !UNSAFE_IN_BLOCK.test(text) && !/[ \t]\n/.test(text) && !/[ \t]$/.test(text);
}

function blockHeader(text: string): string {
  // An indentation indicator is needed when the first line that is not empty starts with a space: the reader takes
  // the indentation of that line for the block's.
  const indentation = /^\n*[ ]/.test(text) ? '2' : '';
  const trailing = /\n*$/.exec(text)?.[0].length ?? 0;
  const chomping = trailing === 0 ? '-' : trailing === 1 ? '' : '+';
  return `|${indentation}${chomping}`;
}

function blockBody(text: string, indent: string): string {
  const body = text.endsWith('\n') ? text.slice(0, text.endsWith('\n\n') ? text.length - 1 : -1) : text;
  return `${body
    .split('\n')
    .map((line) => (line === '' ? '' : `${indent}${line}`))
    .join('\n')}\n`;
}
