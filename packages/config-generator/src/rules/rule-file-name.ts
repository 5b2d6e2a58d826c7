/** The name of a PrometheusRule's file inside the rule ConfigMaps, as prometheus-operator names it. */
export function ruleFileName(namespace: string, name: string, uid: string): string {
  return `${namespace}-${name}-${uid}.yaml`;
}
