import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';

/** The field manager of every write promop makes (server-side apply and deletes). */
export const FIELD_MANAGER = 'promop';

/**
 * Request options that make a client-node patch a server-side apply: client-node's generated patch methods send
 * JSON Patch unless the Content-Type header is overridden.
 */
export const SERVER_SIDE_APPLY = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
