/**
 * Builds an image archive only when its inputs changed. Every recipe lists what its image is made from; the
 * sha256 of those inputs, plus the code of this directory, is stored beside the archive, and a later build with
 * the same hash reuses the archive.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeOciArchive, type ImageDescription } from './oci-archive.ts';

/** Something an image is made from: a file on this machine (hashed by content) or a fact such as a version. */
export type CacheInput = { file: string } | { fact: string };

/** How to build one image. */
export interface ImageRecipe {
  /** Full image name, e.g. `localhost/promop/pause:1.0`. */
  name: string;
  /** File name of the archive in the output directory, e.g. `pause.tar`. */
  archiveFile: string;
  /** Everything the image depends on apart from this directory's code. */
  inputs(): Promise<CacheInput[]>;
  /** Describes the image; `scratchDir` is an empty directory, outside the repository, deleted afterwards. */
  describe(scratchDir: string): Promise<ImageDescription>;
}

/** An image archive ready to import. */
export interface BuiltImage {
  name: string;
  archive: string;
  /** Bytes. */
  size: number;
  manifestDigest: string;
  /** True when the archive of an earlier build was reused. */
  cached: boolean;
  /** Wall-clock time this call took. */
  milliseconds: number;
}

/** What is stored beside an archive: enough to decide, without reading the archive, that it is current. */
interface CacheStamp {
  name: string;
  inputsHash: string;
  size: number;
  manifestDigest: string;
}

const BUILDER_DIR = dirname(fileURLToPath(import.meta.url));

/** Builds `recipe` into `outDir`, or reuses the archive there when the inputs are unchanged. */
export async function buildCachedImage(recipe: ImageRecipe, outDir: string): Promise<BuiltImage> {
  const started = Date.now();
  await mkdir(outDir, { recursive: true });
  const archive = join(outDir, recipe.archiveFile);
  const stampPath = `${archive}.json`;
  const inputsHash = await hashInputs(recipe);
  const stamp = await readStamp(stampPath);
  if (stamp && stamp.inputsHash === inputsHash && (await sizeOf(archive)) === stamp.size) {
    return { name: recipe.name, archive, size: stamp.size, manifestDigest: stamp.manifestDigest, cached: true, milliseconds: Date.now() - started };
  }
  const scratchDir = await mkdtemp(join(tmpdir(), 'promop-image-'));
  try {
    const written = await writeOciArchive(await recipe.describe(scratchDir), archive);
    const fresh: CacheStamp = { name: recipe.name, inputsHash, size: written.size, manifestDigest: written.manifestDigest };
    await writeFile(stampPath, `${JSON.stringify(fresh, null, 2)}\n`);
    return { name: recipe.name, archive, size: written.size, manifestDigest: written.manifestDigest, cached: false, milliseconds: Date.now() - started };
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
  }
}

/** The hash of the recipe's inputs, its name, and the image builder's own code (a change to it rebuilds all). */
async function hashInputs(recipe: ImageRecipe): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`name ${recipe.name}\n`);
  const builderCode = (await readdir(BUILDER_DIR)).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts')).sort();
  const inputs: CacheInput[] = [...builderCode.map((file) => ({ file: join(BUILDER_DIR, file) })), ...(await recipe.inputs())];
  for (const input of inputs) {
    if ('fact' in input) {
      hash.update(`fact ${input.fact}\n`);
    } else {
      hash.update(`file ${input.file}\n`);
      await hashFile(hash, input.file);
    }
  }
  return hash.digest('hex');
}

async function hashFile(hash: Hash, file: string): Promise<void> {
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) hash.update(chunk);
  hash.update('\n');
}

async function readStamp(path: string): Promise<CacheStamp | undefined> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as CacheStamp;
  } catch {
    return undefined; // absent or unreadable: build
  }
}

async function sizeOf(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).size;
  } catch {
    return undefined;
  }
}
