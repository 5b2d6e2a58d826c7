/**
 * Helpers for tests in other packages (`@promop/crds/test-support`): install the committed CRDs into the test
 * control plane, read the kube-prometheus corpus, reuse the negative and legacy cases.
 */
export { applyCrds, committedCrds, CRDS_DIR, untilServed } from './apply-crds.ts';
export { ensureNamespace } from './ensure-namespace.ts';
export { corpusObjects, CORPUS_DIR, type CorpusObject } from './corpus.ts';
export { LEGACY_CASES, type LegacyCase } from './legacy-cases.ts';
export { NEGATIVE_CASES, type NegativeCase } from './negative-cases.ts';
