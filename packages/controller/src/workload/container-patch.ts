/**
 * A workload's `spec.containers` (and `spec.initContainers`) entries patch the containers promop makes, the way
 * prometheus-operator patches its own: an entry named like one of promop's is a Kubernetes strategic merge patch of
 * that container, any other entry is added after promop's. Users rely on that to change one thing: an extra
 * environment variable keeps `POD_NAME` (which the replica label is made of), a memory limit keeps the default
 * request, a longer `startupProbe.failureThreshold` keeps the probe's `httpGet`.
 *
 * prometheus-operator reads each entry into Go's `Container` type and marshals it again before patching, so what
 * Go leaves out of that JSON does not patch anything: null values, empty strings and lists, and `false` or `0` in
 * the fields that are not pointers (`stdin`, `tty`, a probe's counts and seconds, a port's `hostPort`, a mount's
 * `readOnly`). Strategic merge then merges objects key by key, merges the lists Kubernetes gives a merge key
 * (`ports` by `containerPort`, `env` by `name`, `volumeMounts` by `mountPath`, `volumeDevices` by `devicePath`) item
 * by item, and replaces every other value, `args` and `command` included. The order of a merged list is the
 * patch's items in the patch's order, with the container's own items not in the patch put back where they stood
 * relative to them (Kubernetes' rule, which the API-server test compares against).
 */
import type { V1Container } from '@kubernetes/client-node';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** The container lists strategic merge merges item by item, and the key identifying an item. */
const MERGE_KEYS: Readonly<Record<string, string>> = { ports: 'containerPort', env: 'name', volumeMounts: 'mountPath', volumeDevices: 'devicePath' };

/** Fields of Go types that are not pointers, where `false` and `0` are left out of the marshalled patch. */
const NON_POINTER_ZEROS: Readonly<Record<'container' | 'probe' | 'port' | 'volumeMount', ReadonlySet<string>>> = {
  container: new Set(['stdin', 'stdinOnce', 'tty']),
  probe: new Set(['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold']),
  port: new Set(['hostPort']),
  volumeMount: new Set(['readOnly']),
};
const PROBES = new Set(['livenessProbe', 'readinessProbe', 'startupProbe']);

const isObject = (value: Json | undefined): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * promop's containers with the user's entries: each of promop's patched by the entry of its name, then the entries
 * naming none of promop's, in the user's order (prometheus-operator's order too).
 */
export function mergeContainers(ours: readonly V1Container[], theirs: readonly V1Container[]): V1Container[] {
  const ourNames = new Set(ours.map((container) => container.name));
  const merged = ours.map((container) => {
    const patch = theirs.find((each) => each.name === container.name);
    return patch ? patchContainer(container, patch) : container;
  });
  return [...merged, ...theirs.filter((container) => !ourNames.has(container.name))];
}

/** `base` patched by `patch` as prometheus-operator patches one of its containers; see the file comment. */
export function patchContainer(base: V1Container, patch: V1Container): V1Container {
  const marshalled = asMarshalled(patch as unknown as Json, 'container');
  return (isObject(marshalled) ? mergeObject(base as unknown as JsonObject, marshalled, true) : base) as unknown as V1Container;
}

/** What Go's JSON encoding of a `Container` keeps of `value`; see the file comment. */
export function asMarshalled(value: Json | undefined, type: keyof typeof NON_POINTER_ZEROS | 'other' = 'other'): Json | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  if (Array.isArray(value)) {
    // Omitted when empty; an item is kept whatever it holds (Go leaves out fields, not list items).
    return value.length === 0 ? undefined : value.map((item) => (isObject(item) ? asMarshalled(item, type) ?? {} : item));
  }
  if (!isObject(value)) return value;
  const zeros = type === 'other' ? undefined : NON_POINTER_ZEROS[type];
  const kept: JsonObject = {};
  for (const [key, field] of Object.entries(value)) {
    if (zeros?.has(key) && (field === false || field === 0)) continue;
    const fieldType = type !== 'container' ? 'other'
      : PROBES.has(key) ? 'probe' : key === 'ports' ? 'port' : key === 'volumeMounts' ? 'volumeMount' : 'other';
    const marshalled = asMarshalled(field, fieldType);
    if (marshalled !== undefined) kept[key] = marshalled;
  }
  return kept;
}

function mergeObject(base: JsonObject, patch: JsonObject, isContainer = false): JsonObject {
  const merged: JsonObject = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const own = base[key];
    const mergeKey = isContainer ? MERGE_KEYS[key] : undefined;
    if (mergeKey && Array.isArray(value) && Array.isArray(own)) merged[key] = mergeList(own, value, mergeKey);
    else if (isObject(value) && isObject(own)) merged[key] = mergeObject(own, value);
    else merged[key] = value;
  }
  return merged;
}

/** Strategic merge of a list with a merge key; the order is Kubernetes' (see the file comment). */
function mergeList(base: readonly Json[], patch: readonly Json[], mergeKey: string): Json[] {
  const keyOf = (item: Json): Json | undefined => (isObject(item) ? item[mergeKey] : undefined);
  const baseIndex = (item: Json): number => base.findIndex((each) => keyOf(each) === keyOf(item));
  const merged = [...base];
  for (const item of patch) {
    const at = merged.findIndex((each) => keyOf(each) === keyOf(item));
    if (at < 0) merged.push(item);
    else merged[at] = isObject(merged[at]) && isObject(item) ? mergeObject(merged[at] as JsonObject, item) : item;
  }
  const patchKeys = patch.map(keyOf);
  const patched = merged.filter((item) => patchKeys.includes(keyOf(item)))
    .sort((a, b) => patchKeys.indexOf(keyOf(a)) - patchKeys.indexOf(keyOf(b)));
  const baseOnly = merged.filter((item) => !patchKeys.includes(keyOf(item)));
  // Each of the container's own items goes before the first patched item that stood after it in the container.
  const ordered: Json[] = [];
  let next = 0;
  for (const item of patched) {
    const at = baseIndex(item);
    while (next < baseOnly.length && at >= 0 && baseIndex(baseOnly[next] as Json) < at) ordered.push(baseOnly[next++] as Json);
    ordered.push(item);
  }
  return [...ordered, ...baseOnly.slice(next)];
}
