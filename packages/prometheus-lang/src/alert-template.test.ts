import { readPrometheusVersion } from './prometheus-version.ts';
import { findAlertTemplateError } from './alert-template.ts';

const V3_16 = readPrometheusVersion('v3.16.0')!;

function verdict(text: string, version = V3_16): string {
  return findAlertTemplateError(text, 'HighErrorRate', version)?.message ?? 'ok';
}

describe('alert labels and annotations, parsed as Prometheus parses them', () => {
  it.each([
    '{{ $labels.instance }} is down',
    '{{ $value | humanizePercentage }} of requests fail',
    '{{ printf "%.2f" $value }}',
    '{{ if gt $value 1.0 }}high{{ else }}low{{ end }}',
    '{{ range $name, $value := $labels }}{{ $name }}={{ $value }} {{ end }}',
    '{{ with query "up" }}{{ . | first | value }}{{ end }}',
    '{{ $externalLabels.cluster }} {{ $externalURL }}',
    '{{- $value -}}',
    '{{/* a comment */}}plain text',
    '{{ define "x" }}ok{{ end }}{{ template "x" . }}',
    'no template at all: {{ not }} is fine',
    '{{ toDuration 60 }} {{ now }} {{ urlQueryEscape "a b" }}',
  ])('accepts %j', (text) => {
    expect(verdict(text)).toBe('ok');
  });

  it.each([
    ['{{ $labels.instance }', 'unexpected "}" in operand'],
    ['{{ $labels.instance ', 'unclosed action'],
    ['{{ if $value }}high', 'unexpected EOF'],
    ['{{ end }}', 'unexpected {{end}}'],
    ['{{ else }}', 'unexpected {{else}}'],
    ['{{ humanise $value }}', 'function "humanise" not defined'],
    ['{{ $lables.instance }}', 'undefined variable "$lables"'],
    ['{{ 1 | 2 }}', 'non executable command in pipeline stage 2'],
    ['{{ (1 }}', 'unclosed left paren'],
    ['{{ break }}', '{{break}} outside {{range}}'],
    ['{{ define "x" }}{{ $labels }}{{ end }}', 'undefined variable "$labels"'],
    ['{{ define "__alert_HighErrorRate" }}x{{ end }}', 'template: multiple definition of template "__alert_HighErrorRate"'],
    ['{{/* unclosed }}', 'unclosed comment'],
    ["{{ 'ab' }}", "malformed character constant: 'ab'"],
    ['{{ 99999999999999999999 }}', 'integer overflow: "99999999999999999999"'],
  ])('refuses %j: %s', (text, message) => {
    expect(verdict(text)).toBe(message);
  });

  it('knows which template functions the Prometheus release has', () => {
    expect(verdict('{{ urlQueryEscape "a" }}', readPrometheusVersion('v3.7.0')!)).toBe('function "urlQueryEscape" not defined');
    expect(verdict('{{ stripPort "a:1" }}', readPrometheusVersion('v2.45.0')!)).toBe('ok');
  });

  it('refuses a template nested thousands of levels deep instead of crashing', () => {
    expect(verdict(`${'{{ if 1 }}'.repeat(20_000)}${'{{ end }}'.repeat(20_000)}`)).toBe('nested too deeply for promop to check (thousands of levels)');
  });

  it('reports positions within the text the user wrote', () => {
    expect(findAlertTemplateError('ok {{ nope }}', 'A', V3_16)?.offset).toBe(6);
  });
});
