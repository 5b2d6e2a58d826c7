/**
 * Which Secrets and ConfigMaps an object names, found where its schema says a reference is: every value at a
 * position whose schema is a SecretKeySelector or a ConfigMapKeySelector (basic auth, bearer tokens, OAuth2, TLS
 * material, sigv4, additional scrape configs, ...). The schema is the one source: a reference added to a schema is
 * found without touching this module, and nothing else in a spec (an embedded container's env, a volume) is taken
 * for one. promop reads the data of just these objects instead of holding every Secret of the cluster.
 */
import { keySelectorKind } from './schema-node.ts';
import type { Kind } from './kinds.ts';
import { RESOURCE_SCHEMAS } from './resource-schemas.ts';

/** A Secret or ConfigMap named by a key reference, in the referencing object's namespace. */
export interface KeyReference {
  kind: 'Secret' | 'ConfigMap';
  name: string;
}

/** The kinds whose objects can reference Secrets or ConfigMaps: any kind (a rule file references none, so its walk finds none). */
export type ReferencingKind = Kind;

interface SchemaNode {
  readonly type?: unknown;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly items?: SchemaNode;
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly allOf?: readonly SchemaNode[];
}

const SCHEMAS: Readonly<Record<ReferencingKind, SchemaNode>> = RESOURCE_SCHEMAS;

/**
 * The Secrets and ConfigMaps `object` (of `kind`) references, each once, in the order found. A selector without a
 * name references nothing.
 */
export function keyReferences(kind: ReferencingKind, object: unknown): KeyReference[] {
  const found = new Map<string, KeyReference>();
  collect(SCHEMAS[kind], object, found);
  return [...found.values()];
}

/** Whether a SecretKeySelector or ConfigMapKeySelector is reachable from each schema node, computed once per node. */
const canReference = new WeakMap<SchemaNode, boolean>();

/**
 * Whether a value at `schema` can hold a reference. Most of a monitor (its selector, relabelings, metadata) cannot,
 * and skipping those parts spares a cold walk over many ServiceMonitors most of its work. A node being
 * computed counts as "no" for the nodes inside it, which only matters for a recursive schema (there is none).
 */
function mayReference(schema: SchemaNode): boolean {
  const known = canReference.get(schema);
  if (known !== undefined) return known;
  canReference.set(schema, false);
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
    ...(schema.items ? [schema.items] : []),
    ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? []),
  ];
  const result = referencedKind(schema) !== undefined || children.some(mayReference);
  canReference.set(schema, result);
  return result;
}

function referencedKind(schema: SchemaNode): KeyReference['kind'] | undefined {
  return keySelectorKind(schema.properties);
}

function collect(schema: SchemaNode, value: unknown, found: Map<string, KeyReference>): void {
  if (value === null || typeof value !== 'object' || !mayReference(schema)) return;
  const referenced = referencedKind(schema);
  if (referenced) {
    const name = (value as { name?: unknown }).name;
    if (typeof name === 'string' && name !== '') found.set(`${referenced}/${name}`, { kind: referenced, name });
    return;
  }
  for (const alternative of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) collect(alternative, value, found);
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) collect(schema.items, item, found);
    return;
  }
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const fieldSchema = schema.properties?.[key] ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (fieldSchema) collect(fieldSchema, field, found);
  }
}
