import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '@promop/testkit';
import { DIRECTIVE, bashScript, complete, zshScript } from './completion.ts';

const NO_CLUSTER = { HOME: '/nonexistent', KUBECONFIG: '/nonexistent/config' };

describe('what completion offers', () => {
  it.each([
    [[''], ['explain', 'targets', 'diff', 'render', 'check', 'completion', 'run'], DIRECTIVE.noFileComp],
    [['ex'], ['explain'], DIRECTIVE.noFileComp],
    [['explain', ''], ['servicemonitor', 'podmonitor', 'probe', 'scrapeconfig', 'prometheusrule', 'prometheus', 'prometheusagent', 'alertmanagerconfig', 'alertmanager', 'thanosruler'], DIRECTIVE.noFileComp],
    [['explain', 'al'], ['alertmanagerconfig', 'alertmanager'], DIRECTIVE.noFileComp],
    [['explain', 'prom'], ['prometheusrule', 'prometheus', 'prometheusagent'], DIRECTIVE.noFileComp],
    [['explain', '-o', ''], ['json', 'yaml'], DIRECTIVE.noFileComp],
    [['explain', 'smon', 'web', '--'], ['--namespace', '--output', '--kubeconfig', '--context', '--help'], DIRECTIVE.noFileComp],
    [['render', '-f', ''], [], DIRECTIVE.default],
    [['render', '-o', ''], [], DIRECTIVE.filterDirs],
    [['completion', ''], ['bash', 'zsh'], DIRECTIVE.noFileComp],
    [['diff', '-n', ''], [], DIRECTIVE.noFileComp],
  ])('%j: %j', async (words, candidates, directive) => {
    const result = await complete(words, NO_CLUSTER);
    expect({ candidates: result.candidates.map((line) => line.split('\t')[0]), directive: result.directive }).toEqual({ candidates, directive });
  });

  it('offers the flags `promop run` documents in its own help', async () => {
    const result = await complete(['run', '--'], NO_CLUSTER);
    expect(result.candidates.map((line) => line.split('\t')[0])).toEqual(expect.arrayContaining(['--kubeconfig', '--metrics-address', '--pod-network', '--help']));
  }, 30_000);
});

describe('the shell scripts', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'promop-completion-'));
    // `promop` on the PATH, as an installed one would be.
    symlinkSync(join(REPO_ROOT, 'packages/controller/bin/promop.js'), join(dir, 'promop'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = () => ({ ...NO_CLUSTER, PATH: `${dir}:${dirname(process.execPath)}:/usr/bin:/bin`, NODE_OPTIONS: '' });

  it('complete in bash', () => {
    writeFileSync(join(dir, 'promop.bash'), bashScript());
    const run = (words: string[]) => execFileSync('bash', ['-c', `source "${join(dir, 'promop.bash')}"; COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _promop_complete; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8', env: env() });
    expect(run(['promop', 'ex'])).toBe('explain\n');
    expect(run(['promop', 'explain', 'smon', 'web', '--out'])).toBe('--output\n');
    expect(run(['promop', 'explain', '-o', 'y'])).toBe('yaml\n');
  });

  it('load in zsh and define the completion function', () => {
    writeFileSync(join(dir, '_promop'), zshScript());
    const out = execFileSync('zsh', ['-f', '-c', `autoload -U compinit && compinit -u -D; source "${join(dir, '_promop')}"; whence -w _promop`], { encoding: 'utf8', env: env() });
    expect(out.trim()).toBe('_promop: function');
  });
});
