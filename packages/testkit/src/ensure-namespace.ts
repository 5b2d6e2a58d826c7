/** Creates a namespace for a test, tolerating one left by an earlier suite of the same run. */
import { ApiException, CoreV1Api, type KubeConfig } from '@kubernetes/client-node';

/** Creates namespace `name` unless it exists (409 is fine: suites share one control plane). */
export async function ensureNamespace(kc: KubeConfig, name: string): Promise<void> {
  try {
    await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } });
  } catch (error) {
    if (!(error instanceof ApiException) || error.code !== 409) throw error;
  }
}
