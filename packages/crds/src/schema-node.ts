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
