/**
 * All the images the test node runs, built (or reused from the cache) as OCI archives ready for
 * `ctr -n k8s.io images import <archive>`.
 */
import { join } from 'node:path';
import { REPO_ROOT } from '@promop/testkit';
import { buildCachedImage, type BuiltImage, type ImageRecipe } from './image-cache.ts';
import { alertmanagerImageRecipe } from './alertmanager-image.ts';
import { EXAMPLE_APP_IMAGE, PAUSE_IMAGE, WEBHOOK_RECEIVER_IMAGE } from './image-names.ts';
import { goProgramImage } from './go-program.ts';
import { previousPrometheusImageRecipe, prometheusImageRecipe } from './prometheus-image.ts';
import { promopImageRecipe } from './promop-image.ts';
import { thanosImageRecipe } from './thanos-image.ts';

/** Where archives go by default (git-ignored). */
export const DEFAULT_IMAGES_DIR = join(REPO_ROOT, '.cache', 'images');

/** The images, by role. */
export interface BuiltImages {
  pause: BuiltImage;
  prometheus: BuiltImage;
  /** The Prometheus release before the default: the end-to-end test upgrades from it. */
  previousPrometheus: BuiltImage;
  exampleApp: BuiltImage;
  promop: BuiltImage;
  /** Named as promop's StatefulSet names the default Alertmanager version. */
  alertmanager: BuiltImage;
  /** Records the webhooks Alertmanager sends: the teams' receivers in the alerting step. */
  webhookReceiver: BuiltImage;
  /** Named as promop's Thanos sidecar names the default Thanos version; also runs Thanos Query and the ruler. */
  thanos: BuiltImage;
}

/** The recipe of each image. */
export function imageRecipes(): Record<keyof BuiltImages, ImageRecipe> {
  return {
    // Kubernetes' own pause image runs as 65535:65535 too.
    pause: goProgramImage({ name: PAUSE_IMAGE, archiveFile: 'pause.tar', moduleDir: join(REPO_ROOT, 'tools', 'pause'), program: 'pause', user: '65535:65535' }),
    prometheus: prometheusImageRecipe(),
    previousPrometheus: previousPrometheusImageRecipe(),
    exampleApp: goProgramImage({
      name: EXAMPLE_APP_IMAGE,
      archiveFile: 'example-app.tar',
      moduleDir: join(REPO_ROOT, 'tools', 'example-app'),
      program: 'example-app',
      user: '65534:65534',
      exposedPorts: ['8080/tcp'],
    }),
    promop: promopImageRecipe(),
    alertmanager: alertmanagerImageRecipe(),
    webhookReceiver: goProgramImage({
      name: WEBHOOK_RECEIVER_IMAGE,
      archiveFile: 'webhook-receiver.tar',
      moduleDir: join(REPO_ROOT, 'tools', 'webhook-receiver'),
      program: 'webhook-receiver',
      user: '65534:65534',
      exposedPorts: ['8080/tcp'],
    }),
    thanos: thanosImageRecipe(),
  };
}

/**
 * Builds every image into `outDir` (default `.cache/images`), each only when its inputs changed since the
 * archive there was built. Needs `go`, `pnpm` (with the store filled by `pnpm install`) and the prometheus,
 * alertmanager and thanos binaries from `pnpm tools`.
 */
export async function buildImages(options: { outDir?: string } = {}): Promise<BuiltImages> {
  const outDir = options.outDir ?? DEFAULT_IMAGES_DIR;
  const recipes = imageRecipes();
  const roles = Object.keys(recipes) as (keyof BuiltImages)[];
  const built = await Promise.all(roles.map((role) => buildCachedImage(recipes[role], outDir)));
  return Object.fromEntries(roles.map((role, index) => [role, built[index]!])) as unknown as BuiltImages;
}
