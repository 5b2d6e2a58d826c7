import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderCrdFiles } from './crd-files.ts';
import { crdManifests } from './crd-manifest.ts';

const CRDS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'crds');
/** kubectl's client-side apply stores the object in an annotation, and annotations are limited to 256 KiB. */
const ANNOTATION_LIMIT = 262_144;

describe('crds/', () => {
  const rendered = renderCrdFiles();

  it('holds exactly the generated files (run `pnpm --filter @promop/crds gen:crds` when this fails)', () => {
    const committed = readdirSync(CRDS_DIR).filter((name) => name.endsWith('.yaml')).sort();
    expect(committed).toEqual([...rendered.keys()].sort());
    for (const [name, text] of rendered) expect({ name, text: readFileSync(join(CRDS_DIR, name), 'utf8') }).toEqual({ name, text });
  });

  // Client-side `kubectl apply` stores the object as compact JSON in the last-applied annotation, whose limit this is;
  // the YAML file's own size limits nothing (the AlertmanagerConfig's deep nesting makes its YAML three times its JSON).
  it.each([...rendered.entries()])('%s stays below half the 262,144-byte annotation limit as client-side apply stores it', (name, text) => {
    const crd = crdManifests().find((c) => name.includes(c.spec.names.plural));
    const jsonBytes = Buffer.byteLength(JSON.stringify(crd));
    console.log(`${name}: ${Buffer.byteLength(text)} bytes of YAML, ${jsonBytes} bytes of JSON (what client-side apply stores)`);
    expect(jsonBytes).toBeLessThanOrEqual(ANNOTATION_LIMIT / 2);
  });
});

/** Every schema node of a CRD, with its path, so the structural-schema rules can be checked one by one. */
function schemaNodes(schema: Record<string, unknown>, path = ''): [string, Record<string, unknown>][] {
  const nodes: [string, Record<string, unknown>][] = [[path, schema]];
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [name, child] of Object.entries(properties ?? {})) nodes.push(...schemaNodes(child, `${path}.${name}`));
  for (const key of ['items', 'additionalProperties', 'not'] as const) {
    const child = schema[key];
    if (child && typeof child === 'object' && !Array.isArray(child)) nodes.push(...schemaNodes(child as Record<string, unknown>, `${path}/${key}`));
  }
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[key] as Record<string, unknown>[] | undefined;
    branches?.forEach((branch, i) => nodes.push(...schemaNodes(branch, `${path}/${key}/${i}`)));
  }
  return nodes;
}

describe.each(crdManifests().map((crd) => [crd.spec.names.kind, crd] as const))('the %s CRD', (kind, crd) => {
  const version = crd.spec.versions[0];
  const nodes = schemaNodes(version?.schema.openAPIV3Schema ?? {});

  it('is namespaced, in group monitoring.coreos.com, category prometheus-operator, with a status subresource', () => {
    expect(crd.spec.group).toBe('monitoring.coreos.com');
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.names.categories).toEqual(['prometheus-operator']);
    // One served and stored version: v1, but v1alpha1 for ScrapeConfig, PrometheusAgent and AlertmanagerConfig (as
    // prometheus-operator serves them; it also serves AlertmanagerConfig as v1beta1, which promop does not yet).
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([[['ScrapeConfig', 'PrometheusAgent', 'AlertmanagerConfig'].includes(kind) ? 'v1alpha1' : 'v1', true, true]]);
    expect(version?.subresources.status).toEqual({});
  });

  it('is a structural schema: no $ref, definitions, patternProperties, uniqueItems, null types or array-form items', () => {
    const offending = nodes.filter(([, node]) =>
      '$ref' in node || 'definitions' in node || 'patternProperties' in node || node.uniqueItems === true ||
      node.type === 'null' || Array.isArray(node.items) || ('additionalProperties' in node && 'properties' in node));
    expect(offending.map(([path]) => path)).toEqual([]);
  });

  it('has no type, default or nullable inside allOf/anyOf/oneOf/not except the int-or-string alternatives', () => {
    const offending = nodes.filter(([path, node]) => /\/(allOf|anyOf|oneOf|not)/.test(path) &&
      ('default' in node || 'nullable' in node || ('type' in node && !/\/anyOf\/[01]$/.test(path))));
    expect(offending.map(([path]) => path)).toEqual([]);
  });

  it('pairs every anyOf with x-kubernetes-int-or-string', () => {
    const anyOfs = nodes.filter(([, node]) => 'anyOf' in node);
    for (const [, node] of anyOfs) expect(node).toMatchObject({ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] });
  });

  it('names the short name prometheus-operator uses', () => {
    expect(crd.spec.names.shortNames).toEqual([{ Prometheus: 'prom', PrometheusAgent: 'promagent', Alertmanager: 'am', ThanosRuler: 'ruler', ServiceMonitor: 'smon', PodMonitor: 'pmon', Probe: 'prb', ScrapeConfig: 'scfg', PrometheusRule: 'promrule', AlertmanagerConfig: 'amcfg' }[kind]]);
  });
});

describe('the Prometheus CRD', () => {
  const crd = crdManifests().find((c) => c.spec.names.kind === 'Prometheus');

  it('scales shards, as prometheus-operator does', () => {
    expect(crd?.spec.versions[0]?.subresources.scale).toEqual({
      specReplicasPath: '.spec.shards',
      statusReplicasPath: '.status.shards',
      labelSelectorPath: '.status.selector',
    });
  });

  it('shows version, desired and ready pods, the two conditions and age', () => {
    expect(crd?.spec.versions[0]?.additionalPrinterColumns.filter((c) => !c.priority).map((c) => c.name)).toEqual(['Version', 'Desired', 'Ready', 'Reconciled', 'Available', 'Age']);
  });
});

describe('monitor and rule CRDs', () => {
  it.each(['ServiceMonitor', 'PodMonitor', 'PrometheusRule'])('%s shows how many Prometheus objects accepted and rejected it', (kind) => {
    const crd = crdManifests().find((c) => c.spec.names.kind === kind);
    expect(crd?.spec.versions[0]?.additionalPrinterColumns.filter((c) => !c.priority).map((c) => `${c.name}=${c.jsonPath}`)).toEqual([
      'Accepted=.status.acceptedBy',
      'Rejected=.status.rejectedBy',
      'Age=.metadata.creationTimestamp',
    ]);
  });

  it('shows a monitor\'s targets up and active and a rule\'s failing rules, with their Healthy reason, in -o wide', () => {
    const wide = (kind: string) => crdManifests().find((c) => c.spec.names.kind === kind)?.spec.versions[0]?.additionalPrinterColumns.filter((c) => c.priority === 1).map((c) => c.name);
    expect(wide('ServiceMonitor')).toEqual(['Up', 'Targets', 'Health']);
    expect(wide('ScrapeConfig')).toEqual(['Up', 'Targets', 'Health']);
    expect(wide('PrometheusRule')).toEqual(['Failing', 'Health']);
    expect(wide('AlertmanagerConfig')).toEqual([]);
  });
});
