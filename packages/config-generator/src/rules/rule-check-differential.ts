/**
 * The differential check of promop's rule validation against the real `promtool check rules`
 * (imported by tests and scripts only): every case becomes a rule file with one rule, promtool
 * judges many files per run (it reports per file), promop judges the same spec with
 * validateRuleSpec, and every case where the two verdicts differ is returned.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolPath } from '@promop/testkit';
import { nameValidationSchemeFor } from '../values/prometheus-names.ts';
import type { PrometheusVersion } from '../prometheus-version.ts';
import { toPrometheusYaml } from '../yaml-output.ts';
import { ruleFieldSupport } from './rule-field-support.ts';
import type { RuleCheckCase } from '@promop/prometheus-lang/test-support';
import { validateRuleSpec, type RuleValidationOptions } from './validate-rule-spec.ts';

/** Which Prometheus both sides judge for. */
export interface DifferentialTarget {
  version: PrometheusVersion;
  /** `--enable-feature` values, passed to promtool and to promop's dialect alike. */
  features: string[];
  /** The promtool binary of that version (default: the one `pnpm tools` built). */
  promtool?: string;
}

/** A case the two judge differently, with both explanations. */
export interface Disagreement {
  ruleCase: RuleCheckCase;
  promtool: string;
  promop: string;
}

/** The outcome of one comparison run. */
export interface DifferentialResult {
  cases: number;
  /** Cases promtool accepted. */
  accepted: number;
  disagreements: Disagreement[];
  /** Time promop's validation took, in total (microseconds). */
  promopMicros: number;
}

const FILES_PER_RUN = 400;

/** Judges `cases` with promtool and with promop for `target`. */
export async function compareWithPromtool(cases: readonly RuleCheckCase[], target: DifferentialTarget): Promise<DifferentialResult> {
  const options: RuleValidationOptions = {
    scheme: nameValidationSchemeFor(target.version, undefined),
    support: ruleFieldSupport(target.version),
    version: target.version,
    promql: { version: target.version, features: target.features },
  };
  const directory = mkdtempSync(join(tmpdir(), 'promop-rule-check-'));
  const result: DifferentialResult = { cases: cases.length, accepted: 0, disagreements: [], promopMicros: 0 };
  try {
    for (let first = 0; first < cases.length; first += FILES_PER_RUN) {
      const batch = cases.slice(first, first + FILES_PER_RUN);
      const files = batch.map((ruleCase, index) => {
        const file = join(directory, `case-${first + index}.yaml`);
        writeFileSync(file, toPrometheusYaml(specOf(ruleCase)));
        return file;
      });
      const verdicts = await promtoolVerdicts(files, target);
      batch.forEach((ruleCase, index) => {
        const started = process.hrtime.bigint();
        const problems = validateRuleSpec(specOf(ruleCase), options);
        result.promopMicros += Number(process.hrtime.bigint() - started) / 1000;
        const promtool = verdicts.get(files[index]!) ?? 'no verdict from promtool';
        if (promtool === 'ok') result.accepted++;
        const promop = problems[0] ? `${problems[0].path}: ${problems[0].message}` : 'ok';
        if ((promtool === 'ok') !== (promop === 'ok')) result.disagreements.push({ ruleCase, promtool, promop });
      });
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  return result;
}

/** The PrometheusRule spec of a case: one group with one rule. */
export function specOf(ruleCase: RuleCheckCase): unknown {
  const rule = ruleCase.kind === 'expr' ? { record: 'r', expr: ruleCase.expr } : { alert: 'A', expr: 'up', annotations: { a: ruleCase.template } };
  return { groups: [{ name: 'g', rules: [rule] }] };
}

/** `ok` or promtool's first error line, for each file. */
async function promtoolVerdicts(files: string[], target: DifferentialTarget): Promise<Map<string, string>> {
  const args = ['check', 'rules', '--lint=none', ...(target.features.length > 0 ? [`--enable-feature=${target.features.join(',')}`] : []), ...files];
  const { stdout, stderr } = await run(target.promtool ?? toolPath('promtool'), args);
  const verdicts = new Map<string, string>();
  for (const match of stdout.matchAll(/^Checking (\S+)\n {2}SUCCESS/gm)) verdicts.set(match[1]!, 'ok');
  for (const match of stderr.matchAll(/^(\S+\.yaml): (.*)$/gm)) {
    if (!verdicts.has(match[1]!)) verdicts.set(match[1]!, match[2]!);
  }
  return verdicts;
}

function run(program: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({ stdout, stderr }));
  });
}
