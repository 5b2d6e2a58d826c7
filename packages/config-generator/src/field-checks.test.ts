/**
 * Every string field of every CRD the generator renders either never reaches the configuration, or has an entry
 * in FIELD_CHECKS saying how it is checked (field-checks.ts). Each field gets a sentinel on a base object that is
 * accepted as it is (test-support/sentinel-render.ts); a field whose sentinel is found in prometheus.yaml, a scrape
 * file or a rule file "reaches" the configuration.
 */
import { BYTE_SIZE_PATTERN, DURATION_PATTERN } from '@promop/crds';
import { FIELD_CHECKS, pathPattern, type FieldCheck } from './field-checks.ts';
import { promtoolCheckConfigs } from './test-support/scrape-harness.ts';
import { allStringFields, reachOf, renderWith, sentinelsFor, type Reach, type RenderedKind } from './test-support/sentinel-render.ts';
import { pathSteps, withValueAt, type SchemaNode } from './test-support/string-field-walk.ts';

interface Walked {
  key: string;
  kind: RenderedKind;
  path: string;
  node: SchemaNode;
  reach: Reach;
}

/**
 * Fields whose every sentinel is refused, so the walk cannot tell whether they would reach the configuration, and
 * why that is fine.
 */
const REFUSED_SENTINELS: Readonly<Record<string, string>> = {
  '*.version': 'parsed as a Prometheus version; only its effects are written',
  '*.**matchExpressions[].operator': 'one of In, NotIn, Exists, DoesNotExist (selection/label-selector.ts); only its effect is written',
  'Prometheus*.nameEscapingScheme': 'one of AllowUTF8, Underscores, Dots, Values (prometheus/global-config.ts; ScrapeConfig\'s is a schema enum)',
  'Prometheus*.tracingConfig.samplingFraction': 'a quantity from 0 through 1 (prometheus/tracing-config.ts); only the number it stands for is written',
  'Prometheus*.shardingStrategy.topology.**': 'valid only beside mode Topology, which this walk does not set (prometheus/sharding.ts topologySharding: values[] must be label values, externalLabelName a label name; topology-sharding.test.ts)',
  'Prometheus*.tsdb.staleSeriesCompactionThreshold': 'a quantity from 0 through 1 (prometheus/storage-config.ts); only the number it stands for is written',
  '*.scrapeClass': 'must name a scrape class of the Prometheus; only the class\'s settings are written',
  '*.additional*Configs.*': 'the Secret key must hold a YAML list, which is written (checked in prometheus/additional-scrape-configs.ts and yaml-list-secret.ts)',
};

function walk(): Walked[] {
  return allStringFields().strings
    .filter((field) => sentinelsFor(field.node).length > 0)
    .map((field) => ({ key: field.key, kind: field.kind, path: field.path, node: field.node, reach: reachOf(field.kind, field) }));
}

function entriesFor(key: string): FieldCheck[] {
  return FIELD_CHECKS.filter((entry) => entry.paths.some((glob) => pathPattern(glob).test(key)));
}

describe('the string fields of every kind the generator renders', () => {
  const walked = walk();
  const reaching = walked.filter((field) => field.reach.reaches);

  it('reach the configuration in hundreds of places (the walk builds objects the generator accepts)', () => {
    expect(reaching.length).toBeGreaterThan(600);
    expect(reaching.map((field) => field.key)).toEqual(expect.arrayContaining([
      'ServiceMonitor.endpoints[].relabelings[].regex',
      'Prometheus.remoteWrite[].headers{key}',
      'PrometheusRule.groups[].rules[].annotations{}',
      'ScrapeConfig.consulSDConfigs[].filter',
      'PrometheusAgent.externalLabels{key}',
    ]));
  });

  it('each reach the configuration only with exactly one entry in FIELD_CHECKS saying how they are checked', () => {
    const unlisted = reaching.filter((field) => entriesFor(field.key).length === 0).map((field) => `${field.key} (reached with "${(field.reach as { value: string }).value}")`);
    const ambiguous = reaching.filter((field) => entriesFor(field.key).length > 1).map((field) => `${field.key}: ${entriesFor(field.key).map((entry) => entry.where).join(' | ')}`);
    expect({ unlisted, ambiguous }).toEqual({ unlisted: [], ambiguous: [] });
  });

  it('leave no entry of FIELD_CHECKS stale: every path pattern still matches a field that reaches the configuration', () => {
    const stale = FIELD_CHECKS.flatMap((entry) => entry.paths.filter((glob) => !reaching.some((field) => pathPattern(glob).test(field.key))));
    expect(stale).toEqual([]);
  });

  it('are durations and byte sizes in the schema wherever FIELD_CHECKS says so', () => {
    const wrong = reaching.flatMap((field) => {
      const [entry] = entriesFor(field.key);
      if (entry?.check === 'duration' && field.node.pattern !== DURATION_PATTERN) return [`${field.key} is not a duration`];
      if (entry?.check === 'byte-size' && field.node.pattern !== BYTE_SIZE_PATTERN) return [`${field.key} is not a byte size`];
      return [];
    });
    expect(wrong).toEqual([]);
  });

  it('are refused with the value an entry says its check rejects, at every path of the entry', () => {
    const accepted = reaching.flatMap((field) => {
      const [entry] = entriesFor(field.key);
      if (entry?.rejects === undefined || field.reach.reaches !== true) return [];
      return renderWith(field.kind, field.path, entry.rejects, field.reach.base).accepted ? [`${field.key} accepted "${entry.rejects}"`] : [];
    });
    expect(accepted).toEqual([]);
  });

  it('are still accepted by promop where an entry is unchecked, and refused by the real promtool (the gap is real and still open)', async () => {
    const unchecked = FIELD_CHECKS.filter((entry) => entry.check === 'unchecked');
    expect(unchecked.filter((entry) => entry.refusedByPrometheus === undefined).map((entry) => entry.paths)).toEqual([]);
    for (const field of reaching) {
      const [entry] = entriesFor(field.key);
      if (entry?.check !== 'unchecked' || entry.refusedByPrometheus === undefined || field.reach.reaches !== true) continue;
      const { output, accepted } = renderWith(field.kind, field.path, entry.refusedByPrometheus, field.reach.base);
      expect({ field: field.key, accepted }).toEqual({ field: field.key, accepted: true });
      const result = await promtoolCheckConfigs([output.configs[0] ?? '']);
      expect({ field: field.key, refused: result.code !== 0 }).toEqual({ field: field.key, refused: true });
    }
  });

  it('refuse every sentinel only where REFUSED_SENTINELS says why', () => {
    const refused = walked.filter((field) => !field.reach.reaches && field.reach.why === 'never accepted');
    const unexplained = refused.filter((field) => !Object.keys(REFUSED_SENTINELS).some((glob) => pathPattern(glob).test(field.key)));
    expect(unexplained.map((field) => `${field.key}: ${(field.reach as { reasons: string[] }).reasons[0]}`)).toEqual([]);
  });
});

describe('the walk itself', () => {
  it('names list items, map values and map keys', () => {
    expect(pathSteps('a.b[]{}{key}')).toEqual([{ field: 'a' }, { field: 'b' }, { item: true }, { mapValue: true }, { mapKey: true }]);
    const keys = allStringFields().strings.map((field) => field.key);
    expect(keys).toEqual(expect.arrayContaining(['ServiceMonitor.endpoints[].params{key}', 'ServiceMonitor.endpoints[].params{}[]', 'Prometheus.externalLabels{}']));
  });

  it('puts a value into the first item of a list the base already has, and builds what is missing', () => {
    const schema: SchemaNode = {
      type: 'object',
      properties: { list: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string' } } } } },
    };
    expect(withValueAt({ list: [{ name: 'a' }] }, schema, 'list[].value', 'v', () => undefined)).toEqual({ list: [{ name: 'a', value: 'v' }] });
    expect(withValueAt({}, schema, 'list[].value', 'v', () => undefined)).toEqual({ list: [{ name: 'x', value: 'v' }] });
  });

  it('reads glob paths as FIELD_CHECKS means them', () => {
    expect(pathPattern('*.**.tlsConfig.serverName').test('ServiceMonitor.endpoints[].tlsConfig.serverName')).toBe(true);
    expect(pathPattern('*.tlsConfig.serverName').test('ServiceMonitor.endpoints[].tlsConfig.serverName')).toBe(false);
    expect(pathPattern('*.**.tlsConfig.serverName').test('ScrapeConfig.tlsConfig.serverName')).toBe(true);
    expect(pathPattern('*.**.tlsConfig.serverName').test('ScrapeConfig.xtlsConfig.serverName')).toBe(false);
    expect(pathPattern('*.**.params{key}').test('ScrapeConfig.params{key}')).toBe(true);
  });
});
