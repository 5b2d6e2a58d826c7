/**
 * `spec.otlp` → the `otlp` section: prometheus-operator's key order and version handling (fields newer than the
 * Prometheus dropped with a warning, a translation strategy it lacks refused), and what Prometheus refuses when it
 * loads the file refused at its path. Goldens under test/golden/prometheus/ (`UPDATE_GOLDEN=1` rewrites them); every
 * configuration rendered here also passes the real promtool.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Prometheus, PrometheusAgent } from '@promop/crds';
import { runPromtool } from '@promop/testkit';
import { refusedProblems, topLevelSection } from '../test-support/config-sections.ts';
import { generate } from '../generate.ts';
import type { GeneratorInput, GeneratorOutput } from '../model.ts';
import { expectGoldenFile } from '../test-support/golden-file.ts';
import { promtoolCheckConfigs } from '../test-support/scrape-harness.ts';

const GOLDEN_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'golden', 'prometheus');

function prometheus(spec: Record<string, unknown>): Prometheus {
  return { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { namespace: 'monitoring', name: 'main' }, spec } as Prometheus;
}

function input(workload: Prometheus | PrometheusAgent): GeneratorInput {
  return { prometheus: workload, serviceMonitors: [], podMonitors: [], prometheusRules: [], namespaces: [{ name: 'monitoring', labels: {} }], secrets: [], configMaps: [] };
}

/** Every configuration rendered by the cases below, checked by promtool at the end. */
const rendered: string[] = [];

function render(spec: Record<string, unknown>): GeneratorOutput {
  const output = generate(input(prometheus(spec)));
  expect(output.prometheusProblems).toEqual([]);
  rendered.push(output.configs[0] ?? '');
  return output;
}

function problems(spec: Record<string, unknown>): string[] {
  return refusedProblems(generate(input(prometheus(spec))));
}

/** The `otlp` section of a configuration, as text (from its key to the next top-level key). */
function otlpSection(config: string): string {
  return topLevelSection(config, 'otlp');
}

const EVERY_FIELD = {
  promoteResourceAttributes: ['service.name', 'k8s.namespace.name'],
  translationStrategy: 'NoUTF8EscapingWithSuffixes',
  keepIdentifyingResourceAttributes: true,
  convertHistogramsToNHCB: false,
  promoteScopeMetadata: true,
  labelNameUnderscoreSanitization: false,
  labelNamePreserveMultipleUnderscores: true,
};

describe('spec.otlp on the newest Prometheus', () => {
  it('becomes the otlp section in upstream key order, after remote write', () => {
    const output = render({ otlp: EVERY_FIELD, remoteWrite: [{ url: 'http://rw.example.com/push' }] });
    expectGoldenFile(GOLDEN_DIR, 'otlp.yaml', output.configs[0] ?? '');
    expect(output.prometheusWarnings).toEqual([]);
  });

  it('promotes every resource attribute but the ignored ones', () => {
    const output = render({ otlp: { promoteAllResourceAttributes: true, ignoreResourceAttributes: ['process.pid', 'os.type'] } });
    expect(otlpSection(output.configs[0] ?? '')).toBe('otlp:\n  promote_all_resource_attributes: true\n  ignore_resource_attributes:\n  - process.pid\n  - os.type\n');
  });

  it('writes no section for an empty otlp, and the default strategy as written', () => {
    expect(otlpSection(render({ otlp: {} }).configs[0] ?? '')).toBe('');
    expect(otlpSection(render({ otlp: { translationStrategy: 'UnderscoreEscapingWithoutSuffixes' } }).configs[0] ?? '')).toBe('otlp:\n  translation_strategy: UnderscoreEscapingWithoutSuffixes\n');
  });

  it('is rendered for a PrometheusAgent too, and promtool --agent accepts it', async () => {
    const agent = { apiVersion: 'monitoring.coreos.com/v1alpha1', kind: 'PrometheusAgent', metadata: { namespace: 'monitoring', name: 'agent' }, spec: { otlp: { translationStrategy: 'NoTranslation', promoteScopeMetadata: true } } } as PrometheusAgent;
    const output = generate(input(agent));
    expect(output.prometheusProblems).toEqual([]);
    expect(otlpSection(output.configs[0] ?? '')).toBe('otlp:\n  translation_strategy: NoTranslation\n  promote_scope_metadata: true\n');
    const dir = mkdtempSync(join(tmpdir(), 'promop-otlp-'));
    try {
      writeFileSync(join(dir, 'agent.yaml'), output.configs[0] ?? '');
      const result = await runPromtool(['check', 'config', '--agent', '--syntax-only', join(dir, 'agent.yaml')]);
      expect({ code: result.code, output: result.code === 0 ? '' : result.stdout + result.stderr }).toEqual({ code: 0, output: '' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('spec.otlp on an older Prometheus', () => {
  it('keeps what 2.55 has and drops the rest with a warning each (as upstream)', () => {
    const output = render({ version: 'v2.55.1', otlp: { ...EVERY_FIELD, translationStrategy: 'UnderscoreEscapingWithSuffixes', promoteAllResourceAttributes: false } });
    expectGoldenFile(GOLDEN_DIR, 'otlp-v2.55.yaml', output.configs[0] ?? '');
    expect(output.prometheusWarnings).toEqual([
      'spec.otlp.translationStrategy: ignored because Prometheus v2.55.1 does not support "translation_strategy" (needs v3.0.0 or later)',
      'spec.otlp.keepIdentifyingResourceAttributes: ignored because Prometheus v2.55.1 does not support "keep_identifying_resource_attributes" (needs v3.1.0 or later)',
      'spec.otlp.convertHistogramsToNHCB: ignored because Prometheus v2.55.1 does not support "convert_histograms_to_nhcb" (needs v3.4.0 or later)',
      'spec.otlp.promoteAllResourceAttributes: ignored because Prometheus v2.55.1 does not support "promote_all_resource_attributes" (needs v3.5.0 or later)',
      'spec.otlp.promoteScopeMetadata: ignored because Prometheus v2.55.1 does not support "promote_scope_metadata" (needs v3.6.0 or later)',
      'spec.otlp.labelNameUnderscoreSanitization: ignored because Prometheus v2.55.1 does not support "label_name_underscore_sanitization" (needs v3.8.0 or later)',
      'spec.otlp.labelNamePreserveMultipleUnderscores: ignored because Prometheus v2.55.1 does not support "label_name_preserve_multiple_underscores" (needs v3.8.0 or later)',
    ]);
  });

  it('writes each field from the release that has it', () => {
    const keys = (version: string) => otlpSection(render({ version, otlp: EVERY_FIELD }).configs[0] ?? '').split('\n').filter((line) => /^ {2}\w/.test(line)).map((line) => line.trim().split(':')[0]);
    expect(keys('v3.0.0')).toEqual(['promote_resource_attributes', 'translation_strategy']);
    expect(keys('v3.1.0')).toEqual(['promote_resource_attributes', 'translation_strategy', 'keep_identifying_resource_attributes']);
    expect(keys('v3.4.0')).toEqual(['promote_resource_attributes', 'translation_strategy', 'keep_identifying_resource_attributes', 'convert_histograms_to_nhcb']);
    expect(keys('v3.6.0')).toEqual(['promote_resource_attributes', 'translation_strategy', 'keep_identifying_resource_attributes', 'convert_histograms_to_nhcb', 'promote_scope_metadata']);
    expect(keys('v3.8.0')).toHaveLength(7);
  });

  it('before 3.5, drops promoteAllResourceAttributes and ignoreResourceAttributes instead of judging them together (as upstream)', () => {
    const output = render({ version: 'v3.4.2', otlp: { promoteAllResourceAttributes: true, promoteResourceAttributes: ['service.name'], ignoreResourceAttributes: ['a'] } });
    expect(otlpSection(output.configs[0] ?? '')).toBe('otlp:\n  promote_resource_attributes:\n  - service.name\n');
    expect(output.prometheusWarnings).toHaveLength(2);
  });
});

describe('spec.otlp that prometheus-operator or Prometheus refuses', () => {
  it('is refused on a Prometheus older than 2.55', () => {
    expect(problems({ version: 'v2.54.1', otlp: { promoteResourceAttributes: ['service.name'] } })).toEqual(['spec.otlp: needs Prometheus 2.55.0 or later (this Prometheus is v2.54.1)']);
  });

  it('refuses a translation strategy the Prometheus does not have yet, rather than changing every name', () => {
    expect(problems({ version: 'v3.3.1', otlp: { translationStrategy: 'NoTranslation' } })).toEqual([
      'spec.otlp.translationStrategy: "NoTranslation" needs Prometheus 3.4.0 or later (this Prometheus is v3.3.1)',
    ]);
    expect(problems({ version: 'v3.5.0', otlp: { translationStrategy: 'UnderscoreEscapingWithoutSuffixes' } })).toEqual([
      'spec.otlp.translationStrategy: "UnderscoreEscapingWithoutSuffixes" needs Prometheus 3.6.0 or later (this Prometheus is v3.5.0)',
    ]);
    expect(problems({ otlp: { translationStrategy: 'Underscores' } })).toEqual([
      'spec.otlp.translationStrategy: must be one of UnderscoreEscapingWithSuffixes, NoUTF8EscapingWithSuffixes, NoTranslation, UnderscoreEscapingWithoutSuffixes, not "Underscores"',
    ]);
  });

  it('refuses a strategy keeping UTF-8 names beside nameValidationScheme Legacy', () => {
    for (const strategy of ['NoUTF8EscapingWithSuffixes', 'NoTranslation']) {
      expect(problems({ nameValidationScheme: 'Legacy', otlp: { translationStrategy: strategy } })).toEqual([
        `spec.otlp.translationStrategy: "${strategy}" keeps UTF-8 names, which nameValidationScheme "Legacy" does not allow (Prometheus refuses the pair)`,
      ]);
    }
    expect(otlpSection(render({ nameValidationScheme: 'Legacy', otlp: { translationStrategy: 'UnderscoreEscapingWithSuffixes' } }).configs[0] ?? '')).toBe(
      'otlp:\n  translation_strategy: UnderscoreEscapingWithSuffixes\n',
    );
  });

  it('refuses both ways of promoting resource attributes at once, and ignored attributes without promoting all', () => {
    expect(problems({ otlp: { promoteAllResourceAttributes: true, promoteResourceAttributes: ['service.name'] } })).toEqual([
      'spec.otlp.promoteResourceAttributes: cannot be set when promoteAllResourceAttributes is true (use ignoreResourceAttributes to leave some out)',
    ]);
    expect(problems({ otlp: { promoteAllResourceAttributes: false, ignoreResourceAttributes: ['process.pid'] } })).toEqual([
      'spec.otlp.ignoreResourceAttributes: can only be set when promoteAllResourceAttributes is true',
    ]);
  });

  it('refuses an attribute that is blank or listed twice once Prometheus trims it', () => {
    expect(problems({ otlp: { promoteResourceAttributes: ['service.name', ' ', 'service.name '] } })).toEqual([
      'spec.otlp.promoteResourceAttributes[1]: must not be empty or only spaces',
      'spec.otlp.promoteResourceAttributes[2]: "service.name" is already listed at [0]; Prometheus refuses an attribute listed twice',
    ]);
    expect(problems({ otlp: { promoteAllResourceAttributes: true, ignoreResourceAttributes: ['os.type', 'os.type'] } })).toEqual([
      'spec.otlp.ignoreResourceAttributes[1]: "os.type" is already listed at [0]; Prometheus refuses an attribute listed twice',
    ]);
  });

  it('what promop refuses here, Prometheus refuses too (promtool, on the unchecked rendering)', async () => {
    const refusedByPrometheus = [
      'otlp:\n  promote_all_resource_attributes: true\n  promote_resource_attributes: [a]\n',
      'otlp:\n  ignore_resource_attributes: [a]\n',
      'otlp:\n  promote_resource_attributes: [a, " a"]\n',
      'global:\n  metric_name_validation_scheme: legacy\notlp:\n  translation_strategy: NoTranslation\n',
    ];
    for (const config of refusedByPrometheus) expect({ config, code: (await promtoolCheckConfigs([config])).code }).toEqual({ config, code: 1 });
  });
});

describe('every configuration rendered above', () => {
  it('passes the real promtool check config', async () => {
    expect(rendered.length).toBeGreaterThanOrEqual(10);
    const result = await promtoolCheckConfigs(rendered);
    expect({ code: result.code, output: result.code === 0 ? '' : result.stdout + result.stderr }).toEqual({ code: 0, output: '' });
  });
});
