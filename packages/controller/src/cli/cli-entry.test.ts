import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@promop/testkit';

const run = promisify(execFile);
const BIN = join(REPO_ROOT, 'packages/controller/bin/promop.js');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'promop-cli-entry-'));
  // Prints, at exit, the URL of every module the process loaded.
  writeFileSync(join(dir, 'loaded.mjs'), [
    "import { registerHooks } from 'node:module';",
    'const loaded = [];',
    'registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });',
    "process.on('exit', () => process.stderr.write(`LOADED ${JSON.stringify(loaded)}\\n`));",
  ].join('\n'));
  writeFileSync(join(dir, 'one.yaml'), [
    'apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: main, namespace: monitoring}\nspec: {serviceMonitorSelector: {}}',
    'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: web, namespace: monitoring}\nspec: {selector: {}, endpoints: [{port: http}]}',
  ].join('\n---\n'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The modules `promop <args>` loads, as package names or repository paths. */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const { stderr } = await run(process.execPath, ['--import', join(dir, 'loaded.mjs'), BIN, ...args], { cwd: REPO_ROOT });
  const urls = JSON.parse(/^LOADED (.*)$/m.exec(stderr)![1]!) as string[];
  return urls.filter((url) => url.startsWith('file:')).map((url) => {
    const inModules = /\/node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
    return inModules ? `${inModules[1]}/${inModules[2]}` : url.slice(`file://${REPO_ROOT}/`.length);
  });
}

describe('what a command loads', () => {
  it('promop --help loads only the entry, the command descriptions and the registry of kinds (names, no schemas)', async () => {
    expect(await modulesLoadedBy(['--help'])).toEqual([
      'packages/controller/bin/promop.js',
      'packages/controller/src/cli.ts',
      'packages/controller/src/cli/commands.ts',
      'packages/controller/src/cli/program-kinds.ts',
      'packages/crds/src/kinds.ts',
      'packages/crds/src/group.ts',
      'packages/controller/src/cli/command-line.ts',
    ]);
  });

  it('promop render loads neither the Kubernetes client, undici, pino, prom-client nor the ajv compiler', async () => {
    const loaded = await modulesLoadedBy(['render', '-f', join(dir, 'one.yaml')]);
    expect(loaded).toContain('packages/crds/src/generated/validators.js');
    const forbidden = /^(@kubernetes\/client-node|undici|pino|prom-client|ajv\/dist\/(compile|core|ajv)|ajv\/lib)/;
    expect(loaded.filter((module) => forbidden.test(module))).toEqual([]);
  });

  it('promop run loads every module the operator uses, and not @kubernetes/client-node (~77 MiB of memory)', async () => {
    // `run --help` imports run-command.ts, whose imports are static: the whole graph `promop run` executes.
    const loaded = await modulesLoadedBy(['run', '--help']);
    for (const module of ['packages/controller/src/run-command.ts', 'packages/controller/src/operator.ts', 'packages/controller/src/kube/raw-api.ts', 'packages/controller/src/kube/kubeconfig.ts', 'packages/controller/src/kube/child-writer.ts', 'packages/controller/src/kube/leader-election.ts', 'packages/controller/src/kube/crd-installer.ts']) {
      expect(loaded).toContain(module);
    }
    expect(loaded.filter((module) => module.startsWith('@kubernetes/client-node'))).toEqual([]);
  });
});
