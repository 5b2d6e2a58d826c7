/**
 * What the operator's API-server tests for one kind share, so each test file says only what is particular to it:
 * its namespaces on the shared control plane, the operator's identity with the chart's rules (operatorIdentity), a
 * Prometheus, the operator started with its log captured, and reads of what the operator wrote (the config text, a
 * resource's binding condition, its Warning Events).
 */
import { CoreV1Api, CustomObjectsApi, EventsV1Api, type EventsV1Event, type KubeConfig, type V1Secret } from '@kubernetes/client-node';
import { API_VERSIONS, GROUP, PLURALS, type Kind } from '@promop/crds';
import { applyCrds, untilServed, sharedTestEnv } from '@promop/testkit';
import { pino } from 'pino';
import { Operator, type OperatorOptions } from '../operator.ts';
import { operatorIdentity } from './operator-identity.ts';

/** A condition of a binding or of a Prometheus' status, as the tests read it. */
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

/** A monitor, Probe, ScrapeConfig or rule object as far as its status bindings go. */
export interface BoundResource {
  metadata?: { generation?: number };
  status?: { acceptedBy?: number; rejectedBy?: number; bindings?: { resource?: string; name: string; namespace?: string; conditions?: Condition[] }[] };
}

/**
 * The condition `type` (default Accepted) of `resource`'s binding to Prometheus `namespace/name` (or to the
 * PrometheusAgent, with `prometheus.resource: 'prometheusagents'`).
 */
export function bindingCondition(resource: BoundResource, prometheus: { namespace: string; name: string; resource?: string }, type = 'Accepted'): Condition | undefined {
  const binding = resource.status?.bindings?.find((b) => b.name === prometheus.name && (b.namespace === undefined || b.namespace === prometheus.namespace) &&
    (prometheus.resource === undefined || b.resource === prometheus.resource));
  return binding?.conditions?.find((c) => c.type === type);
}

/** The text of `key` (default prometheus.yaml) of a config Secret. */
export function configTextOf(secret: V1Secret, key = 'prometheus.yaml'): string {
  return Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');
}

/** Namespaces to create, each with its labels. */
export type NamespaceLabels = Record<string, Record<string, string>>;

/** The shared control plane as one test file uses it: its namespaces, its operator and what it reads back. */
export class OperatorWorld {
  readonly core: CoreV1Api;
  readonly custom: CustomObjectsApi;
  /** Every log line of the operator (to check that no Secret value reaches the log). */
  readonly logLines: string[] = [];
  #operator: Operator | undefined;

  readonly admin: KubeConfig;
  /** Whom the operator talks as: the ServiceAccount with the chart's rules. */
  readonly operatorKubeConfig: KubeConfig;

  private constructor(admin: KubeConfig, operatorKubeConfig: KubeConfig) {
    this.admin = admin;
    this.operatorKubeConfig = operatorKubeConfig;
    this.core = admin.makeApiClient(CoreV1Api);
    this.custom = admin.makeApiClient(CustomObjectsApi);
  }

  /**
   * Installs the CRDs, creates `operatorNamespace` and `namespaces`, and the operator's identity named
   * `identity` (unique per test file: its ClusterRole and binding are cluster-wide).
   */
  static async create(options: { operatorNamespace: string; identity: string; namespaces: NamespaceLabels }): Promise<OperatorWorld> {
    const admin = sharedTestEnv().kubeConfig();
    const core = admin.makeApiClient(CoreV1Api);
    await applyCrds(admin);
    for (const [name, labels] of Object.entries({ [options.operatorNamespace]: {}, ...options.namespaces })) {
      await core.createNamespace({ body: { metadata: { name, labels } } });
    }
    return new OperatorWorld(admin, await operatorIdentity(admin, options.operatorNamespace, options.identity));
  }

  /** Creates a Secret of string values. */
  async createSecret(namespace: string, name: string, stringData: Record<string, string>): Promise<void> {
    await this.core.createNamespacedSecret({ namespace, body: { metadata: { name }, stringData } });
  }

  /**
   * Creates an object of one of promop's kinds at the version the kind is served at. The first object of a kind
   * right after the CRDs are applied may meet a 404 until the kind is served: `untilServed` retries that.
   */
  async createObject(kind: Kind, namespace: string, name: string, spec: object, labels: Record<string, string> = {}): Promise<void> {
    const version = API_VERSIONS[kind];
    await untilServed(() => this.custom.createNamespacedCustomObject({
      group: GROUP, version, plural: PLURALS[kind], namespace,
      body: { apiVersion: `${GROUP}/${version}`, kind, metadata: { name, labels }, spec },
    }));
  }

  /** Reads an object of one of promop's kinds. */
  async readObject<T = BoundResource>(kind: Kind, namespace: string, name: string): Promise<T> {
    return (await this.custom.getNamespacedCustomObject({ group: GROUP, version: API_VERSIONS[kind], plural: PLURALS[kind], namespace, name })) as T;
  }

  /** The config text of Prometheus `namespace/name` (its config Secret `prometheus-<name>`). */
  async configText(namespace: string, name: string): Promise<string> {
    return configTextOf(await this.core.readNamespacedSecret({ namespace, name: `prometheus-${name}` }));
  }

  /** The Warning Events about object `kind/name` in `namespace`. */
  async warningEvents(namespace: string, kind: Kind, name: string): Promise<EventsV1Event[]> {
    const events = await this.admin.makeApiClient(EventsV1Api).listNamespacedEvent({ namespace });
    return events.items.filter((e) => e.type === 'Warning' && e.regarding?.kind === kind && e.regarding.name === name);
  }

  /** Starts the operator as the test identity, logging at debug into `logLines`. */
  async startOperator(options: Omit<OperatorOptions, 'kubeConfig' | 'log'> = {}): Promise<Operator> {
    const log = pino({ level: 'debug' }, { write: (line: string) => void this.logLines.push(line) });
    this.#operator = new Operator({ kubeConfig: this.operatorKubeConfig, log, workers: 2, ...options });
    await this.#operator.start();
    return this.#operator;
  }

  /** Stops the operator, if started. */
  async stop(): Promise<void> {
    await this.#operator?.stop();
  }
}
