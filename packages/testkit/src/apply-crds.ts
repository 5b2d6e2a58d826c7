/** Installs the committed crds/*.yaml into a cluster, as a user would, and waits until they are served. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiException, ApiextensionsV1Api, CustomObjectsApi, loadYaml, type KubeConfig, type V1CustomResourceDefinition } from '@kubernetes/client-node';
import { REPO_ROOT } from './tools.ts';

/** The repository's crds/ directory. */
export const CRDS_DIR = join(REPO_ROOT, 'crds');

/**
 * The CRDs exactly as committed (not as generated in memory: the files are what users apply), deserialized into
 * client-node's models. That step matters: client-node serializes request bodies through its models, which
 * spell `x-kubernetes-int-or-string` as `x_kubernetes_int_or_string`; a plain object's `x-kubernetes-*` keys
 * would be silently dropped and the API server would reject the schema.
 */
export function committedCrds(): V1CustomResourceDefinition[] {
  return readdirSync(CRDS_DIR)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => loadYaml<V1CustomResourceDefinition>(readFileSync(join(CRDS_DIR, name), 'utf8')));
}

const sleep = (ms: number) => new Promise((resolvePromise) => setTimeout(resolvePromise, ms));

/**
 * Creates each CRD, or replaces it when it exists (other suites in the same run may have installed it), then
 * waits until the API server reports it Established and lists its objects: right after Established a list can
 * still be answered 404 (no endpoint yet) or 429 "storage is (re)initializing" (its watch cache), and an operator
 * started then counts a failed list.
 */
export async function applyCrds(kc: KubeConfig, timeoutMs = 30_000): Promise<void> {
  const api = kc.makeApiClient(ApiextensionsV1Api);
  for (const crd of committedCrds()) {
    const name = crd.metadata?.name ?? '';
    for (let attempt = 0; ; attempt++) {
      try {
        await api.createCustomResourceDefinition({ body: crd });
        break;
      } catch (error) {
        if (!(error instanceof ApiException) || error.code !== 409) throw error;
      }
      try {
        const existing = await api.readCustomResourceDefinition({ name });
        await api.replaceCustomResourceDefinition({
          name,
          body: { ...crd, metadata: { ...crd.metadata, resourceVersion: existing.metadata?.resourceVersion } },
        });
        break;
      } catch (error) {
        // 409: someone else changed it between our read and our replace; 404: deleted meanwhile. Try again.
        if (!(error instanceof ApiException) || ![404, 409].includes(error.code) || attempt >= 10) throw error;
      }
    }
  }
  const deadline = Date.now() + timeoutMs;
  for (const crd of committedCrds()) {
    const name = crd.metadata?.name ?? '';
    for (;;) {
      const current = await api.readCustomResourceDefinition({ name });
      if (current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
      if (Date.now() > deadline) throw new Error(`CRD ${name} not Established after ${timeoutMs} ms: ${JSON.stringify(current.status?.conditions)}`);
      await sleep(100);
    }
  }
  const custom = kc.makeApiClient(CustomObjectsApi);
  for (const crd of committedCrds()) {
    const group = crd.spec.group;
    const plural = crd.spec.names.plural;
    for (const version of crd.spec.versions.filter((v) => v.served)) {
      for (;;) {
        try {
          await custom.listClusterCustomObject({ group, version: version.name, plural, limit: 1 });
          break;
        } catch (error) {
          if (!(error instanceof ApiException) || ![404, 429].includes(error.code)) throw error;
          if (Date.now() > deadline) throw new Error(`${plural}.${group}/${version.name} not listable after ${timeoutMs} ms (HTTP ${error.code})`);
          await sleep(100);
        }
      }
    }
  }
}

/**
 * Runs `request`, retrying for up to about five seconds while the API server answers 404 for the resource itself:
 * right after a CRD becomes Established its REST endpoint can still be missing for a moment. A 404 about a
 * missing namespace is a real answer and is not retried.
 */
export async function untilServed<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      const body = error instanceof ApiException ? (typeof error.body === 'string' ? error.body : JSON.stringify(error.body)) : '';
      if (!(error instanceof ApiException) || error.code !== 404 || body.includes('namespaces') || attempt >= 50) throw error;
      await sleep(100);
    }
  }
}
