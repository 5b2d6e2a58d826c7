/** The whole-object schema (apiVersion, kind, metadata, spec, status) the validators and types are derived from. */
import { GROUP } from '../group.ts';
import { objectMetaSchema } from './common.ts';

/**
 * Wraps a kind's spec and status schemas into the schema of a complete object as the API server returns it.
 * apiVersion and kind are pinned so the derived types can be told apart; the CRD itself does not repeat this
 * (the API server routes by them), see crd-manifest.ts.
 */
export function resourceSchema<const K extends string, const S extends object, const T extends object, const V extends string = 'v1'>(kind: K, spec: S, status: T, version?: V) {
  return {
    type: 'object',
    required: ['apiVersion', 'kind', 'metadata', 'spec'],
    additionalProperties: false,
    properties: {
      apiVersion: { type: 'string', enum: [`${GROUP}/${(version ?? 'v1') as V}`] },
      kind: { type: 'string', enum: [kind] },
      metadata: objectMetaSchema,
      spec,
      status,
    },
  } as const;
}
