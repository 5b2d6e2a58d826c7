/**
 * Serialises generated configuration the way prometheus-operator's gopkg.in/yaml.v2 output
 * looks, so `diff` against an upstream config stays readable: keys in insertion order, block
 * sequences not indented under their parent key, empty lists as `[]`, plain scalars unquoted
 * where YAML allows. Callers build objects in the key order they want emitted.
 */
import { dump } from 'js-yaml';

/** Turns a generated config object into YAML text. Deterministic for equal input. */
export function toPrometheusYaml(value: unknown): string {
  return dump(value, {
    noArrayIndent: true,
    lineWidth: -1,
    noRefs: true,
    sortKeys: false,
    quotingType: '"',
  });
}
