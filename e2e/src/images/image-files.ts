/**
 * The files of an image, described one by one: where each goes in the image, who owns it, where its bytes come
 * from. `layerEntries` turns such a list into the sorted, complete entry list a layer tar is written from.
 */
import { lstat, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import type { TarEntry } from './tar-writer.ts';

/** Numeric owner of a file in an image. Images name no users: runtimes apply numeric ids. */
export interface Owner {
  uid: number;
  gid: number;
}

/** root:root, the owner of everything an image's user must not change. */
export const ROOT: Owner = { uid: 0, gid: 0 };

/** A directory at `path` (absolute in the image). */
export function directory(path: string, owner: Owner = ROOT, mode = 0o755): TarEntry {
  return { type: 'directory', path: imagePath(path), mode, ...owner };
}

/** A file at `path` holding `text`. */
export function textFile(path: string, text: string, mode = 0o644): TarEntry {
  return { type: 'file', path: imagePath(path), mode, ...ROOT, content: { bytes: Buffer.from(text) } };
}

/**
 * A copy of the host file `hostPath` at `path`, owned by root. A symlink on the host is followed: the image gets
 * the file's bytes under the name it was asked for (e.g. `libc.so.6`, not `libc-2.36.so`).
 */
export async function hostFile(path: string, hostPath: string): Promise<TarEntry> {
  const stats = await stat(hostPath);
  if (!stats.isFile()) throw new Error(`${hostPath} is not a regular file`);
  return { type: 'file', path: imagePath(path), mode: normalMode(stats.mode), ...ROOT, content: { hostPath, size: stats.size } };
}

/**
 * Everything under the host directory `hostDir`, placed under `path`, owned by root. Symlinks are kept as
 * symlinks (a pnpm node_modules is made of them) and must be relative and stay inside `hostDir`: an absolute or
 * escaping link would point at nothing, or at something else, inside the image.
 */
export async function hostTree(path: string, hostDir: string): Promise<TarEntry[]> {
  const root = await realpath(hostDir);
  const entries: TarEntry[] = [directory(path)];
  const walk = async (hostSubdir: string): Promise<void> => {
    for (const dirent of await readdir(hostSubdir, { withFileTypes: true })) {
      const hostEntry = join(hostSubdir, dirent.name);
      const inImage = posix.join(path, relative(root, hostEntry).split(sep).join('/'));
      if (dirent.isDirectory()) {
        entries.push(directory(inImage));
        await walk(hostEntry);
      } else if (dirent.isSymbolicLink()) {
        const target = await readlink(hostEntry);
        const resolved = resolve(dirname(hostEntry), target);
        if (target.startsWith('/') || !(resolved === root || resolved.startsWith(root + sep))) {
          throw new Error(`${hostEntry} -> ${target}: an image may only hold relative symlinks inside ${hostDir}`);
        }
        entries.push({ type: 'symlink', path: imagePath(inImage), target, ...ROOT });
      } else if (dirent.isFile()) {
        const stats = await lstat(hostEntry);
        entries.push({ type: 'file', path: imagePath(inImage), mode: normalMode(stats.mode), ...ROOT, content: { hostPath: hostEntry, size: stats.size } });
      } else {
        throw new Error(`${hostEntry}: only files, directories and symlinks can go into an image`);
      }
    }
  };
  await walk(root);
  return entries;
}

/** A login account of an image, for /etc/passwd and /etc/group. */
export interface Account extends Owner {
  name: string;
  home: string;
}

/**
 * /etc/passwd and /etc/group listing `accounts`. Programs that look up their own user (glibc's getpwuid, Go's
 * os/user, `id`) find a name and a home instead of failing; the runtime itself only needs the numeric ids.
 */
export function accountFiles(accounts: readonly Account[]): TarEntry[] {
  const passwd = accounts.map((a) => `${a.name}:x:${a.uid}:${a.gid}:${a.name}:${a.home}:/sbin/nologin\n`).join('');
  const group = accounts.map((a) => `${a.name}:x:${a.gid}:\n`).join('');
  return [textFile('/etc/passwd', passwd), textFile('/etc/group', group)];
}

/**
 * The entries of a layer: `files` sorted by path, with every missing parent directory added (root-owned, 0755),
 * so that no directory's owner or mode is left to the runtime's choice. Throws on a path given twice: which one
 * would win is a bug, not a preference.
 */
export function layerEntries(files: readonly TarEntry[]): TarEntry[] {
  const byPath = new Map<string, TarEntry>();
  for (const entry of files) {
    if (byPath.has(entry.path)) throw new Error(`bug: /${entry.path} is in the image twice`);
    byPath.set(entry.path, entry);
  }
  for (const entry of files) {
    for (let parent = posix.dirname(entry.path); parent !== '.'; parent = posix.dirname(parent)) {
      const existing = byPath.get(parent);
      if (existing && existing.type !== 'directory') throw new Error(`bug: /${parent} is a ${existing.type} and a parent directory`);
      if (!existing) byPath.set(parent, { type: 'directory', path: parent, mode: 0o755, ...ROOT });
    }
  }
  // Sorting by path puts every directory before its contents.
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** `/usr/local/bin/node` → `usr/local/bin/node`: tar paths are relative to the image's root. */
function imagePath(path: string): string {
  const normal = posix.normalize(path).replace(/^\/+/, '').replace(/\/+$/, '');
  if (normal === '' || normal === '.' || normal === '..' || normal.startsWith('../')) throw new Error(`bug: ${path} is not a path inside an image`);
  return normal;
}

/**
 * 0755 for executables, 0644 for the rest. Host modes depend on the umask and on how files reached the disk
 * (pnpm's store, a copy); normalising them keeps a layer's digest the same from one machine to the next.
 */
function normalMode(hostMode: number): number {
  return hostMode & 0o111 ? 0o755 : 0o644;
}
