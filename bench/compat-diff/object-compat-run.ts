/**
 * The run every object-level compat-diff script shares (the Thanos sidecar, ThanosRuler and DaemonSet agent ones):
 * `--only`/`--out`, one control plane on loopback with prometheus-operator's CRDs, each case's objects created, the
 * real prometheus-operator started over them, each case compared by the script, the results printed, and exit
 * status 1 when a case is not equal.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startTestEnv, stopProcess, type ManagedProcess } from '@promop/testkit';
import { BenchApi, inParallel, sleep } from '../side-by-side/api-client.ts';
import { prometheusOperator } from '../side-by-side/operators.ts';
import { installCrds } from './install-crds.ts';

/** One case's outcome. */
export interface ObjectCaseResult {
  case: string;
  outcome: 'equal' | 'different' | 'failed';
  differences: { what: string; prometheusOperator: unknown; promop: unknown }[];
  /** Differences docs/compatibility.md explains, by what (scripts that know them). */
  documented?: string[];
  failure?: string;
}

/** What a script brings to the shared run. */
export interface ObjectCompatDiff<C extends { name: string }> {
  cases: readonly C[];
  /** Prefix of the temporary folder holding prometheus-operator's log. */
  logPrefix: string;
  /** Creates a case's objects before prometheus-operator starts. */
  create(api: BenchApi, item: C): Promise<void>;
  /** Waits for prometheus-operator's objects of a case and compares them with promop's. */
  compare(api: BenchApi, item: C): Promise<ObjectCaseResult>;
  /** Starts prometheus-operator (default: as the side-by-side bench starts it). */
  startOperator?(kubeconfig: string, logFile: string): ManagedProcess;
  /** What the summary line says equal cases are equal to (default: nothing more). */
  equalMeans?: string;
}

/** Runs `diff` as the file comment says; sets process.exitCode. */
export async function runObjectCompatDiff<C extends { name: string }>(diff: ObjectCompatDiff<C>): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, out: { type: 'string' } } });
  const only = values.only?.split(',');
  const cases = diff.cases.filter((c) => !only || only.includes(c.name));
  const operator = prometheusOperator();
  console.log(`building/finding ${operator.prepare()}`);
  const env = await startTestEnv({ controllerManager: false });
  const api = new BenchApi({ server: env.apiServerUrl, caFile: env.pki.caCert, certFile: env.pki.adminCert, keyFile: env.pki.adminKey });
  let running: ManagedProcess | undefined;
  const results: ObjectCaseResult[] = [];
  try {
    installCrds(env, operator.crdDirectory());
    await inParallel(cases, 8, (item) => diff.create(api, item));
    const logDir = mkdtempSync(join(tmpdir(), diff.logPrefix));
    const logFile = join(logDir, 'prometheus-operator.log');
    running = diff.startOperator ? diff.startOperator(env.kubeconfigPath, logFile) : operator.start(env.kubeconfigPath, 0, logFile);
    console.log(`prometheus-operator started (log: ${logDir})`);
    for (const item of cases) results.push(await diff.compare(api, item));
  } finally {
    if (running) await stopProcess(running);
    api.close();
    await env.stop();
  }
  for (const result of results) {
    const documented = result.documented?.length ? ` (documented: ${result.documented.join(', ')})` : '';
    console.log(`${result.outcome.padEnd(9)} ${result.case}${result.failure ? `: ${result.failure}` : ''}${documented}`);
    for (const difference of result.differences) {
      console.log(`  ${difference.what}\n    prometheus-operator: ${JSON.stringify(difference.prometheusOperator)}\n    promop:              ${JSON.stringify(difference.promop)}`);
    }
  }
  console.log(`${results.filter((r) => r.outcome === 'equal').length}/${results.length} cases equal${diff.equalMeans ? ` ${diff.equalMeans}` : ''}`);
  if (values.out) writeFileSync(values.out, `${JSON.stringify(results, null, 2)}\n`);
  process.exitCode = results.every((r) => r.outcome === 'equal') ? 0 : 1;
}

/** The object at `path` once prometheus-operator wrote it (polled every 500 ms, for up to two minutes). */
export async function waitForObject<T>(api: BenchApi, path: string): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const response = await api.send('GET', path);
    if (response.status === 200) return JSON.parse(response.body) as T;
    if (Date.now() > deadline) throw new Error(`${path}: still ${response.status}`);
    await sleep(500);
  }
}

/** One workload spec both operators render, in namespace and object names of the case's own. */
export interface SpecCase {
  name: string;
  spec: Record<string, unknown>;
}

/** A web server certificate and key from keys of the Secret `web-tls`, which each case's namespace holds. */
export const WEB_TLS_FROM_SECRET = { cert: { secret: { name: 'web-tls', key: 'tls.crt' } }, keySecret: { name: 'web-tls', key: 'tls.key' } };

/** `value` with object keys sorted, for a comparison that ignores key order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortKeys(v)]));
  return value;
}

/** One case's differences and documented differences as a script collects them, and its result. */
export interface CaseComparison {
  /** Records a difference when the two sides differ besides key order. */
  compare(what: string, theirs: unknown, mine: unknown): void;
  /** Names a documented difference for the report when taking it out changed something. */
  note(name: string, changed: boolean): void;
  /** The case's result: equal without differences unless `outcome` says otherwise. */
  result(outcome?: ObjectCaseResult['outcome'], failure?: string): ObjectCaseResult;
}

/** A fresh {@link CaseComparison} for the case named `name`. */
export function caseComparison(name: string): CaseComparison {
  const differences: ObjectCaseResult['differences'] = [];
  const documented = new Set<string>();
  return {
    compare(what, theirs, mine) {
      if (JSON.stringify(sortKeys(theirs)) !== JSON.stringify(sortKeys(mine))) differences.push({ what, prometheusOperator: theirs, promop: mine });
    },
    note(what, changed) {
      if (changed) documented.add(what);
    },
    result: (outcome, failure) => ({
      case: name, outcome: outcome ?? (differences.length === 0 ? 'equal' : 'different'), differences, documented: [...documented], ...(failure ? { failure } : {}),
    }),
  };
}
