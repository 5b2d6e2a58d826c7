/**
 * Writes the children of a Prometheus (StatefulSets, Services, Secrets, ConfigMaps) with server-side apply:
 * field manager `promop`, `force: true`. Apply sends the whole desired object, so running it twice is harmless and
 * an unchanged object is not rewritten (the API server keeps its resourceVersion, no watch event follows).
 * `force` takes over fields another manager (kubectl edit, a previous operator) set, as a controller must.
 */
import {
  AppsV1Api, CoreV1Api, type KubeConfig, type V1ConfigMap, type V1Secret, type V1Service, type V1StatefulSet,
} from '@kubernetes/client-node';
import { isNotFound } from './api-error.ts';
import { FIELD_MANAGER, SERVER_SIDE_APPLY } from './field-manager.ts';

/** The child kinds promop writes. */
export type ChildKind = 'StatefulSet' | 'Service' | 'Secret' | 'ConfigMap';

/** Applies and deletes children. Every method throws the API error (see api-error.ts to turn it into a value). */
export class ChildWriter {
  readonly #core: CoreV1Api;
  readonly #apps: AppsV1Api;

  constructor(kc: KubeConfig) {
    this.#core = kc.makeApiClient(CoreV1Api);
    this.#apps = kc.makeApiClient(AppsV1Api);
  }

  /** Applies a Secret; returns it as stored. */
  applySecret(body: V1Secret): Promise<V1Secret> {
    const { name, namespace } = identify(body);
    return this.#core.patchNamespacedSecret({ name, namespace, body, fieldManager: FIELD_MANAGER, force: true }, SERVER_SIDE_APPLY);
  }

  /** Applies a ConfigMap; returns it as stored. */
  applyConfigMap(body: V1ConfigMap): Promise<V1ConfigMap> {
    const { name, namespace } = identify(body);
    return this.#core.patchNamespacedConfigMap({ name, namespace, body, fieldManager: FIELD_MANAGER, force: true }, SERVER_SIDE_APPLY);
  }

  /** Applies a Service; returns it as stored. */
  applyService(body: V1Service): Promise<V1Service> {
    const { name, namespace } = identify(body);
    return this.#core.patchNamespacedService({ name, namespace, body, fieldManager: FIELD_MANAGER, force: true }, SERVER_SIDE_APPLY);
  }

  /** Applies a StatefulSet; returns it as stored (its status is the latest the API server has). */
  applyStatefulSet(body: V1StatefulSet): Promise<V1StatefulSet> {
    const { name, namespace } = identify(body);
    return this.#apps.patchNamespacedStatefulSet({ name, namespace, body, fieldManager: FIELD_MANAGER, force: true }, SERVER_SIDE_APPLY);
  }

  /**
   * Deletes a child; already gone is success. StatefulSets are deleted in the foreground (like
   * prometheus-operator) so their pods are gone before the object is.
   */
  async delete(kind: ChildKind, namespace: string, name: string): Promise<void> {
    try {
      switch (kind) {
        case 'StatefulSet':
          await this.#apps.deleteNamespacedStatefulSet({ name, namespace, propagationPolicy: 'Foreground' });
          return;
        case 'Service':
          await this.#core.deleteNamespacedService({ name, namespace });
          return;
        case 'Secret':
          await this.#core.deleteNamespacedSecret({ name, namespace });
          return;
        case 'ConfigMap':
          await this.#core.deleteNamespacedConfigMap({ name, namespace });
          return;
      }
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}

function identify(object: { metadata?: { name?: string; namespace?: string } }): { name: string; namespace: string } {
  const name = object.metadata?.name;
  const namespace = object.metadata?.namespace;
  if (!name || !namespace) throw new Error('bug: a child to apply has no metadata.name or metadata.namespace');
  return { name, namespace };
}
