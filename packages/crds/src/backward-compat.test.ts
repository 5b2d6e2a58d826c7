/**
 * Manifests written for older prometheus-operator releases still validate (operator rule 4). The same cases are
 * dry-run created on the real API server in crds.apiserver.test.ts.
 */
import { LEGACY_CASES } from './test-support/legacy-cases.ts';
import { validateServiceMonitor, VALIDATORS } from './validation.ts';

describe('manifests written for older prometheus-operator releases', () => {
  it('cover every kind', () => {
    expect(new Set(LEGACY_CASES.map((c) => c.kind))).toEqual(new Set(Object.keys(VALIDATORS)));
  });

  it.each(LEGACY_CASES.map((c) => [c.title, c] as const))('%s is valid', (_title, legacy) => {
    const result = VALIDATORS[legacy.kind](legacy.object);
    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  it('keep their CamelCase relabel actions as written (promop lowercases them when it renders)', () => {
    const legacy = LEGACY_CASES.find((c) => c.object.metadata && (c.object.metadata as { name: string }).name === 'camel-case-actions');
    const result = validateServiceMonitor(legacy?.object);
    expect(result.ok && result.value.spec.endpoints[0]?.relabelings?.map((r) => r.action)).toEqual(['Replace', 'HashMod', 'Keep', 'LabelMap']);
  });
});
