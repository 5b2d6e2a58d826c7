/**
 * The generated CRDs against the real kube-apiserver: they install, the kube-prometheus manifests are accepted
 * unchanged, and every negative case the ajv validators reject is rejected by the API server too, at the same
 * field path. All creates are server-side dry runs with strict field validation (what `kubectl apply` asks for).
 */
import { ApiException, CustomObjectsApi } from '@kubernetes/client-node';
import { sharedTestEnv, applyCrds, untilServed, ensureNamespace } from '@promop/testkit';
import { GROUP } from './group.ts';
import { ALL_KINDS, API_VERSIONS, PLURALS, type Kind } from './kinds.ts';
import { corpusObjects } from './test-support/corpus.ts';
import { LEGACY_CASES } from './test-support/legacy-cases.ts';
import { NEGATIVE_CASES } from './test-support/negative-cases.ts';
import { validatePrometheus } from './validation.ts';

interface Outcome {
  code: number;
  message: string;
  object?: Record<string, unknown>;
}

/** Dry-run creates `object`; a rejection is an outcome, not an exception. */
async function dryRunCreate(api: CustomObjectsApi, object: Record<string, unknown>): Promise<Outcome> {
  const metadata = object.metadata as { namespace: string };
  const request = () => api.createNamespacedCustomObject({
    group: GROUP,
    version: API_VERSIONS[object.kind as Kind],
    namespace: metadata.namespace,
    plural: PLURALS[object.kind as Kind],
    body: object,
    dryRun: 'All',
    fieldValidation: 'Strict',
  });
  try {
    return { code: 201, message: '', object: (await untilServed(request)) as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const body = typeof error.body === 'string' ? error.body : JSON.stringify(error.body);
    try {
      return { code: error.code, message: String((JSON.parse(body) as { message?: string }).message ?? body) };
    } catch {
      return { code: error.code, message: body }; // Not a Status object: keep the raw body.
    }
  }
}

describe('the generated CRDs on a real API server', () => {
  let api: CustomObjectsApi;
  // Every object of a kind promop serves, Alertmanager included: the whole corpus applies.
  const corpus = corpusObjects(ALL_KINDS);

  beforeAll(async () => {
    const kc = sharedTestEnv().kubeConfig();
    await applyCrds(kc);
    const namespaces = new Set([...corpus, ...NEGATIVE_CASES, ...LEGACY_CASES].map(({ object }) => (object.metadata as { namespace: string }).namespace));
    for (const namespace of namespaces) await ensureNamespace(kc, namespace);
    api = kc.makeApiClient(CustomObjectsApi);
  });

  describe('the kube-prometheus manifests', () => {
    it.each(corpus.map((o) => [`${o.file} ${o.kind} ${o.name}`, o] as const))('%s is accepted unchanged', async (_title, { object }) => {
      const outcome = await dryRunCreate(api, object);
      expect({ code: outcome.code, message: outcome.message }).toEqual({ code: 201, message: '' });
    });

    it('get the same defaults from the API server as from the validator', async () => {
      const prometheus = corpus.find((o) => o.kind === 'Prometheus');
      const outcome = await dryRunCreate(api, prometheus?.object ?? {});
      const validated = validatePrometheus(prometheus?.object);
      expect(validated.ok).toBe(true);
      expect(outcome.object?.spec).toEqual(validated.ok ? validated.value.spec : undefined);
    });
  });

  describe('manifests written for older prometheus-operator releases', () => {
    it.each(LEGACY_CASES.map((c) => [c.title, c] as const))('%s is accepted unchanged', async (_title, legacy) => {
      const outcome = await dryRunCreate(api, legacy.object);
      expect({ code: outcome.code, message: outcome.message }).toEqual({ code: 201, message: '' });
    });
  });

  describe('the negative cases', () => {
    it.each(NEGATIVE_CASES.map((c) => [c.title, c] as const))('%s is rejected, naming the field path', async (_title, negative) => {
      const outcome = await dryRunCreate(api, negative.object);
      // Schema violations are 422 Invalid; unknown fields under strict field validation are 400 BadRequest.
      expect({ code: outcome.code, message: outcome.message }).toEqual({ code: negative.unknownField ? 400 : 422, message: expect.stringContaining(negative.path) });
    });
  });
});
