/** The field manager of every write promop makes (server-side apply, creates, replaces, patches). */
export const FIELD_MANAGER = 'promop';
