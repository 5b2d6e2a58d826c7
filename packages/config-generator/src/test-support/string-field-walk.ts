/**
 * The string fields of a CRD schema and the objects that put a sentinel into one of them (imported by tests only,
 * field-checks.test.ts). A path is written relative to the spec: dots between fields, `[]` for a list item, `{}`
 * for a map value and `{key}` for a map key (`endpoints[].params{}[]`, `externalLabels{key}`).
 */
import type { SchemaNode } from '@promop/crds';

export type { SchemaNode };

/** One field that may hold a string. */
export interface StringField {
  path: string;
  /** The schema of the string (a map key's is `{type: 'string'}`). */
  node: SchemaNode;
}

/** What the walk finds in a spec schema. */
export interface SchemaStrings {
  strings: StringField[];
  /** Objects kept opaque (`x-kubernetes-preserve-unknown-fields`): their strings cannot be listed from the schema. */
  opaque: string[];
}

function holdsString(node: SchemaNode): boolean {
  return node.type === 'string' || node['x-kubernetes-int-or-string'] === true || (node.anyOf ?? []).some((alternative) => alternative.type === 'string');
}

/** Every string field under `node`, and every opaque object, in schema order. */
export function schemaStrings(node: SchemaNode, path = ''): SchemaStrings {
  const found: SchemaStrings = { strings: [], opaque: [] };
  const add = (more: SchemaStrings) => {
    found.strings.push(...more.strings);
    found.opaque.push(...more.opaque);
  };
  if (holdsString(node)) {
    found.strings.push({ path, node });
    return found;
  }
  if (node.properties) {
    for (const [name, child] of Object.entries(node.properties)) add(schemaStrings(child, path === '' ? name : `${path}.${name}`));
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    found.strings.push({ path: `${path}{key}`, node: { type: 'string' } });
    add(schemaStrings(node.additionalProperties, `${path}{}`));
  }
  if (node.items) add(schemaStrings(node.items, `${path}[]`));
  if (node['x-kubernetes-preserve-unknown-fields'] && !node.properties) found.opaque.push(path);
  return found;
}

/** One step of a path. */
type Step = { field: string } | { item: true } | { mapValue: true } | { mapKey: true };

/** `a.b[]{}` → its steps. */
export function pathSteps(path: string): Step[] {
  const steps: Step[] = [];
  for (const token of path.match(/[^.[{]+|\[\]|\{\}|\{key\}/g) ?? []) {
    if (token === '[]') steps.push({ item: true });
    else if (token === '{}') steps.push({ mapValue: true });
    else if (token === '{key}') steps.push({ mapKey: true });
    else steps.push({ field: token });
  }
  return steps;
}

/**
 * How to make the smallest valid value of a schema node. `at` is the node's path; `hint` may return a value for it
 * (a Secret reference that resolves, a relabeling with a target…) instead of the generic one.
 */
export type ValueHint = (path: string, node: SchemaNode) => unknown;

/** The smallest value the schema accepts: required fields filled, lists at their minimum length. */
export function minimalValue(node: SchemaNode, path: string, hint: ValueHint): unknown {
  const hinted = hint(path, node);
  if (hinted !== undefined) return structuredClone(hinted);
  if (node.enum) return node.enum[0];
  if (holdsString(node)) return node.default ?? 'x';
  if (node.type === 'integer' || node.type === 'number') return Math.max(node.minimum ?? 1, 1);
  if (node.type === 'boolean') return false;
  if (node.type === 'array') {
    return Array.from({ length: node.minItems ?? 0 }, () => minimalValue(node.items ?? {}, `${path}[]`, hint));
  }
  const value: Record<string, unknown> = {};
  for (const name of node.required ?? []) {
    const child = node.properties?.[name];
    if (child) value[name] = minimalValue(child, path === '' ? name : `${path}.${name}`, hint);
  }
  return value;
}

/**
 * A copy of `base` with `value` at `path`, containers on the way created minimal (or taken from `base`: the
 * first list item, the first map entry). A `{key}` step adds an entry named `value` with a minimal value; an
 * undefined `value` removes the field.
 */
export function withValueAt(base: unknown, schema: SchemaNode, path: string, value: unknown, hint: ValueHint): unknown {
  const root = structuredClone(base) as Record<string, unknown>;
  const steps = pathSteps(path);
  let container: Record<string, unknown> | unknown[] = root;
  let node = schema;
  let at = '';
  for (const [index, step] of steps.entries()) {
    const last = index === steps.length - 1;
    if ('mapKey' in step) {
      const valueNode = node.additionalProperties as SchemaNode;
      (container as Record<string, unknown>)[String(value)] = minimalValue(valueNode, `${at}{}`, hint);
      return root;
    }
    let key: string | number;
    let childNode: SchemaNode;
    if ('field' in step) {
      key = step.field;
      childNode = node.properties?.[step.field] ?? {};
      at = at === '' ? step.field : `${at}.${step.field}`;
    } else if ('item' in step) {
      key = 0;
      childNode = node.items ?? {};
      at = `${at}[]`;
    } else {
      const keys = Object.keys(container);
      key = keys[0] ?? 'zz_key';
      childNode = node.additionalProperties as SchemaNode;
      at = `${at}{}`;
    }
    const holder = container as Record<string | number, unknown>;
    if (last) {
      if (value === undefined) delete holder[key];
      else holder[key] = value;
      return root;
    }
    const next = steps[index + 1]!;
    if (holder[key] === undefined || holder[key] === null) {
      holder[key] = 'item' in next ? [] : minimalValue(childNode, at, hint);
    }
    const child = holder[key] as Record<string, unknown> | unknown[];
    if ('item' in next && Array.isArray(child) && child.length === 0) child.push(minimalValue(childNode.items ?? {}, `${at}[]`, hint));
    container = child;
    node = childNode;
  }
  return root;
}
