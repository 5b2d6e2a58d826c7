/**
 * Is the configuration Prometheus reports as loaded (GET /api/v1/status/config) the one promop wrote?
 *
 * Prometheus does not serve back the file it read: it serves its parsed configuration re-serialised, with every
 * default filled in (`honor_timestamps: true`, `scrape_protocols`, ...), zero values dropped, durations in
 * canonical form, secrets masked as `<secret>`, `${VAR}` in external labels expanded, and the deprecated
 * `bearer_token(_file)` moved under `authorization`. So the comparison is structural: every value promop wrote
 * must be present, with the same meaning, at the same place in the loaded configuration; what Prometheus added
 * is ignored. Any edit promop makes (a job, a relabeling, a target, an interval) is therefore seen, without
 * embedding a marker in the config (a marker in external labels would change every series).
 */
import { load } from 'js-yaml';
import { parseDuration } from '@promop/config-generator';

/** Equal, or the first place where they differ (a dotted path such as `scrape_configs[2].relabel_configs[0].regex`). */
export type ConfigComparison =
  | { equal: true }
  | { equal: false; path: string; expected: string; loaded: string };

/** What Prometheus prints for a secret it will not reveal. */
const MASKED_SECRET = '<secret>';

/**
 * Compares the configuration text promop generated with the text Prometheus serves as loaded. Throws only when
 * `expectedText` is not YAML (promop generated it: a bug); a loaded text that is not YAML is a difference.
 */
export function compareLoadedConfig(expectedText: string, loadedText: string): ConfigComparison {
  const expected = load(expectedText);
  let loaded: unknown;
  try {
    loaded = load(loadedText);
  } catch (error) {
    return { equal: false, path: '', expected: 'a YAML document', loaded: `unparsable YAML (${(error as Error).message.split('\n')[0]})` };
  }
  return compareValue(normaliseAuthorization(expected), loaded, '');
}

function compareValue(expected: unknown, loaded: unknown, path: string): ConfigComparison {
  if (loaded === undefined || loaded === null) {
    // Go's YAML encoder omits zero values: `honor_labels: false` is served as nothing.
    return isZeroValue(expected) ? { equal: true } : difference(path, expected, loaded);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(loaded) || loaded.length !== expected.length) return difference(path, expected, loaded);
    for (const [index, item] of expected.entries()) {
      const result = compareValue(item, loaded[index], `${path}[${index}]`);
      if (!result.equal) return result;
    }
    return { equal: true };
  }
  if (isObject(expected)) {
    if (!isObject(loaded)) return isZeroValue(expected) ? { equal: true } : difference(path, expected, loaded);
    for (const [key, value] of Object.entries(expected)) {
      const result = compareValue(value, loaded[key], path === '' ? key : `${path}.${key}`);
      if (!result.equal) return result;
    }
    return { equal: true };
  }
  return scalarsMatch(expected, loaded, path) ? { equal: true } : difference(path, expected, loaded);
}

function scalarsMatch(expected: unknown, loaded: unknown, path: string): boolean {
  if (expected === loaded) return true;
  if (expected === null || expected === undefined) return isZeroValue(loaded);
  if (typeof expected === 'string' && loaded === MASKED_SECRET) return true;
  const expectedText = String(expected);
  const loadedText = String(loaded);
  // A label value such as "8080" may be quoted on one side only.
  if (expectedText === loadedText) return true;
  const expectedMs = parseDuration(expectedText);
  if (expectedMs !== undefined && expectedMs === parseDuration(loadedText)) return true;
  // Prometheus lower-cases relabel actions (`Replace` is loaded as `replace`).
  if (path.endsWith('.action') && expectedText.toLowerCase() === loadedText.toLowerCase()) return true;
  // Prometheus 3 expands environment variables in external label values (the replica label is `${POD_NAME}`).
  if (path.startsWith('global.external_labels.') && expectedText.includes('$')) return expandedFrom(expectedText).test(loadedText);
  return false;
}

/** A pattern matching any expansion of `${VAR}` / `$VAR` in `text`; `$$` is a literal dollar. */
function expandedFrom(text: string): RegExp {
  const parts = text.split(/(\$\$|\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*)/);
  const pattern = parts.map((part, index) => {
    if (index % 2 === 0) return escapeRegExp(part);
    return part === '$$' ? '\\$' : '.*';
  }).join('');
  return new RegExp(`^${pattern}$`, 's');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Prometheus moves the deprecated `bearer_token` / `bearer_token_file` of an HTTP client config into
 * `authorization: {type: Bearer, credentials(_file)}` when it loads the file; do the same to the expected side.
 */
function normaliseAuthorization(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normaliseAuthorization);
  if (!isObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) result[key] = normaliseAuthorization(item);
  const { bearer_token: token, bearer_token_file: tokenFile } = result;
  if (token !== undefined || tokenFile !== undefined) {
    delete result.bearer_token;
    delete result.bearer_token_file;
    result.authorization = {
      type: 'Bearer',
      ...(token !== undefined ? { credentials: token } : {}),
      ...(tokenFile !== undefined ? { credentials_file: tokenFile } : {}),
    };
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isZeroValue(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isObject(value)) return Object.values(value).every(isZeroValue);
  return false;
}

function difference(path: string, expected: unknown, loaded: unknown): ConfigComparison {
  return { equal: false, path, expected: describe(expected, path), loaded: describe(loaded, path) };
}

// Keys under which the config holds credentials inline (not `*_file`, which are paths).
const SECRET_KEY = /(password|secret|credentials|bearer_token)$/;

/**
 * A short rendering for status messages and logs. Collections are summarised rather than printed, and a
 * scalar under a credential key is masked: the difference must never carry a secret promop inlined.
 */
function describe(value: unknown, path: string): string {
  if (value === undefined || value === null) return '(absent)';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (isObject(value)) return `a map with keys ${Object.keys(value).slice(0, 10).join(', ') || '(none)'}`;
  if (SECRET_KEY.test(path)) return MASKED_SECRET;
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
