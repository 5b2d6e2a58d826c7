/**
 * The registry of kinds (kinds.ts) is the only list of kinds in the product's code: a list written by hand elsewhere
 * is one a new kind can be forgotten in. This test reads every non-test source file of packages/ and fails on three or
 * more kind names close together (as strings, `'ServiceMonitor'`, or as keys, `ServiceMonitor:`), unless they form a
 * table the compiler holds to the registry: typed `Record<Kind, ...>` (or WorkloadKind, SelectedKind, ScrapeKind), a
 * mapped type over one of those, or `satisfies Record<Kind, ...>`; a kind added to the registry without its entry
 * there does not compile.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_KINDS } from './kinds.ts';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Three kind names within this many characters make a list. */
const WINDOW = 300;
const REGISTRY_TYPES = '(?:Kind|WorkloadKind|SelectedKind|ScrapeKind)';
const CHECKED_TABLE = new RegExp(`Record<${REGISTRY_TYPES}\\b|\\[K in ${REGISTRY_TYPES}\\]|satisfies Record<${REGISTRY_TYPES}\\b|interface ResourceOfKind\\b`);

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) return entry === 'node_modules' || entry === 'generated' || entry === 'test-support' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry) && !/\.test\.ts$|arbitraries\.ts$|test-.*\.ts$/.test(entry) ? [path] : [];
  });
}

/** Where `text` names three or more kinds close together, outside a table the compiler checks against the registry. */
export function handWrittenKindLists(text: string, kinds: readonly string[] = ALL_KINDS): { line: number; kinds: string[] }[] {
  const names = kinds.join('|');
  const mention = new RegExp(`(['"\`])(${names})\\1|\\b(${names})\\??\\s*:(?!:)`, 'g');
  const hits = [...text.matchAll(mention)].map((match) => ({ at: match.index, kind: match[2] ?? match[3]! }));
  const found: { line: number; kinds: string[] }[] = [];
  for (let index = 0; index < hits.length; index += 1) {
    const start = hits[index]!.at;
    const near = hits.filter((hit) => hit.at >= start && hit.at - start < WINDOW);
    const distinct = [...new Set(near.map((hit) => hit.kind))];
    if (distinct.length < 3) continue;
    const around = text.slice(Math.max(0, start - WINDOW), near.at(-1)!.at + WINDOW);
    if (!CHECKED_TABLE.test(around)) found.push({ line: text.slice(0, start).split('\n').length, kinds: distinct });
    index += near.length - 1;
  }
  return found;
}

describe('the registry of kinds is the only list of kinds', () => {
  it('finds a list written by hand, and accepts a table typed by the registry', () => {
    expect(handWrittenKindLists("const MANAGED = ['ServiceMonitor', 'PodMonitor', 'Probe'];")).toEqual([{ line: 1, kinds: ['ServiceMonitor', 'PodMonitor', 'Probe'] }]);
    expect(handWrittenKindLists("type Monitor =\n  | 'ServiceMonitor'\n  | 'PodMonitor'\n  | 'ScrapeConfig';")).toHaveLength(1);
    expect(handWrittenKindLists('const lists = { ServiceMonitor: 1, PodMonitor: 2, PrometheusRule: 3 };')).toHaveLength(1);
    expect(handWrittenKindLists('const lists: Record<Kind, number> = { ServiceMonitor: 1, PodMonitor: 2, PrometheusRule: 3 };')).toEqual([]);
    expect(handWrittenKindLists("const two = ['ServiceMonitor', 'PodMonitor'];")).toEqual([]);
  });

  it('no source file of packages/ lists kinds outside the registry', () => {
    // The registry, and its schema half: resource-schemas.ts names each kind's schema once (the types derive from
    // those), and its per-kind tables are `satisfies Record<Kind, ...>`.
    const registry = [join('crds', 'src', 'kinds.ts'), join('crds', 'src', 'resource-schemas.ts')];
    const files = ['crds', 'prometheus-lang', 'config-generator', 'controller'].flatMap((name) => sourceFiles(join(REPO, 'packages', name, 'src')))
      .filter((file) => !registry.some((path) => file.endsWith(path)));
    expect(files.length).toBeGreaterThan(100);
    const lists = files.flatMap((file) => handWrittenKindLists(readFileSync(file, 'utf8')).map(({ line, kinds }) => `${relative(REPO, file)}:${line}: ${kinds.join(', ')}`));
    expect(lists).toEqual([]);
  });
});
