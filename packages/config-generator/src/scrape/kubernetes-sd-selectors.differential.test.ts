/**
 * Differential test: for many Kubernetes discovery selectors (hand-picked edge cases of both grammars, every
 * pair of discovery and selector role, and strings generated from the grammars' alphabets), promop accepts a
 * ScrapeConfig exactly when the real promtool 3.16 (`check config`) loads a configuration holding the same
 * selector. The configurations are checked in one promtool run.
 */
import fc from 'fast-check';
import type { ScrapeConfig } from '@promop/crds';
import { renderScrapeConfig } from './scrape-config.ts';
import { promtoolCheckConfigs, testContext } from '../test-support/scrape-harness.ts';
import { toPrometheusYaml } from '../yaml-output.ts';

type Role = 'Pod' | 'Service' | 'Endpoints' | 'EndpointSlice' | 'Node' | 'Ingress';
const ROLES: readonly Role[] = ['Pod', 'Service', 'Endpoints', 'EndpointSlice', 'Node', 'Ingress'];

interface Case {
  role: Role;
  selectors: Array<{ role: Role; label?: string; field?: string }>;
}

const LABELS = [
  '', ' ', 'app', '!app', 'app=web', 'app==web', 'app!=web', 'app=', 'app==', 'app in (web,api)', 'app notin (web)', 'app in ()',
  'app in (,)', 'app in (,web)', 'app in (web,)', 'app in (web,,api)', 'app in (in,notin)', 'in in (in)', 'notin notin (notin)', 'replicas>3',
  'replicas<3', 'replicas > 3', 'replicas>+3', 'replicas>-3', 'replicas>3.5', 'replicas>9223372036854775807', 'replicas>9223372036854775808',
  'replicas>', 'app in (web', 'app in web', 'app in', 'app notin', 'app=web,', ',app=web', 'app=web,,tier=x', 'app web', 'app=!web', '!app=web',
  '!', '!!app', 'app>=3', 'app=>3', 'app=web!', 'app=we b', 'app = web', '\tapp=web\t', 'app=web,tier in (a,b),!canary', 'example.com/app=web',
  'Example.com/app=web', 'example.com/App=Web', '/app', 'app/', 'a/b/c', 'example..com/app', '-app', 'app-', 'app.', '_app', 'a_b.c-d',
  `${'a'.repeat(63)}`, `${'a'.repeat(64)}`, `app=${'v'.repeat(63)}`, `app=${'v'.repeat(64)}`, `${'d'.repeat(253)}/app`, `${'d'.repeat(254)}/app`,
  'app=a*', 'app=ünï', 'äpp=web', 'app in (a b)', 'app in (a,b', 'app in a,b)', 'app in ((a))', 'app=(web)', 'app=web)', '(app)', 'app,', 'app,,b',
  'app==web==x', 'app!=', 'app !=web', 'app!= web', 'app=in', 'app=notin', 'in', 'notin', 'in=in', 'app in (web) , tier', 'app==!',
];

const FIELDS = [
  '', ',', ',,', 'status.phase=Running', 'status.phase==Running', 'status.phase!=Running', 'status.phase', 'status.phase=', '=', '==', '!=',
  '=x', 'a=b=c', 'a==b=c', 'a!==b', 'a=!b', 'a=b\\', 'a=b\\\\', 'a=b\\,c', 'a=b\\=c', 'a=b\\n', 'a=b\\ c', 'a\\,b=c', 'a\\=b=c',
  'status.phase=Running,spec.nodeName=node-1', 'status.phase=Running,spec.nodeName', 'metadata.name=web,', 'a=b,,c=d', 'a b = c d',
  'spec.nodeName!=', 'a=ü', 'a=b\\ü', 'a', '!', 'a!b', 'a=,', 'a=\\,', 'a=\\',
];

function handPicked(): Case[] {
  const cases: Case[] = [];
  for (const label of LABELS) cases.push({ role: 'Pod', selectors: [{ role: 'Pod', label }] });
  for (const field of FIELDS) cases.push({ role: 'Pod', selectors: [{ role: 'Pod', field }] });
  for (const role of ROLES) for (const selectorRole of ROLES) cases.push({ role, selectors: [{ role: selectorRole, label: 'app=web' }] });
  cases.push(
    { role: 'Endpoints', selectors: [{ role: 'Pod' }, { role: 'Service' }, { role: 'Endpoints' }] },
    { role: 'Endpoints', selectors: [{ role: 'Pod' }, { role: 'Pod' }] },
    { role: 'EndpointSlice', selectors: [{ role: 'Service', label: 'a' }, { role: 'EndpointSlice', field: 'x=y' }, { role: 'Service', label: 'b' }] },
    { role: 'Pod', selectors: [{ role: 'Pod', label: 'app=web', field: 'spec.nodeName=n1' }, { role: 'Node', label: 'zone=a' }] },
  );
  return cases;
}

/** Strings made of the grammars' pieces, so generated ones hit the edges (empty values, stray operators, escapes). */
function generated(): Case[] {
  const labelPiece = fc.constantFrom('a', 'b', 'x1', 'k.io/', '-', '_', '.', '/', '=', '==', '!', '!=', '(', ')', ',', ' ', ' in ', ' notin ', 'in', '>', '<', '7', '\\', 'é', '\t');
  const fieldPiece = fc.constantFrom('a', 'status.phase', '.', '=', '==', '!', '!=', '\\', '\\,', '\\=', '\\\\', ',', ' ', 'x', 'é');
  const label = fc.array(labelPiece, { maxLength: 8 }).map((pieces) => pieces.join(''));
  const field = fc.array(fieldPiece, { maxLength: 8 }).map((pieces) => pieces.join(''));
  return [
    ...fc.sample(label, { numRuns: 250, seed: 23 }).map((text): Case => ({ role: 'Pod', selectors: [{ role: 'Pod', label: text }] })),
    ...fc.sample(field, { numRuns: 150, seed: 23 }).map((text): Case => ({ role: 'Service', selectors: [{ role: 'Service', field: text }] })),
  ];
}

function scrapeConfigOf(c: Case): ScrapeConfig {
  return { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'ScrapeConfig', metadata: { name: 'sc', namespace: 'default' }, spec: { kubernetesSDConfigs: [{ role: c.role, selectors: c.selectors }] } };
}

/** The configuration as the user wrote it, whatever promop thinks of it. */
function rawConfig(c: Case): string {
  const selectors = c.selectors.map((s) => ({ role: s.role.toLowerCase(), ...(s.label !== undefined ? { label: s.label } : {}), ...(s.field !== undefined ? { field: s.field } : {}) }));
  return toPrometheusYaml({ scrape_configs: [{ job_name: 'sc', kubernetes_sd_configs: [{ role: c.role.toLowerCase(), selectors }] }] });
}

describe('Kubernetes discovery selectors, promop against the real promtool', () => {
  it('promop accepts a ScrapeConfig exactly when promtool loads its selectors', async () => {
    const cases = [...handPicked(), ...generated()];
    const verdicts = cases.map((c) => renderScrapeConfig(scrapeConfigOf(c), testContext()));
    const result = await promtoolCheckConfigs(cases.map(rawConfig));
    const failed = new Map<number, string>();
    for (const line of result.stderr.split('\n')) {
      const index = result.files.findIndex((file) => line.includes(`${file}:`));
      if (line.includes('FAILED') && index >= 0) failed.set(index, line.trim());
    }
    const disagreements = cases.flatMap((c, i) => {
      const verdict = verdicts[i]!;
      const promtoolLoads = !failed.has(i);
      if (verdict.ok === promtoolLoads) return [];
      return [{ case: c, promop: verdict.ok ? 'accepted' : verdict.problems.map((p) => `${p.path}: ${p.message}`), promtool: failed.get(i) ?? 'loads' }];
    });
    expect(disagreements).toEqual([]);
    // Both outcomes are exercised, or the comparison proves nothing.
    expect(failed.size).toBeGreaterThan(100);
    expect(cases.length - failed.size).toBeGreaterThan(100);
  });
});
