/**
 * Objects written to hurt every other team (issue 23): each is rejected alone, with its field path and the size
 * that was too large, and everyone else's configuration is still written. Each is refused before the expensive
 * work it would otherwise cause; how long that takes is measured in bench/hostile-objects.bench.ts, not here.
 */
import type { Prometheus, PrometheusRule, ServiceMonitor } from '@promop/crds';
import { load } from 'js-yaml';
import { generate } from './generate.ts';
import type { GeneratorInput, GeneratorOutput, Verdict } from './model.ts';
import { RenderMemo } from './render-memo.ts';

const TEAMS = ['team-a', 'team-b', 'team-c', 'team-d'];

function serviceMonitor(namespace: string, name: string, spec: Partial<ServiceMonitor['spec']> = {}): ServiceMonitor {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'ServiceMonitor',
    metadata: { namespace, name },
    spec: { selector: { matchLabels: { app: name } }, endpoints: [{ port: 'web' }], ...spec },
  } as ServiceMonitor;
}

function prometheusRule(namespace: string, name: string, rules: Record<string, unknown>[]): PrometheusRule {
  return {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: { namespace, name, uid: `uid-${namespace}-${name}` },
    spec: { groups: [{ name: 'g', rules }] },
  } as PrometheusRule;
}

/** Every team's ordinary monitor and rule, plus `hostile`. */
function input(hostile: { serviceMonitors?: ServiceMonitor[]; prometheusRules?: PrometheusRule[] }, spec: Record<string, unknown> = {}): GeneratorInput {
  const prometheus = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'Prometheus',
    metadata: { namespace: 'monitoring', name: 'main', uid: '5d0f2c1e-8a7b-4c3d-9e1f-0a2b3c4d5e6f' },
    spec: { version: 'v3.5.0', serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: {}, ruleSelector: {}, ruleNamespaceSelector: {}, ...spec },
  } as Prometheus;
  return {
    prometheus,
    serviceMonitors: [...TEAMS.map((team) => serviceMonitor(team, 'app')), ...(hostile.serviceMonitors ?? [])],
    podMonitors: [],
    prometheusRules: [...TEAMS.map((team) => prometheusRule(team, 'rules', [{ alert: 'Down', expr: 'up == 0', annotations: { summary: '{{ $labels.instance }} is down' } }])), ...(hostile.prometheusRules ?? [])],
    namespaces: [...TEAMS, 'hostile'].map((name) => ({ name, labels: {} })),
    secrets: [],
    configMaps: [],
  };
}

function verdictOf(output: GeneratorOutput, kind: string, namespace: string, name: string): Verdict {
  const verdict = output.verdicts.find((each) => each.resource.kind === kind && each.resource.namespace === namespace && each.resource.name === name);
  if (!verdict) throw new Error(`no verdict for ${kind} ${namespace}/${name}`);
  return verdict;
}

/** The names of every job Prometheus will load: prometheus.yaml's and its scrape files'. */
function loadedJobs(output: GeneratorOutput): string[] {
  const inline = (load(output.configs[0]!) as { scrape_configs?: { job_name: string }[] }).scrape_configs ?? [];
  return [...inline.map((job) => job.job_name), ...output.scrapeFiles[0]!.flatMap((file) => file.jobNames)].sort();
}

const everyTeamsJob = TEAMS.map((team) => `serviceMonitor/${team}/app/0`).sort();

function expectRejectedAlone(output: GeneratorOutput, kind: string, name: string, reason: RegExp): void {
  expect(output.ok).toBe(true);
  expect(output.prometheusProblems).toEqual([]);
  const verdict = verdictOf(output, kind, 'hostile', name);
  expect(verdict).toMatchObject({ selected: true, accepted: false });
  if (verdict.selected && !verdict.accepted) expect(verdict.reason).toMatch(reason);
  for (const team of TEAMS) {
    expect(verdictOf(output, 'ServiceMonitor', team, 'app')).toMatchObject({ accepted: true });
    expect(verdictOf(output, 'PrometheusRule', team, 'rules')).toMatchObject({ accepted: true });
  }
}

describe('a team ServiceMonitor whose job is larger than a scrape file', () => {
  // A 1 MiB relabeling replacement: the job alone is more than the 900 KiB a scrape file's Secret is given.
  const hostile = serviceMonitor('hostile', 'huge-replacement', { endpoints: [{ port: 'web', relabelings: [{ targetLabel: 'x', replacement: 'y'.repeat(1024 * 1024) }] }] });

  it('is rejected alone and every other team\'s jobs are written', () => {
    const output = generate(input({ serviceMonitors: [hostile] }));
    expectRejectedAlone(output, 'ServiceMonitor', 'huge-replacement', /^spec: its scrape job serviceMonitor\/hostile\/huge-replacement\/0 is 1,\d{3},\d{3} bytes of YAML; a monitor's jobs may take at most 921,584 bytes, what one scrape file holds/);
    expect(loadedJobs(output)).toEqual(everyTeamsJob);
  });

  it('is rejected at the endpoint whose job is too large when it has several', () => {
    const two = serviceMonitor('hostile', 'two-endpoints', { endpoints: [{ port: 'ok' }, ...hostile.spec.endpoints] });
    const output = generate(input({ serviceMonitors: [two] }));
    expectRejectedAlone(output, 'ServiceMonitor', 'two-endpoints', /^spec\.endpoints\[1\]: its scrape job serviceMonitor\/hostile\/two-endpoints\/1 is /);
    expect(loadedJobs(output)).toEqual(everyTeamsJob);
  });

  it('is rejected the same way with a memo, render after render, and accepted again once it is fixed', () => {
    const memo = new RenderMemo();
    const first = generate({ ...input({ serviceMonitors: [hostile] }), memo });
    const second = generate({ ...input({ serviceMonitors: [hostile] }), memo });
    expect(second.verdicts).toEqual(first.verdicts);
    expect(second.scrapeFiles).toEqual(first.scrapeFiles);
    expect(second.configs).toEqual(generate(input({ serviceMonitors: [hostile] })).configs);
    const fixed = serviceMonitor('hostile', 'huge-replacement');
    const third = generate({ ...input({ serviceMonitors: [fixed] }), memo });
    expect(verdictOf(third, 'ServiceMonitor', 'hostile', 'huge-replacement')).toMatchObject({ accepted: true });
    expect(loadedJobs(third)).toEqual([...everyTeamsJob, 'serviceMonitor/hostile/huge-replacement/0'].sort());
  });

  it('is rejected alone in every shard of a sharded Prometheus', () => {
    const output = generate(input({ serviceMonitors: [hostile] }, { shards: 3 }));
    expectRejectedAlone(output, 'ServiceMonitor', 'huge-replacement', /is 1,\d{3},\d{3} bytes of YAML/);
    expect(output.configs).toHaveLength(3);
    for (const config of output.configs) expect(config).not.toContain('huge-replacement');
  });
});

describe('a team ServiceMonitor whose job is larger than a scrape file, for a Prometheus older than 2.43 (every job in prometheus.yaml)', () => {
  const hostile = serviceMonitor('hostile', 'huge-replacement', { endpoints: [{ port: 'web', relabelings: [{ targetLabel: 'x', replacement: 'y'.repeat(1024 * 1024) }] }] });

  it('is rejected alone, saying prometheus.yaml is shared, and every other team\'s jobs are written', () => {
    const output = generate(input({ serviceMonitors: [hostile] }, { version: 'v2.42.0' }));
    expectRejectedAlone(output, 'ServiceMonitor', 'huge-replacement', /^spec: its scrape job serviceMonitor\/hostile\/huge-replacement\/0 is 1,\d{3},\d{3} bytes of YAML; .*older than 2\.43, reads every job from prometheus\.yaml/);
    expect(output.scrapeFiles[0]).toEqual([]);
    expect(loadedJobs(output)).toEqual(everyTeamsJob);
    expect(output.configs[0]!.length).toBeLessThan(100_000);
  });
});

describe('a team\'s regex nested past Go\'s 1000 levels (600 alternations, 2,400 characters)', () => {
  const deep = `${'(a|'.repeat(600)}b${')'.repeat(600)}`;

  it('rejects its ServiceMonitor alone with Go\'s reason, the regex itself cut short so the reason is seen', () => {
    const hostile = serviceMonitor('hostile', 'deep-regex', { endpoints: [{ port: 'web', relabelings: [{ sourceLabels: ['__address__'], regex: deep, action: 'keep' }] }] });
    const output = generate(input({ serviceMonitors: [hostile] }));
    expectRejectedAlone(output, 'ServiceMonitor', 'deep-regex', /^spec\.endpoints\[0\]\.relabelings\[0\]\.regex: invalid regex "\(a\|.{100,130}… \(2,401 characters\)": expression nests too deeply/);
    expect(loadedJobs(output)).toEqual(everyTeamsJob);
  });

  it('rejects its PrometheusRule alone with Go\'s reason, the matcher cut short', () => {
    const hostile = prometheusRule('hostile', 'deep-regex', [{ alert: 'Deep', expr: `up{job=~"${deep}"} == 0` }]);
    const output = generate(input({ prometheusRules: [hostile] }));
    expectRejectedAlone(output, 'PrometheusRule', 'deep-regex', /^spec\.groups\[0\]\.rules\[0\]\.expr: invalid regular expression in job=~"\(a\|.{100,130}… \(2,408 characters\) at column 4: expression nests too deeply/);
  });
});

describe('a team ServiceMonitor whose selector has 10,000 matchExpressions', () => {
  const matchExpressions = Array.from({ length: 10_000 }, (_, index) => ({ key: `label-${index}`, operator: 'In' as const, values: ['a', 'b'] }));
  const hostile = serviceMonitor('hostile', 'huge-selector', { selector: { matchExpressions } });

  it('is rejected alone, with the size of its job, and every other team\'s jobs are written', () => {
    const output = generate(input({ serviceMonitors: [hostile] }));
    expectRejectedAlone(output, 'ServiceMonitor', 'huge-selector', /^spec: its scrape job serviceMonitor\/hostile\/huge-selector\/0 is 1,\d{3},\d{3} bytes of YAML/);
    expect(loadedJobs(output)).toEqual(everyTeamsJob);
  });
});

describe('a team ServiceMonitor with a thousand endpoints, each repeating its selector', () => {
  // Each job is small; together they are many times what a scrape file holds. As a RoleSelector the selector is
  // short enough per job to be rendered (repeated-selector.ts), so the jobs are measured as written.
  const matchExpressions = Array.from({ length: 100 }, (_, index) => ({ key: `label-${index}`, operator: 'Exists' as const }));
  const hostile = serviceMonitor('hostile', 'many-endpoints', { selectorMechanism: 'RoleSelector', selector: { matchExpressions }, endpoints: Array.from({ length: 1_000 }, (_, index) => ({ port: `p${index}` })) });

  it('is rejected alone at spec, saying at which of its jobs they passed the limit', () => {
    const output = generate(input({ serviceMonitors: [hostile] }));
    expectRejectedAlone(output, 'ServiceMonitor', 'many-endpoints', /^spec: its scrape jobs take more than 921,584 bytes of YAML \([\d,]+ by job \d+ of 1,000, serviceMonitor\/hostile\/many-endpoints\/\d+\)/);
    expect(loadedJobs(output)).toEqual(everyTeamsJob);
  });
});

/** The rule files written, by name. */
function ruleFiles(output: GeneratorOutput): string[] {
  return output.ruleConfigMaps.flatMap((configMap) => Object.keys(configMap.files)).sort();
}

const everyTeamsRuleFile = (output: GeneratorOutput) => expect(ruleFiles(output).filter((file) => !file.startsWith('hostile-'))).toEqual(TEAMS.map((team) => `${team}-rules-uid-${team}-rules.yaml`).sort());

describe('a team PrometheusRule with a 1.4 MB expression', () => {
  const expr = Array.from({ length: 350_000 }, () => 'up').join(' + ');
  const hostile = prometheusRule('hostile', 'huge-expr', [{ alert: 'Ok', expr: 'up == 0' }, { alert: 'Huge', expr }]);

  it('is rejected alone at its expression with its size, and every other team\'s rules are written', () => {
    const output = generate(input({ prometheusRules: [hostile] }));
    expectRejectedAlone(output, 'PrometheusRule', 'huge-expr', /^spec\.groups\[0\]\.rules\[1\]\.expr: the expression is 1,749,997 bytes; a rule file holds at most 524,288 bytes \(half of a ConfigMap\), so promop would refuse its file anyway$/);
    everyTeamsRuleFile(output);
    expect(ruleFiles(output)).toHaveLength(TEAMS.length);
  });
});

describe('a team PrometheusRule whose rules together hold more text than a rule file', () => {
  const rules = Array.from({ length: 5_000 }, (_, index) => ({ record: `job:metric_${index}:rate5m`, expr: `sum by (job) (rate(metric_${index}_total{job="${'x'.repeat(80)}"}[5m]))` }));
  const hostile = prometheusRule('hostile', 'many-rules', rules);

  it('is rejected alone at spec with the least size of its file, and every other team\'s rules are written', () => {
    const output = generate(input({ prometheusRules: [hostile] }));
    expectRejectedAlone(output, 'PrometheusRule', 'many-rules', /^spec: its rules hold at least [\d,]+ bytes of text; a rule file holds at most 524,288 bytes \(half of a ConfigMap\), so promop would refuse its file anyway; split it into several PrometheusRules$/);
    everyTeamsRuleFile(output);
  });
});

describe('a team PrometheusRule nesting brackets 100,000 deep', () => {
  const hostile = prometheusRule('hostile', 'deep', [{ alert: 'Deep', expr: `${'('.repeat(100_000)}up${')'.repeat(100_000)}` }]);

  it('is rejected alone where the nesting passes 256, and every other team\'s rules are written', () => {
    const output = generate(input({ prometheusRules: [hostile] }));
    expectRejectedAlone(output, 'PrometheusRule', 'deep', /^spec\.groups\[0\]\.rules\[0\]\.expr: column 257: brackets nested more than 256 deep; promop checks expressions up to that depth/);
    everyTeamsRuleFile(output);
  });

  it('is accepted 256 deep, as Prometheus accepts it', () => {
    const output = generate(input({ prometheusRules: [prometheusRule('hostile', 'deep', [{ alert: 'Deep', expr: `${'('.repeat(256)}up${')'.repeat(256)}` }])] }));
    expect(verdictOf(output, 'PrometheusRule', 'hostile', 'deep')).toMatchObject({ accepted: true });
  });
});

describe('a team PrometheusRule with an operator chain of 400,000 unary minuses', () => {
  // Under the text limit and without brackets: the checker itself finds it too deep, and says so at once.
  const hostile = prometheusRule('hostile', 'unary', [{ alert: 'Unary', expr: `${'-'.repeat(400_000)}up` }]);

  it('is rejected alone as too deeply nested, and every other team\'s rules are written', () => {
    const output = generate(input({ prometheusRules: [hostile] }));
    expectRejectedAlone(output, 'PrometheusRule', 'unary', /^spec\.groups\[0\]\.rules\[0\]\.expr: column 1: nested too deeply for promop to check/);
    everyTeamsRuleFile(output);
  });
});

describe('a team PrometheusRule with a 1 MB alert annotation', () => {
  const hostile = prometheusRule('hostile', 'huge-template', [{ alert: 'Big', expr: 'up == 0', annotations: { description: '{{ $labels.instance }} '.repeat(50_000) } }]);

  it('is rejected alone at the annotation, before it is parsed as a template, and every other team\'s rules are written', () => {
    const output = generate(input({ prometheusRules: [hostile] }));
    expectRejectedAlone(output, 'PrometheusRule', 'huge-template', /^spec\.groups\[0\]\.rules\[0\]\.annotations\.description: the annotation is 1,150,000 bytes; a rule file holds at most 524,288 bytes/);
    everyTeamsRuleFile(output);
  });
});

describe('a team PrometheusRule of 30,000 invalid rules', () => {
  const hostile = prometheusRule('hostile', 'invalid', Array.from({ length: 30_000 }, () => ({ expr: 'up' })));

  it('is rejected alone with the first 20 problems and a note that checking stopped, so its status stays small', () => {
    const output = generate(input({ prometheusRules: [hostile] }));
    expectRejectedAlone(output, 'PrometheusRule', 'invalid', /^spec\.groups\[0\]\.rules\[0\]: one of "record" or "alert" must be set$/);
    const verdict = verdictOf(output, 'PrometheusRule', 'hostile', 'invalid');
    if (!verdict.selected || verdict.accepted) throw new Error('accepted');
    expect(verdict.problems).toHaveLength(21);
    expect(verdict.problems[20]).toEqual({ path: 'spec', message: 'promop stopped checking after 20 problems; fix these first' });
  });
});

describe('a team PrometheusRule with a 400,000-character record name', () => {
  const hostile = prometheusRule('hostile', 'long-name', [{ record: `bad{${'x'.repeat(400_000)}}`, expr: 'up' }]);

  it('is rejected alone, and its reason repeats only the start of the name', () => {
    const output = generate(input({ prometheusRules: [hostile] }));
    expectRejectedAlone(output, 'PrometheusRule', 'long-name', /^spec\.groups\[0\]\.rules\[0\]\.record: "bad\{x{116}… \(400,005 characters\)" contains braces/);
    const verdict = verdictOf(output, 'PrometheusRule', 'hostile', 'long-name');
    if (!verdict.selected || verdict.accepted) throw new Error('accepted');
    expect(verdict.problems[0]!.message.length).toBeLessThan(400);
  });
});

describe('a team ServiceMonitor of 5,000 endpoints and a selector of 200 requirements', () => {
  // 85 KB of object that would be a million selector rules, built before their size could refuse them.
  const matchExpressions = Array.from({ length: 200 }, (_, index) => ({ key: `label-${index}`, operator: 'In' as const, values: ['a', 'b'] }));
  const hostile = serviceMonitor('hostile', 'amplifier', { selector: { matchExpressions }, endpoints: Array.from({ length: 5_000 }, (_, index) => ({ port: `p${index}` })) });

  it('is rejected alone before it is rendered, from its endpoints and selector, and every other team\'s jobs are written', () => {
    const output = generate(input({ serviceMonitors: [hostile] }));
    expectRejectedAlone(output, 'ServiceMonitor', 'amplifier', /^spec: its 5,000 endpoints each repeat the 200 requirements of its selector in their scrape jobs, at least 40,000,000 bytes of YAML; a monitor's jobs may take at most 921,584 bytes/);
    expect(loadedJobs(output)).toEqual(everyTeamsJob);
  });
});

describe('a team ServiceMonitor whose problems would quote back a megabyte', () => {
  const hostile = [
    serviceMonitor('hostile', 'huge-regex', { endpoints: [{ port: 'web', relabelings: [{ sourceLabels: ['a'], targetLabel: 'x', regex: `(${'a'.repeat(1024 * 1024)}` }] }] }),
    serviceMonitor('hostile', 'many-problems', { endpoints: [{ port: 'web', relabelings: Array.from({ length: 10_000 }, () => ({ action: 'nope' as 'keep' })) }] }),
  ];

  it('is rejected alone with a status the API server accepts: at most 20 problems and a note, each cut to 1,000 characters', () => {
    const output = generate(input({ serviceMonitors: hostile }));
    // The regex is quoted only in part, so the reason after it is seen.
    expectRejectedAlone(output, 'ServiceMonitor', 'huge-regex', /^spec\.endpoints\[0\]\.relabelings\[0\]\.regex: invalid regex "\(a{119}… \(1,048,577 characters\)": missing closing \)/);
    const huge = verdictOf(output, 'ServiceMonitor', 'hostile', 'huge-regex');
    if (!huge.selected || huge.accepted) throw new Error('accepted');
    expect(huge.reason.length).toBeLessThan(1_000);
    expectRejectedAlone(output, 'ServiceMonitor', 'many-problems', /^spec\.endpoints\[0\]\.relabelings\[0\]\.action: /);
    const many = verdictOf(output, 'ServiceMonitor', 'hostile', 'many-problems');
    if (!many.selected || many.accepted) throw new Error('accepted');
    expect(many.problems).toHaveLength(21);
    expect(many.problems[20]).toEqual({ path: 'spec', message: 'and 9,980 more problems not listed; fix these first' });
    for (const verdict of output.verdicts) expect(JSON.stringify(verdict).length).toBeLessThan(30_000);
  });

  it('keeps every verdict within the bounds the very object it was, so an unchanged verdict is still recognised', () => {
    const memo = new RenderMemo();
    // The same objects each time, as the watch cache hands out an unchanged object.
    const same = input({});
    const first = generate({ ...same, memo });
    const second = generate({ ...same, memo });
    for (const [index, verdict] of second.verdicts.entries()) if (verdict.resource.kind !== 'Prometheus') expect(verdict).toBe(first.verdicts[index]);
  });
});
