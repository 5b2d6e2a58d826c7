/** The kube-prometheus manifests (../shared/corpus/kube-prometheus), read as they are, for compatibility tests. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAll } from 'js-yaml';

/** Directory of the corpus, beside the repository. */
export const CORPUS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..', 'shared', 'corpus', 'kube-prometheus');

/** One object of the corpus and the file it came from. */
export interface CorpusObject {
  file: string;
  kind: string;
  name: string;
  object: Record<string, unknown>;
}

/** Every object of the given kinds in the corpus, in file order. */
export function corpusObjects(kinds: readonly string[]): CorpusObject[] {
  const objects: CorpusObject[] = [];
  for (const file of readdirSync(CORPUS_DIR).filter((name) => name.endsWith('.yaml')).sort()) {
    for (const document of loadAll(readFileSync(join(CORPUS_DIR, file), 'utf8'))) {
      if (document === null || typeof document !== 'object') continue;
      const object = document as Record<string, unknown>;
      const kind = String(object.kind);
      if (!kinds.includes(kind)) continue;
      const metadata = object.metadata as { name?: string } | undefined;
      objects.push({ file, kind, name: metadata?.name ?? '', object });
    }
  }
  return objects;
}
