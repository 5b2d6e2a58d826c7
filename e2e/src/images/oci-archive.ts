/**
 * Writes an image as an OCI image layout in a tar (an "OCI archive"), the form `ctr images import` and
 * `docker load` read: `oci-layout`, `index.json` and `blobs/sha256/<digest>` for the manifest, the config and one
 * uncompressed layer. Spec: https://github.com/opencontainers/image-spec/blob/main/image-layout.md
 *
 * Deterministic: no timestamps (every `created` is the epoch), keys in a fixed order, the layer from
 * `layerEntries`, so the same image description always gives the same digests.
 */
import { createHash } from 'node:crypto';
import { rename, rm } from 'node:fs/promises';
import { layerEntries } from './image-files.ts';
import { writeTar, type TarEntry, type WrittenBlob } from './tar-writer.ts';

/** What a container runs, as the image's config states it (the `config` object of the OCI image config). */
export interface ImageConfig {
  entrypoint: string[];
  cmd?: string[];
  /** `uid` or `uid:gid`, numeric, so `runAsNonRoot` can be verified without reading /etc/passwd. */
  user: string;
  workingDir?: string;
  /** `NAME=value` */
  env?: string[];
  /** `9090/tcp` */
  exposedPorts?: string[];
  labels?: Record<string, string>;
}

/** An image to write: its full name (`registry/repository:tag`), its config and the files of its one layer. */
export interface ImageDescription {
  name: string;
  config: ImageConfig;
  files: TarEntry[];
}

/** The archive written, with the digests a test or a runtime refers to. */
export interface WrittenArchive {
  archive: string;
  /** Length of the archive file in bytes. */
  size: number;
  manifestDigest: string;
  layer: WrittenBlob;
}

/** The media types of OCI image-spec v1. */
export const MEDIA_TYPES = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar',
} as const;

/**
 * Annotations on index.json's manifest entry that name the image. containerd's importer uses
 * `io.containerd.image.name` as the image name as it is; `org.opencontainers.image.ref.name` is the OCI one.
 */
export const IMAGE_NAME_ANNOTATIONS = ['io.containerd.image.name', 'org.opencontainers.image.ref.name'] as const;

const EPOCH = '1970-01-01T00:00:00Z';

/** The PATH of every image here, Docker's default: nothing in them looks programs up, but tools run with `exec` may. */
export const DEFAULT_PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The platform of images built here: they carry this machine's binaries. */
export function hostPlatform(): { architecture: string; os: 'linux' } {
  const architectures: Partial<Record<NodeJS.Architecture, string>> = { x64: 'amd64', arm64: 'arm64', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' };
  const architecture = architectures[process.arch];
  if (!architecture || process.platform !== 'linux') throw new Error(`images can only be built on Linux amd64/arm64/ppc64le/s390x/riscv64, not ${process.platform} ${process.arch}`);
  return { architecture, os: 'linux' };
}

/** Writes `image` to `archivePath` (replacing it atomically: a reader never sees half an archive). */
export async function writeOciArchive(image: ImageDescription, archivePath: string): Promise<WrittenArchive> {
  const layerPath = `${archivePath}.layer-${process.pid}`;
  const partialPath = `${archivePath}.partial-${process.pid}`;
  try {
    const layer = await writeTar(layerEntries(image.files), layerPath);
    const platform = hostPlatform();
    const config = jsonBlob(imageConfigJson(image.config, layer.digest, platform));
    const manifest = jsonBlob({
      schemaVersion: 2,
      mediaType: MEDIA_TYPES.manifest,
      config: { mediaType: MEDIA_TYPES.config, digest: config.digest, size: config.bytes.length },
      layers: [{ mediaType: MEDIA_TYPES.layer, digest: layer.digest, size: layer.size }],
    });
    const index = {
      schemaVersion: 2,
      mediaType: MEDIA_TYPES.index,
      manifests: [
        {
          mediaType: MEDIA_TYPES.manifest,
          digest: manifest.digest,
          size: manifest.bytes.length,
          annotations: Object.fromEntries(IMAGE_NAME_ANNOTATIONS.map((key) => [key, image.name])),
          platform,
        },
      ],
    };
    const blob = (digest: string) => `blobs/sha256/${digest.slice('sha256:'.length)}`;
    const root = { uid: 0, gid: 0 };
    const written = await writeTar(
      [
        { type: 'file', path: 'oci-layout', mode: 0o644, ...root, content: { bytes: Buffer.from(JSON.stringify({ imageLayoutVersion: '1.0.0' })) } },
        { type: 'file', path: 'index.json', mode: 0o644, ...root, content: { bytes: Buffer.from(JSON.stringify(index)) } },
        { type: 'directory', path: 'blobs', mode: 0o755, ...root },
        { type: 'directory', path: 'blobs/sha256', mode: 0o755, ...root },
        { type: 'file', path: blob(config.digest), mode: 0o644, ...root, content: { bytes: config.bytes } },
        { type: 'file', path: blob(manifest.digest), mode: 0o644, ...root, content: { bytes: manifest.bytes } },
        { type: 'file', path: blob(layer.digest), mode: 0o644, ...root, content: { hostPath: layerPath, size: layer.size } },
      ],
      partialPath,
    );
    await rename(partialPath, archivePath);
    return { archive: archivePath, size: written.size, manifestDigest: manifest.digest, layer };
  } finally {
    await rm(layerPath, { force: true });
    await rm(partialPath, { force: true });
  }
}

/** The OCI image config: https://github.com/opencontainers/image-spec/blob/main/config.md */
function imageConfigJson(config: ImageConfig, layerDigest: string, platform: { architecture: string; os: string }): object {
  const runtime: Record<string, unknown> = { User: config.user };
  if (config.exposedPorts?.length) runtime.ExposedPorts = Object.fromEntries(config.exposedPorts.map((port) => [port, {}]));
  if (config.env?.length) runtime.Env = config.env;
  runtime.Entrypoint = config.entrypoint;
  if (config.cmd?.length) runtime.Cmd = config.cmd;
  if (config.workingDir) runtime.WorkingDir = config.workingDir;
  if (config.labels && Object.keys(config.labels).length) runtime.Labels = config.labels;
  return {
    created: EPOCH,
    architecture: platform.architecture,
    os: platform.os,
    config: runtime,
    // An uncompressed layer's diff_id is its own digest.
    rootfs: { type: 'layers', diff_ids: [layerDigest] },
    history: [{ created: EPOCH, created_by: 'promop e2e/src/images' }],
  };
}

function jsonBlob(value: object): { bytes: Buffer; digest: string } {
  const bytes = Buffer.from(JSON.stringify(value));
  return { bytes, digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}` };
}
