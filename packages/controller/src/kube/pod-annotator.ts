/**
 * Sets one annotation on a pod with a JSON merge patch of `metadata.annotations` only. Never the pod's spec, and
 * never the StatefulSet's pod template: a template change rolls every pod, an annotation on the pod itself does
 * not. Used to make the kubelet refresh a pod's mounted volumes at once (reload/shard-reloader.ts says why).
 */
import { isNotFound } from './api-error.ts';
import { FIELD_MANAGER } from './field-manager.ts';
import { PATCH_TYPE, namespacedPath, rawApiOf, type KubeAccess, type RawApi } from './raw-api.ts';

/** Writes pod annotations. */
export interface PodAnnotator {
  /** Sets `key: value` on pod `namespace/name`; resolves false when the pod is gone. Throws other API errors. */
  annotate(namespace: string, name: string, key: string, value: string): Promise<boolean>;
}

/** The PodAnnotator that talks to the API server. */
export class ApiPodAnnotator implements PodAnnotator {
  readonly #api: RawApi;

  /** `access`: the RawApi every writer of `promop run` shares, or a kubeconfig (a RawApi of its own is made). */
  constructor(access: RawApi | KubeAccess) {
    this.#api = rawApiOf(access);
  }

  async annotate(namespace: string, name: string, key: string, value: string): Promise<boolean> {
    try {
      await this.#api.patch(namespacedPath('/api/v1', namespace, 'pods', name), { metadata: { annotations: { [key]: value } } }, PATCH_TYPE.merge, { fieldManager: FIELD_MANAGER });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }
}
