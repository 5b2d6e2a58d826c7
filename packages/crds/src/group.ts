/** The API group promop serves, the same as prometheus-operator's so existing manifests apply unchanged. */
export const GROUP = 'monitoring.coreos.com';
/** The only served version. */
export const VERSION = 'v1';
