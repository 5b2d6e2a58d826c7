/**
 * The shared libraries a dynamically linked program loads, so an image without a distribution can carry exactly
 * those (for the promop image: what the official Node binary links against).
 */
import { execFile } from 'node:child_process';
import { realpath } from 'node:fs/promises';
import { promisify } from 'node:util';

/** A library the program loads: the path the loader looks it up by, and the file holding it on this machine. */
export interface SharedLibrary {
  /** The name the loader resolves, e.g. `/lib/x86_64-linux-gnu/libc.so.6`, or the program interpreter's path. */
  path: string;
  /** The real file behind it, symlinks resolved. */
  hostPath: string;
}

/**
 * Every library `binary` loads, transitively, and the program interpreter (ld-linux), as `ldd` resolves them on
 * this machine. The kernel's vDSO is not a file and is left out. Throws when a library is missing here.
 */
export async function sharedLibraries(binary: string): Promise<SharedLibrary[]> {
  const { stdout } = await promisify(execFile)('ldd', [binary]);
  const libraries: SharedLibrary[] = [];
  for (const line of stdout.split('\n')) {
    // "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)", or the interpreter: "/lib64/ld-linux-x86-64.so.2 (0x...)"
    if (line.includes('=> not found')) throw new Error(`${binary} needs ${line.trim()} on this machine`);
    const path = /=>\s*(\/\S+)/.exec(line)?.[1] ?? /^\s*(\/\S+)\s+\(0x/.exec(line)?.[1];
    if (path) libraries.push({ path, hostPath: await realpath(path) });
  }
  if (libraries.length === 0) throw new Error(`ldd found no libraries for ${binary}: is it statically linked?`);
  return libraries;
}
