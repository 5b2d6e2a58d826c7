/**
 * One child's write, skipped when the child is up to date (applied-hash.ts, known-contents.ts), with the keys another
 * manager added to maps promop owns removed (foreign-keys.ts). The children applier (children-applier.ts) decides
 * what to write and in which order; this says whether one object needs a request and makes it. Its memos are keyed by
 * object (weakly), so they live as long as the bodies and cached objects they describe.
 */
import type { V1ConfigMap, V1Secret } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import type { ChildKind, ChildOf, PartialObjectMetadata } from '../kube/index.ts';
import { appliedHashOf, isUpToDate, withAppliedHash } from './applied-hash.ts';
import { metadataOf, nameOf } from './child-metadata.ts';
import { describeForeignKeys, foreignKeysOf, removalPatch, type ForeignKeys } from './foreign-keys.ts';
import type { DataChildKind, KnownContents } from './known-contents.ts';
import type { ReconcilerCaches, ReconcilerChildren } from './reconciler-ports.ts';

export interface ChildWritesDependencies {
  caches: Pick<ReconcilerCaches, 'ownedSecrets' | 'ownedConfigMaps'>;
  /** Only what writing a child needs, so that a reconciler of another kind can use these writes too. */
  children: Pick<ReconcilerChildren, 'read' | 'writeSecret' | 'writeConfigMap' | 'mergePatch'>;
}

/** What a write left: the child as stored and whether the API server stored a change (its resourceVersion moved). */
export interface ChildWrite<T> {
  changed: boolean;
  stored: T;
}

export class ChildWrites {
  readonly #deps: ChildWritesDependencies;
  /** Bodies already given their applied-hash annotation, by body object: an unchanged scrape Secret is hashed once. */
  readonly #hashed = new WeakMap<object, object>();
  /**
   * Cached children found up to date with a body (by cached object, then body object): the 255 unchanged scrape
   * Secrets of a Prometheus are compared field by field once, not on every change of one monitor.
   */
  readonly #upToDate = new WeakMap<object, WeakSet<object>>();

  constructor(deps: ChildWritesDependencies) {
    this.#deps = deps;
  }

  /**
   * Applies one Service, StatefulSet or DaemonSet (watched whole) with its applied-hash annotation, unless the cached one is up
   * to date (applied-hash.ts: no request at all); returns it as stored and whether the API server stored a change
   * (its resourceVersion moved), which is logged.
   */
  async applyOne<K extends 'Service' | 'StatefulSet' | 'DaemonSet'>(kind: K, body: ChildOf<K>, cached: ChildOf<K> | undefined, apply: (body: ChildOf<K>) => Promise<ChildOf<K>>, log: Logger): Promise<ChildWrite<ChildOf<K>>> {
    const desired = this.#withHash(body);
    // Found up to date (and without foreign keys) before: the same cached object and body still are.
    if (cached && this.#upToDate.get(cached)?.has(desired)) return { changed: false, stored: cached };
    let stored: ChildOf<K>;
    try {
      const upToDate = cached !== undefined && isUpToDate(desired, cached);
      stored = upToDate ? cached : await apply(desired);
      const foreign = foreignKeysOf(kind, desired, stored);
      if (foreign.length > 0) {
        stored = await this.#removeForeignKeys(kind, stored.metadata?.namespace ?? '', nameOf(body), foreign, stored.metadata?.resourceVersion, log);
      } else if (upToDate) {
        let bodies = this.#upToDate.get(stored);
        if (!bodies) this.#upToDate.set(stored, (bodies = new WeakSet()));
        bodies.add(desired);
      }
    } catch (error) {
      if (error && typeof error === 'object') Object.assign(error, { child: `${kind} ${nameOf(body)}` });
      throw error;
    }
    const before = cached?.metadata?.resourceVersion;
    const after = stored.metadata?.resourceVersion;
    if (before === after) return { changed: false, stored };
    log.info({ child: kind, childName: nameOf(body) }, before === undefined ? 'child applied (created or not yet cached)' : 'child updated');
    return { changed: true, stored };
  }

  /**
   * Writes one Secret or ConfigMap whose data promop alone fills (prometheus.yaml, scrape files, rule files, TLS
   * assets) with its applied-hash annotation, unless it holds the body already; returns its metadata as stored and
   * whether the API server stored a change. Their cache holds metadata only, so what they hold is known from
   * promop's writes (known-contents.ts): the cached version is one promop wrote (or checked) with this body → no
   * request. Otherwise, when the cached version carries the body's applied-hash (written by an earlier promop, or
   * edited by someone since), it is read once and compared (applied-hash.ts): the same, it is noted; keys another
   * manager added to its data are removed with one patch (foreign-keys.ts); anything else is written over. (A key a
   * mutating webhook adds during promop's own write is not seen: that write is noted as holding promop's body.)
   */
  async writeData<K extends DataChildKind>(kind: K, body: ChildOf<K>, known: KnownContents, log: Logger): Promise<ChildWrite<PartialObjectMetadata>> {
    const { caches, children } = this.#deps;
    const namespace = body.metadata?.namespace ?? '';
    const name = nameOf(body);
    const cached = (kind === 'Secret' ? caches.ownedSecrets : caches.ownedConfigMaps).get(name, namespace);
    const desired = this.#withHash(body);
    const hash = appliedHashOf(desired) ?? '';
    if (known.holds(kind, cached, hash)) return { changed: false, stored: cached as PartialObjectMetadata };
    let stored: PartialObjectMetadata;
    try {
      let current = cached;
      if (cached && appliedHashOf(cached) === hash) {
        const whole = await children.read(kind, namespace, name);
        if (whole && isUpToDate(desired, whole)) {
          const foreign = foreignKeysOf(kind, desired, whole);
          if (foreign.length === 0) {
            known.note(kind, whole.metadata, hash);
            return { changed: false, stored: metadataOf(whole) };
          }
          const patched = await this.#removeForeignKeys(kind, namespace, name, foreign, whole.metadata?.resourceVersion, log);
          known.note(kind, patched.metadata, hash);
          return { changed: true, stored: metadataOf(patched) };
        }
        current = whole ? metadataOf(whole) : undefined;
      }
      stored = kind === 'Secret' ? await children.writeSecret(desired as V1Secret, current) : await children.writeConfigMap(desired as V1ConfigMap, current);
    } catch (error) {
      if (error && typeof error === 'object') Object.assign(error, { child: `${kind} ${name}` });
      throw error;
    }
    // promop's write sends the whole data: the version it stored holds exactly this body.
    known.note(kind, stored.metadata, hash);
    const before = cached?.metadata?.resourceVersion;
    if (before === stored.metadata?.resourceVersion) return { changed: false, stored };
    log.info({ child: kind, childName: name }, before === undefined ? 'child applied (created or not yet cached)' : 'child updated');
    return { changed: true, stored };
  }

  /**
   * Removes the keys another manager added to maps promop owns entirely (foreign-keys.ts) with one merge patch,
   * guarded by the `resourceVersion` they were found in (a 409 retries the reconcile from fresh data), and says so
   * in the log; returns the child as stored.
   */
  async #removeForeignKeys<K extends ChildKind>(kind: K, namespace: string, name: string, foreign: readonly ForeignKeys[], resourceVersion: string | undefined, log: Logger): Promise<ChildOf<K>> {
    const patched = await this.#deps.children.mergePatch(kind, namespace, name, removalPatch(foreign, resourceVersion));
    log.info({ child: kind, childName: name, removed: describeForeignKeys(foreign) }, 'keys another manager added to a map promop owns removed');
    return patched;
  }

  /** `body` with its applied-hash annotation, hashed once per body object (an unchanged scrape Secret is not hashed again). */
  #withHash<T extends object>(body: T): T {
    let desired = this.#hashed.get(body) as T | undefined;
    if (!desired) this.#hashed.set(body, (desired = withAppliedHash(body)));
    return desired;
  }
}
