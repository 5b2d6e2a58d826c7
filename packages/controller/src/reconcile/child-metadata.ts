/** Small readers of a child's metadata that the reconciler's collaborators share (pure). */
import type { V1ObjectMeta } from '@kubernetes/client-node';
import type { PartialObjectMetadata } from '../kube/index.ts';

/** An object's metadata as a metadata-only cache or write answer carries it. */
export function metadataOf(object: { metadata?: V1ObjectMeta }): PartialObjectMetadata {
  return { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', ...(object.metadata ? { metadata: object.metadata } : {}) };
}

export function nameOf(object: { metadata?: { name?: string } }): string {
  return object.metadata?.name ?? '';
}
