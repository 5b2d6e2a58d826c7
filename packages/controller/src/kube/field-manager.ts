/** The field manager of every write promop makes (server-side apply and deletes). */
export const FIELD_MANAGER = 'promop';
