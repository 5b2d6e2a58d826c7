import { CERTS_DIR, CONFIG_DIR, RULES_DIR, SCRAPE_FILE_SLOTS, STORAGE_DIR } from '@promop/config-generator';
import { podVolumes } from './pod-volumes.ts';
import { testPrometheus } from '../test-support/workload-fixtures.ts';

describe('pod volumes', () => {
  it('mount shard n\'s own config Secret whole (no subPath) at the config directory', () => {
    const { volumes, mounts } = podVolumes(testPrometheus(), 1, 1);
    expect(volumes[0]?.projected?.sources?.[0]).toEqual({ secret: { name: 'prometheus-main-shard-1' } });
    expect(mounts[0]).toEqual({ name: 'config', mountPath: CONFIG_DIR, readOnly: true });
  });

  it('project all SCRAPE_FILE_SLOTS (256) scrape Secret slots of the shard into the same volume, each optional, whether they exist or not', () => {
    const sources = podVolumes(testPrometheus(), 1, 1).volumes[0]?.projected?.sources ?? [];
    expect(sources.slice(1)).toEqual(Array.from({ length: SCRAPE_FILE_SLOTS }, (_, slot) => ({ secret: { name: `prometheus-main-shard-1-scrape-${slot}`, optional: true } })));
    // The list depends on nothing but the name and shard: the same pod spec for any size of configuration.
    expect(podVolumes(testPrometheus({ shards: 2, replicas: 3 }), 1, 1).volumes[0]).toEqual(podVolumes(testPrometheus(), 1, 1).volumes[0]);
  });

  it('mount the TLS assets at the certs directory the generator writes into prometheus.yaml', () => {
    const { volumes, mounts } = podVolumes(testPrometheus(), 0, 1);
    expect(volumes[1]).toEqual({ name: 'tls-assets', projected: { sources: [{ secret: { name: 'prometheus-main-tls-assets-0' } }] } });
    expect(mounts[1]).toEqual({ name: 'tls-assets', mountPath: CERTS_DIR, readOnly: true });
  });

  it('mount at least three rule ConfigMaps, optional, one directory each under the rules directory', () => {
    const three = podVolumes(testPrometheus(), 0, 1);
    const rules = three.volumes.filter((volume) => volume.configMap);
    expect(rules).toEqual([0, 1, 2].map((i) => ({ name: `prometheus-main-rulefiles-${i}`, configMap: { name: `prometheus-main-rulefiles-${i}`, optional: true } })));
    expect(three.mounts.filter((mount) => mount.mountPath.startsWith(RULES_DIR)).map((mount) => mount.mountPath))
      .toEqual([0, 1, 2].map((i) => `${RULES_DIR}/prometheus-main-rulefiles-${i}`));
    expect(podVolumes(testPrometheus(), 0, 4).volumes.filter((volume) => volume.configMap)).toHaveLength(4);
  });

  it('keep volume names distinct and at most 63 characters for long Prometheus names', () => {
    const names = podVolumes(testPrometheus({}, { name: 'n'.repeat(60) }), 0, 3).volumes.map((volume) => volume.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((name) => name.length <= 63)).toBe(true);
  });

  it('mount spec.secrets and spec.configMaps under /etc/prometheus/secrets and /configmaps', () => {
    const { mounts } = podVolumes(testPrometheus({ secrets: ['etcd-certs'], configMaps: ['extra'] }), 0, 1);
    expect(mounts).toEqual(expect.arrayContaining([
      { name: 'secret-etcd-certs', mountPath: '/etc/prometheus/secrets/etcd-certs', readOnly: true },
      { name: 'configmap-extra', mountPath: '/etc/prometheus/configmaps/extra', readOnly: true },
    ]));
  });

  describe('storage', () => {
    it('is an emptyDir named prometheus-<name>-db without spec.storage', () => {
      const { volumes, mounts, volumeClaimTemplates } = podVolumes(testPrometheus(), 0, 1);
      expect(volumes).toContainEqual({ name: 'prometheus-main-db', emptyDir: {} });
      expect(mounts).toContainEqual({ name: 'prometheus-main-db', mountPath: STORAGE_DIR });
      expect(volumeClaimTemplates).toEqual([]);
    });

    it('is a claim template with ReadWriteOnce by default, mounted at the prometheus-db sub path', () => {
      const { volumes, mounts, volumeClaimTemplates } = podVolumes(testPrometheus({
        storage: { volumeClaimTemplate: { spec: { resources: { requests: { storage: '10Gi' } } } } },
      }), 0, 1);
      expect(volumeClaimTemplates).toEqual([{
        metadata: { name: 'prometheus-main-db' },
        spec: { resources: { requests: { storage: '10Gi' } }, accessModes: ['ReadWriteOnce'] },
      }]);
      expect(volumes.some((volume) => volume.name === 'prometheus-main-db')).toBe(false);
      expect(mounts).toContainEqual({ name: 'prometheus-main-db', mountPath: STORAGE_DIR, subPath: 'prometheus-db' });
    });

    it('passes emptyDir settings through', () => {
      const { volumes } = podVolumes(testPrometheus({ storage: { emptyDir: { medium: 'Memory' } } }), 0, 1);
      expect(volumes).toContainEqual({ name: 'prometheus-main-db', emptyDir: { medium: 'Memory' } });
    });
  });

  it('appends spec.volumes, and mounts spec.volumeMounts right after the data volume (prometheus-operator\'s order)', () => {
    const { volumes, mounts } = podVolumes(testPrometheus({ volumes: [{ name: 'x', emptyDir: {} }], volumeMounts: [{ name: 'x', mountPath: '/x' }] }), 0, 1);
    expect(volumes.at(-1)).toEqual({ name: 'x', emptyDir: {} });
    expect(mounts.slice(2, 4)).toEqual([{ name: 'prometheus-main-db', mountPath: '/prometheus' }, { name: 'x', mountPath: '/x' }]);
  });
});
