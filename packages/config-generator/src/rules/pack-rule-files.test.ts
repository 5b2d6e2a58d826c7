import { MAX_RULE_CONFIGMAP_BYTES, packRuleFiles } from './pack-rule-files.ts';

const KIB = 1024;
const fileOf = (kib: number, char = 'x'): string => char.repeat(kib * KIB);

function layout(configMaps: ReturnType<typeof packRuleFiles>): Record<string, string[]> {
  return Object.fromEntries(configMaps.map((configMap) => [configMap.name, Object.keys(configMap.files)]));
}

describe('packing rule files into ConfigMaps', () => {
  it('puts small files into one ConfigMap, in name order', () => {
    const files = new Map([
      ['b.yaml', 'b'],
      ['a.yaml', 'a'],
    ]);
    expect(layout(packRuleFiles('k8s', files))).toEqual({ 'prometheus-k8s-rulefiles-0': ['a.yaml', 'b.yaml'] });
  });

  it('starts a new ConfigMap when the next file (in name order) does not fit, like prometheus-operator', () => {
    const files = new Map([
      ['a.yaml', fileOf(300)],
      ['b.yaml', fileOf(300)],
      ['c.yaml', fileOf(100)],
      ['d.yaml', fileOf(200)],
    ]);
    expect(layout(packRuleFiles('k8s', files))).toEqual({
      'prometheus-k8s-rulefiles-0': ['a.yaml'],
      'prometheus-k8s-rulefiles-1': ['b.yaml', 'c.yaml'],
      'prometheus-k8s-rulefiles-2': ['d.yaml'],
    });
  });

  it('fills a ConfigMap up to exactly 512 KiB', () => {
    const files = new Map([
      ['a.yaml', fileOf(256)],
      ['b.yaml', fileOf(256)],
      ['c.yaml', 'x'],
    ]);
    expect(layout(packRuleFiles('k8s', files))).toEqual({
      'prometheus-k8s-rulefiles-0': ['a.yaml', 'b.yaml'],
      'prometheus-k8s-rulefiles-1': ['c.yaml'],
    });
  });

  it('measures UTF-8 bytes, as the Kubernetes size limit does', () => {
    // 'é' is one UTF-16 unit but two UTF-8 bytes: two 200 KiB-character files are 800 KiB.
    const files = new Map([
      ['a.yaml', 'é'.repeat(200 * KIB)],
      ['b.yaml', 'é'.repeat(200 * KIB)],
    ]);
    expect(packRuleFiles('k8s', files)).toHaveLength(2);
  });

  it('gives the same layout whatever order the files arrive in', () => {
    const entries: [string, string][] = Array.from({ length: 12 }, (_, index) => [`f${String(index).padStart(2, '0')}.yaml`, fileOf(40 + index * 7)]);
    const forward = packRuleFiles('k8s', new Map(entries));
    const backward = packRuleFiles('k8s', new Map([...entries].reverse()));
    expect(JSON.stringify(backward)).toBe(JSON.stringify(forward));
    for (const configMap of forward) {
      const size = Object.values(configMap.files).reduce((sum, text) => sum + Buffer.byteLength(text), 0);
      expect(size).toBeLessThanOrEqual(MAX_RULE_CONFIGMAP_BYTES);
    }
  });

  it('always returns at least one ConfigMap', () => {
    expect(packRuleFiles('k8s', new Map())).toEqual([{ name: 'prometheus-k8s-rulefiles-0', files: {} }]);
  });
});
