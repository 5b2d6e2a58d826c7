/** Container images for the test node, built without Docker as OCI archives (see images.ts). */
export { buildImages, imageRecipes, DEFAULT_IMAGES_DIR, type BuiltImages } from './images.ts';
export type { BuiltImage } from './image-cache.ts';
export { PAUSE_IMAGE, PROMETHEUS_IMAGE, EXAMPLE_APP_IMAGE, WEBHOOK_RECEIVER_IMAGE, PROMOP_IMAGE, PROMOP_VERSION, PROMETHEUS_VERSION } from './image-names.ts';
export { PROMOP_IMAGE_CONFIG } from './promop-image.ts';
export { PROMETHEUS_IMAGE_CONFIG } from './prometheus-image.ts';
export { ALERTMANAGER_IMAGE, ALERTMANAGER_IMAGE_CONFIG } from './alertmanager-image.ts';
export { THANOS_IMAGE, THANOS_IMAGE_CONFIG } from './thanos-image.ts';
