/** `object` without its undefined entries: how the Alertmanager modules leave unset keys out of the file. */
export function withoutUndefined(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}
