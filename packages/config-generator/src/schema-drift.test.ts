/**
 * The generator reads its input through the types @promop/crds derives from the CRD schemas, never through copies
 * of them, so a schema change fails the type check exactly where the generator reads the changed field. Each case
 * changes one schema literal in memory (nothing is written), type-checks the generator modules that read the field
 * with the repository's compiler options, and expects errors there; unchanged, the same modules have none.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const SCHEMAS = join(ROOT, 'packages/crds/src/schemas');
const GENERATOR = join(ROOT, 'packages/config-generator/src');

/**
 * One schema edit, the generator modules (relative to its src/) that read the field it changes, and a word the type
 * error there names (the field, or the type it now has), so each error is traced to its edit.
 */
interface SchemaChange {
  title: string;
  schema: string;
  from: string;
  to: string;
  readers: string[];
  names: string;
}

const CHANGES: SchemaChange[] = [
  { title: 'a relabeling field renamed', schema: 'relabel-config.ts', from: 'targetLabel: str(', to: 'targetLabelName: str(', readers: ['values/relabeling.ts'], names: "'targetLabel'" },
  { title: 'a TLS field renamed', schema: 'tls-config.ts', from: 'serverName: str(', to: 'sniName: str(', readers: ['http-client/tls-config.ts'], names: "'serverName'" },
  {
    title: 'an endpoint credential renamed',
    schema: 'scrape-endpoint.ts',
    from: '  bearerTokenSecret: {',
    to: '  bearerTokenSecretRef: {',
    readers: ['http-client/auth-exclusivity.ts', 'scrape/monitor-steps.ts'],
    names: 'bearerTokenSecret',
  },
  {
    title: 'a scrape protocol added',
    schema: 'scrape-endpoint.ts',
    from: "  'PrometheusText1.0.0',",
    to: "  'PrometheusText1.0.0',\n  'PrometheusText2.0.0',",
    readers: ['values/scrape-protocols.ts'],
    names: 'PrometheusText2.0.0',
  },
  { title: 'a Prometheus field renamed', schema: 'prometheus.ts', from: 'externalLabels: stringMap(', to: 'externalLabelSet: stringMap(', readers: ['prometheus/external-labels.ts'], names: 'externalLabels' },
  {
    title: 'the remote storage URL retyped from a string to an integer',
    schema: 'remote-storage.ts',
    from: "url: { type: 'string',",
    to: "url: { type: 'integer',",
    readers: ['prometheus/remote-write-config.ts', 'prometheus/remote-read-config.ts'],
    names: "'number",
  },
  { title: 'the API server host renamed', schema: 'api-server-config.ts', from: 'host: str(', to: 'server: str(', readers: ['prometheus/api-server-config.ts'], names: "'host'" },
];

function compilerOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.base.json');
  const config = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT, undefined, file).options;
}

const READERS = [...new Set(CHANGES.flatMap((change) => change.readers))];

/**
 * Type errors in each reader module, with the schema files given in `schemas` (path → text) read from there. One
 * program for all the changes: checking the generator against the derived types takes seconds.
 */
function errorsByReader(schemas: ReadonlyMap<string, string>): Map<string, string[]> {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => schemas.get(resolve(file)) ?? readFile(file);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (file, language, onError, fresh) => {
    const text = schemas.get(resolve(file));
    return text === undefined ? getSourceFile(file, language, onError, fresh) : ts.createSourceFile(file, text, language);
  };
  const program = ts.createProgram(
    READERS.map((reader) => join(GENERATOR, reader)),
    options,
    host,
  );
  return new Map(
    READERS.map((reader) => {
      const source = program.getSourceFile(join(GENERATOR, reader));
      if (!source) return [reader, ['not part of the program']];
      const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
      return [reader, diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))];
    }),
  );
}

/** Every change applied to its schema file (several may change the same file). */
function changedSchemas(): Map<string, string> {
  const texts = new Map<string, string>();
  for (const change of CHANGES) {
    const path = join(SCHEMAS, change.schema);
    const text = texts.get(path) ?? readFileSync(path, 'utf8');
    expect(text).toContain(change.from);
    texts.set(path, text.replace(change.from, change.to));
  }
  return texts;
}

// Each program type-checks the generator against the types derived from the schemas, which takes many seconds of
// CPU, and several times as long on a loaded machine.
const PROGRAM_TIMEOUT_MS = 300_000;

describe('a CRD schema change', () => {
  it('leaves the generator modules that read the changed fields without errors while the schemas are unchanged', () => {
    expect(Object.fromEntries(errorsByReader(new Map()))).toEqual(Object.fromEntries(READERS.map((reader) => [reader, []])));
  }, PROGRAM_TIMEOUT_MS);

  describe('fails the type check in the generator module that reads the field', () => {
    let errors: Map<string, string[]>;
    beforeAll(() => {
      errors = errorsByReader(changedSchemas());
    }, PROGRAM_TIMEOUT_MS);

    it.each(CHANGES.map((change) => [change.title, change] as const))('%s', (_title, change) => {
      for (const reader of change.readers) {
        expect({ reader, naming: (errors.get(reader) ?? []).filter((message) => message.includes(change.names)).length > 0, errors: errors.get(reader) }).toMatchObject({
          reader,
          naming: true,
        });
      }
    });
  });
});
