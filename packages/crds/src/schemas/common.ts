/**
 * Building blocks shared by every kind: the string formats prometheus-operator defines (Duration, ByteSize, URL),
 * references to Secrets and ConfigMaps, label and namespace selectors, and the helpers that mark embedded
 * Kubernetes types as opaque.
 *
 * Every schema here is an `as const` literal: json-schema-to-ts reads the literal type to derive the TypeScript
 * types, ajv compiles the value, and the CRD generator copies it into crds/*.yaml. Objects that list their
 * `properties` also say `additionalProperties: false` so the derived types are closed and ajv reports unknown
 * fields like `kubectl apply` (server-side strict field validation) does; the CRD generator removes that keyword
 * because structural schemas forbid it beside `properties` (the API server prunes unknown fields instead).
 */

/** Prometheus duration: `30s`, `1m30s`, `1h`, `0`. Same pattern as prometheus-operator's `Duration` type. */
export const DURATION_PATTERN = '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$';
/** Storage size such as `512MB` or `1.5GiB` (prometheus-operator's `ByteSize`). */
export const BYTE_SIZE_PATTERN = '(^0|([0-9]*[.])?[0-9]+((K|M|G|T|E|P)i?)?B)$';
/** An http or https URL (prometheus-operator's `URL`). */
export const URL_PATTERN = '^(http|https)://.+$';
/** A proxy URL; Prometheus also accepts SOCKS5 proxies. */
export const PROXY_URL_PATTERN = '^(http|https|socks5)://.+$';

/**
 * How validation errors describe a value that does not match one of the patterns above. Keyed by the pattern
 * itself, so the sentence a user reads cannot drift from the pattern the schema checks.
 */
export const PATTERN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  [DURATION_PATTERN]: 'is not a duration like 30s or 1m',
  [BYTE_SIZE_PATTERN]: 'is not a size like 512MB or 1GiB',
  [URL_PATTERN]: 'is not an http:// or https:// URL',
  [PROXY_URL_PATTERN]: 'is not an http://, https:// or socks5:// URL',
};

/** A Duration field with its own description. */
export function duration<const D extends string>(description: D) {
  return { type: 'string', pattern: DURATION_PATTERN, description } as const;
}

/** A Duration field with a default the API server fills in. */
export function durationWithDefault<const D extends string, const V extends string>(description: D, value: V) {
  return { type: 'string', pattern: DURATION_PATTERN, default: value, description } as const;
}

/** A ByteSize field. */
export function byteSize<const D extends string>(description: D) {
  return { type: 'string', pattern: BYTE_SIZE_PATTERN, description } as const;
}

/** A plain string field. */
export function str<const D extends string>(description: D) {
  return { type: 'string', description } as const;
}

/** A boolean field. */
export function bool<const D extends string>(description: D) {
  return { type: 'boolean', description } as const;
}

/** A non-negative integer field (limits, counts, seconds). */
export function count<const D extends string>(description: D) {
  return { type: 'integer', minimum: 0, description } as const;
}

/** A list of strings. */
export function stringList<const D extends string>(description: D) {
  return { type: 'array', items: { type: 'string' }, description } as const;
}

/** A string-to-string map such as labels or annotations. */
export function stringMap<const D extends string>(description: D) {
  return { type: 'object', additionalProperties: { type: 'string' }, description } as const;
}

/** A string enum. */
export function oneOf<const V extends readonly string[], const D extends string>(values: V, description: D) {
  return { type: 'string', enum: values, description } as const;
}

/**
 * An embedded Kubernetes type (affinity, resources, a container…) kept opaque. Inlining the Kubernetes schemas
 * would make the Prometheus CRD several hundred kilobytes (too big for client-side `kubectl apply`); the API
 * server still validates these values when promop writes them into the StatefulSet it creates.
 */
export function embedded<const D extends string>(description: D) {
  return { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description } as const;
}

/** A list of embedded Kubernetes objects (containers, volumes, tolerations…), each kept opaque. */
export function embeddedList<const D extends string>(description: D) {
  return {
    type: 'array',
    items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    description,
  } as const;
}

/** An integer or a string, e.g. a port given by number or by name (Kubernetes `IntOrString`). */
export function intOrString<const D extends string>(description: D) {
  return {
    'x-kubernetes-int-or-string': true,
    anyOf: [{ type: 'integer' }, { type: 'string' }],
    description,
  } as const;
}

/** A key of a Secret in the same namespace as the object that references it. */
export const secretKeySelectorSchema = {
  type: 'object',
  description: 'A key of a Secret in the same namespace as this object.',
  'x-kubernetes-map-type': 'atomic',
  required: ['key'],
  additionalProperties: false,
  properties: {
    name: str('Name of the Secret.'),
    key: str('The key of the Secret to select.'),
    optional: bool('Whether the Secret or its key may be missing.'),
  },
} as const;

/** A key of a ConfigMap in the same namespace as the object that references it. */
export const configMapKeySelectorSchema = {
  type: 'object',
  description: 'A key of a ConfigMap in the same namespace as this object.',
  'x-kubernetes-map-type': 'atomic',
  required: ['key'],
  additionalProperties: false,
  properties: {
    name: str('Name of the ConfigMap.'),
    key: str('The key of the ConfigMap to select.'),
    optional: bool('Whether the ConfigMap or its key may be missing.'),
  },
} as const;

/** Data taken from either a Secret or a ConfigMap key (CA certificates, client certificates, OAuth2 client ids). */
export const secretOrConfigMapSchema = {
  type: 'object',
  description: 'Data from a Secret key or a ConfigMap key (set one of the two).',
  additionalProperties: false,
  properties: {
    secret: secretKeySelectorSchema,
    configMap: configMapKeySelectorSchema,
  },
} as const;

/** A Kubernetes label selector. Absent selects nothing; `{}` selects everything (prometheus-operator semantics). */
export const labelSelectorSchema = {
  type: 'object',
  description: 'A label selector. Absent selects nothing; an empty selector ({}) selects everything.',
  'x-kubernetes-map-type': 'atomic',
  additionalProperties: false,
  properties: {
    matchLabels: stringMap('Labels that must all be present with these values.'),
    matchExpressions: {
      type: 'array',
      description: 'Label requirements, all of which must match.',
      items: {
        type: 'object',
        required: ['key', 'operator'],
        additionalProperties: false,
        properties: {
          key: str('The label key.'),
          // A plain string, as in Kubernetes' own schema and prometheus-operator's CRD: an unknown operator is
          // reported by promop when it converts the selector (the object is rejected in its status).
          operator: str('How the key relates to the values: In, NotIn, Exists or DoesNotExist.'),
          values: stringList('Values for In and NotIn; must be empty for Exists and DoesNotExist.'),
        },
      },
    },
  },
} as const;

/** Which namespaces a monitor looks for targets in; absent means the monitor's own namespace. */
export const namespaceSelectorSchema = {
  type: 'object',
  description: "Namespaces to discover targets in. Absent means the object's own namespace.",
  additionalProperties: false,
  properties: {
    any: bool('Select all namespaces (matchNames is then ignored).'),
    matchNames: stringList('Names of the namespaces to select.'),
  },
} as const;

/** The metadata of pods promop creates (a subset of ObjectMeta, as prometheus-operator's EmbeddedObjectMetadata). */
export const embeddedObjectMetadataSchema = {
  type: 'object',
  description: 'Labels and annotations added to the pods; name is accepted for compatibility.',
  additionalProperties: false,
  properties: {
    name: str('Accepted for compatibility; pod names are chosen by the StatefulSet.'),
    labels: stringMap('Labels added to the pods.'),
    annotations: stringMap('Annotations added to the pods.'),
  },
} as const;

/**
 * ObjectMeta as far as promop reads it. Used by the validators and the TypeScript types only: a CRD cannot
 * describe metadata (the API server validates it itself), so the CRD generator writes `metadata: {type: object}`.
 * Left open (no additionalProperties: false) because the API server owns this part of the object.
 */
export const objectMetaSchema = {
  type: 'object',
  required: ['name', 'namespace'],
  properties: {
    name: { type: 'string' },
    namespace: { type: 'string' },
    generateName: { type: 'string' },
    uid: { type: 'string' },
    resourceVersion: { type: 'string' },
    generation: { type: 'integer' },
    // null in manifests written by `kubectl create --dry-run=client -o yaml` and Go tooling; the API server accepts it.
    creationTimestamp: { type: ['string', 'null'] },
    deletionTimestamp: { type: 'string' },
    deletionGracePeriodSeconds: { type: 'integer' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
    finalizers: { type: 'array', items: { type: 'string' } },
    ownerReferences: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    managedFields: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  },
} as const;

/** AWS Signature Version 4 request signing, for remote write and Alertmanager endpoints. */
export const sigv4Schema = {
  type: 'object',
  description: 'AWS Signature Version 4 authentication.',
  additionalProperties: false,
  properties: {
    region: str('AWS region (default: from the environment).'),
    accessKey: secretKeySelectorSchema,
    secretKey: secretKeySelectorSchema,
    profile: str('Named AWS profile.'),
    roleArn: str('Role to assume.'),
    externalId: str('External id used when assuming roleArn.'),
    useFIPSSTSEndpoint: bool('Use the FIPS STS endpoint.'),
  },
} as const;
