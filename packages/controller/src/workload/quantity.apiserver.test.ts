/**
 * canonicalQuantity against the real API server: each quantity is written where promop writes quantities — the
 * resource limits of a StatefulSet's containers (replicas 0, so no pod is made) — and read back; what the API server
 * stored must be what canonicalQuantity predicted.
 */
import { AppsV1Api, CoreV1Api } from '@kubernetes/client-node';
import { sharedTestEnv } from '@promop/testkit';
import { randomBytes } from 'node:crypto';
import { canonicalQuantity } from './quantity.ts';

const NAMESPACE = `quantity-${randomBytes(3).toString('hex')}`;

/** Hand-picked edge cases, then a deterministic spread over every suffix, fraction and size. */
function quantities(): string[] {
  const picked = ['0.5', '1000m', '1.0', '0.1', '1500', '1000', '1024Mi', '1.5Gi', '0.5Ki', '1Ki', '1.1Ki', '1023', '1024', '1e3', '1.5e3',
    '1E6', '0', '0Gi', '0.0000000001', '.5', '1.', '999999999999', '123456789n', '1000000u', '0.001m', '2.5E-3', '1e-9', '1e18', '1023Ki', '1048576', '3.14159'];
  const numbers = ['1', '7', '10', '12', '100', '512', '999', '1000', '1023', '1024', '1536', '2048', '0.25', '0.333', '1.5', '12.75', '0.001', '4096.5'];
  const suffixes = ['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'Ki', 'Mi', 'Gi', 'Ti', 'e0', 'e2', 'e-3', 'E4'];
  return [...picked, ...numbers.flatMap((number) => suffixes.map((suffix) => `${number}${suffix}`))];
}

let core: CoreV1Api;

beforeAll(async () => {
  core = sharedTestEnv().kubeConfig().makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
});

afterAll(async () => {
  await core.deleteNamespace({ name: NAMESPACE }).catch(() => {});
});

describe('canonicalQuantity', () => {
  it('predicts the text the API server stores for every quantity it rewrites', async () => {
    const cases = quantities().filter((text) => canonicalQuantity(text) !== undefined);
    expect(cases.length).toBeGreaterThan(200);
    const disagreements: string[] = [];
    // One StatefulSet per 50 quantities: container i has limits {cpu: q, memory: q}.
    const apps = sharedTestEnv().kubeConfig().makeApiClient(AppsV1Api);
    for (let start = 0; start < cases.length; start += 50) {
      const chunk = cases.slice(start, start + 50);
      const labels = { app: `q${start}` };
      const containers = chunk.map((text, i) => ({ name: `c${i}`, image: 'example.invalid/none', resources: { limits: { cpu: text, memory: text } } }));
      const stored = await apps.createNamespacedStatefulSet({
        namespace: NAMESPACE,
        body: { metadata: { name: `q${start}` }, spec: { replicas: 0, serviceName: 'none', selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers } } } },
      });
      for (const [i, text] of chunk.entries()) {
        const limits = stored.spec?.template.spec?.containers[i]?.resources?.limits ?? {};
        const predicted = canonicalQuantity(text);
        for (const resource of ['cpu', 'memory']) {
          if (String(limits[resource]) !== predicted) disagreements.push(`${text} (${resource}): API server ${String(limits[resource])}, promop ${predicted}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});
