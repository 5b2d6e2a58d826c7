/**
 * `promop run --manage-crds` (default): before the caches list, promop makes sure its CustomResourceDefinitions
 * exist and are at least as new as its own, then waits until the API server serves them (Established).
 *
 * What "its own" and "older" mean: every CRD promop ships carries `promop.prometheus.io/crd-revision` and
 * `promop.prometheus.io/crd-schema-hash` (packages/crds/src/crd-revision.ts), whether it came from crds/, the
 * chart or this installer. One is applied (server-side apply, field manager `promop`, forced) when it is absent,
 * when its revision is lower, when it has the same revision but another hash (a schema changed without a bump),
 * or when it is a promop CRD from before the annotations (label `app.kubernetes.io/part-of: promop`, no revision).
 * It is left as it is when its revision is higher (a newer promop wrote it: never downgrade; this promop's
 * validators still check what it reconciles) and when promop did not write it at all: prometheus-operator's CRDs
 * have the same group and names and a larger schema, and replacing them would prune fields from objects
 * prometheus-operator still serves (docs/compatibility.md).
 *
 * Every replica does this before leader election (a stand-by's caches need the CRDs too). It writes only when a
 * CRD is absent or older, so replicas of the same version write nothing after the first, and two that start at
 * once send the same apply twice, which is harmless.
 */
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import {
  CRD_PART_OF_LABEL, CRD_REVISION, CRD_REVISION_ANNOTATION, CRD_SCHEMA_HASH_ANNOTATION, revisionedCrdManifests, type CustomResourceDefinition,
} from '@promop/crds';
import type { Logger } from 'pino';
import { apiErrorOf, describeError, isNotFound } from './api-error.ts';
import { FIELD_MANAGER } from './field-manager.ts';
import { PATCH_TYPE, rawApiOf, type KubeAccess, type RawApi } from './raw-api.ts';

const crdPath = (name: string) => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${encodeURIComponent(name)}`;

/** What the installer does with one CRD. */
export type CrdAction =
  | { apply: true; reason: 'absent' | 'older revision' | 'same revision, other schema' | 'promop CRD without a revision' }
  | { apply: false; reason: 'current' | 'newer revision' | 'not promop\'s' };

/** The part of a stored CRD the decision reads. */
type StoredCrdMetadata = { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } };

/** Decides, from the stored CRD's annotations and labels alone, whether promop applies its own (see the file comment). */
export function crdAction(stored: StoredCrdMetadata | undefined, own: CustomResourceDefinition & { metadata: { annotations: Record<string, string> } }): CrdAction {
  if (!stored) return { apply: true, reason: 'absent' };
  const annotations = stored.metadata?.annotations ?? {};
  const revisionText = annotations[CRD_REVISION_ANNOTATION];
  if (revisionText === undefined) {
    return stored.metadata?.labels?.[CRD_PART_OF_LABEL] === 'promop' ? { apply: true, reason: 'promop CRD without a revision' } : { apply: false, reason: 'not promop\'s' };
  }
  const revision = Number(revisionText);
  // An unreadable revision is not promop's writing (promop writes a decimal integer): leave it alone.
  if (!/^\d+$/.test(revisionText) || !Number.isSafeInteger(revision)) return { apply: false, reason: 'not promop\'s' };
  if (revision > CRD_REVISION) return { apply: false, reason: 'newer revision' };
  if (revision < CRD_REVISION) return { apply: true, reason: 'older revision' };
  return annotations[CRD_SCHEMA_HASH_ANNOTATION] === own.metadata.annotations[CRD_SCHEMA_HASH_ANNOTATION]
    ? { apply: false, reason: 'current' }
    : { apply: true, reason: 'same revision, other schema' };
}

/** Options of {@link ensureCrds}. */
export interface EnsureCrdsOptions {
  log: Logger;
  /** How long to wait for every CRD to be Established (default 60 s). */
  timeoutMs?: number;
}

/** One CRD's outcome. */
export interface CrdOutcome {
  name: string;
  action: CrdAction;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Applies promop's CRDs where {@link crdAction} says so, then waits until every one is Established (whoever wrote
 * it). Rejects when the API server refuses an apply, when a CRD's names are not accepted (another CRD claims them)
 * or when they are not Established within the timeout: the caches could not list them, so `promop run` stops.
 * A 403 (a ServiceAccount without CRD_MANAGER_RULES: a chart from before them with a newer image) is logged as a
 * warning and resolves with no outcome: promop then runs without managing its CRDs instead of failing to start.
 */
export async function ensureCrds(access: RawApi | KubeAccess, options: EnsureCrdsOptions): Promise<CrdOutcome[]> {
  try {
    return await applyAndWait(rawApiOf(access), options);
  } catch (error) {
    if (apiErrorOf(error)?.code !== 403) throw error;
    options.log.warn({ err: describeError(error) }, 'may not read or write CustomResourceDefinitions: CRDs not managed (grant CRD_MANAGER_RULES, e.g. chart crds.managedByOperator, or run with --manage-crds=false)');
    return [];
  }
}

async function applyAndWait(api: RawApi, options: EnsureCrdsOptions): Promise<CrdOutcome[]> {
  const outcomes: CrdOutcome[] = [];
  for (const own of revisionedCrdManifests()) {
    const name = own.metadata.name;
    const stored = await readCrd(api, name);
    const action = crdAction(stored, own);
    outcomes.push({ name, action });
    const log = options.log.child({ crd: name });
    if (!action.apply) {
      const found = { revision: stored?.metadata?.annotations?.[CRD_REVISION_ANNOTATION], ownRevision: CRD_REVISION };
      if (action.reason === 'current') log.debug(found, 'CRD is current');
      else log.warn(found, action.reason === 'newer revision' ? 'CRD written by a newer promop; left as it is' : 'CRD not written by promop (prometheus-operator\'s?); left as it is');
      continue;
    }
    // The plain object as JSON: the schema's `x-kubernetes-*` keys keep their wire spelling.
    await api.patch(crdPath(name), own, PATCH_TYPE.apply, { fieldManager: FIELD_MANAGER, force: true });
    log.info({ reason: action.reason, from: stored?.metadata?.annotations?.[CRD_REVISION_ANNOTATION], to: CRD_REVISION }, action.reason === 'absent' ? 'CRD created' : 'CRD upgraded');
  }
  await waitEstablished(api, outcomes.map((outcome) => outcome.name), options.timeoutMs ?? 60_000);
  return outcomes;
}

async function readCrd(api: RawApi, name: string): Promise<V1CustomResourceDefinition | undefined> {
  try {
    return await api.getJson<V1CustomResourceDefinition>(crdPath(name));
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Polls until every CRD has Established=True; NamesAccepted=False fails at once (its names are taken). */
async function waitEstablished(api: RawApi, names: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const name of names) {
    for (;;) {
      let conditions: { type: string; status: string; message?: string }[] = [];
      try {
        conditions = (await api.getJson<V1CustomResourceDefinition>(crdPath(name))).status?.conditions ?? [];
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`CRD ${name} could not be read: ${describeError(error)}`);
      }
      if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) break;
      const names = conditions.find((c) => c.type === 'NamesAccepted' && c.status === 'False');
      if (names) throw new Error(`CRD ${name}: its names are not accepted: ${names.message ?? ''}`);
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after ${timeoutMs} ms (conditions: ${JSON.stringify(conditions)})`);
      await sleep(100);
    }
  }
}
