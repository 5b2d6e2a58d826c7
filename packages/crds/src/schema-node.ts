/**
 * The JSON schema keywords the schemas in `schemas/` use, as code that walks a schema reads them: the fuzzer's
 * arbitraries (e2e/fuzz/schema-arbitrary.ts) and the walk over every string field (config-generator's
 * field-checks.test.ts). One shape, so a keyword the schemas start using is added once.
 */
import { configMapKeySelectorSchema, secretKeySelectorSchema } from './schemas/common.ts';

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
 * The `properties` object of every Secret and ConfigMap key selector schema, by the kind it selects: the selectors of
 * common.ts, and the copies withShallowDescriptions makes of them. A field written as `{...secretKeySelectorSchema,
 * description}` shares the object, so this finds every selector however it is described or copied.
 */
const SELECTOR_KINDS = new WeakMap<object, 'Secret' | 'ConfigMap'>([
  [secretKeySelectorSchema.properties, 'Secret'],
  [configMapKeySelectorSchema.properties, 'ConfigMap'],
]);

/** The kind a schema node whose `properties` are `properties` selects a key of, if it is a key selector. */
export function keySelectorKind(properties: unknown): 'Secret' | 'ConfigMap' | undefined {
  return typeof properties === 'object' && properties !== null ? SELECTOR_KINDS.get(properties) : undefined;
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
      if (key === 'properties') {
        const properties = Object.fromEntries(Object.entries(value as object).map(([name, field]) => [name, strip(field, depth + 1)]));
        // A copy of a key selector is still one (key-references.ts finds references by these `properties`).
        const selector = keySelectorKind(value);
        if (selector) SELECTOR_KINDS.set(properties, selector);
        copy[key] = properties;
      } else copy[key] = strip(value, depth);
    }
    return copy;
  };
  return strip(schema, 0) as S;
}
