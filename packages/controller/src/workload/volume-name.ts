/** Volume names of the pod, which Kubernetes requires to be DNS labels. */
import { createHash } from 'node:crypto';

/** Kubernetes volume names are DNS labels: at most 63 characters. */
const MAX_VOLUME_NAME = 63;

/**
 * A volume name from an object name: the name itself when it fits, else a prefix and a hash of the whole name,
 * so that `...-rulefiles-0` and `...-rulefiles-1` of a long Prometheus name stay distinct.
 */
export function volumeName(name: string): string {
  if (name.length <= MAX_VOLUME_NAME) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_VOLUME_NAME - 9).replace(/-+$/, '')}-${hash}`;
}
