/**
 * Writes the status subresource of promop's custom resources with server-side apply (field manager `promop`,
 * force). Apply of a status sends only `status`; the API server ignores everything else on the status endpoint.
 *
 * For monitors and rules the body also carries `metadata.resourceVersion`: the bindings list holds entries of
 * every Prometheus that selects the object and promop sends the whole list, so a write computed from a stale cache
 * must fail (409) instead of dropping another Prometheus' binding. The caller requeues on 409.
 */
import { API_VERSIONS, GROUP, PLURALS, type Kind } from '@promop/crds';
import { apiErrorOf, isNotFound } from './api-error.ts';
import { FIELD_MANAGER } from './field-manager.ts';
import { PATCH_TYPE, namespacedPath, rawApiOf, type KubeAccess, type RawApi } from './raw-api.ts';

/** The object whose status to write. */
export interface StatusTarget {
  kind: Kind;
  namespace: string;
  name: string;
  /** When set, the write fails with 409 unless the object still has this resourceVersion. */
  resourceVersion?: string;
}

/** Applies `status` to a custom resource. */
/**
 * The status fields promop adds to prometheus-operator's (docs/compatibility.md): `acceptedBy`/`rejectedBy` of
 * monitors and rules, `configStatus` of a Prometheus. prometheus-operator's own CRDs do not declare them, and
 * server-side apply refuses a field its schema does not declare (500 `.status.acceptedBy: field not declared in
 * schema`) where a plain write would prune it. On such a cluster (promop side by side with prometheus-operator, or
 * before the CRD handover) promop writes its status without them.
 */
export const PROMOP_ONLY_STATUS_FIELDS: readonly string[] = ['acceptedBy', 'rejectedBy', 'configStatus'];

/** The promop-only status field an apply was refused for, from the API server's message; undefined for any other error. */
export function undeclaredStatusField(error: unknown): string | undefined {
  const api = apiErrorOf(error);
  if (!api || api.code !== 500) return undefined;
  const field = /\.status\.(\w+): field not declared in schema/.exec(api.message)?.[1];
  return field !== undefined && PROMOP_ONLY_STATUS_FIELDS.includes(field) ? field : undefined;
}

export class StatusWriter {
  readonly #api: RawApi;
  /** Per kind, the promop-only status fields its CRD was found not to declare: left out of every later write. */
  readonly #undeclared = new Map<Kind, Set<string>>();

  /** `access`: the RawApi every writer of `promop run` shares, or a kubeconfig (a RawApi of its own is made). */
  constructor(access: RawApi | KubeAccess) {
    this.#api = rawApiOf(access);
  }

  /**
   * Applies `status`; returns the object's resourceVersion after the write, or undefined when the object no longer
   * exists (nothing to report on).
   */
  async apply(target: StatusTarget, status: object): Promise<{ resourceVersion: string } | undefined> {
    const { kind, namespace, name, resourceVersion } = target;
    const metadata = resourceVersion === undefined ? { name, namespace } : { name, namespace, resourceVersion };
    const path = namespacedPath(`/apis/${GROUP}/${API_VERSIONS[kind]}`, namespace, PLURALS[kind], name, 'status');
    // At most one refusal per promop-only field, then every later write of the kind leaves it out.
    for (let attempt = 0; ; attempt += 1) {
      const undeclared = this.#undeclared.get(kind);
      const written = undeclared ? Object.fromEntries(Object.entries(status).filter(([key]) => !undeclared.has(key))) : status;
      const body = { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, metadata, status: written };
      try {
        const stored: unknown = await this.#api.patch(path, body, PATCH_TYPE.apply, { fieldManager: FIELD_MANAGER, force: true });
        return { resourceVersion: (stored as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion ?? '' };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        const field = undeclaredStatusField(error);
        if (field === undefined || attempt >= PROMOP_ONLY_STATUS_FIELDS.length || undeclared?.has(field)) throw error;
        this.#undeclared.set(kind, new Set([...(undeclared ?? []), field]));
      }
    }
  }
}
