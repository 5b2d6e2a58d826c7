/**
 * prometheus-operator's two images, from the binaries tools/build-prometheus-operator.sh builds from its Go module,
 * named and laid out as upstream publishes them, so the operator's defaults find them on the node unchanged: the
 * operator at /bin/operator, and the config-reloader it runs beside every Prometheus at
 * /bin/prometheus-config-reloader (its pods name that path as the command), both as nobody. The takeover test
 * (takeover.test.ts) runs prometheus-operator with them before handing the cluster to promop.
 *
 * What the upstream images have and these lack: busybox (a shell). Nothing the operator or its pods run needs it.
 */
import { execFileSync } from 'node:child_process';
import { toolPath, type ToolName } from '@promop/testkit';
import { buildCachedImage, type BuiltImage, type ImageRecipe } from './image-cache.ts';
import { hostFile } from './image-files.ts';
import { DEFAULT_PATH_ENV } from './oci-archive.ts';
import { DEFAULT_IMAGES_DIR } from './images.ts';

/** The images of prometheus-operator, by role. */
export interface PrometheusOperatorImages {
  operator: BuiltImage;
  configReloader: BuiltImage;
}

/** The version both binaries report (`--version` prints `... version 0.93.1 ...`), as the image tag `v0.93.1`. */
export function prometheusOperatorTag(tool: ToolName = 'prometheus-operator'): string {
  const output = execFileSync(toolPath(tool), ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const version = /version (\d+\.\d+\.\d+)/.exec(output)?.[1];
  if (!version) throw new Error(`${toolPath(tool)} --version names no version; run \`bash tools/build-prometheus-operator.sh\``);
  return `v${version}`;
}

function oneBinaryImage(name: string, archiveFile: string, tool: ToolName, inImage: string): ImageRecipe {
  return {
    name,
    archiveFile,
    inputs: async () => [{ file: toolPath(tool) }],
    describe: async () => ({
      name,
      config: { entrypoint: [inImage], user: '65534:65534', env: [DEFAULT_PATH_ENV] },
      files: [await hostFile(inImage, toolPath(tool))],
    }),
  };
}

/** The recipes: `quay.io/prometheus-operator/prometheus-operator:<tag>` and `.../prometheus-config-reloader:<tag>`. */
export function prometheusOperatorImageRecipes(): Record<keyof PrometheusOperatorImages, ImageRecipe> {
  const tag = prometheusOperatorTag();
  const reloaderTag = prometheusOperatorTag('prometheus-config-reloader');
  if (reloaderTag !== tag) throw new Error(`prometheus-operator is ${tag} but prometheus-config-reloader is ${reloaderTag}; run \`bash tools/build-prometheus-operator.sh\``);
  return {
    operator: oneBinaryImage(`quay.io/prometheus-operator/prometheus-operator:${tag}`, 'prometheus-operator.tar', 'prometheus-operator', '/bin/operator'),
    // The operator's default --prometheus-config-reloader is this name with its own version as the tag.
    configReloader: oneBinaryImage(`quay.io/prometheus-operator/prometheus-config-reloader:${tag}`, 'prometheus-config-reloader.tar', 'prometheus-config-reloader', '/bin/prometheus-config-reloader'),
  };
}

/** Builds both (or reuses the cached archives) into `outDir`, default `.cache/images`. */
export async function buildPrometheusOperatorImages(outDir = DEFAULT_IMAGES_DIR): Promise<PrometheusOperatorImages> {
  const recipes = prometheusOperatorImageRecipes();
  const [operator, configReloader] = await Promise.all([recipes.operator, recipes.configReloader].map((recipe) => buildCachedImage(recipe, outDir)));
  return { operator: operator!, configReloader: configReloader! };
}
