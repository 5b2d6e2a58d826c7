/**
 * Sets one annotation on a pod with a JSON merge patch of `metadata.annotations` only. Never the pod's spec, and
 * never the StatefulSet's pod template: a template change rolls every pod, an annotation on the pod itself does
 * not. Used to make the kubelet refresh a pod's mounted volumes at once (reload/shard-reloader.ts says why).
 */
import { CoreV1Api, PatchStrategy, setHeaderOptions, type KubeConfig } from '@kubernetes/client-node';
import { isNotFound } from './api-error.ts';
import { FIELD_MANAGER } from './field-manager.ts';

const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/** Writes pod annotations. */
export interface PodAnnotator {
  /** Sets `key: value` on pod `namespace/name`; resolves false when the pod is gone. Throws other API errors. */
  annotate(namespace: string, name: string, key: string, value: string): Promise<boolean>;
}

/** The PodAnnotator that talks to the API server. */
export class ApiPodAnnotator implements PodAnnotator {
  readonly #core: CoreV1Api;

  constructor(kc: KubeConfig) {
    this.#core = kc.makeApiClient(CoreV1Api);
  }

  async annotate(namespace: string, name: string, key: string, value: string): Promise<boolean> {
    try {
      await this.#core.patchNamespacedPod({ namespace, name, body: { metadata: { annotations: { [key]: value } } }, fieldManager: FIELD_MANAGER }, MERGE_PATCH);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }
}
