/** Compile-time checks of the derived types (run by `pnpm typecheck`): they are closed, precise and never unknown. */
import type { Prometheus, ServiceMonitor, PrometheusRule, RelabelConfig, Endpoint, ResourceOfKind } from './types.ts';
import type { VALIDATORS } from './validation.ts';
const sm: ServiceMonitor = { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'a', namespace: 'b' }, spec: { selector: {}, endpoints: [{ port: 'web', interval: '30s', relabelings: [{ action: 'keep' }] }] } };
const p: Prometheus = { apiVersion: 'monitoring.coreos.com/v1', kind: 'Prometheus', metadata: { name: 'a', namespace: 'b' }, spec: { replicas: 2, scrapeInterval: '30s' } };
const r: RelabelConfig = { action: 'keep' };
// @ts-expect-error unknown field
const bad: Endpoint = { prot: 'x' };
const e: Endpoint['targetPort'] = 8080;
const rule: PrometheusRule['spec']['groups'] = [{ name: 'x', rules: [{ expr: 'up', alert: 'A' }] }];
const n: string = p.metadata.name; const gen: number | undefined = p.metadata.generation;
const ns: string = sm.metadata.namespace;
const ac: 'True' | 'False' | 'Unknown' | 'Degraded' | undefined = p.status?.conditions?.[0]?.status;
export { sm, p, r, bad, e, rule, n, gen, ns, ac };
// @ts-expect-error wrong kind
const wrongKind: ServiceMonitor = { ...sm, kind: 'PodMonitor' };
// @ts-expect-error replicas must be a number
const wrongReplicas: Prometheus = { ...p, spec: { replicas: 'two' } };
// @ts-expect-error unknown action
const wrongAction: RelabelConfig = { action: 'explode' };
// @ts-expect-error spec needs selector
const missing: ServiceMonitor = { ...sm, spec: { endpoints: [] } };
type IsUnknown<T> = unknown extends T ? true : false;
const notUnknown: IsUnknown<Prometheus['spec']['remoteWrite']> = false;
const affinity: Prometheus['spec']['affinity'] = { nodeAffinity: {} };
export { wrongKind, wrongReplicas, wrongAction, missing, notUnknown, affinity };
// Each kind's validator returns that kind's type, so code handling every kind alike needs no cast.
type ValidatedValue<K extends keyof ResourceOfKind> = Extract<ReturnType<(typeof VALIDATORS)[K]>, { ok: true }>['value'];
const validatedProbe: ValidatedValue<'Probe'> = { apiVersion: 'monitoring.coreos.com/v1', kind: 'Probe', metadata: { name: 'a', namespace: 'b' }, spec: {} };
// @ts-expect-error a ServiceMonitor is not what the Probe validator returns
const validatedWrongKind: ValidatedValue<'Probe'> = sm;
export { validatedProbe, validatedWrongKind };
