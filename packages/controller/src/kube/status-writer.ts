/**
 * Writes the status subresource of promop's custom resources with server-side apply (field manager `promop`,
 * force). Apply of a status sends only `status`; the API server ignores everything else on the status endpoint.
 *
 * For monitors and rules the body also carries `metadata.resourceVersion`: the bindings list holds entries of
 * every Prometheus that selects the object and promop sends the whole list, so a write computed from a stale cache
 * must fail (409) instead of dropping another Prometheus' binding. The caller requeues on 409.
 */
import { API_VERSIONS, GROUP, PLURALS, type Kind } from '@promop/crds';
import { isNotFound } from './api-error.ts';
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
export class StatusWriter {
  readonly #api: RawApi;

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
    const body = { apiVersion: `${GROUP}/${API_VERSIONS[kind]}`, kind, metadata, status };
    try {
      const path = namespacedPath(`/apis/${GROUP}/${API_VERSIONS[kind]}`, namespace, PLURALS[kind], name, 'status');
      const stored: unknown = await this.#api.patch(path, body, PATCH_TYPE.apply, { fieldManager: FIELD_MANAGER, force: true });
      return { resourceVersion: (stored as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion ?? '' };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}
