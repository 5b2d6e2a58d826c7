/**
 * Work proportional to the change: what one generate() call rendered, kept for the next call with the same memo,
 * so a ServiceMonitor changed among 10,000 costs one monitor's render and the files it lands in, not 20,000 jobs.
 *
 * Kept per input object, by identity (WeakMaps): the controller's caches hand out the same object until the API
 * server sends a new version of it, so "same object" means "same resourceVersion" and a changed object is simply a
 * miss. A new version whose `metadata.uid` and `metadata.generation` are those of a kept rendering is a hit too:
 * the API server moves a custom resource's generation with every change outside metadata and status, and a
 * rendering reads nothing of metadata but namespace, name and uid (fixed for a uid) — so promop's own status write
 * on a monitor (its binding) does not cost a render. Without that, the first change after a new Prometheus' binding
 * writes would render every monitor again, a full render where a change costs one monitor's. Objects without both
 * fields (read from files by `promop render`) are kept by identity only. What a rendering also depends on is
 * checked on every hit:
 * - the Prometheus-wide settings it was rendered with (its `settingsKey`: the Prometheus' spec and identity, the
 *   Prometheus version, and everything else generate() derives for all monitors or rules);
 * - each Secret and ConfigMap key it read, with the outcome of that read (value, missing, or problem): a changed
 *   password is a miss for exactly the monitors that read it.
 * Nothing else goes in: renderings are pure functions of these. Downstream of the renderings, the YAML text of each
 * job (by job object) and each scrape file slot's text and file (while its jobs are the same objects in the same
 * order) are kept too, so a change re-serialises and re-hashes one slot, not the whole configuration. The property test in render-memo.property.test.ts
 * checks that output with a memo is byte-identical to output without one over random sequences of changes.
 *
 * A memo belongs to one Prometheus (the controller keeps one per Prometheus key); sharing it between Prometheus
 * objects is correct but misses every time their settings differ. Memory: one entry per live monitor and rule
 * (dead objects are collected with their WeakMap keys) plus the YAML text of each job, about what the output holds.
 */
import { compareCodePoints } from './go-map-order.ts';
import { ResultsByPosition } from './by-position.ts';
import { oncePerObject } from './per-object.ts';
import type { KeyLookup, KeyReference, SecretStore } from './secret-store.ts';

/** Monitors whose home slot is kept; past it the map starts again (deleted monitors' entries go with it). */
const MAX_HOME_SLOTS = 200_000;

/** Settings keys remembered for settingsKey(); past it the map starts again. */
const MAX_SETTINGS_KEYS = 16;

/** Objects whose rendering is also kept by uid; past it the map starts again (deleted objects' entries go with it). */
const MAX_BY_UID = 200_000;

/** One Secret or ConfigMap key a rendering read, and what the read gave. */
interface KeyRead {
  kind: 'Secret' | 'ConfigMap';
  namespace: string;
  ref: KeyReference;
  path: string;
  outcome: string;
}

interface Entry<T> {
  settingsKey: string;
  reads: readonly KeyRead[];
  value: T;
}

/** The uid and generation of an API object, when it has both (every custom resource the API server hands out does). */
function versionOf(object: object): { uid: string; generation: number } | undefined {
  const metadata = (object as { metadata?: { uid?: unknown; generation?: unknown } }).metadata;
  return typeof metadata?.uid === 'string' && metadata.uid !== '' && typeof metadata.generation === 'number'
    ? { uid: metadata.uid, generation: metadata.generation }
    : undefined;
}

/** Hits and misses since the memo was made (for tests and the benchmark). */
export interface RenderMemoStats {
  hits: number;
  misses: number;
}

/**
 * What the renderers may reuse, and the one seam through which they ask for it: generate() hands every renderer a
 * RenderCache — the caller's RenderMemo, which keeps things from one call to the next, or a cache for this call
 * alone (callCache()) — so no renderer has a path of its own for "no memo", and the output cannot depend on which one
 * it was given except through what RenderMemo documents above.
 */
export interface RenderCache {
  /** The key of the settings `describe()` gives, for comparing renderings; computed only by a cache that keeps them. */
  settings(describe: () => unknown): string;
  rendering<T>(object: object, settingsKey: string, secrets: SecretStore | undefined, render: (secrets: SecretStore | undefined) => T): T;
  renderings<T extends object, R>(list: string, objects: readonly T[], settingsKey: string, secrets: SecretStore | undefined, render: (object: T, secrets: SecretStore | undefined) => R): R[];
  atPositions<T, R>(list: string, objects: readonly T[], context: string, compute: (object: T) => R, stillValid?: (kept: R) => boolean): R[];
  sequence<T>(key: string, parts: readonly object[], build: () => T): T;
  forgetUnusedSequences(): void;
  homeSlots(slots: number, compute: (owner: string, slots: number) => number): (owner: string) => number;
  derived<T>(from: object, build: () => T): T;
  sortedBy<T extends object>(list: string, objects: readonly T[], keyOf: (object: T) => string): T[];
  serialised<T extends object, R>(value: T, serialise: (value: T) => R): R;
}

/**
 * A RenderCache for one generate() call (`promop render`, tests, a caller without a memo): nothing is kept past the
 * call, but within it a job is still serialised once and a monitor's home slot hashed once, as the files need both
 * several times.
 */
export function callCache(): RenderCache {
  const serialised = new WeakMap<object, unknown>();
  return {
    settings: () => '',
    rendering: (_object, _settingsKey, secrets, render) => render(secrets),
    renderings: (_list, objects, _settingsKey, secrets, render) => objects.map((object) => render(object, secrets)),
    atPositions: (_list, objects, _context, compute) => objects.map(compute),
    sequence: (_key, _parts, build) => build(),
    forgetUnusedSequences: () => {},
    homeSlots: (slots, compute) => {
      const homes = new Map<string, number>();
      return (owner) => {
        let slot = homes.get(owner);
        if (slot === undefined) homes.set(owner, (slot = compute(owner, slots)));
        return slot;
      };
    },
    derived: (_from, build) => build(),
    sortedBy: (_list, objects, keyOf) => objects
      .map((object) => ({ object, key: keyOf(object) }))
      .sort((a, b) => compareCodePoints(a.key, b.key))
      .map((entry) => entry.object),
    serialised: <T extends object, R>(value: T, serialise: (value: T) => R): R => oncePerObject(serialised, value, () => serialise(value)) as R,
  };
}

/** Renderings kept between generate() calls; pass the same instance as `GeneratorInput.memo`. */
export class RenderMemo implements RenderCache {
  readonly #renderings = new WeakMap<object, Entry<unknown>>();
  readonly #renderingsByUid = new Map<string, { generation: number; entry: Entry<unknown> }>();
  readonly #serialised = new WeakMap<object, unknown>();
  readonly #sequences = new Map<string, { parts: readonly object[]; value: unknown }>();
  /** The keys sequence() was asked for since the last forgetUnusedSequences(). */
  readonly #sequencesAsked = new Set<string>();
  readonly #homeSlots = new Map<number, Map<string, number>>();
  readonly #derived = new WeakMap<object, unknown>();
  readonly #settingsKeys = new Map<string, string>();
  readonly #sortKeys = new WeakMap<object, string>();
  readonly #orders = new Map<string, { length: number; positions: Map<string, number>; inputs: readonly object[]; inputPositions: Int32Array }>();
  readonly #byPosition = new ResultsByPosition();
  readonly stats: RenderMemoStats = { hits: 0, misses: 0 };

  /**
   * The rendering of `object` under `settingsKey`: the kept one when the object, the settings and every key it
   * read are unchanged, otherwise `render(secrets)` with a store that records what it reads. `secrets` is the
   * store of this generate() call (undefined for renderings that read no Secret, such as rule files).
   */
  rendering<T>(object: object, settingsKey: string, secrets: SecretStore | undefined, render: (secrets: SecretStore | undefined) => T): T {
    const byIdentity = this.#renderings.get(object) as Entry<T> | undefined;
    let kept = byIdentity;
    // Only a miss by identity needs the version (and a miss by both needs it to be kept by uid).
    const version = kept ? undefined : versionOf(object);
    if (version) {
      const byUid = this.#renderingsByUid.get(version.uid);
      if (byUid?.generation === version.generation) kept = byUid.entry as Entry<T>;
    }
    if (kept && kept.settingsKey === settingsKey && readsHold(kept.reads, secrets)) {
      this.stats.hits += 1;
      if (kept !== byIdentity) this.#renderings.set(object, kept);
      return kept.value;
    }
    this.stats.misses += 1;
    const reads: KeyRead[] = [];
    const value = render(secrets && recordingStore(secrets, reads));
    const entry = { settingsKey, reads, value };
    this.#renderings.set(object, entry);
    if (version) {
      if (this.#renderingsByUid.size >= MAX_BY_UID) this.#renderingsByUid.clear();
      this.#renderingsByUid.set(version.uid, { generation: version.generation, entry });
    }
    return value;
  }

  /**
   * `rendering()` of each of `objects` (one list, `list` naming it, e.g. the sorted selected ServiceMonitors), with
   * the same result, but an object at the position where the previous call with this `list` had the very same object
   * costs one comparison instead of a WeakMap lookup: a change among 10,000 monitors leaves 9,999 where they were.
   * The settings and the Secret keys read are checked as rendering() checks them.
   */
  renderings<T extends object, R>(list: string, objects: readonly T[], settingsKey: string, secrets: SecretStore | undefined, render: (object: T, secrets: SecretStore | undefined) => R): R[] {
    const entries = this.atPositions<T, Entry<R>>(`rendering|${list}`, objects, '', (object) => {
      this.rendering(object, settingsKey, secrets, (store) => render(object, store));
      return this.#renderings.get(object) as Entry<R>;
    }, (kept) => {
      if (kept.settingsKey !== settingsKey || !readsHold(kept.reads, secrets)) return false;
      this.stats.hits += 1;
      return true;
    });
    return entries.map((entry) => entry.value);
  }

  /** `compute(object)` for each of `objects`, reusing results by position (by-position.ts). */
  atPositions<T, R>(list: string, objects: readonly T[], context: string, compute: (object: T) => R, stillValid?: (kept: R) => boolean): R[] {
    return this.#byPosition.results(list, objects, context, compute, stillValid);
  }

  /**
   * A value built from `parts` (rendered jobs, in order) under `key`: the kept one while the parts are the very
   * same objects in the same order, otherwise `build()`. One value per key: a scrape file slot's text, its file.
   */
  sequence<T>(key: string, parts: readonly object[], build: () => T): T {
    this.#sequencesAsked.add(key);
    const kept = this.#sequences.get(key) as { parts: readonly object[]; value: T } | undefined;
    if (kept && sameObjects(kept.parts, parts)) return kept.value;
    const value = build();
    this.#sequences.set(key, { parts, value });
    return value;
  }

  /**
   * Forgets every sequence value that sequence() was not asked for since the previous call of this method: what a
   * layout no longer used keeps (the file texts of another file count after the configuration grew or shrank past
   * one, the files of removed shards, all of them once the jobs are back inline). Call it once per generate(), after
   * the last sequence(); a value forgotten and wanted again later is built again.
   */
  forgetUnusedSequences(): void {
    for (const key of this.#sequences.keys()) if (!this.#sequencesAsked.has(key)) this.#sequences.delete(key);
    this.#sequencesAsked.clear();
  }

  /** The keys of the sequence values kept (for tests). */
  keptSequenceKeys(): string[] {
    return [...this.#sequences.keys()];
  }

  /**
   * The home slot of a monitor (`owner`) among `slots`, hashed once per owner; forgotten wholesale when the map
   * grows past its bound.
   */
  homeSlots(slots: number, compute: (owner: string, slots: number) => number): (owner: string) => number {
    let homes = this.#homeSlots.get(slots);
    if (!homes) this.#homeSlots.set(slots, (homes = new Map()));
    const kept = homes;
    return (owner) => {
      let slot = kept.get(owner);
      if (slot === undefined) {
        if (kept.size >= MAX_HOME_SLOTS) kept.clear();
        slot = compute(owner, slots);
        kept.set(owner, slot);
      }
      return slot;
    };
  }

  settings(describe: () => unknown): string {
    return this.settingsKey(settingsKeyOf(describe()));
  }

  /**
   * `key` as the instance this memo saw last time it was equal: every kept rendering is then checked against it
   * by reference, not by comparing a long settings text 10,000 times per call.
   */
  settingsKey(key: string): string {
    const known = this.#settingsKeys.get(key);
    if (known !== undefined) return known;
    if (this.#settingsKeys.size >= MAX_SETTINGS_KEYS) this.#settingsKeys.clear();
    this.#settingsKeys.set(key, key);
    return key;
  }

  /** A value derived from `from` alone (a scrape file from its slot's text), built once per object. */
  derived<T>(from: object, build: () => T): T {
    return oncePerObject(this.#derived, from, build) as T;
  }

  /**
   * `objects` sorted by `keyOf` (code point order), as a plain sort would give them. `list` names the sequence (one
   * per kind). When the keys are those of the previous call — objects replaced by new versions, none added or
   * removed, the common change — each object goes where its key went last time, without sorting 10,000 again. Keys
   * must be unique within a list (namespace/name is).
   */
  sortedBy<T extends object>(list: string, objects: readonly T[], keyOf: (object: T) => string): T[] {
    const keyFor = (object: T): string => oncePerObject(this.#sortKeys, object, () => keyOf(object));
    const previous = this.#orders.get(list);
    if (previous && previous.length === objects.length) {
      const sorted: T[] = new Array<T>(objects.length);
      const inputPositions = new Int32Array(objects.length);
      let placed = 0;
      for (let index = 0; index < objects.length; index += 1) {
        const object = objects[index]!;
        // The very object at the same input position as last time goes where it went (no key to look up).
        const position = previous.inputs[index] === object ? previous.inputPositions[index] : previous.positions.get(keyFor(object));
        if (position === undefined || sorted[position] !== undefined) break;
        sorted[position] = object;
        inputPositions[index] = position;
        placed += 1;
      }
      if (placed === objects.length) {
        this.#orders.set(list, { ...previous, inputs: objects.slice(), inputPositions });
        return sorted;
      }
    }
    const entries = objects.map((object, index) => ({ object, index, key: keyFor(object) })).sort((a, b) => compareCodePoints(a.key, b.key));
    const inputPositions = new Int32Array(objects.length);
    entries.forEach((entry, position) => { inputPositions[entry.index] = position; });
    const positions = new Map(entries.map((entry, index) => [entry.key, index]));
    // Kept only when the keys are unique: with two objects of one key, placing one by identity and the other by key
    // could swap them against the stable sort.
    if (positions.size === entries.length) this.#orders.set(list, { length: entries.length, positions, inputs: objects.slice(), inputPositions });
    else this.#orders.delete(list);
    return entries.map((entry) => entry.object);
  }

  /** `value` (a rendered scrape job, never mutated once rendered) serialised, once. */
  serialised<T extends object, R>(value: T, serialise: (value: T) => R): R {
    return oncePerObject(this.#serialised, value, () => serialise(value)) as R;
  }
}

/**
 * A key for "everything shared by all renderings of one kind": JSON with object keys sorted, functions left out
 * (they are derived from fields that are in the key). Used once per generate() call per kind.
 */
export function settingsKeyOf(settings: unknown): string {
  return JSON.stringify(settings, (_key, value: unknown) => {
    if (typeof value === 'function') return undefined;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, (value as Record<string, unknown>)[key]]));
  });
}

/** Whether every key read gives what it gave when the rendering was made (most renderings read none). */
function readsHold(reads: readonly KeyRead[], secrets: SecretStore | undefined): boolean {
  for (const read of reads) {
    if (secrets === undefined || outcomeOf(secrets, read) !== read.outcome) return false;
  }
  return true;
}

/** Whether two lists hold the very same objects in the same order. */
function sameObjects(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** `secrets` with every lookup also written to `reads`. */
function recordingStore(secrets: SecretStore, reads: KeyRead[]): SecretStore {
  const recording = Object.create(secrets) as SecretStore;
  recording.secretKey = (namespace, ref, path) => record(reads, 'Secret', namespace, ref, path, secrets.secretKey(namespace, ref, path));
  recording.configMapKey = (namespace, ref, path) => record(reads, 'ConfigMap', namespace, ref, path, secrets.configMapKey(namespace, ref, path));
  return recording;
}

function record(reads: KeyRead[], kind: KeyRead['kind'], namespace: string, ref: KeyReference, path: string, lookup: KeyLookup): KeyLookup {
  reads.push({ kind, namespace, ref: { ...ref }, path, outcome: lookupOutcome(lookup) });
  return lookup;
}

function outcomeOf(secrets: SecretStore, read: KeyRead): string {
  const lookup = read.kind === 'Secret' ? secrets.secretKey(read.namespace, read.ref, read.path) : secrets.configMapKey(read.namespace, read.ref, read.path);
  return lookupOutcome(lookup);
}

/** A lookup as one comparable string (kept in memory only, like the values themselves). */
function lookupOutcome(lookup: KeyLookup): string {
  return lookup.ok ? (lookup.value === undefined ? 'absent' : `value:${lookup.value}`) : `problem:${lookup.problem.path}:${lookup.problem.message}`;
}
