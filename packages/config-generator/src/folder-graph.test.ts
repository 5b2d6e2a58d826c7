/**
 * The generator's folders depend on each other in one direction: `values/` (values as Prometheus reads them) under
 * everything, `selection/` and `http-client/` above it, `scrape/`, `prometheus/` and `rules/` on top (`prometheus/`
 * may use `scrape/`, never the reverse). Two folders importing each other would make that order meaningless, so
 * this test reads the imports of every source file (test helpers aside) and fails on any cycle between folders.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = dirname(fileURLToPath(import.meta.url));

/** Folder → the folders its source files import (relative imports `../<folder>/...`). */
function folderImports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const folder of readdirSync(SRC).filter((entry) => statSync(join(SRC, entry)).isDirectory() && entry !== 'test-support')) {
    const imported = new Set<string>();
    const walk = (directory: string): void => {
      for (const entry of readdirSync(directory)) {
        const path = join(directory, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.ts$/.test(entry) && !/\.test\.ts$|arbitraries\.ts$|differential\.ts$/.test(entry)) {
          for (const match of readFileSync(path, 'utf8').matchAll(/from '((?:\.\.\/)+)([\w-]+)\//g)) {
            // `../x/` from a file directly in the folder; deeper files climb one more level per depth.
            const depth = path.slice(SRC.length + 1).split('/').length - 1;
            if (match[1]!.length / 3 === depth) imported.add(match[2]!);
          }
        }
      }
    };
    walk(join(SRC, folder));
    imported.delete(folder);
    graph.set(folder, imported);
  }
  return graph;
}

/** A cycle of folders in `graph`, or undefined. */
export function folderCycle(graph: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const visit = (folder: string): string[] | undefined => {
    if (state.get(folder) === 'done') return undefined;
    if (state.get(folder) === 'visiting') return [...path.slice(path.indexOf(folder)), folder];
    state.set(folder, 'visiting');
    path.push(folder);
    for (const next of graph.get(folder) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(folder, 'done');
    return undefined;
  };
  for (const folder of graph.keys()) {
    const cycle = visit(folder);
    if (cycle) return cycle;
  }
  return undefined;
}

describe("the generator's folders", () => {
  it('finds a cycle when there is one', () => {
    expect(folderCycle(new Map([['scrape', new Set(['prometheus'])], ['prometheus', new Set(['scrape'])]]))).toEqual(['scrape', 'prometheus', 'scrape']);
    expect(folderCycle(new Map([['scrape', new Set(['values'])], ['prometheus', new Set(['scrape', 'values'])], ['values', new Set<string>()]]))).toBeUndefined();
  });

  it('import each other in one direction only', () => {
    const graph = folderImports();
    expect([...graph.keys()]).toEqual(expect.arrayContaining(['values', 'scrape', 'prometheus', 'rules', 'http-client', 'selection']));
    expect(graph.get('prometheus')).toContain('scrape');
    expect(folderCycle(graph)).toBeUndefined();
  });
});
