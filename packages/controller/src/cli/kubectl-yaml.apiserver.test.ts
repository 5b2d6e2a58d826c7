/**
 * promop reads manifests as kubectl does: the same file, read by kubectl 1.37 (`create --dry-run=client -o json`,
 * which only needs the API server for discovery) and by promop, gives the same JSON; and a monitor with an unquoted
 * `yes` in matchLabels, which promop refuses with its path, is refused by the API server at the same path.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { applyCrds } from '@promop/testkit';
import { sharedTestEnv, toolPath } from '@promop/testkit';
import { loadManifestDocuments } from './kubectl-yaml.ts';
import { collectManifests, parseManifestText } from './manifest-reader.ts';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'promop-kubectl-yaml-'));
  await applyCrds(sharedTestEnv().kubeConfig());
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What kubectl sends for the documents of `text`, as JSON. */
function kubectlReads(text: string): unknown {
  const file = join(dir, 'input.yaml');
  writeFileSync(file, text);
  const out = execFileSync(toolPath('kubectl'), ['--kubeconfig', sharedTestEnv().kubeconfigPath, 'create', '--dry-run=client', '--validate=false', '-o', 'json', '-f', file], { encoding: 'utf8' });
  return JSON.parse(out);
}

const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: scalars, namespace: default}\ndata:\n${data}`;

describe('YAML scalars', () => {
  it('are the values kubectl sends, for the cases that differ from YAML 1.2', () => {
    const scalars = [
      'y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'n', 'N', 'no', 'off', 'OFF', 'True', 'FALSE', 'yEs', 'oN', '~', 'null', 'NULL', 'nULL', '',
      '0x10', '0XFF', '010', '0777', '-010', '08', '0o17', '0O17', '0b101', '0B11', '-0b11', '+0x10', '1_000', '0x_1F', '1__0', '_1', '1_0.5',
      '1e3', '1E3', '1e+3', '12e3', '1.', '0.', '.5', '+.5', '-.5e-3', '1.5e+3', '3.0', '-0', '1e21', '1e20', '1e-7', '1e', '.e3', '.', '+',
      '0x1p-2', '1.2.3', '12:30', '190:20:30', '2001-12-14', '2001-12-14T21:59:43.10-05:00', '9007199254740993', '18446744073709551615',
      '18446744073709551616', '-9223372036854775808', '123456789012345678901234567890', "'yes'", '"0x10"',
    ];
    const text = configMap(scalars.map((scalar, index) => `  k${index}: ${scalar}\n`).join(''));
    expect(loadManifestDocuments(text, 'input.yaml').documents[0]).toEqual(kubectlReads(text));
  });

  it('are the values kubectl sends, for generated scalars', () => {
    const character = fc.constantFrom(...'0123456789._xobeE+-ynYNOfaltrsu~'.split(''));
    const scalar = fc.array(character, { minLength: 1, maxLength: 8 }).map((characters) => characters.join(''))
      // Not plain scalars in a block mapping, or numbers kubectl cannot send at all (it refuses the file).
      .filter((text) => !/^[-+]?$|^-[^0-9.]|^\.(inf|nan)$|^[-+]\.inf$/i.test(text) && !text.startsWith('~~'));
    const samples = fc.sample(fc.uniqueArray(scalar, { minLength: 200, maxLength: 200 }), { numRuns: 1, seed: 42 })[0]!;
    const text = configMap(samples.map((sample, index) => `  k${index}: ${sample}\n`).join(''));
    expect(loadManifestDocuments(text, 'input.yaml').documents[0]).toEqual(kubectlReads(text));
  });

  it('as keys, merge keys and duplicate keys', () => {
    const text = configMap('  y: 1\n  n: 2\n  0x10: a\n  a: 1\n  a: 2\n  <<: {merged: on}\n');
    expect(loadManifestDocuments(text, 'input.yaml').documents[0]).toEqual(kubectlReads(text));
  });
});

describe('an unquoted yes in a ServiceMonitor\'s matchLabels', () => {
  it('is refused by the API server at the path promop names', () => {
    const file = join(dir, 'monitor.yaml');
    writeFileSync(file, 'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: web, namespace: default}\nspec:\n  selector: {matchLabels: {enabled: yes}}\n  endpoints: [{port: web}]\n');
    let stderr = '';
    try {
      execFileSync(toolPath('kubectl'), ['--kubeconfig', sharedTestEnv().kubeconfigPath, 'create', '--dry-run=server', '-f', file], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      stderr = (error as { stderr: string }).stderr;
    }
    expect(stderr).toContain('spec.selector.matchLabels.enabled');
    expect(stderr).toMatch(/must be of type string: "boolean"/);
  });

  it('and so is a ConfigMap with an unquoted number in its data, which promop refuses too', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: default}\ndata: {port: 8080}\n';
    const file = join(dir, 'configmap.yaml');
    writeFileSync(file, text);
    let stderr = '';
    try {
      execFileSync(toolPath('kubectl'), ['--kubeconfig', sharedTestEnv().kubeconfigPath, 'create', '--dry-run=server', '-f', file], { encoding: 'utf8', stdio: 'pipe' });
    } catch (error) {
      stderr = (error as { stderr: string }).stderr;
    }
    expect(stderr).toContain('cannot unmarshal number into Go struct field ConfigMap.data of type string');
    expect(collectManifests(parseManifestText(text, file)).refused.map((refused) => refused.problems[0]?.path)).toEqual(['data.port']);
  });
});
