/**
 * The root Dockerfile and the promop image built here without Docker are one image: same entrypoint, command,
 * user, working directory, environment and ports, same Node version, and the same /app, because both stage /app
 * with stage-promop-app.ts. Docker is not needed: the Dockerfile is read, not built.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@promop/testkit';
import { extractOciArchive } from './extract-oci-archive.ts';
import { buildCachedImage } from './image-cache.ts';
import { imageRecipes } from './images.ts';
import { listStagedTree, promopAppSources, promopInstallManifests, stagePromopApp } from './promop-app.ts';
import { NODE_IN_IMAGE, PROMOP_IMAGE_CONFIG } from './promop-image.ts';

const run = promisify(execFile);
const STAGING_SCRIPT = 'e2e/src/images/stage-promop-app.ts';

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** The Dockerfile as global ARG defaults and stages of instructions (comments dropped, continuations joined). */
function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: rest };
    if (instruction.keyword === 'FROM') {
      const [, from = '', name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(rest) ?? [];
      stages.push({ from, name, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name = '', value = ''] = rest.split('=');
      args[name] = value;
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { args, stages };
}

/**
 * A .dockerignore pattern as a regular expression over repository paths, for the subset of Docker's syntax we
 * use: `*` and `?` within a path component, `**` across components; a match on a directory covers its contents.
 */
function dockerignorePattern(pattern: string): RegExp {
  let regex = '';
  for (let index = 0; index < pattern.length; index++) {
    if (pattern.startsWith('**/', index)) {
      regex += '(.*/)?';
      index += 2;
    } else if (pattern.startsWith('**', index)) {
      regex += '.*';
      index += 1;
    } else if (pattern[index] === '*') {
      regex += '[^/]*';
    } else if (pattern[index] === '?') {
      regex += '[^/]';
    } else {
      regex += pattern[index]!.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${regex}(/|$)`);
}

const dockerfile = parseDockerfile(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'));
const runtime = dockerfile.stages.at(-1)!;
const build = dockerfile.stages.find((stage) => stage.name === 'build')!;
const all = (stage: Stage, keyword: string) => stage.instructions.filter((instruction) => instruction.keyword === keyword).map((instruction) => instruction.args);
const last = (stage: Stage, keyword: string) => all(stage, keyword).at(-1);

/** `COPY --from=build <source> <destination>` of the runtime stage, as [source, destination] pairs. */
const copiesFromBuild = all(runtime, 'COPY').flatMap((args) => {
  const match = /^--from=build\s+(\S+)\s+(\S+)$/.exec(args);
  return match ? [[match[1]!, match[2]!] as const] : [];
});

describe('the Dockerfile', () => {
  it('runs what the image built here runs: entrypoint, command, user, working directory, environment, ports', () => {
    expect(JSON.parse(last(runtime, 'ENTRYPOINT')!)).toEqual(PROMOP_IMAGE_CONFIG.entrypoint);
    expect(JSON.parse(last(runtime, 'CMD')!)).toEqual(PROMOP_IMAGE_CONFIG.cmd);
    expect(last(runtime, 'USER')).toBe(PROMOP_IMAGE_CONFIG.user);
    expect(last(runtime, 'WORKDIR')).toBe(PROMOP_IMAGE_CONFIG.workingDir);
    // PATH comes with the base image; every other variable must be declared.
    expect(all(runtime, 'ENV').sort()).toEqual(PROMOP_IMAGE_CONFIG.env!.filter((entry) => !entry.startsWith('PATH=')).sort());
    expect(all(runtime, 'EXPOSE')).toEqual(PROMOP_IMAGE_CONFIG.exposedPorts);
  });

  it('ships the Node binary of the official image at the version scripts/node-env.sh pins', () => {
    const pinned = /^promop_node_version=(\S+)$/m.exec(readFileSync(join(REPO_ROOT, 'scripts', 'node-env.sh'), 'utf8'))?.[1];
    expect(dockerfile.args.NODE_VERSION).toBe(pinned);
    expect(build.from).toBe('node:${NODE_VERSION}-bookworm-slim');
    expect(copiesFromBuild).toContainEqual(['/usr/local/bin/node', NODE_IN_IMAGE]);
  });

  it('installs the pnpm of package.json\'s packageManager', () => {
    const packageManager = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).packageManager as string;
    expect(`pnpm@${dockerfile.args.PNPM_VERSION}`).toBe(packageManager);
  });

  it('stages /app with the staging script and copies exactly its output to /app', () => {
    const staging = all(build, 'RUN').map((args) => new RegExp(`^node ${STAGING_SCRIPT} (\\S+)$`).exec(args)?.[1]).find(Boolean);
    expect(staging).toBeDefined();
    expect(existsSync(join(REPO_ROOT, STAGING_SCRIPT))).toBe(true);
    expect(copiesFromBuild).toContainEqual([staging, '/app']);
  });

  it('has a build context (.dockerignore) holding every file the staging reads', async () => {
    const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    const patterns = ignored.map(dockerignorePattern);
    const needed = [...promopInstallManifests(), ...(await promopAppSources(REPO_ROOT)), STAGING_SCRIPT, 'e2e/src/images/promop-app.ts'];
    expect(needed.filter((file) => patterns.some((pattern) => pattern.test(file)))).toEqual([]);
    // The host's installs stay out: the build installs its own.
    expect(['node_modules', 'packages/controller/node_modules'].filter((path) => !patterns.some((pattern) => pattern.test(path)))).toEqual([]);
  });
});

describe('the /app of the promop image built here', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'promop-dockerfile-test-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('is exactly what the staging script produces, which the Dockerfile copies', async () => {
    const built = await buildCachedImage(imageRecipes().promop, join(REPO_ROOT, '.cache', 'images'));
    const image = await extractOciArchive(built.archive, scratch);
    const { stdout } = await run('tar', ['-tf', image.layers[0]!], { maxBuffer: 64 * 1024 * 1024 });
    const inImage = stdout.split('\n').filter((path) => path.startsWith('app/') && !path.endsWith('/')).map((path) => path.slice('app/'.length)).sort();

    const appDir = join(scratch, 'staged', 'app');
    await stagePromopApp(REPO_ROOT, appDir);
    expect(inImage).toEqual(await listStagedTree(appDir));
  }, 300_000);
});
