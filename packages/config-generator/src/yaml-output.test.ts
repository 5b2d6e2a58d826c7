import { load } from 'js-yaml';
import { jobSegments, toPrometheusYaml } from './yaml-output.ts';

describe('prometheus.yaml output', () => {
  it('looks like yaml.v2: sequences not indented under their key, empty collections inline', () => {
    expect(toPrometheusYaml({ a: { b: [{ c: 1, d: ['x'] }, 'z'], e: [], f: {} }, g: true })).toBe(
      ['a:', '  b:', '  - c: 1', '    d:', '    - x', '  - z', '  e: []', '  f: {}', 'g: true', ''].join('\n'),
    );
  });

  it('leaves relabeling text plain where YAML allows it', () => {
    const plain = ['(.+);', '${1}', '$1', '$(SHARD);|.+;.+', ';', 'Node;(.*)', '0|1', '/etc/prometheus/rules/x/*.yaml', 'a,b', 'http://example.com', 'it\'s', ':a', '-a'];
    for (const text of plain) expect(toPrometheusYaml({ v: text })).toBe(`v: ${text}\n`);
  });

  it('double-quotes text that would read back as another type, and single-quotes what cannot be plain', () => {
    const cases: Array<[string, string]> = [
      ['', '""'],
      ['true', '"true"'],
      ['on', '"on"'],
      ['8080', '"8080"'],
      ['1.5', '"1.5"'],
      ['null', '"null"'],
      ['~', '"~"'],
      ['12:30', '"12:30"'],
      ['2024-01-01', '"2024-01-01"'],
      ['*.yaml', "'*.yaml'"],
      ['a: b', "'a: b'"],
      ['x #y', "'x #y'"],
      ['- a', "'- a'"],
      ['{a}', "'{a}'"],
      ["'q'", "'''q'''"],
      [' padded', "' padded'"],
      ['tab\there', '"tab\\there"'],
    ];
    for (const [text, rendered] of cases) expect(toPrometheusYaml({ v: text })).toBe(`v: ${rendered}\n`);
  });

  it('writes multi-line text as literal blocks with the right chomping', () => {
    expect(toPrometheusYaml({ expr: 'sum(up)\n  by (job)' })).toBe('expr: |-\n  sum(up)\n    by (job)\n');
    expect(toPrometheusYaml({ d: ['line 1\nline 2\n'] })).toBe('d:\n- |\n  line 1\n  line 2\n');
  });

  it('reads back as exactly the value it was given', () => {
    const value = {
      s: ['', 'true', '0x1F', '1e3', '.inf', 'yes', 'a: b', '#x', '%x', '@x', '`x', '!x', '&x', '|', '>', '"', "'", 'é', '日本', 'a\nb', ' lead\nx', 'x\n\n'],
      n: [0, -1, 1.25, 1e21],
      b: [true, false],
      nested: [[1, [2, 3]], { k: [] }],
    };
    expect(load(toPrometheusYaml(value))).toEqual(value);
  });
});

describe('a scrape job cut into segments', () => {
  const jobs: Record<string, unknown>[] = [
    {
      job_name: 'serviceMonitor/team-a/api/0',
      honor_labels: false,
      kubernetes_sd_configs: [{ role: 'endpoints', namespaces: { names: ['team-a'] } }],
      relabel_configs: [
        { source_labels: ['job'], target_label: '__tmp_prometheus_job_name' },
        { action: 'keep', source_labels: ['__meta_kubernetes_service_label_app'], regex: '(api);true' },
        {},
        { target_label: 'note', replacement: 'line one\nline two\n' },
      ],
      metric_relabel_configs: [],
      static_configs: [{ targets: ['a:80', 'b:80'], labels: { zone: 'x' } }],
      params: { module: ['http_2xx'] },
      scrape_interval: '30s',
    },
    { job_name: 'nested', weird: [['a', 'b'], 'plain', { k: 'v' }, [], null] },
    { job_name: 'only-scalars', scrape_timeout: '10s' },
    { only_undefined: undefined },
  ];

  it('joins to exactly what the job serialises to alone', () => {
    for (const job of jobs) expect(jobSegments(job).join('')).toBe(toPrometheusYaml([job]));
  });

  it('has each mapping item of the job\'s lists as a segment of its own, at an odd index, starting with its dash', () => {
    const segments = jobSegments(jobs[0]!);
    const items = segments.filter((_, index) => index % 2 === 1);
    // Two relabelings, the service discovery config, the note and the static config; `{}` stays inline text.
    expect(items).toHaveLength(5);
    for (const item of items) expect(item).toMatch(/^ {2}- \S/);
    expect(items[0]).toBe('  - role: endpoints\n    namespaces:\n      names:\n      - team-a\n');
    expect(items[1]).toBe('  - source_labels:\n    - job\n    target_label: __tmp_prometheus_job_name\n');
    expect(segments.length % 2).toBe(1);
  });

  it('is one segment for a job without such items', () => {
    expect(jobSegments(jobs[2]!)).toEqual([toPrometheusYaml([jobs[2]])]);
  });
});

describe('a frozen (shared) item', () => {
  it('is written as an equal item that is not frozen, every time', () => {
    const rule = () => ({ source_labels: ['__meta_kubernetes_namespace'], target_label: 'namespace' });
    const frozen = Object.freeze({ ...rule(), source_labels: Object.freeze(['__meta_kubernetes_namespace']) });
    const job = (item: object) => ({ job_name: 'a', relabel_configs: [item, { target_label: 'x', replacement: 'y' }] });
    expect(jobSegments(job(frozen))).toEqual(jobSegments(job(rule())));
    expect(jobSegments(job(frozen)).join('')).toBe(toPrometheusYaml([job(rule())]));
  });
});
