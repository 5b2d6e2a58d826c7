/**
 * Fuzzed objects through the whole reconcile path: the real API server (it applies the CRD schemas and stores what
 * it accepts), the operator (watch → queue → reconcile → generate → children, statuses, Events) running as the
 * chart's ServiceAccount. The objects are drawn with a fixed seed from the same schema-derived arbitraries as the
 * generator property (valid ones and hostile mutations), in namespaces holding the planted Secrets.
 *
 * What must hold: every stored monitor and rule gets a binding from the Prometheus (Accepted True, or False with a
 * field path and a reason), every Prometheus a Reconciled condition; no reconcile fails with a programming error;
 * no planted Secret value appears in any status, Event or log line.
 */
import { CoreV1Api, CustomObjectsApi, EventsV1Api, type KubeConfig } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { applyCrds, untilServed, sharedTestEnv, eventually, serviceAccountIdentity } from '@promop/testkit';
import { OPERATOR_CLUSTER_ROLE_RULES, Operator } from '@promop/controller';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { createLogger } from '@promop/controller/observability/log-format';
import { userObject } from './fuzz-properties.ts';
import { leakedSecretIn, PLANTED_SECRET_DATA } from './planted-secrets.ts';
import { FUZZ_NAMESPACES } from './schema-arbitrary.ts';

const SEED = 20261201;
const id = randomBytes(3).toString('hex');
const OPERATOR_NS = `fuzz-promop-${id}`;
/** The fuzzed objects' namespaces (team-a, team-b, monitoring) made unique to this run. */
const namespaceOf = (fuzzNamespace: string): string => `fuzz-${fuzzNamespace}-${id}`;
const MONITORING = namespaceOf('monitoring');
const INSTANCE_LABEL = { 'promop.test/fuzz': id };
/** How many objects of each kind are drawn (objects the API server refuses are counted, not retried). */
const DRAWN: Readonly<Record<string, number>> = { ServiceMonitor: 10, PodMonitor: 6, Probe: 4, PrometheusRule: 8, Prometheus: 2 };

type Condition = { type: string; status: string; reason?: string; message?: string };
type Stored = { kind: string; metadata: { name: string; namespace: string }; status?: { conditions?: Condition[]; bindings?: Array<{ name: string; namespace?: string; conditions?: Condition[] }> } };

let admin: KubeConfig;
let custom: CustomObjectsApi;
let operator: Operator | undefined;
const logLines: string[] = [];
const created: Array<{ kind: string; namespace: string; name: string }> = [];
const refusedByApiServer: string[] = [];

const plural = (kind: string): string => (PLURALS as Readonly<Record<string, string>>)[kind] ?? '';
const read = (kind: string, namespace: string, name: string) =>
  custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: plural(kind), namespace, name }) as Promise<Stored>;

/** The object as drawn, moved into this run's namespaces under a unique name; undefined when too big to send. */
function placed(object: Record<string, unknown>, kind: string, index: number): Record<string, unknown> | undefined {
  const metadata = object.metadata as { namespace: string; labels?: Record<string, string> };
  const body = { ...object, metadata: { name: `${kind.toLowerCase()}-${index}`, namespace: namespaceOf(metadata.namespace), labels: { ...metadata.labels, ...INSTANCE_LABEL } } };
  // etcd takes requests up to 1.5 MiB; the million-character strings are the generator property's business.
  return JSON.stringify(body).length > 256 * 1024 ? undefined : body;
}

beforeAll(async () => {
  admin = sharedTestEnv().kubeConfig();
  custom = admin.makeApiClient(CustomObjectsApi);
  const core = admin.makeApiClient(CoreV1Api);
  await applyCrds(admin);
  await core.createNamespace({ body: { metadata: { name: OPERATOR_NS } } });
  for (const namespace of FUZZ_NAMESPACES) {
    await core.createNamespace({ body: { metadata: { name: namespaceOf(namespace), labels: INSTANCE_LABEL } } });
    for (const name of ['creds', 'tls', 'fuzz']) {
      await core.createNamespacedSecret({ namespace: namespaceOf(namespace), body: { metadata: { name }, stringData: { ...PLANTED_SECRET_DATA } } });
    }
    await core.createNamespacedConfigMap({ namespace: namespaceOf(namespace), body: { metadata: { name: 'ca' }, data: { 'ca.crt': PLANTED_SECRET_DATA['ca.crt'] ?? '', garbage: 'not a certificate' } } });
  }
  const everything = { matchLabels: INSTANCE_LABEL };
  const main = {
    apiVersion: `${GROUP}/${VERSION}`, kind: 'Prometheus', metadata: { name: 'main', namespace: MONITORING, labels: INSTANCE_LABEL },
    spec: {
      replicas: 1, serviceMonitorSelector: {}, serviceMonitorNamespaceSelector: everything, podMonitorSelector: {}, podMonitorNamespaceSelector: everything,
      probeSelector: {}, probeNamespaceSelector: everything, ruleSelector: {}, ruleNamespaceSelector: everything,
    },
  };
  await untilServed(() => custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: plural('Prometheus'), namespace: MONITORING, body: main }));
  created.push({ kind: 'Prometheus', namespace: MONITORING, name: 'main' });

  for (const [kind, count] of Object.entries(DRAWN)) {
    if (!plural(kind)) continue; // a kind the API does not serve yet
    const objects = fc.sample(userObject(kind), { numRuns: count, seed: SEED });
    for (const [index, object] of objects.entries()) {
      const body = placed(object, kind, index);
      if (!body) continue;
      const { namespace, name } = body.metadata as { namespace: string; name: string };
      try {
        await custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: plural(kind), namespace, body });
        created.push({ kind, namespace, name });
      } catch (error) {
        refusedByApiServer.push(`${kind} ${namespace}/${name}: ${String((error as { body?: unknown }).body ?? error).slice(0, 300)}`);
      }
    }
  }

  // The operator's own rules, as the Helm chart installs them (see the controller's test-support/operator-identity.ts).
  const kc = await serviceAccountIdentity(admin, { namespace: OPERATOR_NS, serviceAccount: 'promop', clusterRole: `promop-fuzz-${id}`, rules: OPERATOR_CLUSTER_ROLE_RULES });
  const log = createLogger({ level: 'debug', format: 'json', write: (line) => void logLines.push(line) });
  operator = new Operator({ kubeConfig: kc, log, prometheusSelector: `promop.test/fuzz=${id}`, alertmanagerSelector: `promop.test/fuzz=${id}`, thanosRulerSelector: `promop.test/fuzz=${id}`, workers: 2, reloadTimeoutMs: 1_000 });
  await operator.start();
}, 120_000);

afterAll(async () => {
  await operator?.stop();
});

describe('fuzzed monitors, rules and Prometheus objects stored by the API server and reconciled by promop', () => {
  it('the API server stored most of them (they are valid for the CRD schemas)', () => {
    expect(created.length).toBeGreaterThan(20);
    expect(refusedByApiServer.length).toBeLessThan(created.length / 4);
  });

  it('every monitor and rule gets a binding from the Prometheus: accepted, or rejected with a field path and a reason', async () => {
    const candidates = created.filter((object) => object.kind !== 'Prometheus');
    const bindingOf = (stored: Stored) => stored.status?.bindings?.find((b) => b.name === 'main' && b.namespace === MONITORING)?.conditions?.find((c) => c.type === 'Accepted');
    const all = await eventually(
      () => Promise.all(candidates.map((object) => read(object.kind, object.namespace, object.name))),
      (stored) => stored.every((object) => bindingOf(object) !== undefined),
      90_000,
      500,
    );
    const missing = all.filter((object) => bindingOf(object) === undefined).map((object) => `${object.kind} ${object.metadata.namespace}/${object.metadata.name}`);
    expect(missing).toEqual([]);
    const rejected = all.map(bindingOf).filter((condition) => condition?.status === 'False');
    // `<path>: <sentence>` (values are quoted as written, so a sentence may span lines).
    for (const condition of rejected) expect(condition?.message).toMatch(/^spec[.[][^\n]*?: [\s\S]*\w+\s+\w+/);
    // The seed draws both outcomes, or this test would not be testing much.
    expect(rejected.length).toBeGreaterThan(0);
    expect(all.map(bindingOf).filter((condition) => condition?.status === 'True').length).toBeGreaterThan(0);
  }, 120_000);

  it('every Prometheus gets a Reconciled condition, and no reconcile failed with a programming error', async () => {
    const prometheuses = created.filter((object) => object.kind === 'Prometheus');
    const reconciled = (stored: Stored) => stored.status?.conditions?.find((c) => c.type === 'Reconciled');
    const all = await eventually(
      () => Promise.all(prometheuses.map((object) => read(object.kind, object.namespace, object.name))),
      (stored) => stored.every((object) => reconciled(object) !== undefined),
      90_000,
      500,
    );
    expect(all.filter((object) => !reconciled(object)).map((object) => object.metadata.name)).toEqual([]);
    for (const object of all) {
      const condition = reconciled(object);
      if (condition?.status === 'False' && condition.reason === 'ReconciliationFailed') expect(condition.message).toMatch(/spec[.[]/);
    }
    const programmingErrors = logLines.filter((line) => /TypeError|RangeError|ReferenceError|SyntaxError|is not a function|Cannot read properties/.test(line));
    expect(programmingErrors.slice(0, 3)).toEqual([]);
  }, 120_000);

  it('no planted Secret value is in any status, Event or log line', async () => {
    const statuses = await Promise.all(created.map(async (object) => JSON.stringify((await read(object.kind, object.namespace, object.name)).status ?? {})));
    const events = await Promise.all(FUZZ_NAMESPACES.map(async (namespace) => JSON.stringify((await admin.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace: namespaceOf(namespace) })).items)));
    const leaks = [...statuses, ...events, ...logLines].map(leakedSecretIn).filter((leak) => leak !== undefined);
    expect(leaks.slice(0, 3)).toEqual([]);
    expect(events.join('').length).toBeGreaterThan(100); // Warning Events were written, so the check read something
  });
});
