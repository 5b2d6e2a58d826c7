/**
 * The tar writer's output is read back by GNU tar, an independent reader: names of any length, owners, modes and
 * symlinks come back as written, and the same entries always give the same bytes.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { directory, layerEntries, textFile } from './image-files.ts';
import { writeTar, type TarEntry } from './tar-writer.ts';

const scratch = mkdtempSync(join(tmpdir(), 'promop-tar-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const longDir = `app/node_modules/.pnpm/${'a-rather-long-package-name'.repeat(4)}/node_modules`;
const veryLongName = `${'x'.repeat(120)}.js`; // a last component over ustar's 100 bytes: needs a pax path
const hostSource = join(scratch, 'host-file');
writeFileSync(hostSource, 'from the host\n');

const entries: TarEntry[] = layerEntries([
  textFile('/etc/passwd', 'root:x:0:0:root:/root:/sbin/nologin\n'),
  directory('/prometheus', { uid: 65534, gid: 65534 }),
  directory('/tmp', { uid: 0, gid: 0 }, 0o1777),
  { type: 'file', path: `${longDir}/index.js`, mode: 0o755, uid: 0, gid: 0, content: { hostPath: hostSource, size: statSync(hostSource).size } },
  textFile(`/${longDir}/${veryLongName}`, 'long\n'),
  textFile('/app/é-non-ascii.txt', 'accent\n'),
  { type: 'symlink', path: 'app/link', target: `${longDir}/index.js`, uid: 0, gid: 0 },
]);

/** `tar -tv` lines as `mode owner path`, dropping size and date columns. */
function listing(tarFile: string): string[] {
  const lines = execFileSync('tar', ['--numeric-owner', '-tvf', tarFile], { encoding: 'utf8' }).trim().split('\n');
  return lines.map((line) => {
    const [mode, owner, , , , ...rest] = line.split(/\s+/);
    return `${mode} ${owner} ${rest.join(' ')}`;
  });
}

describe('a tar written by writeTar', () => {
  const first = join(scratch, 'first.tar');
  const second = join(scratch, 'second.tar');

  it('is the same bytes, hence digest, every time', async () => {
    const a = await writeTar(entries, first);
    const b = await writeTar(entries, second);
    expect(b).toEqual(a);
    expect(readFileSync(second).equals(readFileSync(first))).toBe(true);
    expect(a.size % 512).toBe(0);
  });

  it('lists, for GNU tar, every entry with its owner and mode, parents first', () => {
    expect(listing(first)).toEqual([
      'drwxr-xr-x 0/0 app/',
      `lrwxrwxrwx 0/0 app/link -> ${longDir}/index.js`, // a target over 100 bytes: a pax linkpath
      `drwxr-xr-x 0/0 app/node_modules/`,
      `drwxr-xr-x 0/0 app/node_modules/.pnpm/`,
      `drwxr-xr-x 0/0 app/node_modules/.pnpm/${'a-rather-long-package-name'.repeat(4)}/`,
      `drwxr-xr-x 0/0 ${longDir}/`,
      `-rwxr-xr-x 0/0 ${longDir}/index.js`,
      `-rw-r--r-- 0/0 ${longDir}/${veryLongName}`,
      '-rw-r--r-- 0/0 app/é-non-ascii.txt',
      'drwxr-xr-x 0/0 etc/',
      '-rw-r--r-- 0/0 etc/passwd',
      'drwxr-xr-x 65534/65534 prometheus/',
      'drwxrwxrwt 0/0 tmp/',
    ]);
  });

  it('extracts to the same contents', () => {
    const out = join(scratch, 'extracted');
    mkdirSync(out);
    execFileSync('tar', ['-xf', first, '-C', out]);
    expect(readFileSync(join(out, longDir, 'index.js'), 'utf8')).toBe('from the host\n');
    expect(readFileSync(join(out, longDir, veryLongName), 'utf8')).toBe('long\n');
    expect(readFileSync(join(out, 'app', 'é-non-ascii.txt'), 'utf8')).toBe('accent\n');
    expect(readlinkSync(join(out, 'app', 'link'))).toBe(`${longDir}/index.js`);
  });

  it('refuses a host file whose size changed since it was listed', async () => {
    const changing: TarEntry = { type: 'file', path: 'f', mode: 0o644, uid: 0, gid: 0, content: { hostPath: hostSource, size: 3 } };
    await expect(writeTar([changing], join(scratch, 'bad.tar'))).rejects.toThrow(/changed while it was being archived/);
  });
});

describe('layerEntries', () => {
  it('refuses a path given twice', () => {
    expect(() => layerEntries([textFile('/a', '1'), textFile('/a', '2')])).toThrow(/twice/);
  });
});
