/** What a shard's pods must run, and the hash that names it in pod annotations and status. */
import type { RuleConfigMap } from '@promop/config-generator';
import { expectedRuleFiles, expectedShardFiles, shardFilesHash } from './expected-shard-files.ts';

const ruleConfigMaps: RuleConfigMap[] = [
  { name: 'prometheus-main-rulefiles-0', files: { 'team-a-rules-u1.yaml': 'groups: []\n', 'team-b-rules-u2.yaml': 'groups: []\n' } },
  { name: 'prometheus-main-rulefiles-1', files: { 'team-c-rules-u3.yaml': 'groups: []\n' } },
];
const output = {
  configs: ['global:\n  scrape_interval: 30s\n', 'global:\n  scrape_interval: 30s\n# shard 1\n'],
  scrapeFiles: [[], []],
  ruleConfigMaps,
  tlsAssets: { '0_team-a_ca_ca.crt': 'CERT' },
};

describe('the files a shard must run', () => {
  it('are its config and every rule file, at the path Prometheus reads it from', () => {
    expect(expectedRuleFiles(output.ruleConfigMaps)).toEqual({
      '/etc/prometheus/rules/prometheus-main-rulefiles-0/team-a-rules-u1.yaml': 'groups: []\n',
      '/etc/prometheus/rules/prometheus-main-rulefiles-0/team-b-rules-u2.yaml': 'groups: []\n',
      '/etc/prometheus/rules/prometheus-main-rulefiles-1/team-c-rules-u3.yaml': 'groups: []\n',
    });
    const shard1 = expectedShardFiles(output, 1, 'secret-uid');
    expect(shard1.configText).toBe(output.configs[1]);
    expect(Object.keys(shard1.ruleFiles)).toHaveLength(3);
    expect(shard1.scrapeFileJobs).toBeUndefined();
  });

  it('include the jobs of the shard\'s scrape files, when its prometheus.yaml names any', () => {
    const file = (slot: number, jobNames: string[]) => ({ slot, name: `scrape-${slot}-x.yaml`, text: '', jobNames });
    const split = { ...output, scrapeFiles: [[file(0, ['a', 'b']), file(9, ['c'])], [file(0, ['a1'])]] };
    expect(expectedShardFiles(split, 0, 'secret-uid').scrapeFileJobs).toEqual(['a', 'b', 'c']);
    expect(expectedShardFiles(split, 1, 'secret-uid').scrapeFileJobs).toEqual(['a1']);
  });

  it('are named by a 16-hex-digit hash that changes with the config, a rule file, a TLS asset or the key, and only then', () => {
    const base = expectedShardFiles(output, 0, 'secret-uid').hash;
    expect(base).toMatch(/^[0-9a-f]{16}$/);
    expect(expectedShardFiles(output, 0, 'secret-uid').hash).toBe(base);
    expect(expectedShardFiles(output, 1, 'secret-uid').hash).not.toBe(base);
    expect(expectedShardFiles(output, 0, 'another-secret-uid').hash).not.toBe(base);
    expect(expectedShardFiles({ ...output, tlsAssets: { '0_team-a_ca_ca.crt': 'CERT2' } }, 0, 'secret-uid').hash).not.toBe(base);
    const rules = [{ name: 'prometheus-main-rulefiles-0', files: { 'team-a-rules-u1.yaml': 'groups: [{name: g}]\n' } }];
    expect(expectedShardFiles({ ...output, ruleConfigMaps: rules }, 0, 'secret-uid').hash).not.toBe(base);
  });

  it('hash parts with their lengths, so moving text from one file to the next changes it', () => {
    expect(shardFilesHash('k', 'ab', { f: 'c' }, {})).not.toBe(shardFilesHash('k', 'a', { f: 'bc' }, {}));
    expect(shardFilesHash('k', 'a', { f: 'x', g: 'y' }, {})).toBe(shardFilesHash('k', 'a', { g: 'y', f: 'x' }, {}));
  });

  it('is a bug to ask for a shard the generator did not render', () => {
    expect(() => expectedShardFiles(output, 2, 'k')).toThrow(/bug: the generator rendered no config for shard 2/);
  });
});
