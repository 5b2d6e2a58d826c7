/**
 * The JSON schema keywords the schemas in `schemas/` use, as code that walks a schema reads them: the fuzzer's
 * arbitraries (e2e/fuzz/schema-arbitrary.ts) and the walk over every string field (config-generator's
 * field-checks.test.ts). One shape, so a keyword the schemas start using is added once.
 */
export interface SchemaNode {
  type?: string | readonly string[];
  properties?: Readonly<Record<string, SchemaNode>>;
  required?: readonly string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  enum?: readonly unknown[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  anyOf?: readonly SchemaNode[];
  default?: unknown;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/**
 * `schema` with the descriptions of the fields below its own properties removed (its own description and those of
 * its direct properties stay). For a shared block repeated many times in one CRD (the HTTP client of each of an
 * AlertmanagerConfig's fifteen notifier kinds): its nested descriptions are what `kubectl explain` shows at the
 * other places the block is used, and fifteen copies of them would make the CRD too big for client-side
 * `kubectl apply` (docs/crds.md). The type is the input's: descriptions take no part in the derived types.
 */
export function withShallowDescriptions<const S extends object>(schema: S): S {
  const strip = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((each) => strip(each, depth));
    if (node === null || typeof node !== 'object') return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description' && depth > 1) continue;
      // A field's schema is one level deeper than the object holding it; list items are the list's own level.
      if (key === 'properties') copy[key] = Object.fromEntries(Object.entries(value as object).map(([name, field]) => [name, strip(field, depth + 1)]));
      else copy[key] = strip(value, depth);
    }
    return copy;
  };
  return strip(schema, 0) as S;
}
