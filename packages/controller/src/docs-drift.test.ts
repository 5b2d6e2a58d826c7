/**
 * The docs against the code, so the next drift fails CI instead of misleading a reader: the kinds the docs and
 * `promop --help` list against the kinds promop serves (the CRD registry of @promop/crds), the number of CRDs they
 * state, the `promop run` flags docs/operations.md names against the flags `promop run` accepts and prints, and the
 * chart values it names against charts/promop/values.yaml.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { load } from 'js-yaml';
import { crdManifests, PROMETHEUS_WORKLOAD_KINDS, PROMETHEUS_SELECTED_KINDS } from '@promop/crds';
import { REPO_ROOT } from '@promop/testkit';
import { programHelp } from './cli/command-line.ts';
import { COMMANDS, specOf } from './cli/commands.ts';
import { parseRunArguments, runOperatorCommand } from './run-command.ts';

const SERVED = crdManifests().map((crd) => crd.spec.names.kind);
/** The kinds a Prometheus configuration is made from (the top-level help lists them; diff reads each). */
const PROMETHEUS_CONFIG_KINDS: readonly string[] = [...PROMETHEUS_WORKLOAD_KINDS, ...PROMETHEUS_SELECTED_KINDS];
const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const DOCS = ['README.md', ...readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Longest names first, so `PrometheusAgent` is not read as `Prometheus` followed by `Agent`. */
const KIND_NAME = [...SERVED].sort((a, b) => b.length - a.length).join('|');
/** One kind as prose writes it: `ServiceMonitor`, ServiceMonitors, `Prometheus` objects' kinds in backticks, `(v1alpha1)`. */
const ONE_KIND = `\`?(?:${KIND_NAME})(?:s|es)?\`?(?: \\(v1alpha1\\))?`;
/** Three or more kinds in a row, separated as prose and CLI help separate them. */
const KIND_LIST = new RegExp(`(?<![\\w\`-])${ONE_KIND}(?:(?:,\\s+(?:and\\s+|or\\s+)?|\\s+(?:and|or)\\s+)${ONE_KIND}){2,}(?![\\w-])`, 'g');

/** The kinds named in a list found by KIND_LIST. */
function kindsIn(list: string): Set<string> {
  return new Set([...list.matchAll(new RegExp(`(?:${KIND_NAME})`, 'g'))].map((match) => match[0]));
}

/**
 * What a kind list must hold: a list of the kinds teams write (it names ServiceMonitor and PodMonitor) names Probe
 * and ScrapeConfig too; a list that names Prometheus beside them names PrometheusAgent as well.
 */
function missingFrom(kinds: Set<string>): string[] {
  const missing: string[] = [];
  if (kinds.has('ServiceMonitor') && kinds.has('PodMonitor')) missing.push(...['Probe', 'ScrapeConfig'].filter((kind) => !kinds.has(kind)));
  if (kinds.has('Prometheus') && kinds.has('ServiceMonitor') && !kinds.has('PrometheusAgent')) missing.push('PrometheusAgent');
  return missing;
}

/** Lists that name fewer kinds on purpose, each with the reason (the text they start with, in their file). */
const PARTIAL_LISTS: { file: string; startsWith: string; why: string }[] = [
  { file: 'docs/crds.md', startsWith: 'Prometheus, ServiceMonitor, PodMonitor, Probe and PrometheusRule', why: 'the kinds field-coverage.test.ts covers' },
  { file: 'docs/crds.md', startsWith: 'Prometheus, ServiceMonitor and PrometheusRule', why: 'the kinds the kube-prometheus corpus holds' },
  { file: 'docs/compatibility.md', startsWith: 'Prometheus, ServiceMonitor, PodMonitor, Probe and PrometheusRule', why: 'the v1 kinds; the v1alpha1 ones follow' },
  { file: 'docs/compatibility.md', startsWith: 'ServiceMonitors, PodMonitors and Probes', why: 'what prometheus-operator confines, unlike ScrapeConfigs' },
];

describe('the kinds the docs list', () => {
  it('are every kind promop serves, wherever a list names the kinds teams write', () => {
    const stale: string[] = [];
    for (const file of DOCS) {
      const lines = read(file).split('\n');
      // Joined per paragraph: a list may wrap.
      const text = lines.join(' ').replace(/\s+/g, ' ');
      for (const match of text.matchAll(KIND_LIST)) {
        const missing = missingFrom(kindsIn(match[0]));
        if (missing.length === 0) continue;
        if (PARTIAL_LISTS.some((partial) => partial.file === file && match[0].replaceAll('`', '').startsWith(partial.startsWith))) continue;
        stale.push(`${file}: "${match[0]}" lacks ${missing.join(', ')}`);
      }
    }
    expect(stale).toEqual([]);
  });

  it('state the number of CRDs promop serves', () => {
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    const wrong: string[] = [];
    for (const file of [...DOCS, 'charts/promop/values.yaml']) {
      for (const match of read(file).matchAll(/\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:CRDs|CustomResourceDefinitions)\b/gi)) {
        const count = /^\d+$/.test(match[1]!) ? Number(match[1]) : words.indexOf(match[1]!.toLowerCase());
        if (count !== SERVED.length) wrong.push(`${file}: "${match[0]}" (promop serves ${SERVED.length})`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('promop --help and the commands that read the cluster', () => {
  it('the top-level help names every kind a Prometheus configuration is made from', () => {
    const help = programHelp(COMMANDS.map((command) => command.spec), 'promop').replace(/\s+/g, ' ');
    const lists = [...help.matchAll(KIND_LIST)].map((match) => [...kindsIn(match[0])].sort());
    expect(lists).toEqual([[...PROMETHEUS_CONFIG_KINDS].sort()]);
  });

  it('explain takes every kind promop serves (a synopsis line per program), and diff reads every kind a Prometheus configuration is made from', () => {
    const synopsis = specOf('explain').synopsis.split('\n').flatMap((line) => line.split(' ')[1]!.split('|')).sort();
    expect(synopsis).toEqual(SERVED.map((kind) => kind.toLowerCase()).sort());
    const diff = specOf('diff').description.replace(/\s+/g, ' ');
    expect([...diff.matchAll(KIND_LIST)].map((match) => PROMETHEUS_CONFIG_KINDS.filter((kind) => !kindsIn(match[0]).has(kind)))).toEqual([[]]);
  });
});

describe('docs/operations.md against promop run and the chart', () => {
  const operations = read('docs/operations.md');
  /** Flags of other programs the page names, by program. */
  const OTHER_PROGRAMS: Record<string, readonly string[]> = {
    helm: ['--set', '--create-namespace', '--take-ownership', '--force-conflicts'],
    kubectl: ['--server-side'],
    node: ['--max-semi-space-size'],
    'pnpm control-plane': ['--keep'],
  };
  const others = new Set(Object.values(OTHER_PROGRAMS).flat());
  const named = new Set([...operations.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((match) => match[0]).filter((flag) => !others.has(flag)));

  it('names only flags promop run accepts', () => {
    const unknown = [...named].filter((flag) => {
      const parsed = parseRunArguments([flag]);
      return !parsed.ok && parsed.message.startsWith('unknown argument');
    });
    expect(unknown).toEqual([]);
  });

  it('names every flag promop run --help prints', async () => {
    let help = '';
    await runOperatorCommand(['--help'], { stdout: (text) => { help += text; }, stderr: () => {} });
    const printed = new Set([...help.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((match) => match[0]).filter((flag) => flag !== '--help'));
    expect([...printed].filter((flag) => !named.has(flag))).toEqual([]);
  });

  const values = load(read('charts/promop/values.yaml')) as Record<string, unknown>;
  /** The first column of the values table: `a.b` / `.c` (relative to a's key) / `d`, `e`. */
  const tableRows = (() => {
    const lines = operations.split('\n');
    const header = lines.findIndex((line) => /^\| value \| default \|/.test(line));
    if (header === -1) return [];
    const rows: string[] = [];
    for (const line of lines.slice(header + 2)) {
      if (!line.startsWith('|')) break;
      rows.push(line.split('|')[1]!);
    }
    return rows;
  })();
  const documented = tableRows.flatMap((cell) => {
    const names = [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    const top = names[0]?.split('.')[0] ?? '';
    return names.map((name) => (name.startsWith('.') ? `${top}${name}` : name));
  });
  const has = (path: string) => path.split('.').reduce<unknown>((node, key) => (node !== null && typeof node === 'object' && key in node ? (node as Record<string, unknown>)[key] : undefined), values) !== undefined;

  it('has a table of the chart values', () => {
    expect(documented.length).toBeGreaterThan(10);
  });

  it('names chart values that exist in charts/promop/values.yaml', () => {
    const setValues = [...operations.matchAll(/--set '?([a-zA-Z][\w.]*)(?:\[\d+\])?=/g)].map((match) => match[1]!);
    expect([...documented, ...setValues].filter((path) => !has(path))).toEqual([]);
  });

  it('documents every top-level value of charts/promop/values.yaml', () => {
    const tops = new Set(documented.map((path) => path.split('.')[0]));
    expect(Object.keys(values).filter((key) => !tops.has(key))).toEqual([]);
  });
});

describe('links between the docs', () => {
  /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
  const anchor = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, '').replaceAll(' ', '-');
  const headings = new Map(DOCS.map((file) => [normalize(file), new Set([...read(file).matchAll(/^#+ (.*)$/gm)].map((match) => anchor(match[1]!)))]));

  it('point at headings that exist (figures are linked to, not repeated, so a renamed section must not strand them)', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      for (const match of read(file).matchAll(/\]\(([^)#\s]*)#([^)\s]+)\)/g)) {
        const target = match[1] ? normalize(join(dirname(file), match[1])) : normalize(file);
        if (headings.has(target) && !headings.get(target)!.has(match[2]!)) broken.push(`${file}: ${match[1]}#${match[2]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
