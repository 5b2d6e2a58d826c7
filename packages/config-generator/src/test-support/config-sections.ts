/**
 * Reading a rendered Prometheus configuration in tests of one section: the section as text, and the problems of a
 * render that was refused.
 */
import type { GeneratorOutput } from '../model.ts';

/** The top-level `key:` section of a configuration (its line and every indented or list line under it), as text. */
export function topLevelSection(config: string, key: string): string {
  return new RegExp(`^${key}:\\n(?:[ -].*\\n)*`, 'm').exec(config)?.[0] ?? '';
}

/** The problems of a render that must be refused (no configuration written), as `path: message`. */
export function refusedProblems(output: GeneratorOutput): string[] {
  expect(output.ok).toBe(false);
  expect(output.configs).toEqual([]);
  return output.prometheusProblems.map(({ path, message }) => `${path}: ${message}`);
}
