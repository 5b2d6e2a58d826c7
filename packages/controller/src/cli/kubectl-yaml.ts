/**
 * YAML read the way kubectl reads manifests before it sends them as JSON (sigs.k8s.io/yaml, which resolves plain
 * scalars with go-yaml v2's YAML 1.1 rules), so that `promop render` and `promop diff` see the object the API
 * server would see. js-yaml's default (YAML 1.2 core) schema reads `enabled: yes` as the string "yes", where kubectl
 * sends `true` and the API server refuses a boolean in `matchLabels`; `mode: 0755` as 755 where kubectl sends 493.
 *
 * The rules, for a plain (unquoted, untagged) scalar, decided by its first character as go-yaml does:
 * - `y Y yes Yes YES true True TRUE on On ON` are true, `n N no No NO false False FALSE off Off OFF` false;
 *   `~ null Null NULL` and the empty scalar null; `.nan .inf -.inf` (and their case variants) are numbers JSON
 *   cannot hold, so kubectl refuses the file.
 * - From a digit or a sign, with every `_` removed: an integer as Go reads one (`0x1F`, `0o17`, `0b101`, and a
 *   leading 0 is octal: `0777` is 511, `010` is 8), else a float of the form `[-+]?(.d+|d+(.d*)?)([eE][-+]?d+)?`
 *   (`08` is 8, `1.` is 1, `1e3` is 1000), else a string (`0x1p-2`, `1.2.3`, `12:30`, `2001-12-14`).
 * - From `.`: a float like `.5e3`; anything else is a string, and so is every scalar starting otherwise.
 * Duplicate keys are allowed and the last one wins, as kubectl's conversion does; `<<` merge keys work.
 * Checked against kubectl itself in kubectl-yaml.apiserver.test.ts.
 */
import { FAILSAFE_SCHEMA, NOT_RESOLVED, Schema, defineScalarTag, loadAll, mergeTag } from 'js-yaml';

type Resolved = { kind: 'null'; value: null } | { kind: 'bool'; value: boolean } | { kind: 'int' | 'float'; value: number } | { kind: 'str' };

const KEYWORDS = new Map<string, Resolved>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map((word): [string, Resolved] => [word, { kind: 'bool', value: true }]),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map((word): [string, Resolved] => [word, { kind: 'bool', value: false }]),
  ...['', '~', 'null', 'Null', 'NULL'].map((word): [string, Resolved] => [word, { kind: 'null', value: null }]),
  ...['.nan', '.NaN', '.NAN'].map((word): [string, Resolved] => [word, { kind: 'float', value: Number.NaN }]),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map((word): [string, Resolved] => [word, { kind: 'float', value: Number.POSITIVE_INFINITY }]),
  ...['-.inf', '-.Inf', '-.INF'].map((word): [string, Resolved] => [word, { kind: 'float', value: Number.NEGATIVE_INFINITY }]),
]);

/** The first characters after which go-yaml looks a scalar up at all; any other first character means a string. */
const KEYWORD_FIRST = new Set('yYnNtTfFoO~');
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** What go-yaml makes of a plain scalar. */
export function resolvePlainScalar(text: string): Resolved {
  const first = text.charAt(0);
  const isDigit = first >= '0' && first <= '9';
  const isSign = first === '+' || first === '-';
  if (text !== '' && !KEYWORD_FIRST.has(first) && first !== '.' && !isDigit && !isSign) return { kind: 'str' };
  const keyword = KEYWORDS.get(text);
  if (keyword) return keyword;
  if (first === '.') return DOT_FLOAT.test(text) ? { kind: 'float', value: Number(text) } : { kind: 'str' };
  if (!isDigit && !isSign) return { kind: 'str' };
  const plain = text.replaceAll('_', '');
  const integer = goInteger(plain);
  if (integer !== undefined) return { kind: 'int', value: integer };
  if (YAML_STYLE_FLOAT.test(plain)) {
    const value = Number(plain);
    // Go's ParseFloat fails for values beyond float64 (1e400): go-yaml then keeps the text.
    if (Number.isFinite(value)) return { kind: 'float', value };
  }
  return { kind: 'str' };
}

/** strconv.ParseInt(text, 0, 64), else ParseUint(text, 0, 64), as a number; undefined when both fail. */
function goInteger(text: string): number | undefined {
  const match = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
  if (!match) return undefined;
  const [, sign, digits] = match as unknown as [string, string, string];
  const prefix = digits.slice(0, 2).toLowerCase();
  const magnitude = prefix === '0x' || prefix === '0o' || prefix === '0b'
    ? BigInt(`0${prefix[1]}${digits.slice(2)}`)
    : digits.length > 1 && digits.startsWith('0')
      ? BigInt(`0o${digits.slice(1)}`)
      : BigInt(digits);
  const value = sign === '-' ? -magnitude : magnitude;
  if (value >= INT64_MIN && value <= INT64_MAX) return Number(value);
  // ParseUint takes no sign.
  if (sign === '' && value <= UINT64_MAX) return Number(value);
  return undefined;
}

function tagOf(kind: 'null' | 'bool' | 'int' | 'float', tagName: string) {
  return defineScalarTag(tagName, {
    implicit: true,
    resolve: (source: string) => {
      const resolved = resolvePlainScalar(source);
      return resolved.kind === kind ? resolved.value : NOT_RESOLVED;
    },
    identify: () => false,
  });
}

/** js-yaml's schema for kubectl's reading: strings, sequences and mappings, go-yaml's scalars, merge keys. */
export const KUBECTL_YAML_SCHEMA = new Schema([
  ...FAILSAFE_SCHEMA.tags,
  tagOf('null', 'tag:yaml.org,2002:null'),
  tagOf('bool', 'tag:yaml.org,2002:bool'),
  tagOf('int', 'tag:yaml.org,2002:int'),
  tagOf('float', 'tag:yaml.org,2002:float'),
  mergeTag,
]);

/** A value kubectl could not turn into JSON (NaN, ±Inf), with where it is. */
export interface NotJson {
  /** The document's index and the path inside it, e.g. `spec.endpoints[0].interval`. */
  document: number;
  path: string;
  value: number;
}

/**
 * Every document of `text`, read as kubectl reads it; throws js-yaml's YAMLException for malformed YAML. Numbers
 * JSON cannot hold are returned in `notJson` (kubectl refuses the whole file for them).
 */
export function loadManifestDocuments(text: string, filename: string): { documents: unknown[]; notJson: NotJson[] } {
  const documents = loadAll(text, { filename, schema: KUBECTL_YAML_SCHEMA, json: true }) as unknown[];
  const notJson: NotJson[] = [];
  documents.forEach((document, index) => findNotJson(document, '', (path, value) => notJson.push({ document: index, path, value })));
  return { documents, notJson };
}

function findNotJson(value: unknown, path: string, report: (path: string, value: number) => void): void {
  if (typeof value === 'number' && !Number.isFinite(value)) report(path, value);
  else if (Array.isArray(value)) value.forEach((item, index) => findNotJson(item, `${path}[${index}]`, report));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) findNotJson(item, /^[A-Za-z_$][\w$-]*$/.test(key) ? (path === '' ? key : `${path}.${key}`) : `${path}[${JSON.stringify(key)}]`, report);
  }
}
