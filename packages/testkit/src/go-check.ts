/**
 * Asks tools/go-check what Prometheus would read: YAML decoded with the same Go libraries Prometheus 3.16 uses
 * (go.yaml.in/yaml/v2 for prometheus.yaml, go.yaml.in/yaml/v3 for rule files), and regexes read by Prometheus' own
 * readers (its relabel and labels packages, built into the tool). One process answers a whole batch, so a property test of thousands of cases
 * costs one spawn.
 */
import { spawn, spawnSync } from 'node:child_process';
import { toolPath } from './tools.ts';

/** What a Go YAML library read from one document: the value in canonical JSON, or its error. */
export type GoYamlReading = { value: unknown; error?: undefined } | { error: string; value?: undefined };

/** What Go's regexp made of one pattern, anchored as Prometheus anchors it. */
export type GoRegexReading = { ok: true; matchesEmpty: boolean } | { ok?: undefined; error: string; code?: string };

/** Which YAML library reads the document: yaml.v2 (prometheus.yaml, web config) or yaml.v3 (rule files). */
export type GoYamlLibrary = 'yaml-v2' | 'yaml-v3';

function frame(records: readonly string[]): Buffer {
  const parts: Buffer[] = [];
  for (const record of records) {
    const bytes = Buffer.from(record, 'utf8');
    parts.push(Buffer.from(`${bytes.length}\n`), bytes);
  }
  return Buffer.concat(parts);
}

function parseAnswers<T>(stdout: string, count: number): T[] {
  const lines = stdout.split('\n').filter((line) => line !== '');
  if (lines.length !== count) throw new Error(`go-check answered ${lines.length} records of ${count}`);
  return lines.map((line) => JSON.parse(line) as T);
}

function runSync(mode: string, records: readonly string[]): string {
  const result = spawnSync(toolPath('go-check'), [mode], { input: frame(records), maxBuffer: 1 << 30, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`go-check ${mode} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

async function runAsync(mode: string, records: readonly string[]): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(toolPath('go-check'), [mode], { stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`go-check ${mode} exited ${code}: ${stderr}`));
      else resolvePromise(Buffer.concat(stdout).toString('utf8'));
    });
    child.stdin.end(frame(records));
  });
}

/** Reads each document with Go's YAML library, synchronously (for fast-check properties). */
export function readYamlWithGoSync(library: GoYamlLibrary, documents: readonly string[]): GoYamlReading[] {
  return parseAnswers<GoYamlReading>(runSync(library, documents), documents.length);
}

/** Reads each document with Go's YAML library. */
export async function readYamlWithGo(library: GoYamlLibrary, documents: readonly string[]): Promise<GoYamlReading[]> {
  return parseAnswers<GoYamlReading>(await runAsync(library, documents), documents.length);
}

/**
 * Who reads the regex: `go`, Go's regexp/syntax on the pattern alone then anchored (the first error's code is the
 * pattern's own, as promop reports it); `relabeling`, exactly Prometheus' relabel.NewRegexp (the anchored form only);
 * `matcher`, exactly Prometheus' labels.NewFastRegexMatcher (its own copy of regexp/syntax, literal alternations
 * never parsed).
 */
export type GoRegexReader = 'go' | 'relabeling' | 'matcher';

const REGEX_MODES: Record<GoRegexReader, string> = { go: 'regex', relabeling: 'regex-relabel', matcher: 'regex-matcher' };

/** Reads each pattern with Prometheus' own regex reader, synchronously. */
export function compileRegexesWithGoSync(patterns: readonly string[], reader: GoRegexReader = 'go'): GoRegexReading[] {
  return parseAnswers<GoRegexReading>(runSync(REGEX_MODES[reader], patterns), patterns.length);
}

/** Reads each pattern with Prometheus' own regex reader. */
export async function compileRegexesWithGo(patterns: readonly string[], reader: GoRegexReader = 'go'): Promise<GoRegexReading[]> {
  return parseAnswers<GoRegexReading>(await runAsync(REGEX_MODES[reader], patterns), patterns.length);
}
