/** JSON paths of fields inside a resource, as FieldProblems and warnings print them. */

/** `parent.key`, or `parent["key"]` when the key is not an identifier (`labels["app.kubernetes.io/name"]`). */
export function keyPath(parent: string, key: string): string {
  return /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key)}]`;
}
