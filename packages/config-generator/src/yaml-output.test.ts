import { load } from 'js-yaml';
import { toPrometheusYaml } from './yaml-output.ts';

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
