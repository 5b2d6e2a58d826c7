/**
 * Opens an OCI archive the way a runtime would trust it: unpacked with GNU tar (a reader independent of the
 * writer), then every descriptor from index.json down checked against the blob it names (digest and size).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { IMAGE_NAME_ANNOTATIONS, MEDIA_TYPES } from './oci-archive.ts';

const run = promisify(execFile);

interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
  platform?: { architecture: string; os: string };
}

/** An image archive unpacked into a directory, its structure verified. */
export interface ExtractedImage {
  /** The name index.json gives the image (both annotations agree). */
  name: string;
  platform: { architecture: string; os: string } | undefined;
  manifestDigest: string;
  /** The OCI image config as stored. */
  config: {
    architecture: string;
    os: string;
    config: { User?: string; Entrypoint?: string[]; Cmd?: string[]; WorkingDir?: string; Env?: string[]; ExposedPorts?: Record<string, object>; Labels?: Record<string, string> };
    rootfs: { type: string; diff_ids: string[] };
  };
  /** The layer tars, in order, as files inside the unpacked archive. */
  layers: string[];
}

/** Unpacks `archive` into `dir` (existing, empty) and verifies it; throws on the first inconsistency. */
export async function extractOciArchive(archive: string, dir: string): Promise<ExtractedImage> {
  await run('tar', ['-xf', archive, '-C', dir]);
  const layout = JSON.parse(await readFile(join(dir, 'oci-layout'), 'utf8')) as { imageLayoutVersion?: string };
  if (layout.imageLayoutVersion !== '1.0.0') throw new Error(`${archive}: oci-layout says ${JSON.stringify(layout)}`);
  const blobs = join(dir, 'blobs', 'sha256');
  for (const file of await readdir(blobs)) {
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(join(blobs, file), { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) hash.update(chunk);
    const actual = hash.digest('hex');
    if (actual !== file) throw new Error(`${archive}: blob ${file} has digest ${actual}`);
  }
  const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as { schemaVersion: number; mediaType: string; manifests: Descriptor[] };
  expectEqual(archive, 'index mediaType', index.mediaType, MEDIA_TYPES.index);
  if (index.manifests.length !== 1) throw new Error(`${archive}: index.json lists ${index.manifests.length} manifests, expected 1`);
  const manifestDescriptor = index.manifests[0]!;
  const names = IMAGE_NAME_ANNOTATIONS.map((key) => manifestDescriptor.annotations?.[key]);
  if (!names[0] || names.some((name) => name !== names[0])) throw new Error(`${archive}: name annotations disagree: ${JSON.stringify(manifestDescriptor.annotations)}`);
  const manifest = (await readBlob(archive, blobs, manifestDescriptor, MEDIA_TYPES.manifest)) as { config: Descriptor; layers: Descriptor[] };
  const config = (await readBlob(archive, blobs, manifest.config, MEDIA_TYPES.config)) as ExtractedImage['config'];
  const layers: string[] = [];
  for (const layer of manifest.layers) {
    expectEqual(archive, 'layer mediaType', layer.mediaType, MEDIA_TYPES.layer);
    await checkSize(archive, blobs, layer);
    layers.push(blobPath(blobs, layer.digest));
  }
  // Uncompressed layers: each diff_id is the layer's own digest.
  expectEqual(archive, 'rootfs.diff_ids', JSON.stringify(config.rootfs.diff_ids), JSON.stringify(manifest.layers.map((layer) => layer.digest)));
  return { name: names[0], platform: manifestDescriptor.platform, manifestDigest: manifestDescriptor.digest, config, layers };
}

async function readBlob(archive: string, blobs: string, descriptor: Descriptor, mediaType: string): Promise<unknown> {
  expectEqual(archive, 'mediaType', descriptor.mediaType, mediaType);
  await checkSize(archive, blobs, descriptor);
  return JSON.parse(await readFile(blobPath(blobs, descriptor.digest), 'utf8'));
}

async function checkSize(archive: string, blobs: string, descriptor: Descriptor): Promise<void> {
  const stats = await stat(blobPath(blobs, descriptor.digest)).catch(() => undefined);
  if (!stats) throw new Error(`${archive}: no blob for ${descriptor.digest}`);
  expectEqual(archive, `size of ${descriptor.digest}`, stats.size, descriptor.size);
}

function blobPath(blobs: string, digest: string): string {
  if (!/^sha256:[0-9a-f]{64}$/.test(digest)) throw new Error(`not a sha256 digest: ${digest}`);
  return join(blobs, digest.slice('sha256:'.length));
}

function expectEqual(archive: string, what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`${archive}: ${what} is ${String(actual)}, expected ${String(expected)}`);
}
