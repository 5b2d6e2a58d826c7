/** The Alertmanager release a configuration is written for, as `major.minor`. */

/** Whether `version` is older than `than`. */
export function olderThan(version: readonly [number, number], than: readonly [number, number]): boolean {
  return version[0] < than[0] || (version[0] === than[0] && version[1] < than[1]);
}
