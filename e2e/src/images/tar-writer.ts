/**
 * A deterministic tar writer for image layers and OCI archives.
 *
 * Why not the system `tar`: an image needs per-file owners (root for everything, the image's user for the
 * directories it writes to) whatever user builds it, and GNU tar can only take owners from the disk or force one
 * owner for all. Here every entry states its owner and mode, times are 0 and entries come in the order given, so
 * the same entries always give the same bytes, hence the same digest.
 *
 * Format: POSIX ustar, with a pax extended header for a path or link target that does not fit ustar's fields.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

const BLOCK = 512;

/** Content of a regular file: bytes in memory, or a file on this machine read while writing. */
export type FileContent = { bytes: Uint8Array } | { hostPath: string; size: number };

/** One entry of a tar. Paths are relative (`usr/local/bin/node`), without a trailing slash. */
export type TarEntry =
  | { type: 'file'; path: string; mode: number; uid: number; gid: number; content: FileContent }
  | { type: 'directory'; path: string; mode: number; uid: number; gid: number }
  | { type: 'symlink'; path: string; target: string; uid: number; gid: number };

/** What a written tar is: its sha256 (`sha256:<hex>`) and its length in bytes. */
export interface WrittenBlob {
  digest: string;
  size: number;
}

/**
 * Writes `entries` in the given order as a tar to `outPath`, hashing as it goes. Throws when a host file's size
 * differs from the size its entry promised (it changed while the image was being built).
 */
export async function writeTar(entries: readonly TarEntry[], outPath: string): Promise<WrittenBlob> {
  const out = await open(outPath, 'w');
  const hash = createHash('sha256');
  let size = 0;
  const write = async (bytes: Uint8Array) => {
    hash.update(bytes);
    size += bytes.length;
    await writeAll(out, bytes);
  };
  try {
    for (const entry of entries) {
      for (const block of headerBlocks(entry)) await write(block);
      if (entry.type !== 'file') continue;
      const length = await writeContent(entry.content, write);
      await write(new Uint8Array(padding(length)));
    }
    // The end of an archive is two zero blocks.
    await write(new Uint8Array(2 * BLOCK));
  } finally {
    await out.close();
  }
  return { digest: `sha256:${hash.digest('hex')}`, size };
}

async function writeAll(out: FileHandle, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) written += (await out.write(bytes, written, bytes.length - written)).bytesWritten;
}

async function writeContent(content: FileContent, write: (bytes: Uint8Array) => Promise<void>): Promise<number> {
  if ('bytes' in content) {
    await write(content.bytes);
    return content.bytes.length;
  }
  let length = 0;
  for await (const chunk of createReadStream(content.hostPath, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > content.size) break;
    await write(chunk);
  }
  if (length !== content.size) throw new Error(`${content.hostPath} changed while it was being archived (expected ${content.size} bytes)`);
  return length;
}

/** The size of an entry's content as its header records it. */
function contentSize(entry: TarEntry): number {
  if (entry.type !== 'file') return 0;
  return 'bytes' in entry.content ? entry.content.bytes.length : entry.content.size;
}

function padding(length: number): number {
  return (BLOCK - (length % BLOCK)) % BLOCK;
}

/** The header of `entry`, preceded by a pax header when its path or link target does not fit ustar. */
function headerBlocks(entry: TarEntry): Uint8Array[] {
  const name = entry.type === 'directory' ? `${entry.path}/` : entry.path;
  const target = entry.type === 'symlink' ? entry.target : '';
  const long: Record<string, string> = {};
  const ustarName = splitUstarName(name);
  if (!ustarName) long.path = name;
  if (!fitsUstarField(target, 100)) long.linkpath = target;
  const blocks: Uint8Array[] = [];
  if (Object.keys(long).length > 0) {
    const records = Buffer.from(Object.entries(long).map(([key, value]) => paxRecord(key, value)).join(''));
    blocks.push(header({ name: { prefix: '', name: 'pax-header' }, type: 'x', mode: 0o644, uid: 0, gid: 0, size: records.length, target: '' }));
    blocks.push(records, new Uint8Array(padding(records.length)));
  }
  const mode = entry.type === 'symlink' ? 0o777 : entry.mode;
  const type = { file: '0', directory: '5', symlink: '2' }[entry.type];
  // When a pax record carries the real value, the ustar field holds a truncated one that readers ignore.
  const fallbackName = ustarName ?? { prefix: '', name: truncate(name, 100) };
  blocks.push(header({ name: fallbackName, type, mode, uid: entry.uid, gid: entry.gid, size: contentSize(entry), target: truncate(target, 100) }));
  return blocks;
}

/** ustar stores a path as `prefix/name`, name at most 100 bytes and prefix at most 155; undefined when it cannot. */
function splitUstarName(path: string): { prefix: string; name: string } | undefined {
  if (fitsUstarField(path, 100)) return { prefix: '', name: path };
  if (!fitsUstarField(path, 256)) return undefined;
  for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) {
    const prefix = path.slice(0, slash);
    const name = path.slice(slash + 1);
    if (prefix.length <= 155 && name.length <= 100 && name.length > 0) return { prefix, name };
  }
  return undefined;
}

/** ustar fields hold bytes without an encoding: only printable ASCII is read back the same everywhere. */
function fitsUstarField(text: string, length: number): boolean {
  return text.length <= length && /^[\x20-\x7e]*$/.test(text);
}

function truncate(text: string, bytes: number): string {
  return Buffer.from(text).subarray(0, bytes).toString('latin1');
}

/** A pax record is `<length> <key>=<value>\n`, where length counts the whole record including its own digits. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  const bodyLength = Buffer.byteLength(body);
  let length = bodyLength + String(bodyLength).length;
  if (String(length).length + bodyLength !== length) length = bodyLength + String(length).length;
  return `${length}${body}`;
}

interface HeaderFields {
  name: { prefix: string; name: string };
  type: string;
  mode: number;
  uid: number;
  gid: number;
  size: number;
  target: string;
}

/** One 512-byte ustar header. Owner names stay empty: runtimes use the numeric ids. Every mtime is 0. */
function header(fields: HeaderFields): Uint8Array {
  const block = Buffer.alloc(BLOCK);
  const text = (value: string, offset: number, length: number) => block.write(value, offset, length, 'latin1');
  const octal = (value: number, offset: number, length: number) => {
    const digits = value.toString(8).padStart(length - 1, '0');
    if (digits.length > length - 1) throw new Error(`${value} does not fit a ustar field (a file of 8 GiB or more?)`);
    text(digits, offset, length - 1);
  };
  text(fields.name.name, 0, 100);
  octal(fields.mode, 100, 8);
  octal(fields.uid, 108, 8);
  octal(fields.gid, 116, 8);
  octal(fields.size, 124, 12);
  octal(0, 136, 12);
  text(fields.type, 156, 1);
  text(fields.target, 157, 100);
  text('ustar\u000000', 257, 8);
  text(fields.name.prefix, 345, 155);
  // The checksum is computed with its own field read as eight spaces.
  text('        ', 148, 8);
  let sum = 0;
  for (const byte of block) sum += byte;
  text(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8);
  return block;
}
