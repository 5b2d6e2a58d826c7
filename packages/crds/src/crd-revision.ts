/**
 * Which promop wrote a CRD: every CRD promop ships (crds/*.yaml, the chart, `promop run --manage-crds`) carries
 * its schema revision and the hash of its spec as annotations, so a running promop can tell a CRD older than its
 * own (upgrade it) from a newer one (written by a newer promop: never downgrade it) and from one promop never
 * wrote (prometheus-operator's CRDs have the same group and names: leave them alone). See docs/compatibility.md.
 */
import { createHash } from 'node:crypto';
import { crdManifests, type CustomResourceDefinition } from './crd-manifest.ts';

/**
 * The revision of promop's CRD schemas. Bump it in the commit that changes a schema (a new field, a new kind, a
 * changed validation), so that a promop started with the new schemas upgrades CRDs written by an older one and an
 * older one never downgrades them. A forgotten bump is caught at start, not ignored: the same revision with a
 * different schema hash is applied too (see crd-installer.ts in @promop/controller).
 */
export const CRD_REVISION = 10;

/** The annotation holding {@link CRD_REVISION} (a decimal integer) on every CRD promop writes. */
export const CRD_REVISION_ANNOTATION = 'promop.prometheus.io/crd-revision';

/** The annotation holding the first 16 hex digits of the sha256 of the CRD's spec as promop generated it. */
export const CRD_SCHEMA_HASH_ANNOTATION = 'promop.prometheus.io/crd-schema-hash';

/** The label every promop CRD carries (also on CRDs of promop versions before the revision annotation). */
export const CRD_PART_OF_LABEL = 'app.kubernetes.io/part-of';

/** sha256 of the spec, in the key order the schema literals define (deterministic for a given source). */
export function crdSchemaHash(crd: Pick<CustomResourceDefinition, 'spec'>): string {
  return createHash('sha256').update(JSON.stringify(crd.spec)).digest('hex').slice(0, 16);
}

/** A CRD with its revision annotations added. */
export function withRevisionAnnotations(crd: CustomResourceDefinition): CustomResourceDefinition & { metadata: { annotations: Record<string, string> } } {
  return {
    ...crd,
    metadata: {
      ...crd.metadata,
      annotations: { [CRD_REVISION_ANNOTATION]: String(CRD_REVISION), [CRD_SCHEMA_HASH_ANNOTATION]: crdSchemaHash(crd) },
    },
  };
}

/** The CRDs exactly as promop ships and applies them: crdManifests() with the revision annotations. */
export function revisionedCrdManifests(): (CustomResourceDefinition & { metadata: { annotations: Record<string, string> } })[] {
  return crdManifests().map(withRevisionAnnotations);
}
