/**
 * What promop made for the Prometheus `monitoring/main`, read from the API server: the text of its config and
 * scrape Secrets, the text of its rule ConfigMaps, and the resourceVersion of every object it owns or reports on.
 */
import type { CoreV1Api, CustomObjectsApi } from '@kubernetes/client-node';
import { GROUP, PLURALS, VERSION } from '@promop/crds';
import { MONITORING, PROMETHEUS } from './chaos-cluster.ts';

/** Every value of the Prometheus' config and scrape-file Secrets, decoded and joined. */
export async function configText(core: CoreV1Api): Promise<string> {
  const secrets = await core.listNamespacedSecret({ namespace: MONITORING, labelSelector: `operator.prometheus.io/name=${PROMETHEUS}` });
  return secrets.items
    .sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))
    .flatMap((secret) => Object.values(secret.data ?? {}).map((value) => Buffer.from(value, 'base64').toString('utf8')))
    .join('\n');
}

/** Every rule file of the Prometheus' rule ConfigMaps, joined. */
export async function rulesText(core: CoreV1Api): Promise<string> {
  const configMaps = await core.listNamespacedConfigMap({ namespace: MONITORING, labelSelector: `prometheus-name=${PROMETHEUS}` });
  return configMaps.items.flatMap((configMap) => Object.values(configMap.data ?? {})).join('\n');
}

/** The Prometheus object (its status is promop's report). */
export async function readPrometheus(custom: CustomObjectsApi): Promise<{ metadata: { resourceVersion: string }; status?: { conditions?: { type: string; status: string; reason?: string }[] } }> {
  return (await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURALS.Prometheus, namespace: MONITORING, name: PROMETHEUS })) as never;
}

/** Whether the Prometheus' Reconciled condition is True. */
export async function isReconciled(custom: CustomObjectsApi): Promise<boolean> {
  const prometheus = await readPrometheus(custom);
  return prometheus.status?.conditions?.some((c) => c.type === 'Reconciled' && c.status === 'True') ?? false;
}
