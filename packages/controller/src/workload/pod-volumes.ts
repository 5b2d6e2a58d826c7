/**
 * The volumes of a Prometheus pod and where the prometheus container mounts them. Paths come from the
 * generator's pod-layout.ts, so what prometheus.yaml refers to is what is mounted. Volume names are
 * prometheus-operator's (`config`, `tls-assets`, `prometheus-<name>-db`, `secret-<s>`, `configmap-<c>`, one per
 * rule ConfigMap), because users' extra containers mount them by name (e.g. a Thanos sidecar mounting the db).
 */
import type { V1PersistentVolumeClaim, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import {
  CERTS_DIR, CONFIG_DIR, LOG_DIR, RULES_DIR, SCRAPE_FILE_SLOTS, STORAGE_DIR, inLogDirectory, mountedRuleConfigMapNames, prefixedName, tlsAssetsSecretName,
} from '@promop/config-generator';
import { CONFIGMAPS_DIR, SECRETS_DIR } from '@promop/config-generator';
import { asEmbedded } from './embedded-field.ts';
import { volumeName } from './volume-name.ts';
import { WEB_CONFIG_DIR, webConfigSecretName, webConfigVolumes, type WebConfig } from './web-config.ts';
import { configSecretName, scrapeSecretName } from './shard-names.ts';
import { workloadKind, type PrometheusWorkload, type WorkloadKind } from './workload-kind.ts';

// The in-pod paths live in the generator's pod-layout.ts, with the others.
export { CONFIGMAPS_DIR, SECRETS_DIR } from '@promop/config-generator';
/** The emptyDir of LOG_DIR, named as prometheus-operator names it. */
const LOG_FILE_VOLUME = 'log-file';
/** Sub path of the data volume when `spec.storage` is set, as prometheus-operator (existing PVCs keep their layout). */
export const STORAGE_SUB_PATH = 'prometheus-db';

/** The default name of the TSDB volume (and of its PersistentVolumeClaim template). */
export function storageVolumeName(prometheusName: string, kind: WorkloadKind = 'Prometheus'): string {
  return volumeName(`${prefixedName(prometheusName, kind)}-db`);
}

/** What a pod of one shard gets: volumes, the prometheus container's mounts, and claim templates. */
export interface PodVolumes {
  volumes: V1Volume[];
  mounts: V1VolumeMount[];
  volumeClaimTemplates: V1PersistentVolumeClaim[];
}

type Spec = NonNullable<PrometheusWorkload['spec']>;

/** The TSDB volume: a claim template, an ephemeral volume, or an emptyDir (the default, as upstream). */
function storage(prometheusName: string, kind: WorkloadKind, spec: Spec): PodVolumes {
  const configured = spec.storage;
  const subPath = configured && !configured.disableMountSubPath ? { subPath: STORAGE_SUB_PATH } : {};
  if (configured?.volumeClaimTemplate) {
    // Embedded opaque in the CRD; the API server validates it when promop writes the StatefulSet.
    const template = asEmbedded<V1PersistentVolumeClaim>(configured.volumeClaimTemplate);
    const name = template.metadata?.name || storageVolumeName(prometheusName, kind);
    const claim: V1PersistentVolumeClaim = {
      metadata: { ...template.metadata, name },
      spec: { ...template.spec, accessModes: template.spec?.accessModes?.length ? template.spec.accessModes : ['ReadWriteOnce'] },
    };
    return { volumes: [], mounts: [{ name, mountPath: STORAGE_DIR, ...subPath }], volumeClaimTemplates: [claim] };
  }
  const name = storageVolumeName(prometheusName, kind);
  const volume: V1Volume = configured?.ephemeral
    ? { name, ephemeral: asEmbedded<V1Volume['ephemeral']>(configured.ephemeral) }
    : { name, emptyDir: asEmbedded<V1Volume['emptyDir']>(configured?.emptyDir) ?? {} };
  return { volumes: [volume], mounts: [{ name, mountPath: STORAGE_DIR, ...subPath }], volumeClaimTemplates: [] };
}

/**
 * The `config` volume of shard `shard`: one projected volume of the config Secret (prometheus.yaml; required, so a
 * pod never starts without its config) and all SCRAPE_FILE_SLOTS scrape Secrets, each `optional`. The list of
 * sources never depends on how many scrape files exist, so a configuration that grows into scrape files, or
 * shrinks back, changes no pod spec and restarts no pod. One volume rather than two: the kubelet writes a volume's
 * files at once (a symlink swap), so Prometheus never reads a new prometheus.yaml beside the previous scrape files.
 */
function configVolume(prometheusName: string, shard: number, kind: WorkloadKind): V1Volume {
  const scrapeSecrets = Array.from({ length: SCRAPE_FILE_SLOTS }, (_, slot) => ({ secret: { name: scrapeSecretName(prometheusName, shard, slot, kind), optional: true } }));
  return { name: 'config', projected: { sources: [{ secret: { name: configSecretName(prometheusName, shard, kind) } }, ...scrapeSecrets] } };
}

/**
 * Volumes and mounts of shard `shard`, in prometheus-operator's orders. Volumes: config, tls-assets, `spec.secrets`,
 * `spec.configMaps`, the log directory, rule ConfigMaps, the web config file and the TLS material it names
 * (web-config.ts), `sidecarVolumes`, storage, then `spec.volumes`. Mounts: config, tls-assets, storage,
 * `spec.volumeMounts` as given, `spec.secrets`, `spec.configMaps`, the log directory for the scrape failure log, rule
 * ConfigMaps, the log directory for the query log, then the web config. The log directory (LOG_DIR, an emptyDir) is
 * there when `scrapeFailureLogFile` or a server's `queryLogFile` is a bare file name, which the generator writes
 * into it: the root file system is read-only.
 * The config volume (configVolume) is mounted whole (no subPath) so the kubelet updates the files in place before
 * promop reloads Prometheus. A PrometheusAgent mounts no rule ConfigMaps (it evaluates no rules, as upstream's agent
 * pod). Rule ConfigMaps are `optional`: the padded names (at least three, see
 * mountedRuleConfigMapNames) may not exist, and a missing one is an empty directory instead of a stuck pod.
 */
export function podVolumes(
  prometheus: PrometheusWorkload, shard: number, ruleConfigMapCount: number, webConfig?: WebConfig, sidecarVolumes: readonly V1Volume[] = [],
): PodVolumes {
  const name = prometheus.metadata.name;
  const kind = workloadKind(prometheus);
  const spec: Spec = prometheus.spec ?? {};
  const volumes: V1Volume[] = [
    configVolume(name, shard, kind),
    // Projected like prometheus-operator, which lists one source per tls-assets shard.
    { name: 'tls-assets', projected: { sources: [{ secret: { name: tlsAssetsSecretName(name, kind) } }] } },
  ];
  const data = storage(name, kind, spec);
  const mounts: V1VolumeMount[] = [
    { name: 'config', mountPath: CONFIG_DIR, readOnly: true },
    { name: 'tls-assets', mountPath: CERTS_DIR, readOnly: true },
    ...data.mounts,
    ...asEmbedded<V1VolumeMount[]>(spec.volumeMounts ?? []),
  ];
  for (const secret of spec.secrets ?? []) {
    const volume = volumeName(`secret-${secret}`);
    volumes.push({ name: volume, secret: { secretName: secret } });
    mounts.push({ name: volume, mountPath: `${SECRETS_DIR}/${secret}`, readOnly: true });
  }
  for (const configMap of spec.configMaps ?? []) {
    const volume = volumeName(`configmap-${configMap}`);
    volumes.push({ name: volume, configMap: { name: configMap } });
    mounts.push({ name: volume, mountPath: `${CONFIGMAPS_DIR}/${configMap}`, readOnly: true });
  }
  const logMount: V1VolumeMount = { name: LOG_FILE_VOLUME, mountPath: LOG_DIR };
  const scrapeFailureLog = inLogDirectory(spec.scrapeFailureLogFile);
  const queryLog = kind === 'Prometheus' && !scrapeFailureLog && inLogDirectory((spec as { queryLogFile?: string }).queryLogFile);
  if (scrapeFailureLog || queryLog) volumes.push({ name: LOG_FILE_VOLUME, emptyDir: {} });
  if (scrapeFailureLog) mounts.push(logMount);
  const ruleConfigMaps = kind === 'PrometheusAgent' ? [] : mountedRuleConfigMapNames(name, ruleConfigMapCount);
  for (const ruleConfigMap of ruleConfigMaps) {
    const volume = volumeName(ruleConfigMap);
    volumes.push({ name: volume, configMap: { name: ruleConfigMap, optional: true } });
    mounts.push({ name: volume, mountPath: `${RULES_DIR}/${ruleConfigMap}`, readOnly: true });
  }
  if (queryLog) mounts.push(logMount);
  if (webConfig) {
    const web = webConfigVolumes(webConfigSecretName(prometheus), WEB_CONFIG_DIR, webConfig);
    volumes.push(...web.volumes);
    mounts.push(...web.mounts);
  }
  volumes.push(...sidecarVolumes, ...data.volumes, ...asEmbedded<V1Volume[]>(spec.volumes ?? []));
  return { volumes, mounts, volumeClaimTemplates: data.volumeClaimTemplates };
}
