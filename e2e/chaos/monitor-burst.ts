/**
 * The teams' side of a scenario: ServiceMonitors and PrometheusRules in the team namespaces, created, changed and
 * deleted at random (a seeded generator, so a failure can be replayed), and a model of what must be true once
 * promop has caught up: every live monitor's job is in the config with its latest port, every live rule in the
 * rule files with its latest expression, and nothing of a deleted one.
 */
import { PatchStrategy, setHeaderOptions, type CustomObjectsApi } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { TEAMS } from './chaos-cluster.ts';

/** One monitor or rule of the model; `generation` is what its latest change wrote. */
interface Tracked {
  kind: 'ServiceMonitor' | 'PrometheusRule';
  namespace: string;
  name: string;
  /** Stable index, part of the port name or metric label. */
  index: number;
  generation: number;
  live: boolean;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same burst. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The port name a ServiceMonitor's endpoint uses at `generation`: the change is visible in the rendered job. */
const portName = (index: number, generation: number): string => `p${index}-g${generation}`;
/** The alert expression of a rule at `generation`. */
const ruleExpr = (index: number, generation: number): string => `chaos_metric{rule="r${index}",gen="${generation}"} > 0`;

/** Teams changing their monitoring, and what promop must show for it. */
export class MonitorBurst {
  readonly #custom: CustomObjectsApi;
  readonly #random: () => number;
  readonly #tracked: Tracked[] = [];
  /** Changes applied so far. */
  changes = 0;
  /** `servicemonitors team-0/sm-1` of every object changed since the last takeTouched(). */
  #touched = new Set<string>();

  constructor(custom: CustomObjectsApi, seed: number) {
    this.#custom = custom;
    this.#random = seededRandom(seed);
  }

  /** Creates `count` ServiceMonitors and `count` PrometheusRules spread over the team namespaces. */
  async seed(count: number): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      await this.#create('ServiceMonitor');
      await this.#create('PrometheusRule');
    }
  }

  /** One random change: mostly updates, some creates and deletes (a deleted object may be created again). */
  async change(): Promise<void> {
    const roll = this.#random();
    const kind = this.#random() < 0.5 ? 'ServiceMonitor' : 'PrometheusRule';
    const candidates = this.#tracked.filter((t) => t.kind === kind);
    const pick = candidates[Math.floor(this.#random() * candidates.length)];
    if (roll < 0.15 || !pick) await this.#create(kind);
    else if (roll < 0.25) await (pick.live ? this.#delete(pick) : this.#recreate(pick));
    else await (pick.live ? this.#update(pick) : this.#recreate(pick));
    this.changes += 1;
  }

  /** Applies `count` changes in sequence; `between(i)` runs before change i (a scenario's fault points). */
  async burst(count: number, between: (i: number) => Promise<void> | void = () => {}): Promise<void> {
    for (let i = 0; i < count; i += 1) {
      await between(i);
      await this.change();
    }
  }

  /** The objects created, changed or deleted since the last call, as `servicemonitors namespace/name` (the audit log's resource). */
  takeTouched(): Set<string> {
    const touched = this.#touched;
    this.#touched = new Set();
    return touched;
  }

  /** How many live objects of each kind the model holds. */
  liveCount(kind: Tracked['kind']): number {
    return this.#tracked.filter((t) => t.kind === kind && t.live).length;
  }

  /**
   * What the config and rule files lack or wrongly hold compared to the model (empty when promop lost nothing):
   * `config` is the text of the config Secrets, `rules` of the rule ConfigMaps.
   */
  differences(config: string, rules: string): string[] {
    const problems: string[] = [];
    for (const t of this.#tracked) {
      const label = `${t.kind} ${t.namespace}/${t.name}`;
      if (t.kind === 'ServiceMonitor') {
        const job = `serviceMonitor/${t.namespace}/${t.name}/0`;
        const hasJob = config.includes(`${job}\n`) || config.includes(`${job}"`) || config.includes(`${job}'`);
        if (t.live && !hasJob) problems.push(`${label}: no job ${job}`);
        if (!t.live && hasJob) problems.push(`${label}: deleted, but job ${job} is still configured`);
        if (t.live && !new RegExp(`\\b${portName(t.index, t.generation)}\\b`).test(config)) problems.push(`${label}: port ${portName(t.index, t.generation)} (generation ${t.generation}) not in the config`);
      } else {
        const current = ruleExpr(t.index, t.generation);
        const any = new RegExp(`rule="r${t.index}"`);
        if (t.live && !rules.includes(current)) problems.push(`${label}: expression of generation ${t.generation} not in the rule files`);
        if (!t.live && any.test(rules)) problems.push(`${label}: deleted, but its rule is still loaded`);
        if (t.live && (rules.match(new RegExp(`rule="r${t.index}"`, 'g'))?.length ?? 0) !== 1) problems.push(`${label}: not exactly one version in the rule files`);
      }
    }
    return problems;
  }

  async #create(kind: Tracked['kind']): Promise<void> {
    const index = this.#tracked.length;
    const namespace = TEAMS[index % TEAMS.length] as string;
    const tracked: Tracked = { kind, namespace, name: `${kind === 'ServiceMonitor' ? 'sm' : 'rule'}-${index}`, index, generation: 0, live: true };
    this.#tracked.push(tracked);
    this.#touch(tracked);
    await this.#custom.createNamespacedCustomObject({ ...this.#where(tracked), body: { apiVersion: `${GROUP}/${VERSION}`, kind, metadata: { name: tracked.name }, spec: specOf(tracked) } });
  }

  async #recreate(tracked: Tracked): Promise<void> {
    this.#touch(tracked);
    tracked.generation += 1;
    tracked.live = true;
    await this.#custom.createNamespacedCustomObject({ ...this.#where(tracked), body: { apiVersion: `${GROUP}/${VERSION}`, kind: tracked.kind, metadata: { name: tracked.name }, spec: specOf(tracked) } });
  }

  async #update(tracked: Tracked): Promise<void> {
    this.#touch(tracked);
    tracked.generation += 1;
    await this.#custom.patchNamespacedCustomObject(
      { ...this.#where(tracked), name: tracked.name, body: { spec: specOf(tracked) } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }

  async #delete(tracked: Tracked): Promise<void> {
    this.#touch(tracked);
    tracked.live = false;
    await this.#custom.deleteNamespacedCustomObject({ ...this.#where(tracked), name: tracked.name });
  }

  #touch(tracked: Tracked): void {
    this.#touched.add(`${this.#where(tracked).plural} ${tracked.namespace}/${tracked.name}`);
  }

  #where(tracked: Tracked) {
    return { group: GROUP, version: VERSION, namespace: tracked.namespace, plural: tracked.kind === 'ServiceMonitor' ? PLURALS.ServiceMonitor : PLURALS.PrometheusRule };
  }
}

function specOf(t: Tracked): object {
  if (t.kind === 'ServiceMonitor') return { selector: { matchLabels: { app: `app-${t.index}` } }, endpoints: [{ port: portName(t.index, t.generation) }] };
  return { groups: [{ name: `g${t.index}`, rules: [{ alert: `ChaosAlert${t.index}`, expr: ruleExpr(t.index, t.generation) }] }] };
}
