/**
 * Serialises generated configuration the way prometheus-operator's gopkg.in/yaml.v2 output
 * looks, so `diff` against an upstream config stays readable: keys in insertion order, block
 * sequences not indented under their parent key, empty lists as `[]`, plain scalars unquoted
 * where YAML allows. Callers build objects in the key order they want emitted.
 */
import { DEFAULT_SCALAR_STYLE_RULES, SCALAR_STYLE, YAML11_SCHEMA, dump, load, type ScalarLayout, type ScalarStyleRule } from 'js-yaml';

/**
 * yaml.v2 quotes a string in one of two ways: with double quotes when the text, left plain,
 * would be read back as another type (`"true"`, `"8080"`, `""`), and with single quotes when
 * the emitter cannot write it plain for syntactic reasons (`'*.yaml'`, `'a: b'`). js-yaml picks
 * one style for both; this rule restores yaml.v2's choice so quoted values look the same.
 */
function quoteLikeYamlV2(layout: ScalarLayout): void {
  if (layout.style !== SCALAR_STYLE.PLAIN || (layout.allowedStylesMask & (1 << SCALAR_STYLE.PLAIN)) !== 0) return;
  layout.style = readsAsAnotherType(layout.node.value) ? SCALAR_STYLE.DOUBLE_QUOTED : SCALAR_STYLE.SINGLE_QUOTED;
}

/** True for text a YAML reader would not return as a string when written plain. */
function readsAsAnotherType(text: string): boolean {
  if (text === '') return true;
  try {
    // yaml.v2 resolves plain scalars with YAML 1.1 rules (`on`, `yes`, `12:30` are not strings).
    const parsed: unknown = load(text, { schema: YAML11_SCHEMA });
    return parsed === null || typeof parsed === 'number' || typeof parsed === 'boolean' || parsed instanceof Date;
  } catch {
    // Text that does not even parse plain is a syntax problem, which yaml.v2 single-quotes.
    return false;
  }
}

const SCALAR_STYLE_RULES: readonly ScalarStyleRule[] = Object.values(DEFAULT_SCALAR_STYLE_RULES).map((rule) =>
  rule === DEFAULT_SCALAR_STYLE_RULES.quoteInvalidPlain ? quoteLikeYamlV2 : rule,
);

/** Turns a generated config object into YAML text. Deterministic for equal input. */
export function toPrometheusYaml(value: unknown): string {
  return dump(value, {
    seqNoIndent: true,
    // yaml.v2 folds long strings at ~80 columns; we keep every value on one line instead, which
    // parses identically and keeps regexes and PromQL greppable.
    lineWidth: -1,
    noRefs: true,
    scalarStyleRules: SCALAR_STYLE_RULES,
  });
}
