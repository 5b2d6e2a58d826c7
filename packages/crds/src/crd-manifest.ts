/**
 * The CustomResourceDefinition objects, built from the same spec and status schemas as the types and validators.
 * crds/*.yaml is this output written by scripts/generate-crds.ts; a test fails when the two differ.
 */
import { GROUP } from './group.ts';
import { ALL_KINDS, API_VERSIONS, KINDS, PLURALS, type Kind, type KindRole, type WorkloadKind } from './kinds.ts';
import { KIND_SCHEMAS } from './resource-schemas.ts';

/** The shape of an apiextensions.k8s.io/v1 CustomResourceDefinition, as far as promop writes one. */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; labels: Record<string, string> };
  spec: {
    group: string;
    names: { kind: string; listKind: string; plural: string; singular: string; shortNames: string[]; categories: string[] };
    scope: 'Namespaced';
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      schema: { openAPIV3Schema: Record<string, unknown> };
      subresources: Record<string, unknown>;
      additionalPrinterColumns: { name: string; type: string; jsonPath: string; description?: string; priority?: number }[];
    }[];
  };
}

type PrinterColumn = CustomResourceDefinition['spec']['versions'][number]['additionalPrinterColumns'][number];

const AGE_COLUMN: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

/**
 * Columns of monitors, rules and AlertmanagerConfigs: how many of the workloads selecting them (Prometheus objects,
 * or Alertmanagers) accepted and rejected them (promop's status counts).
 */
const CONFIG_RESOURCE_COLUMNS: PrinterColumn[] = [
  { name: 'Accepted', type: 'integer', jsonPath: '.status.acceptedBy', description: 'Selecting workloads that accepted this object' },
  { name: 'Rejected', type: 'integer', jsonPath: '.status.rejectedBy', description: 'Selecting workloads that rejected this object' },
  AGE_COLUMN,
];

/**
 * With `-o wide`, what the health reporter wrote into the bindings (promop's `targets`, `rules` and Healthy
 * condition). A column shows one value, so these are the first binding's: the whole story with one Prometheus, and
 * `-o yaml` says it per Prometheus when there are several.
 */
const HEALTH_COLUMN: PrinterColumn = { name: 'Health', type: 'string', jsonPath: ".status.bindings[*].conditions[?(@.type == 'Healthy')].reason", priority: 1, description: 'Healthy reason of the first binding' };
const SCRAPE_RESOURCE_COLUMNS: PrinterColumn[] = [
  ...CONFIG_RESOURCE_COLUMNS,
  { name: 'Up', type: 'integer', jsonPath: '.status.bindings[*].targets.up', priority: 1, description: 'Targets up, in the first binding' },
  { name: 'Targets', type: 'integer', jsonPath: '.status.bindings[*].targets.active', priority: 1, description: 'Active targets, in the first binding' },
  HEALTH_COLUMN,
];
const RULE_RESOURCE_COLUMNS: PrinterColumn[] = [
  ...CONFIG_RESOURCE_COLUMNS,
  { name: 'Failing', type: 'integer', jsonPath: '.status.bindings[*].rules.failing', priority: 1, description: 'Rules whose last evaluation failed, in the first binding' },
  HEALTH_COLUMN,
];

/** The columns every workload kind shows after its own: readiness, the two conditions, age, and (wide) paused. */
const WORKLOAD_STATUS_COLUMNS: PrinterColumn[] = [
  { name: 'Ready', type: 'integer', jsonPath: '.status.availableReplicas', description: 'Available pods' },
  { name: 'Reconciled', type: 'string', jsonPath: ".status.conditions[?(@.type == 'Reconciled')].status" },
  { name: 'Available', type: 'string', jsonPath: ".status.conditions[?(@.type == 'Available')].status" },
  AGE_COLUMN,
  { name: 'Paused', type: 'boolean', jsonPath: '.status.paused', priority: 1, description: 'Whether reconciliation is paused' },
];

const PROMETHEUS_COLUMNS: PrinterColumn[] = [
  { name: 'Version', type: 'string', jsonPath: '.spec.version', description: 'Prometheus version' },
  { name: 'Desired', type: 'integer', jsonPath: '.spec.replicas', description: 'Desired pods per shard' },
  ...WORKLOAD_STATUS_COLUMNS,
];

/**
 * Turns a source schema into a structural CRD schema: `additionalProperties: false` beside `properties` is
 * dropped (structural schemas forbid it; the API server prunes unknown fields instead, and strict field
 * validation reports them). Everything else is copied as written.
 */
function toStructural(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toStructural);
  if (schema === null || typeof schema !== 'object') return schema;
  const source = schema as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'additionalProperties' && value === false && 'properties' in source) continue;
    // Under `properties` the keys are field names, not keywords; recurse into each field's schema.
    result[key] = toStructural(value);
  }
  return result;
}

interface KindDefinition {
  kind: Kind;
  shortName: string;
  spec: object;
  status: object;
  columns: PrinterColumn[];
  subresources: Record<string, unknown>;
}

const ALERTMANAGER_COLUMNS: PrinterColumn[] = [
  { name: 'Version', type: 'string', jsonPath: '.spec.version', description: 'Alertmanager version' },
  { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', description: 'Desired pods' },
  ...WORKLOAD_STATUS_COLUMNS,
];

const THANOS_RULER_COLUMNS: PrinterColumn[] = [
  { name: 'Version', type: 'string', jsonPath: '.spec.version', description: 'Thanos version' },
  { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', description: 'Desired pods' },
  ...WORKLOAD_STATUS_COLUMNS,
];

/** What a workload kind shows in `kubectl get` and how `kubectl scale` reaches it: each workload kind says its own. */
const WORKLOAD_PRESENTATION: Record<WorkloadKind, Pick<KindDefinition, 'columns' | 'subresources'>> = {
  // `kubectl scale` changes the number of shards, as in prometheus-operator (not replicas per shard).
  Prometheus: {
    columns: PROMETHEUS_COLUMNS,
    subresources: { status: {}, scale: { specReplicasPath: '.spec.shards', statusReplicasPath: '.status.shards', labelSelectorPath: '.status.selector' } },
  },
  PrometheusAgent: {
    columns: PROMETHEUS_COLUMNS,
    subresources: { status: {}, scale: { specReplicasPath: '.spec.shards', statusReplicasPath: '.status.shards', labelSelectorPath: '.status.selector' } },
  },
  // An Alertmanager is scaled by its replicas: they form one mesh.
  Alertmanager: {
    columns: ALERTMANAGER_COLUMNS,
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
  },
  // No scale subresource, as upstream's: each ruler pod evaluates every rule, so more pods are redundancy, not capacity.
  ThanosRuler: { columns: THANOS_RULER_COLUMNS, subresources: { status: {} } },
};


/**
 * Selected kinds (the teams' objects) all show how many workloads accepted and rejected them; monitors and rules
 * also their health, with `-o wide`.
 */
const SELECTED_PRESENTATION: Record<Exclude<KindRole, 'workload'>, Pick<KindDefinition, 'columns' | 'subresources'>> = {
  scrape: { columns: SCRAPE_RESOURCE_COLUMNS, subresources: { status: {} } },
  rules: { columns: RULE_RESOURCE_COLUMNS, subresources: { status: {} } },
  alerting: { columns: CONFIG_RESOURCE_COLUMNS, subresources: { status: {} } },
};

function definitionOf(kind: Kind): KindDefinition {
  const facts = KINDS[kind];
  const presentation = facts.role === 'workload' ? WORKLOAD_PRESENTATION[kind as WorkloadKind] : SELECTED_PRESENTATION[facts.role];
  return { kind, shortName: facts.shortName, ...KIND_SCHEMAS[kind], ...presentation };
}

function crdFor(definition: KindDefinition): CustomResourceDefinition {
  const plural = PLURALS[definition.kind];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${GROUP}`, labels: { 'app.kubernetes.io/part-of': 'promop' } },
    spec: {
      group: GROUP,
      names: {
        kind: definition.kind,
        listKind: `${definition.kind}List`,
        plural,
        singular: definition.kind.toLowerCase(),
        shortNames: [definition.shortName],
        categories: ['prometheus-operator'],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: API_VERSIONS[definition.kind],
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string', description: `API version of the object (${GROUP}/${API_VERSIONS[definition.kind]}).` },
                kind: { type: 'string', description: `Kind of the object (${definition.kind}).` },
                metadata: { type: 'object' },
                spec: toStructural(definition.spec),
                status: toStructural(definition.status),
              },
            },
          },
          subresources: definition.subresources,
          additionalPrinterColumns: definition.columns,
        },
      ],
    },
  };
}

/** The CustomResourceDefinitions promop serves: one per kind of the registry, in its order. */
export function crdManifests(): CustomResourceDefinition[] {
  return ALL_KINDS.map((kind) => crdFor(definitionOf(kind)));
}
