/**
 * Builds the small Go programs of the test images (tools/pause, tools/example-app): static, stripped and
 * reproducible, so an unchanged source gives an unchanged binary and image digest.
 */
import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CacheInput, ImageRecipe } from './image-cache.ts';
import { hostFile } from './image-files.ts';
import { DEFAULT_PATH_ENV, hostPlatform, type ImageConfig } from './oci-archive.ts';

const run = promisify(execFile);

/**
 * The environment of `go build`. CGO off: the binary must run in an image without a C library. GOTOOLCHAIN=local:
 * never download a toolchain (the modules ask for go 1.26.0, which any installed 1.26.x satisfies). GOFLAGS is
 * cleared so a developer's `-mod=vendor` or the like cannot change the build.
 */
function goEnvironment(): NodeJS.ProcessEnv {
  // OCI and Go name the architectures alike (amd64, arm64, ppc64le, s390x, riscv64).
  return { ...process.env, CGO_ENABLED: '0', GOOS: 'linux', GOARCH: hostPlatform().architecture, GOTOOLCHAIN: 'local', GOFLAGS: '' };
}

/** Builds the main package of the Go module in `moduleDir` into `outFile`. */
export async function buildGoProgram(moduleDir: string, outFile: string): Promise<void> {
  try {
    await run('go', ['build', '-trimpath', '-ldflags', '-s -w', '-o', outFile, '.'], { cwd: moduleDir, env: goEnvironment() });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`go build in ${moduleDir} failed: ${stderr.trim() || String(error)}`);
  }
}

/** What a Go program's binary depends on: the Go version and the module's go.mod, go.sum and .go files. */
export async function goProgramInputs(moduleDir: string): Promise<CacheInput[]> {
  const { stdout } = await run('go', ['version'], { env: goEnvironment() });
  const files = (await readdir(moduleDir)).filter((file) => file.endsWith('.go') || file === 'go.mod' || file === 'go.sum').sort();
  return [{ fact: stdout.trim() }, ...files.map((file) => ({ file: join(moduleDir, file) }))];
}

/** An image holding one static Go program at `/<program>` and nothing else. */
export interface GoProgramImage {
  name: string;
  archiveFile: string;
  /** The Go module of the program, e.g. tools/pause. */
  moduleDir: string;
  /** The binary's name, also its path in the image (`/pause`). */
  program: string;
  /** `uid:gid` */
  user: string;
  exposedPorts?: string[];
  labels?: Record<string, string>;
}

/** The recipe of a one-program image: the program is its entrypoint and runs as `user`. */
export function goProgramImage(image: GoProgramImage): ImageRecipe {
  const inImage = `/${image.program}`;
  return {
    name: image.name,
    archiveFile: image.archiveFile,
    inputs: () => goProgramInputs(image.moduleDir),
    async describe(scratchDir) {
      const binary = join(scratchDir, image.program);
      await buildGoProgram(image.moduleDir, binary);
      const config: ImageConfig = { entrypoint: [inImage], user: image.user, env: [DEFAULT_PATH_ENV] };
      if (image.exposedPorts) config.exposedPorts = image.exposedPorts;
      if (image.labels) config.labels = image.labels;
      return { name: image.name, config, files: [await hostFile(inImage, binary)] };
    },
  };
}
