/**
 * Generated cases (fast-check, reproducible by seed): Probes and ScrapeConfigs from their schemas (the fuzz suite's
 * schema-derived arbitraries, e2e/fuzz/schema-arbitrary.ts, references into the planted Secrets), ServiceMonitors and
 * PodMonitors from the generator's monitor arbitraries, and a Prometheus with a few of the settings that change how
 * jobs are written. ScrapeConfig discovery kinds promop does not render are removed: promop rejects them by design
 * (docs/compatibility.md), so they would only hide the rest of the object.
 */
import fc from 'fast-check';
import { UNRENDERED_SD_FIELDS } from '@promop/crds/schemas/scrape-config';
import { probeSchema, scrapeConfigSchema } from '@promop/crds/resource-schemas';
import { podMonitorArbitrary, serviceMonitorArbitrary } from '@promop/config-generator/test-support';
import { FUZZ_REFERENCES } from '@promop/e2e/fuzz/planted-secrets';
import { schemaArbitrary, type SchemaNode } from '@promop/e2e/fuzz/schema-arbitrary';
import type { CaseObject, CompatCase } from './case.ts';

const specOf = (schema: SchemaNode): fc.Arbitrary<Record<string, unknown>> =>
  schemaArbitrary(schema, { references: FUZZ_REFERENCES }).map((object) => object.spec as Record<string, unknown>);

// A prober and targets (a Probe needs both) and static targets (a ScrapeConfig without any scrapes nothing) unless
// the drawn spec has its own, so that most generated objects become jobs on both sides.
const probeSpec = specOf(probeSchema as unknown as SchemaNode).map((spec) => ({ prober: { url: 'blackbox:9115' }, targets: { staticConfig: { static: ['a.example.com'] } }, ...spec }));
const scrapeConfigSpec = specOf(scrapeConfigSchema as unknown as SchemaNode).map((spec) => ({
  staticConfigs: [{ targets: ['a:80'] }],
  ...Object.fromEntries(Object.entries(spec).filter(([key]) => !(UNRENDERED_SD_FIELDS as readonly string[]).includes(key))),
}));

const scrapeClass = fc.record(
  {
    name: fc.constantFrom('c1', 'c2'),
    default: fc.boolean(),
    relabelings: fc.constant([{ targetLabel: 'cluster', replacement: 'x' }]),
    metricRelabelings: fc.constant([{ sourceLabels: ['__name__'], regex: 'drop_.*', action: 'drop' }]),
    tlsConfig: fc.constant({ insecureSkipVerify: true }),
    authorization: fc.constant({ credentials: { name: 'creds', key: 'token' } }),
    attachMetadata: fc.record({ node: fc.boolean() }),
  },
  { requiredKeys: ['name'] },
);

/** The Prometheus-wide settings that change how monitors are rendered. */
const prometheusSpec: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    version: fc.constantFrom('v2.45.0', 'v2.55.1', 'v3.5.0', 'v3.16.0'),
    shards: fc.integer({ min: 1, max: 3 }),
    enforcedNamespaceLabel: fc.constantFrom('namespace', 'tenant'),
    enforcedSampleLimit: fc.integer({ min: 1, max: 1000 }),
    enforcedTargetLimit: fc.integer({ min: 1, max: 100 }),
    enforcedLabelLimit: fc.integer({ min: 1, max: 100 }),
    enforcedBodySizeLimit: fc.constantFrom('1MB', '100MB'),
    enforcedKeepDroppedTargets: fc.integer({ min: 0, max: 10 }),
    overrideHonorLabels: fc.boolean(),
    overrideHonorTimestamps: fc.boolean(),
    ignoreNamespaceSelectors: fc.boolean(),
    serviceDiscoveryRole: fc.constantFrom('Endpoints', 'EndpointSlice'),
    scrapeTimeout: fc.constantFrom('10s', '30s'),
    sampleLimit: fc.integer({ min: 0, max: 1000 }),
    keepDroppedTargets: fc.integer({ min: 0, max: 10 }),
    scrapeClasses: fc.uniqueArray(scrapeClass, { maxLength: 2, selector: (c) => c.name }).filter((classes) => classes.filter((c) => c.default).length <= 1),
  },
  { requiredKeys: [] },
);

const named = (kind: CaseObject['kind'], apiVersion: string, index: number, spec: Record<string, unknown>): CaseObject => ({
  apiVersion,
  kind,
  metadata: { name: `${kind.toLowerCase()}-${index}` },
  spec,
});

const compatCase = fc.record({
  prometheusSpec,
  probes: fc.array(probeSpec, { maxLength: 2 }),
  scrapeConfigs: fc.array(scrapeConfigSpec, { maxLength: 2 }),
  serviceMonitors: fc.array(serviceMonitorArbitrary, { maxLength: 1 }),
  podMonitors: fc.array(podMonitorArbitrary, { maxLength: 1 }),
});

/** `count` cases drawn with `seed`; each has at least one object. */
export function generatedCases(count: number, seed: number): CompatCase[] {
  if (count <= 0) return [];
  return fc.sample(compatCase.filter((c) => c.probes.length + c.scrapeConfigs.length + c.serviceMonitors.length + c.podMonitors.length > 0), { numRuns: count, seed })
    .map((drawn, index) => ({
      name: `generated-${index}`,
      prometheusSpec: drawn.prometheusSpec,
      objects: [
        ...drawn.probes.map((spec, i) => named('Probe', 'monitoring.coreos.com/v1', i, spec)),
        ...drawn.scrapeConfigs.map((spec, i) => named('ScrapeConfig', 'monitoring.coreos.com/v1alpha1', i, spec)),
        ...drawn.serviceMonitors.map((monitor, i) => named('ServiceMonitor', 'monitoring.coreos.com/v1', i, monitor.spec as Record<string, unknown>)),
        ...drawn.podMonitors.map((monitor, i) => named('PodMonitor', 'monitoring.coreos.com/v1', i, monitor.spec as Record<string, unknown>)),
      ],
    }));
}
