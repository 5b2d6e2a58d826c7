/** Runs the real promtool, the same checker Prometheus itself applies to configs and rules. */
import { spawn, execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toolPath } from './tools.ts';

/** Exit code and output of one promtool run. */
export interface PromtoolResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The promtools tools/build.sh builds: the default Prometheus release's, the release before it (whose Prometheus
 * the end-to-end upgrade starts from) and the last 2.x release (2.55.1), since promop renders for 2.x too.
 */
export const PROMTOOLS = ['promtool', 'promtool-previous', 'promtool-v2'] as const;

/** One of {@link PROMTOOLS}. */
export type PromtoolName = (typeof PROMTOOLS)[number];

/**
 * Runs `promtool <args>` (e.g. `['check', 'config', '--syntax-only', file]`); never rejects on a non-zero exit.
 * `tool` picks another built promtool (default: the default release's).
 */
export async function runPromtool(args: string[], options: { cwd?: string; input?: string; tool?: PromtoolName } = {}): Promise<PromtoolResult> {
  standIn ??= startInstanceMetadataStandIn();
  return spawnPromtool(args, options, { ...process.env, AWS_EC2_METADATA_SERVICE_ENDPOINT: await standIn });
}

/** The stand-in every promtool of this process is pointed at (started once, on the first run). */
let standIn: Promise<string> | undefined;

/** The region {@link startInstanceMetadataStandIn} answers. */
export const STAND_IN_EC2_REGION = 'eu-west-1';

/**
 * A loopback stand-in for the EC2 instance metadata service that answers the instance's region. Prometheus 2.x asks
 * that service (169.254.169.254) for the region of an EC2 or Lightsail discovery that names none while it loads the
 * file, and refuses the file when it gets no answer; promtool is pointed here instead, so such a file is checked as on
 * an EC2 instance and no check reaches past the loopback network. (Prometheus 3 asks only when discovering.)
 */
function startInstanceMetadataStandIn(): Promise<string> {
  const server = createServer((request, response) => {
    if (request.method === 'PUT' && request.url === '/latest/api/token') {
      response.writeHead(200, { 'x-aws-ec2-metadata-token-ttl-seconds': '21600' }).end('stand-in-token');
    } else if (request.method === 'GET' && request.url === '/latest/dynamic/instance-identity/document') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ region: STAND_IN_EC2_REGION }));
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      // Never what keeps the process alive: it lives as long as the tests that run promtool.
      server.unref();
      resolvePromise(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

function spawnPromtool(args: string[], options: { cwd?: string; input?: string; tool?: PromtoolName }, env: NodeJS.ProcessEnv): Promise<PromtoolResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(toolPath(options.tool ?? 'promtool'), args, { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

const versions = new Map<PromtoolName, [number, number, number]>();

/** The release a built promtool belongs to, as `promtool --version` prints it (`promtool, version 3.15.1 (...)`). */
export function promtoolVersion(tool: PromtoolName): [number, number, number] {
  const known = versions.get(tool);
  if (known) return known;
  const text = execFileSync(toolPath(tool), ['--version'], { encoding: 'utf8' });
  const match = /version (\d+)\.(\d+)\.(\d+)/.exec(text);
  if (!match) throw new Error(`${tool} --version printed no version: ${text.slice(0, 200)}`);
  const version: [number, number, number] = [Number(match[1]), Number(match[2]), Number(match[3])];
  versions.set(tool, version);
  return version;
}

/** `v3.15.1`, `3.15`, `v2.40.0` read as [major, minor, patch]; throws on anything else (a test's own input). */
function readVersion(text: string): [number, number, number] {
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`not a Prometheus version: ${text}`);
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

function atLeast(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/**
 * The built promtools of the same major release as `version` (`v2.30.0`, `3.15`) and as new as it: those that must
 * accept a file rendered for that release. A newer major release is left out: Prometheus 3 renamed or dropped 2.x
 * settings (`scrape_classic_histograms` became `always_scrape_classic_histograms`), and promop, like
 * prometheus-operator, renders the configuration anew for the release a Prometheus is moved to. Throws when there is
 * none, so that no file goes unchecked.
 */
export function promtoolsAsNewAs(version: string): PromtoolName[] {
  const wanted = readVersion(version);
  const tools = PROMTOOLS.filter((tool) => promtoolVersion(tool)[0] === wanted[0] && atLeast(promtoolVersion(tool), wanted));
  if (tools.length === 0) throw new Error(`no built promtool is as new as ${version}`);
  return tools;
}

/** A configuration file and the Prometheus release it was rendered for. */
export interface VersionedConfigFile {
  file: string;
  version: string;
}

/** One promtool's verdict on the files it was given. */
export interface PromtoolVerdict {
  tool: PromtoolName;
  version: string;
  files: string[];
  result: PromtoolResult;
}

/**
 * Checks each file with every built promtool whose release is the file's or newer within its major release (a
 * Prometheus reads the configuration rendered for its own release and, after an upgrade, that of an older one of the
 * same major release; an older promtool may refuse a newer release's fields, which is right), one promtool run per
 * promtool (`check config --syntax-only`,
 * plus `extraArgs` such as `--agent`). Throws when no built promtool is new enough for a file: the file would go
 * unchecked.
 */
export async function checkConfigsWithEachPromtool(files: readonly VersionedConfigFile[], extraArgs: readonly string[] = []): Promise<PromtoolVerdict[]> {
  const toolsOf = new Map(files.map(({ file, version }) => [file, promtoolsAsNewAs(version)]));
  const verdicts: PromtoolVerdict[] = [];
  for (const tool of PROMTOOLS) {
    const release = promtoolVersion(tool);
    const chosen = files.filter(({ file }) => toolsOf.get(file)?.includes(tool)).map(({ file }) => file);
    if (chosen.length === 0) continue;
    const result = await runPromtool(['check', 'config', '--syntax-only', ...extraArgs, ...chosen], { tool });
    verdicts.push({ tool, version: release.join('.'), files: chosen, result });
  }
  return verdicts;
}

/** The verdicts as `{tool version: failure output}` for the promtools that refused something: `{}` when all passed. */
export function promtoolFailures(verdicts: readonly PromtoolVerdict[]): Record<string, string> {
  return Object.fromEntries(verdicts.filter((v) => v.result.code !== 0).map((v) => [`${v.tool} ${v.version}`, v.result.stdout + v.result.stderr]));
}
