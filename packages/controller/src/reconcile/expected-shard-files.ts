/**
 * What the pods of one shard must run after a reconcile, from the generator's output: the shard's prometheus.yaml,
 * every rule file under the path Prometheus reads it from, and a short hash naming that combination (with the TLS
 * assets, which the pods also mount).
 *
 * The hash is an HMAC keyed with the uid of the shard's config Secret, not a plain sha256: prometheus.yaml holds
 * basic-auth passwords inline (as prometheus-operator writes it), and the hash is published where more people can
 * read it than can read the Secret (a pod annotation, the Prometheus' status). A plain hash would let someone who
 * knows the rest of the config test password guesses offline; the uid is only visible to those who may read the
 * Secret. It is stable for the Secret's life, so the hash changes only when the files do.
 */
import { createHmac } from 'node:crypto';
import { RULES_DIR, type GeneratorOutput, type RuleConfigMap } from '@promop/config-generator';
import type { ExpectedRuleFiles } from '../prometheus-client/index.ts';
import type { ExpectedShardFiles } from './config-reloader.ts';

/** Hex characters of the hash kept: 64 bits, plenty to tell one config from the next. */
const HASH_CHARS = 16;

/** Every rule file of `ruleConfigMaps` by its path in the pod: `/etc/prometheus/rules/<configmap>/<file>`. */
export function expectedRuleFiles(ruleConfigMaps: readonly RuleConfigMap[]): ExpectedRuleFiles {
  const files: Record<string, string> = {};
  for (const configMap of ruleConfigMaps) {
    for (const [file, text] of Object.entries(configMap.files)) files[`${RULES_DIR}/${configMap.name}/${file}`] = text;
  }
  return files;
}

/** The keyed hash of one shard's files (see the module comment for the key). */
export function shardFilesHash(key: string, configText: string, ruleFiles: ExpectedRuleFiles, tlsAssets: Readonly<Record<string, string>>): string {
  const hmac = createHmac('sha256', key);
  // Length-prefixed parts in sorted order, so no two different sets of files feed the same bytes.
  const part = (text: string) => hmac.update(`${Buffer.byteLength(text)}:`).update(text);
  part(configText);
  for (const [kind, files] of [['rules', ruleFiles], ['tls', tlsAssets]] as const) {
    part(kind);
    for (const name of Object.keys(files).sort()) {
      part(name);
      part(files[name] ?? '');
    }
  }
  return hmac.digest('hex').slice(0, HASH_CHARS);
}

/**
 * The files shard `shard` must run; `hashKey` is the uid of its config Secret. The scrape files are not hashed:
 * prometheus.yaml names each by a hash of its content, so the config text changes whenever one of them does.
 */
export function expectedShardFiles(output: Pick<GeneratorOutput, 'configs' | 'scrapeFiles' | 'ruleConfigMaps' | 'tlsAssets'>, shard: number, hashKey: string): ExpectedShardFiles {
  const configText = output.configs[shard];
  if (configText === undefined) throw new Error(`bug: the generator rendered no config for shard ${shard}`);
  const ruleFiles = expectedRuleFiles(output.ruleConfigMaps);
  const scrapeFiles = output.scrapeFiles[shard] ?? [];
  return {
    configText,
    ruleFiles,
    ...(scrapeFiles.length > 0 ? { scrapeFileJobs: scrapeFiles.flatMap((file) => file.jobNames) } : {}),
    hash: shardFilesHash(hashKey, configText, ruleFiles, output.tlsAssets),
  };
}
