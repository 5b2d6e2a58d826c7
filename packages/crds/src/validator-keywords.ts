/** The Kubernetes schema keywords ajv is taught (validator-code.ts) and whose errors validation.ts phrases. */

/** Kubernetes keywords that only annotate the schema for the API server; ajv must know them to stay strict. */
export const ANNOTATION_KEYWORDS = [
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-validations',
] as const;

/** The one Kubernetes keyword that validates: an integer or a string, as the API server checks it. */
export const INT_OR_STRING = 'x-kubernetes-int-or-string';
